#!/usr/bin/env python3
"""Keeps docs/design.md's "Lowering, side by side" true: every PARC example
there (a ```c block containing `epar`) is compiled with `parcc -emit-c`, and
the C block(s) after it must be the emitted C, trimmed as the section says
(no #line lines, no `#include <parc_abi.h>` / `_Static_assert` /
`#define __PARCC__` header, no blank lines, the one-line spawn block broken
at its top-level `;`).  A C
block that starts elsewhere than the file's first line (the mapped lparfor's
spawn) must be the tail of the output from its first line on.

  design_doc.py check  DESIGN_MD PARCC TMPDIR   prints "N examples checked, M problems"
  design_doc.py update DESIGN_MD PARCC TMPDIR   rewrites the C blocks from the compiler
"""
import os
import re
import shlex
import subprocess
import sys

START = "### Lowering, side by side"
END = "\n## 2. "


def split_spawn(line):
    ind = re.match(r"\s*", line).group(0)
    inner = line.strip()[2:-2]
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == ";" and depth == 0:
            parts.append(cur.strip() + ";")
            cur = ""
            continue
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return [ind + "{ " + parts[0]] + [ind + "  " + p for p in parts[1:]] + [ind + "}"]


def unjoin(line, depth):
    """parcc writes each stretch of an outlined function's own code as one
    line (at the construct's line number, Outliner::placeLines); the doc
    shows it broken after each `{` and `;` and before each `}` outside
    parentheses, indented by brace depth.  Returns (lines, new depth)."""
    out, cur, paren = [], "", 0

    def emit():
        nonlocal cur
        if cur.strip():
            out.append("  " * depth + cur.strip())
        cur = ""
    for ch in line:
        if ch == "(":
            paren += 1
        elif ch == ")":
            paren -= 1
        if paren == 0 and ch == "}":
            emit()
            depth -= 1
            cur = "}"
            emit()
            continue
        cur += ch
        if paren == 0 and ch == "{":
            emit()
            depth += 1
        elif paren == 0 and ch == ";" and not re.match(r"\s*case \d+:;$", cur):
            emit()
    emit()
    return out, depth


def trim(text):
    out = []
    depth = 0
    for line in text.split("\n"):
        if line.startswith("#line") or line.startswith("#include <parc_abi.h>") \
                or line.startswith(("_Static_assert", "__extension__ _Static_assert")) or line == "#define __PARCC__ 1" \
                or not line.strip():
            continue
        s = line.strip()
        if s.startswith("{ ") and s.endswith(" }") and "parc_desc parc_d_" in s:
            out.extend(split_spawn(line))
        elif line.startswith("static void ") or (line.startswith("}") and line != "}"):
            # parcc's own stretch of an outlined function (body lines keep
            # their layout; a body's braces stand at column 0 alone).
            if line.startswith("static void "):
                depth = 0
            lines, depth = unjoin(line, depth)
            out.extend(lines)
        else:
            out.append(line)
    return out


def blocks(section):
    """(start, end, text) of each ```c block in the section."""
    return [(m.start(1), m.end(1), m.group(1))
            for m in re.finditer(r"```c\n(.*?)\n```", section, re.S)]


def main():
    mode, design, parcc, tmp = sys.argv[1:5]
    # %parcc may carry options (sanitizer builds): the command, then them.
    parcc = shlex.split(parcc)
    parcc[0] = os.path.abspath(parcc[0])
    doc = open(design, encoding="utf-8").read()
    a = doc.index(START)
    b = doc.index(END, a)
    section = doc[a:b]
    bl = blocks(section)
    examples = problems = 0
    edits = []
    i = 0
    os.makedirs(tmp, exist_ok=True)
    while i < len(bl):
        src = bl[i][2]
        if "epar" not in src:
            i += 1
            continue
        j = i + 1
        outs = []
        while j < len(bl) and "epar" not in bl[j][2]:
            outs.append(bl[j])
            j += 1
        i = j
        if not outs:
            continue
        m = None
        for o in outs:
            m = m or re.search(r'PARC_(?:WAIT_)?SITE_INIT(?:_SYNCS|_SEMS|_NAMES)?\("([^"]+)"', o[2])
        name = m.group(1) if m else "example%d.pc" % examples
        examples += 1
        with open(os.path.join(tmp, name), "w") as f:
            f.write(src + "\n")
        r = subprocess.run(parcc + ["-emit-c", name, "-o", "-"], cwd=tmp,
                           capture_output=True, text=True)
        if r.returncode != 0:
            problems += 1
            print("%s: parcc -emit-c failed:\n%s" % (name, r.stderr))
            continue
        real = trim(r.stdout)
        for (s, e, text) in outs:
            want = text.split("\n")
            if want and want[0] in real:
                got = real[real.index(want[0]):]
            else:
                got = real
            if want[0].startswith("static parc_site") or want[0] not in real:
                got = real
            if got != want:
                if mode == "update":
                    edits.append((s, e, "\n".join(got)))
                else:
                    problems += 1
                    print("%s: design.md's C differs from parcc -emit-c; run\n"
                          "  python3 test/lower/Inputs/design_doc.py update docs/design.md build/bin/parcc /tmp/dd\n"
                          "and check that the text around it is still true" % name)
                    for k in range(max(len(got), len(want))):
                        g = got[k] if k < len(got) else "<none>"
                        w = want[k] if k < len(want) else "<none>"
                        if g != w:
                            print("  first difference at line %d:\n    doc:  %s\n    real: %s" % (k + 1, w, g))
                            break
    if mode == "update" and edits:
        for s, e, text in sorted(edits, reverse=True):
            section = section[:s] + text + section[e:]
        with open(design, "w", encoding="utf-8") as f:
            f.write(doc[:a] + section + doc[b:])
        print("%d blocks rewritten" % len(edits))
    print("%d examples checked, %d problems" % (examples, problems))
    return 0


if __name__ == "__main__":
    sys.exit(main())
