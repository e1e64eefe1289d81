#!/usr/bin/env python3
"""guide.py - holds docs/guide.md to the tour programs it shows.

The guide names every complete program it shows with a link
"[`tour/NAME.pc`](examples/tour/NAME.pc)" just before the program's ```c
block, which is followed by a ```console block with the commands ("$ ..."
lines) and the output.  The tests use this script two ways:

  guide.py check GUIDE TOURDIR   every program the guide shows is, byte for
                                 byte, the file in TOURDIR, and every .pc file
                                 in TOURDIR is shown in the guide
  guide.py output GUIDE NAME.pc  prints the output the guide states for the
                                 program (its console block minus "$ " lines)
"""
import os
import re
import sys

INTRO = re.compile(r"\[`tour/([\w.-]+\.pc)`\]\(examples/tour/\1\)")


def blocks(text):
    """Yields (name, program, output lines or None) for each tour program."""
    intros = list(INTRO.finditer(text))
    for n, m in enumerate(intros):
        end = intros[n + 1].start() if n + 1 < len(intros) else len(text)
        part = text[m.end():end]
        code = re.search(r"^```c\n(.*?)^```$", part, re.M | re.S)
        if not code:
            sys.exit("guide.py: no ```c block after the introduction of " + m.group(1))
        out = re.search(r"^```console\n(.*?)^```$", part[code.end():], re.M | re.S)
        lines = None
        if out:
            lines = [l for l in out.group(1).splitlines() if not l.startswith("$ ")]
        yield m.group(1), code.group(1), lines


def main():
    mode, guide = sys.argv[1], sys.argv[2]
    with open(guide, encoding="utf-8") as f:
        text = f.read()
    found = {name: (code, out) for name, code, out in blocks(text)}
    if mode == "output":
        name = sys.argv[3]
        if name not in found or found[name][1] is None:
            sys.exit("guide.py: the guide states no output for " + name)
        for line in found[name][1]:
            print(line)
        return
    tour = sys.argv[3]
    bad = 0
    for name, (code, _) in sorted(found.items()):
        path = os.path.join(tour, name)
        if not os.path.exists(path):
            print("guide shows %s, which is not in %s" % (name, tour))
            bad += 1
            continue
        with open(path, encoding="utf-8") as f:
            if f.read() != code:
                print("guide's copy of %s differs from %s" % (name, path))
                bad += 1
    for name in sorted(os.listdir(tour)):
        if name.endswith(".pc") and name not in found:
            print("%s is not shown in the guide" % name)
            bad += 1
    print("%d tour programs checked, %d problems" % (len(found), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
