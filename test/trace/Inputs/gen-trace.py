#!/usr/bin/env python3
"""gen-trace.py N P OUT - write a synthetic PARC trace (docs/trace-format.md)
the way libparc would for

    int main(void) {                                    // gen.pc
        parfor int i; 0; N-1; 1; work(i); epar          // line 3
        parblock { a(); } : { b(); } epar               // line 4
    }

at P processors: the root activity on processor 0, the parfor's N
activities dealt out in shares, every 97th one blocking once at a semaphore
and resuming (on another processor when one is ahead), then the two parblock sections.
Deterministic (no randomness), so tests can count on it."""
import sys

n, P, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
ev = []
ev.append('{"ph":"M","pid":1,"name":"process_name","args":{"name":"parc: ./gen"}}')
for k in range(P):
    ev.append('{"ph":"M","pid":1,"tid":%d,"name":"thread_name","args":{"name":"processor %d (cpu %d, node %d)"}}'
              % (k, k, k, k // 8))
clock = [1000] * P  # ns, per processor
env = [0] * P
nextenv = [1]


def us(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


def X(tid, name, site, ex, ix, envid, seg, ts, dur, extra=""):
    ev.append('{"ph":"X","pid":1,"tid":%d,"name":"%s","cat":"activity","ts":%s,"dur":%s,"args":'
              '{"site":"%s","execution":%d,"index":%d,"envelope":%d,"segment":%d%s}}'
              % (tid, name, us(ts), us(dur), site, ex, ix, envid, seg, extra))


def I(tid, cat, name, ts, args):
    ev.append('{"ph":"i","s":"t","pid":1,"tid":%d,"name":"%s","cat":"%s","ts":%s,"args":{%s}}'
              % (tid, name, cat, us(ts), args))


def switch(k):
    e = nextenv[0]
    nextenv[0] += 1
    I(k, "envelope", "switch", clock[k], '"from":%d,"to":%d' % (env[k] if clock[k] > 1000 else -1, e))
    env[k] = e
    clock[k] += 50


root_segs = []
start = 500
for k in range(1, P):
    switch(k)
# deal out the parfor in guided shares, round robin over processors
left, i, k = n, 0, 0
while left:
    share = max(1, -(-left // (2 * P)))
    for _ in range(share):
        d = 200 + (i * 37) % 400
        if i % 97 == 5 and P > 1:
            # blocks at a semaphore half way, resumes on the next processor
            X(k, "main parfor L3", "gen.pc:3:5", 0, i, env[k], 0, clock[k], d // 2)
            clock[k] += d // 2
            I(k, "block", "block: semaphore", clock[k], '"site":"gen.pc:3:5","execution":0,"index":%d,"envelope":%d' % (i, env[k]))
            blocked_env = env[k]
            switch(k)
            # resumed by the processor furthest ahead if it is past the
            # block, else by this one once the semaphore is released
            k2 = max((q for q in range(P) if q != k), key=lambda q: clock[q])
            if clock[k2] < clock[k] + 100:
                k2 = k
            t = max(clock[k2], clock[k] + 100)
            clock[k2] = t
            I(k2, "envelope", "switch", t, '"from":%d,"to":%d' % (env[k2], blocked_env))
            env[k2] = blocked_env
            I(k2, "resume", "resume: semaphore", t, '"site":"gen.pc:3:5","execution":0,"index":%d,"envelope":%d' % (i, blocked_env))
            X(k2, "main parfor L3", "gen.pc:3:5", 0, i, blocked_env, 1, t, d - d // 2)
            clock[k2] += d - d // 2
        else:
            X(k, "main parfor L3", "gen.pc:3:5", 0, i, env[k], 0, clock[k], d)
            clock[k] += d
        i += 1
    left -= share
    k = (k + 1) % P
t = max(clock)
for k in range(P):
    clock[k] = t
X(0, "main parblock L4", "gen.pc:4:5", 0, 0, 0, 0, t + 100, 5000)
X(P - 1 if P > 1 else 0, "main parblock L4", "gen.pc:4:5", 0, 1, env[P - 1] if P > 1 else 0, 0,
  t + 5200 if P == 1 else t + 150, 4000)
end = t + 10300
# root: segment 0 until the parfor starts, parked while others run? keep it simple:
# the root spans the whole run on processor 0 but the parfor's processor-0
# activities are nested inside it.
X(0, "main root", "<root>", 0, 0, 0, 0, 0, end + 100)
with open(out, "w") as f:
    f.write('{"traceEvents":[\n')
    f.write(",\n".join(ev))
    f.write('\n],"displayTimeUnit":"ns","otherData":{"parc_version":1,"nprocs":%d,"program":"./gen"}}\n' % P)
