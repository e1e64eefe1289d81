#!/usr/bin/env python3
"""readme_output.py - prints the expected output that an example's README states.

The README of every example in docs/examples has a line starting with
"Expected output" followed by a fenced code block; the tests compare the
program's real output with that block, so a README cannot drift from its
program.  Usage: readme_output.py README.md
"""
import sys


def expected_output(text):
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if not line.startswith("Expected output"):
            continue
        start = next(i for i in range(n + 1, len(lines)) if lines[i].startswith("```"))
        end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
        return lines[start + 1:end]
    sys.exit("readme_output.py: no 'Expected output' block in " + sys.argv[1])


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in expected_output(f.read()):
            print(line)
