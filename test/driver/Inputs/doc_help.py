#!/usr/bin/env python3
"""Prints the usage that docs/reference.md quotes after "$ parcc --help"
(the rest of that console block), so that a test can compare it with what
parcc prints.  Usage: doc_help.py REFERENCE_MD"""
import sys

lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
start = lines.index("$ parcc --help") + 1
end = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
print("\n".join(lines[start:end]))
