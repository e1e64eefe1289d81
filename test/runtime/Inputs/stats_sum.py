"""Reads the output of runs of a program that prints `total=...` and then
PARC_STATS's report, and says in how many runs some counter of the total
line is not the sum of the processor lines (and which)."""
import re
import sys

LINE = re.compile(r'parc: stats: (proc=\d+ cpu=\S+ node=\S+|total procs=\d+) (.*)')


def mismatches(run):
    procs, total = [], None
    for line in run:
        m = LINE.match(line)
        if not m:
            continue
        counters = dict(kv.split('=') for kv in m.group(2).split())
        if m.group(1).startswith('total'):
            total = counters
        else:
            procs.append(counters)
    if total is None or not procs:
        return ['no report']
    return [k for k in total if int(total[k]) != sum(int(p[k]) for p in procs)]


runs, bad, run = 0, 0, []
for line in list(sys.stdin) + ['total=end']:
    if line.startswith('total=') and run:
        runs += 1
        wrong = mismatches(run)
        if wrong:
            bad += 1
            print('run %d: %s' % (runs, ' '.join(wrong)))
        run = []
    run.append(line)
print('runs=%d mismatched=%d' % (runs, bad))
