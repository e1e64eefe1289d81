#!/usr/bin/env python3
"""Reads the output of parfor_blocks.pc's `kill` run with PARC_STATS=1 and
checks that no index ran twice and that the runtime's accounting of the
killed parfor is exact: the activities that ran plus the ones its site
counted killed are all it created."""
import re
import sys

text = sys.stdin.read()
ran = re.search(r"^kill: ran (\d+) twice (\d+)$", text, re.M)
site = re.search(r"site \S+ killed parfor executions=1 created=(\d+) killed=(\d+)", text)
if ran and not site and int(ran.group(1)) == 0 and re.search(r"site \S+ killed parblock", text):
    # The pbreak came before the parfor's section started (its processor
    # ran the spinner while main, whose section it is, was off its CPU):
    # the parfor never ran, and there is nothing to account for.
    print("the parfor was killed before it was spawned")
    sys.exit(0)
if not ran or not site:
    sys.exit("kill_accounting: output not understood:\n" + text)
r, twice = int(ran.group(1)), int(ran.group(2))
created, killed = int(site.group(1)), int(site.group(2))
print(f"ran {r} + killed {killed} = {r + killed}, created {created}, twice {twice}")
if twice or r + killed != created:
    sys.exit("kill_accounting: FAILED")
