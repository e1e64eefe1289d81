#!/usr/bin/env python3
"""md_block.py FILE.md LANG [N] - prints the N-th (from 0, default 0) fenced
```LANG block of a Markdown file, so that a test can compile and run a
program that a page shows (README.md's first example)."""
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
blocks = re.findall(r"^```%s\n(.*?)^```$" % re.escape(sys.argv[2]), text, re.M | re.S)
sys.stdout.write(blocks[int(sys.argv[3]) if len(sys.argv) > 3 else 0])
