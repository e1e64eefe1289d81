#!/usr/bin/env python3
"""test/bench/kill.py: the kill and poll measurements of issue 4
(docs/performance.md: "Kill latency", "Table 3", "Poll cost"), PARC only.

    test/bench/kill.py                          # everything (under a minute on 2 idle CPUs)
    test/bench/kill.py --quick                  # smoke run: a few seconds
    test/bench/kill.py --what latency --procs 1,2,4 --reps 5 --rounds 21
    test/bench/kill.py --what ops               # Table 3, operations per killed activity
    test/bench/kill.py --what spawn             # Table 3, spawn cost of range coding
    test/bench/kill.py --what poll              # poll cost, W2 lparfor and W1 fib at P = 1

No peer has a counterpart (OpenMP and TBB cannot stop a running task from
outside), so this is not part of run.py's table; it builds with the suite's
flags (run.py's GCC_FLAGS and C_STD) and clears the environment as run.py
does.  The variants to compare run alternately, process by process, so that
drift in machine load hits both alike.  What each part runs:

  latency  kill.pc SHAPE ROUNDS (one process runs ROUNDS kills; its first
           round is dropped) at every P and PARC_KILL=auto / bottomup: the
           time from the pbreak to the parent running after epar, median and
           minimum over every round of every repetition, and per killed
           activity.  `spin` is the flat parfor whose P-1 running victims
           must reach a poll; `flat` and the trees (bin11: 4,094 activities)
           have every victim blocked.
  ops      kill.pc SHAPE 5 (bystander: 200) with PARC_STATS=1: the runtime's
           kill record (stats.c, explained in kill.c) gives victim checks,
           cache answers, parent-link steps and range comparisons;
           ops = cached + steps + range_tests, per activity killed (stats
           "killed") and per kill posted.  PARC_KILL=range, auto, bottomup.
  spawn    w1.pc (fib, both calls in a parblock, no cutoff) at P = 1 with
           PARC_KILL=auto and =bottomup alternately: the cost of range coding
           at spawn (bottomup computes no ranges).  With valgrind, also
           instructions per activity (callgrind, deterministic).
  poll     w2.pc lparfor (1e7 doubles) and w1.pc (fib) at P = 1, built with
           and without poll points (parcc -fno-parc-polls), run alternately,
           with the serial programs for reference.
Output: markdown tables on stdout; raw numbers in OUT/results.json (default
test/bench/out/kill/, git-ignored).  Exits non-zero when a program fails.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as suite  # noqa: E402  (test/bench/run.py: flags, environment, report line)

LIBDIR = None  # --no-build: the libraries of a --build-only bundle (run.py's bundle())
SHAPES = ["spin", "flat", "bin11", "quad6", "hex3", "w64", "chain", "bystander"]
TIMED_OUT = 124


def sh(cmd, p=1, extra=None, timeout=600):
    """Runs cmd with run.py's environment (PARC_NPROCS=p, every other PARC_*,
    OMP_* ... cleared) plus extra; a CompletedProcess (rc 124 on time-out)."""
    try:
        return subprocess.run(cmd, env=suite.run_env(p, extra or {}, {}, LIBDIR),
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(cmd, TIMED_OUT, e.stdout or "", "timed out")


def fail(what, r):
    sys.exit("kill.py: %s failed (rc %d): %s%s" % (what, r.returncode, r.stdout[-400:],
                                                   r.stderr[-400:]))


def build(args):
    bins = os.path.join(args.out, "bin")
    os.makedirs(bins, exist_ok=True)
    parcc = [args.parcc] + suite.C_STD + suite.GCC_FLAGS + ["-I", HERE]
    cc = [args.cc] + suite.C_STD + suite.GCC_FLAGS + ["-I", HERE]
    jobs = [("kill", parcc, "kill.pc"), ("w1", parcc, "w1.pc"), ("w2", parcc, "w2.pc"),
            ("w1-nopoll", parcc + ["-fno-parc-polls"], "w1.pc"),
            ("w2-nopoll", parcc + ["-fno-parc-polls"], "w2.pc"),
            ("w1-serial", cc, "w1-serial.c"), ("w2-serial", cc, "w2-serial.c")]
    for name, cmd, src in jobs:
        r = sh(cmd + [os.path.join(HERE, src), "-o", os.path.join(bins, name)])
        if r.returncode:
            fail("build of " + name, r)
    return bins


def med_min(xs):
    return statistics.median(xs), min(xs)


def cell(md, mn):
    return "%s (%s)" % (suite.fmt_t(md), suite.fmt_t(mn))


def latency(args, bins, raw):
    print("\n## Kill latency (pbreak to the parent running after epar)\n")
    print("median (min) over %d processes x %d kills (the first kill of each dropped); "
          "per killed activity where every activity is a victim\n" % (args.reps, args.rounds - 1))
    modes = ["auto", "bottomup"]
    print("| shape | activities | PARC_KILL |" + "".join(" P=%d |" % p for p in args.procs) +
          "".join(" P=%d per activity |" % p for p in args.procs))
    print("|" + "---|" * (3 + 2 * len(args.procs)))
    for shape in args.shapes:
        cells = {m: [] for m in modes}
        per = {m: [] for m in modes}
        acts = None
        for p in args.procs:
            ts = {m: [] for m in modes}
            for _ in range(args.reps):
                for mode in modes:  # alternately
                    r = sh([os.path.join(bins, "kill"), shape, str(args.rounds)], p,
                           {"PARC_KILL": mode}, args.timeout)
                    if r.returncode:
                        fail("kill %s P=%d PARC_KILL=%s" % (shape, p, mode), r)
                    ts[mode] += [float(m.group(2)) * 1e-6 for m in
                                 re.finditer(r"^round (\d+) us=([0-9.]+)", r.stdout, re.M)
                                 if int(m.group(1)) > 0]
                    acts = int(re.search(r"activities=(\d+)", r.stdout).group(1))
            for mode in modes:
                md, mn = med_min(ts[mode])
                raw.setdefault("latency", []).append(
                    {"shape": shape, "mode": mode, "P": p, "times": ts[mode], "activities": acts})
                cells[mode].append(cell(md, mn))
                victims = acts if shape not in ("spin", "bystander") else None
                per[mode].append("%.0f ns (%.0f ns)" % (md / victims * 1e9, mn / victims * 1e9)
                                 if victims else "")
        for mode in modes:
            print("| %s | %s | %s |%s%s" % (shape, acts, mode,
                                             "".join(" %s |" % c for c in cells[mode]),
                                             "".join(" %s |" % c for c in per[mode])))
        sys.stdout.flush()


def kill_record(stderr):
    m = re.search(r"^parc: stats: kill mode=(\w+) posted=(\d+) checks=(\d+) cached=(\d+) "
                  r"steps=(\d+) range_tests=(\d+) uncoded=(\d+)", stderr, re.M)
    k = re.search(r"^parc: stats: total .*\bkilled=(\d+)", stderr, re.M)
    if not m or not k:
        return None
    keys = ["mode", "posted", "checks", "cached", "steps", "range_tests", "uncoded"]
    d = dict(zip(keys, [m.group(1)] + [int(x) for x in m.groups()[1:]]))
    d["killed"] = int(k.group(1))
    return d


def ops(args, bins, raw):
    print("\n## Operations per killed activity (PARC_STATS=1; 5 kills per process, "
          "bystander 200)\n")
    print("ops = cached + steps + range_tests; per killed activity and per kill; median over "
          "%d processes\n" % args.reps)
    print("| shape | activities | P | PARC_KILL | checks/act | cached/act | steps/act | "
          "range tests/act | ops/act | ops/kill | uncoded descriptors per kill |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for shape in [s for s in args.shapes if s != "spin"]:
        for p in args.procs:
            for mode in ["range", "auto", "bottomup"]:
                if shape == "chain" and mode == "range":
                    continue  # cannot be coded: a run-time error by design
                recs = []
                for _ in range(args.reps):
                    r = sh([os.path.join(bins, "kill"), shape,
                            "200" if shape == "bystander" else "5"], p,
                           {"PARC_KILL": mode, "PARC_STATS": "1"}, args.timeout)
                    d = kill_record(r.stderr)
                    if r.returncode or not d:
                        fail("kill %s P=%d PARC_KILL=%s PARC_STATS=1" % (shape, p, mode), r)
                    recs.append(d)
                raw.setdefault("ops", []).append({"shape": shape, "P": p, "mode": mode,
                                                  "records": recs})
                acts = int(re.search(r"activities=(\d+)", r.stdout).group(1))

                def per(f):
                    return statistics.median([f(d) / d["killed"] for d in recs])

                def total(d):
                    return d["cached"] + d["steps"] + d["range_tests"]
                print("| %s | %d | %d | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %d |" % (
                    shape, acts, p, mode, per(lambda d: d["checks"]), per(lambda d: d["cached"]),
                    per(lambda d: d["steps"]), per(lambda d: d["range_tests"]), per(total),
                    statistics.median([total(d) / d["posted"] for d in recs]),
                    recs[0]["uncoded"] // recs[0]["posted"]))
                sys.stdout.flush()


def alternate(runs, reps, timeout):
    """runs: name -> (argv, P, extra env).  Runs them in turn, reps times;
    name -> [kernel seconds]."""
    res = {k: [] for k in runs}
    for _ in range(reps):
        for k, (cmd, p, extra) in runs.items():
            r = sh(cmd, p, extra, timeout)
            kv = suite.parse_line(r.stdout)
            if r.returncode or kv is None:
                fail(k, r)
            res[k].append(float(kv["kernel_s"]))
    return res


def fibi(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def spawn(args, bins, raw):
    n = args.fib
    acts = 2 * fibi(n + 1) - 2
    print("\n## Spawn cost of range coding: W1 fib(%d), P=1, %d activities per run\n" % (n, acts))
    runs = {m: ([os.path.join(bins, "w1"), "-", str(n)], 1, {"PARC_KILL": m})
            for m in ["bottomup", "auto"]}
    res = alternate(runs, args.reps * 3, args.timeout)
    raw["spawn"] = res
    print("%d runs each, alternated\n" % (args.reps * 3))
    print("| PARC_KILL | median | min | ns/activity (median) | ns/activity (min) |")
    print("|---|---|---|---|---|")
    for m in runs:
        md, mn = med_min(res[m])
        print("| %s | %s | %s | %.2f | %.2f |" % (m, suite.fmt_t(md), suite.fmt_t(mn),
                                                   md / acts * 1e9, mn / acts * 1e9))
    (mb, nb), (ma, na) = med_min(res["bottomup"]), med_min(res["auto"])
    print("\nrange coding adds %+.1f%% (medians), %+.1f%% (minimums) to the whole run" %
          ((ma / mb - 1) * 100, (na / nb - 1) * 100))
    if not shutil.which("valgrind"):
        print("\n(no valgrind: no instruction counts)")
        return
    m = 20
    a = 2 * fibi(m + 1) - 2
    ir = {}
    for mode in ["bottomup", "auto"]:
        out = os.path.join(args.out, "callgrind.%s" % mode)
        r = sh(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                os.path.join(bins, "w1"), "-", str(m)], 1, {"PARC_KILL": mode}, args.timeout)
        g = re.search(r"Collected : (\d+)", r.stderr)
        if r.returncode or not g:
            fail("callgrind of w1 PARC_KILL=%s" % mode, r)
        ir[mode] = int(g.group(1))
    raw["spawn_ir"] = ir
    print("\nvalgrind (callgrind), fib(%d), %d activities, whole program: %.2f instructions "
          "per activity with bottomup, %.2f with auto: %+.2f per activity (%+.1f%%)" % (
              m, a, ir["bottomup"] / a, ir["auto"] / a, (ir["auto"] - ir["bottomup"]) / a,
              (ir["auto"] / ir["bottomup"] - 1) * 100))


def poll(args, bins, raw):
    for prog, title, variant, size in [
            ("w2", "W2 lparfor, a[i] = a[i]*3+1 over %s doubles", "lparfor", args.w2),
            ("w1", "W1 fib(%s), both calls in a parblock", "-", str(args.fib))]:
        print("\n## Poll cost: %s, P=1\n" % (title % size))
        runs = {"serial": ([os.path.join(bins, prog + "-serial"), "-", size], 1, {}),
                "polls": ([os.path.join(bins, prog), variant, size], 1, {}),
                "no polls": ([os.path.join(bins, prog + "-nopoll"), variant, size], 1, {})}
        res = alternate(runs, args.reps * 3, args.timeout)
        raw.setdefault("poll", {})[prog] = res
        print("%d runs each, alternated\n" % (args.reps * 3))
        print("| build | median | min | x serial (median) | x serial (min) |")
        print("|---|---|---|---|---|")
        ms, ns = med_min(res["serial"])
        for k in runs:
            md, mn = med_min(res[k])
            print("| %s | %s | %s | %.2f | %.2f |" % (k, suite.fmt_t(md), suite.fmt_t(mn),
                                                       md / ms, mn / ns))
        (mp, np_), (mq, nq) = med_min(res["polls"]), med_min(res["no polls"])
        print("\npolls cost %+.1f%% (medians), %+.1f%% (minimums)" %
              ((mp / mq - 1) * 100, (np_ / nq - 1) * 100))
        sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: P = 1,2, 1 repetition, 3 rounds, small sizes, few shapes")
    ap.add_argument("--what", default="latency,ops,spawn,poll")
    ap.add_argument("--procs", default=None, help="P for latency and ops (default 1,2,4)")
    ap.add_argument("--shapes", default=None, help="kill.pc shapes (default all)")
    ap.add_argument("--reps", type=int, default=None, help="processes per configuration (5)")
    ap.add_argument("--rounds", type=int, default=None, help="kills per latency process (21)")
    ap.add_argument("--fib", type=int, default=None, help="W1's n (30)")
    ap.add_argument("--w2", default=None, help="W2's n (10000000)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per process")
    ap.add_argument("--parcc", default=os.path.join(suite.ROOT, "build", "bin", "parcc"))
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--out", default=os.path.join(HERE, "out", "kill"))
    ap.add_argument("--build-only", action="store_true",
                    help="build OUT/bin with its shared libraries, then stop (as run.py's)")
    ap.add_argument("--no-build", action="store_true",
                    help="run OUT/bin as built here or by --build-only elsewhere")
    args = ap.parse_args()
    q = args.quick
    args.procs = [int(p) for p in (args.procs or ("1,2" if q else "1,2,4")).split(",")]
    args.shapes = (args.shapes or ("spin,bin11,chain" if q else ",".join(SHAPES))).split(",")
    bad = [s for s in args.shapes if s not in SHAPES]
    if bad:
        sys.exit("kill.py: error: unknown shape(s) %s (known: %s)" % (",".join(bad),
                                                                     ",".join(SHAPES)))
    args.reps = args.reps or (1 if q else 5)
    args.rounds = args.rounds or (3 if q else 21)
    if args.rounds < 2:
        sys.exit("kill.py: error: --rounds must be at least 2 (the first kill is dropped)")
    args.fib = args.fib or (20 if q else 30)
    args.w2 = args.w2 or ("1000000" if q else "10000000")
    parts = {"latency": latency, "ops": ops, "spawn": spawn, "poll": poll}
    for what in args.what.split(","):
        if what not in parts:
            sys.exit("kill.py: error: --what %s: expected latency, ops, spawn or poll" % what)
    os.makedirs(args.out, exist_ok=True)
    global LIBDIR
    bins = os.path.join(args.out, "bin")
    if args.no_build:
        LIBDIR = os.path.join(bins, "lib")
    else:
        build(args)
    info = suite.machine_info(argparse.Namespace(cc=args.cc, clang="clang-19", parcc=args.parcc,
                                                 out=args.out, no_build=args.no_build))
    if args.build_only:
        names = [n for n in sorted(os.listdir(bins)) if os.path.isfile(os.path.join(bins, n))
                 and n != "build.json"]
        libs = suite.bundle({n: os.path.join(bins, n) for n in names}, bins, info)
        print("built %s in %s; libraries bundled: %s" % (" ".join(names), bins,
                                                         " ".join(libs) or "none"))
        return 0
    raw = {"machine": info, "load_before": suite.loadavg()}
    print("kill measurements, %s, commit %s, %s CPUs, load average %s" % (
        info["date"], info["commit"], info.get("CPU(s)"), " ".join(raw["load_before"])))
    for what in args.what.split(","):
        parts[what](args, bins, raw)
    raw["load_after"] = suite.loadavg()
    print("\nload average after: %s" % " ".join(raw["load_after"]))
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(raw, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
