#!/usr/bin/env python3
"""doc-json.py FILE.md - print the first ```json block of a Markdown file
(the example trace of docs/trace-format.md), so that the test suite checks
that the documented example is a valid trace."""
import sys

lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
start = lines.index("```json") + 1
end = lines.index("```", start)
sys.stdout.write("\n".join(lines[start:end]) + "\n")
