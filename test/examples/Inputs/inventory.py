#!/usr/bin/env python3
"""inventory.py - every example in docs/examples is documented and tested.

Usage: inventory.py EXAMPLES_DIR TESTS_DIR.  An example folder NAME needs
NAME/NAME.pc, NAME/README.md with an "Expected output" block, and
TESTS_DIR/NAME.test; the tour folder needs TESTS_DIR/tour-PROG.test for each
of its programs.
"""
import os
import sys


def main():
    examples, tests = sys.argv[1], sys.argv[2]
    missing = []
    for name in sorted(os.listdir(examples)):
        folder = os.path.join(examples, name)
        if not os.path.isdir(folder):
            continue
        if not os.path.exists(os.path.join(folder, "README.md")):
            missing.append(name + "/README.md")
        if name == "tour":
            for prog in sorted(os.listdir(folder)):
                if prog.endswith(".pc"):
                    test = "tour-" + prog[:-3] + ".test"
                    if not os.path.exists(os.path.join(tests, test)):
                        missing.append(test)
            continue
        if not os.path.exists(os.path.join(folder, name + ".pc")):
            missing.append("%s/%s.pc" % (name, name))
        readme = os.path.join(folder, "README.md")
        if os.path.exists(readme):
            with open(readme, encoding="utf-8") as f:
                if not any(l.startswith("Expected output") for l in f):
                    missing.append(name + "/README.md: an 'Expected output' block")
        if not os.path.exists(os.path.join(tests, name + ".test")):
            missing.append(name + ".test")
    for m in missing:
        print("missing:", m)
    print("examples complete" if not missing else "examples incomplete")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
