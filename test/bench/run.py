#!/usr/bin/env python3
"""test/bench/run.py: build the benchmark suite, run it, print one table, draw the chart.

Every workload W1-W12 exists as serial C, PARC, OpenMP (built twice: gcc with
libgomp and clang-19 with libomp; not W10 and W11, see w10.h and w11.h), TBB (not
W11) and, for W4/W5/W9/W10/W11, pthreads.  This script
  1. builds them all with the same optimisation and code-placement flags
     (-O2 -fstack-clash-protection, which parcc's driver always adds, plus
     -mbranches-within-32B-boundaries: code placement alone moved a loop by
     2x on this machine's CPU, so every peer gets the same alignment);
  2. runs every configuration (workload x implementation x variant x P) once
     per round, shuffling the order inside each round and interleaving rounds,
     so that drift in machine load spreads over all configurations alike;
  3. prints one table of medians and minimums, ratio to serial, per-activity
     cost and W3's fraction of ideal, then the issue's targets as met or not;
  4. writes out/results.md, out/results.json and out/bench.svg (grouped bars of
     median time / serial median, log scale, one panel per P).
A missing compiler, a failed build or a failed run shows as n/a / FAIL in its
own cells; the rest of the run goes on.  Python 3 standard library only.
"""

import argparse
import copy
import datetime
import json
import math
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The flags every peer is built with.  gcc takes the alignment option through
# the assembler, clang directly; parcc hands unknown flags to its back end
# (gcc by default), so it gets the gcc spelling.  parcc's driver compiles its
# output with -fstack-clash-protection (an activity's stack has one guard
# page: Driver.cpp), which moves gcc's code (probes in frames, other
# placement), so every peer gets it too.
GCC_FLAGS = ["-O2", "-fstack-clash-protection", "-Wa,-mbranches-within-32B-boundaries"]
CLANG_FLAGS = ["-O2", "-fstack-clash-protection", "-mbranches-within-32B-boundaries"]
C_STD = ["-std=gnu17"]
CXX_STD = ["-std=c++17"]

# name: (display name, source pattern, colour in the chart)
IMPLS = {
    "serial": ("serial", "{w}-serial.c", "#7f7f7f"),
    "parcc": ("parcc", "{w}.pc", "#d62728"),
    # the same PARC programs with clang-19 as parcc's back end (--cc=clang-19):
    # the like-for-like peer of clang/libomp, whose code for a kernel can
    # differ from gcc's more than any runtime does (W2's loop, W7's sort)
    "parcc-clang": ("parcc/clang", "{w}.pc", "#ff7f0e"),
    "gomp": ("gcc/libgomp", "{w}-omp.c", "#1f77b4"),
    "libomp": ("clang/libomp", "{w}-omp.c", "#17becf"),
    "tbb": ("TBB", "{w}-tbb.cpp", "#2ca02c"),
    "pthreads": ("pthreads", "{w}-pthreads.c", "#9467bd"),
}
PARALLEL_IMPLS = ["parcc", "parcc-clang", "gomp", "libomp", "tbb", "pthreads"]


class Workload:
    """One row group of the table: a program family and its configurations."""

    def __init__(self, wid, prog, title, full, quick, configs, **kw):
        self.wid = wid          # table key, e.g. "W6@10"
        self.prog = prog        # source stem, e.g. "w6"
        self.title = title
        self.full = full        # argument lists after the variant
        self.quick = quick
        self.configs = configs  # [(impl, variant, extra env)]
        self.serial_per_p = kw.get("serial_per_p", False)  # input depends on P
        self.ideal = kw.get("ideal", False)                # report fraction of ideal
        # per-activity cost (median - serial median) / activities: at P=1 for
        # the spawn-bound workloads, at every P for W4/W5 (blocking cost)
        self.per_act = kw.get("per_act", False)
        self.per_act_all_p = kw.get("per_act_all_p", False)
        # W4/W5 have no serial program worth the name (the barrier compiled
        # away, microseconds): their figure is time per activity, not a ratio
        self.ratio = kw.get("ratio", True)


def clang_too(configs):
    """parcc's configurations again with the clang-19 back end, right after them."""
    out = []
    for c in configs:
        out.append(c)
        if c[0] == "parcc":
            out.append(("parcc-clang",) + c[1:])
    return out


def omp(variants, env=None):
    out = []
    for impl in ("gomp", "libomp"):
        for v in variants:
            out.append((impl, v, (env or {}).get(v, {})))
    return out


def workloads(w6_positions):
    ws = [
        Workload("W1", "w1", "fib(n), both calls parallel, no cutoff", ["32"], ["24"],
                 clang_too([("serial", "rec", {}), ("parcc", "parblock", {})]) + omp(["task"]) +
                 [("tbb", "task_group", {})], per_act=True),
        Workload("W2", "w2", "a[i] = a[i]*3+1 over n doubles", ["10000000"], ["1000000"],
                 clang_too([("serial", "loop", {}), ("parcc", "lparfor", {}),
                            ("parcc", "parfor", {})]) +
                 omp(["static", "dynamic1"]) + [("tbb", "auto", {}), ("tbb", "simple1", {})],
                 per_act=True),
        Workload("W3", "w3", "n activities busy ~1 ms each (calibrated spin)", ["2000", "SPIN"],
                 ["200", "SPIN"],
                 [("serial", "loop", {}), ("parcc", "parfor", {}), ("parcc", "lparfor", {})] +
                 omp(["dynamic1", "static"]) + [("tbb", "simple1", {}), ("tbb", "auto", {})],
                 ideal=True),
        Workload("W4", "w4", "parfor n { sync; }", ["1000"], ["1000"],
                 [("serial", "split", {}), ("parcc", "parfor", {})] + omp(["team", "split"]) +
                 [("tbb", "split", {}), ("pthreads", "barrier", {})],
                 per_act=True, per_act_all_p=True, ratio=False),
        Workload("W5", "w5", "parfor no { parfor ni { sync; } }", ["100", "100"], ["20", "20"],
                 [("serial", "split", {}), ("parcc", "parfor", {})] + omp(["team", "split"]) +
                 [("tbb", "split", {}), ("pthreads", "barrier", {})],
                 per_act=True, per_act_all_p=True, ratio=False),
    ]
    cancel_env = {"cancel": {"OMP_CANCELLATION": "true"}}
    for pct in w6_positions:
        ws.append(Workload(
            "W6@%d" % pct, "w6", "search n ints, key at %d%% of the last share" % pct,
            ["20000000", str(pct)], ["2000000", str(pct)],
            clang_too([("serial", "scan", {}), ("parcc", "pbreak", {})]) + [("parcc", "nobreak", {})] +
            omp(["cancel", "nocancel"], cancel_env) +
            [("tbb", "cancel", {}), ("tbb", "nocancel", {})], serial_per_p=True))
    ws += [
        Workload("W7", "w7", "quicksort of n ints, cutoff 1000", ["10000000", "1000"],
                 ["1000000", "1000"],
                 clang_too([("serial", "rec", {}), ("parcc", "parblock", {})]) + omp(["task"]) +
                 [("tbb", "invoke", {}), ("tbb", "group", {})]),
        Workload("W8", "w8", "n-queens, parallel over columns to depth 4", ["12", "4"],
                 ["10", "4"],
                 clang_too([("serial", "rec", {}), ("parcc", "parfor", {})]) + omp(["task"]) +
                 [("tbb", "task_group", {})]),
    ]
    # W9@work: the lock alone (work 0), and with about 80 ns of work outside
    # the lock per value (work 32)
    for work in (0, 32):
        ws.append(Workload(
            "W9@%d" % work, "w9", "n x k additions to one sum under a lock, %d rounds of "
            "work outside" % work, ["1000", "1000", str(work)], ["100", "1000", str(work)],
            clang_too([("serial", "loop", {}), ("parcc", "sem", {})]) + omp(["critical", "lock"]) +
            [("tbb", "spin", {}), ("tbb", "mutex", {}), ("pthreads", "mutex", {})]))
    # W10: a pipeline of semaphore hand-overs; no OpenMP version (w10.h)
    ws.append(Workload(
        "W10", "w10", "n tokens through s stages, one-slot buffers between them",
        ["100000", "9"], ["10000", "9"],
        clang_too([("serial", "loop", {}), ("parcc", "sem", {})]) +
        [("tbb", "pipeline", {}), ("pthreads", "sem", {})],
        per_act=True, per_act_all_p=True, ratio=False))
    # W11: blocking beside unstarted work; no OpenMP or TBB version (w11.h)
    ws.append(Workload(
        "W11", "w11", "r rounds of n activities, each waiting for the next one's signal",
        ["100", "500"], ["100", "50"],
        clang_too([("serial", "loop", {}), ("parcc", "sem", {})]) + [("pthreads", "sem", {})],
        per_act=True, per_act_all_p=True, ratio=False))
    # W12: the same rows in every sweep; the peers' tools for keeping them
    # on the same thread (w12.h)
    ws.append(Workload(
        "W12", "w12", "s Jacobi sweeps of an n x n grid, a parallel loop over its rows each",
        ["1024", "200"], ["256", "50"],
        clang_too([("serial", "loop", {}), ("parcc", "lparfor", {}), ("parcc", "mapped", {})]) +
        omp(["static"]) + [("tbb", "affinity", {}), ("tbb", "auto", {})]))
    return ws


# ---------------------------------------------------------------- building

def toolchains(args):
    """impl -> (command prefix, reason it is unavailable or None)."""
    def have(exe):
        return shutil.which(exe) is not None or os.access(exe, os.X_OK)

    inc = ["-I", HERE]
    tc = {}
    gcc, gxx, clang = args.cc, args.cxx, args.clang
    tc["serial"] = ([gcc] + C_STD + GCC_FLAGS + inc, None if have(gcc) else gcc + " not found")
    tc["pthreads"] = ([gcc] + C_STD + GCC_FLAGS + inc + ["-pthread"],
                      None if have(gcc) else gcc + " not found")
    tc["gomp"] = ([gcc] + C_STD + GCC_FLAGS + inc + ["-fopenmp"],
                  None if have(gcc) else gcc + " not found")
    tc["libomp"] = ([clang] + C_STD + CLANG_FLAGS + inc + ["-fopenmp"],
                    None if have(clang) else clang + " not found")
    tc["tbb"] = ([gxx] + CXX_STD + GCC_FLAGS + inc, None if have(gxx) else gxx + " not found")
    parcc = args.parcc
    why = None
    if not os.access(parcc, os.X_OK):
        why = "%s not found" % os.path.relpath(parcc, ROOT)
    tc["parcc"] = ([parcc] + C_STD + GCC_FLAGS + inc, why)
    tc["parcc-clang"] = ([parcc, "--cc=" + clang] + C_STD + CLANG_FLAGS + inc,
                         why or (None if have(clang) else clang + " not found"))
    return tc


def link_flags(impl):
    return {"tbb": ["-ltbb"], "pthreads": ["-pthread"]}.get(impl, [])


def build(ws, impls, args, log):
    """Compile every (impl, program) pair needed; returns {(impl, prog): path or reason}."""
    tc = toolchains(args)
    bindir = os.path.join(args.out, "bin")
    jobs = {}
    for w in ws:
        for impl, _, _ in w.configs:
            if impl in impls:
                jobs[(impl, w.prog)] = None
    result = {}

    def one(key):
        impl, prog = key
        exe = os.path.join(bindir, impl, prog)
        if args.no_build:
            # binaries built elsewhere (--build-only): no compiler needed here
            return key, exe if os.access(exe, os.X_OK) else "n/a: not built (--no-build)"
        cmd, why = tc[impl]
        if why:
            return key, "n/a: " + why
        src = os.path.join(HERE, IMPLS[impl][1].format(w=prog))
        if not os.path.exists(src):
            return key, "n/a: no " + os.path.basename(src)
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        full = cmd + [src, "-o", exe] + link_flags(impl)
        env = dict(os.environ)
        if impl == "parcc" and args.parcc_cc:
            env["PARCC_CC"] = args.parcc_cc
        try:
            p = subprocess.run(full, capture_output=True, text=True, env=env, timeout=600)
            ok = p.returncode == 0
            text = p.stdout + p.stderr
        except (OSError, subprocess.TimeoutExpired) as e:
            ok, text = False, str(e)
        entry = "$ " + " ".join(full) + "\n" + text
        return key, (exe if ok else "n/a: build failed (out/build.log)"), entry

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for r in pool.map(one, sorted(jobs)):
            key, val = r[0], r[1]
            result[key] = val
            if len(r) > 2:
                log.write(r[2] + "\n")
    if not args.no_build:
        # a bundle of an earlier --build-only would shadow this build's libraries
        shutil.rmtree(os.path.join(bindir, "lib"), ignore_errors=True)
    return result


# libraries every Linux machine has in its own version; the others (libtbb,
# libomp, libgomp, libstdc++, ...) travel with the binaries
SYSTEM_LIBS = re.compile(r"^(linux-vdso|ld-linux|libc|libm|libpthread|libdl|librt|libresolv)\.so")


def bundle(exes, bindir, info):
    """--build-only: copy the shared libraries the binaries load into bin/lib
    and record the build machine's toolchain in bin/build.json, so that bin/
    runs with --no-build on another machine (same processor family, a glibc
    at least as new) that has no compiler, TBB or libomp of its own."""
    libdir = os.path.join(bindir, "lib")
    os.makedirs(libdir, exist_ok=True)
    copied = set()
    for exe in exes.values():
        if exe.startswith("n/a"):
            continue
        for m in re.finditer(r"^\s*(\S+) => (/\S+)", sh("ldd " + exe), re.M):
            name, path = m.group(1), m.group(2)
            if not SYSTEM_LIBS.match(name) and name not in copied:
                shutil.copy(os.path.realpath(path), os.path.join(libdir, name))
                copied.add(name)
    built = {k: info[k] for k in ("gcc", "clang", "TBB", "libomp", "parcc", "commit", "date")}
    built["machine"] = "%s, %s CPUs, %s" % (info.get("Model name"), info.get("CPU(s)"), info["OS"])
    with open(os.path.join(bindir, "build.json"), "w") as f:
        json.dump(built, f, indent=1)
    return sorted(copied)


# ---------------------------------------------------------------- running

RUN_ENV_DROP = re.compile(r"^(PARC_|OMP_|GOMP_|KMP_|BENCH_)")


def run_env(p, extra, user_env, libdir=None):
    env = {k: v for k, v in os.environ.items() if not RUN_ENV_DROP.match(k)}
    if libdir and os.path.isdir(libdir):  # a --build-only bundle (bundle())
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            [libdir] + [d for d in env.get("LD_LIBRARY_PATH", "").split(os.pathsep) if d])
    env.update({"PARC_NPROCS": str(p), "OMP_NUM_THREADS": str(p), "BENCH_THREADS": str(p)})
    env.update(user_env)
    env.update(extra)
    return env


def parse_line(text):
    for line in reversed(text.splitlines()):
        if line.startswith("kernel_s="):
            kv = dict(tok.split("=", 1) for tok in line.split() if "=" in tok)
            return kv
    return None


def run_one(exe, argv, env, timeout):
    try:
        p = subprocess.run([exe] + argv, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": "timeout"}
    except OSError as e:
        return {"error": str(e)}
    kv = parse_line(p.stdout)
    if p.returncode != 0 or kv is None:
        msg = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
        return {"error": "FAIL (rc %d: %s)" % (p.returncode, msg[:120])}
    res = {"t": float(kv["kernel_s"]), "checksum": kv.get("checksum")}
    for k in ("activities", "threads", "maxrss_kb"):
        if k in kv:
            res[k] = int(kv[k])
    return res


def calibrate_spin(exes, args):
    exe = exes.get(("serial", "w3"))
    if not exe or exe.startswith("n/a"):
        return 400000
    best = 0
    for _ in range(3):
        p = subprocess.run([exe, "calibrate"], capture_output=True, text=True)
        m = re.search(r"spin_per_ms=(\d+)", p.stdout)
        if m:
            best = max(best, int(m.group(1)))
    return best or 400000


def plan(ws, impls, procs):
    """All run configurations: (wid, impl, variant, P or None for serial)."""
    cfgs = []
    for w in ws:
        for impl, variant, extra in w.configs:
            if impl not in impls:
                continue
            if impl == "serial" and not w.serial_per_p:
                cfgs.append((w, impl, variant, extra, None))
            else:
                for p in procs:
                    cfgs.append((w, impl, variant, extra, p))
    return cfgs


def key_of(w, impl, variant, p):
    return "%s|%s|%s|%s" % (w.wid, impl, variant, "-" if p is None else p)


# ---------------------------------------------------------------- machine

def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception:
        return ""


def machine_info(args):
    info = {}
    lscpu = sh("lscpu")
    for field in ("Model name", "CPU(s)", "Thread(s) per core", "Core(s) per socket",
                  "Socket(s)", "Hypervisor vendor", "L2 cache", "L3 cache"):
        m = re.search(r"^%s:\s*(.*)$" % re.escape(field), lscpu, re.M)
        if m:
            info[field] = m.group(1).strip()
    mem = sh("awk '/MemTotal/ {printf \"%.1f GiB\", $2/1048576}' /proc/meminfo")
    info["Memory"] = mem
    os_name = sh(". /etc/os-release && echo $PRETTY_NAME")
    info["OS"] = "%s, kernel %s" % (os_name, platform.release())
    info["gcc"] = sh("%s --version | head -1" % args.cc)
    info["clang"] = sh("%s --version | head -1" % args.clang)
    info["TBB"] = sh("dpkg-query -W -f '${Version}' libtbb-dev 2>/dev/null") or "?"
    info["libomp"] = sh("dpkg-query -W -f '${Version}' libomp-19-dev 2>/dev/null") or "?"
    info["parcc"] = (sh("%s --version 2>&1 | head -1" % args.parcc)
                     if os.access(args.parcc, os.X_OK) else "not built")
    commit = sh("git -C %s rev-parse --short HEAD" % ROOT)
    dirty = sh("git -C %s status --porcelain -- compiler runtime test/bench" % ROOT)
    info["commit"] = commit + (" (with uncommitted changes)" if dirty else "")
    info["date"] = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    built = os.path.join(getattr(args, "out", ""), "bin", "build.json")
    if getattr(args, "no_build", False) and os.path.exists(built):
        # binaries from another machine: its toolchain and commit, not this one's
        with open(built) as f:
            b = json.load(f)
        info.update({k: b[k] for k in ("gcc", "clang", "TBB", "libomp", "parcc", "commit")})
        info["built"] = "%s on %s" % (b["date"], b["machine"])
    return info


def others_runnable():
    """Tasks runnable right now, this runner excluded (/proc/loadavg field 4)."""
    try:
        return max(int(open("/proc/loadavg").read().split()[3].split("/")[0]) - 1, 0)
    except (OSError, ValueError, IndexError):
        return 0


def wait_idle(limit, most=0):
    """Wait (at most `limit` s) until at most `most` other tasks are runnable
    in two samples 100 ms apart, so that a run does not start in the middle of
    someone else's burst; returns the seconds waited, or None if the limit
    passed."""
    if limit <= 0:
        return 0.0
    t0 = time.time()
    quiet = 0
    while time.time() - t0 < limit:
        quiet = quiet + 1 if others_runnable() <= most else 0
        if quiet >= 2:
            return time.time() - t0
        time.sleep(0.1)
    return None


def loadavg():
    try:
        return open("/proc/loadavg").read().split()[:3]
    except OSError:
        return ["?"] * 3


# ---------------------------------------------------------------- analysis

def summarize(cfgs, results, procs):
    """Per configuration: median, min, ratio, per-activity ns, ideal, rss."""
    rows = []
    serial_med, serial_min, serial_runs = {}, {}, {}
    for w, impl, variant, extra, p in cfgs:
        if impl == "serial":
            rs = results[key_of(w, impl, variant, p)]
            ts = [r["t"] for r in rs if "t" in r]
            if ts:
                serial_med[(w.wid, p)] = statistics.median(ts)
                serial_min[(w.wid, p)] = min(ts)
                serial_runs[(w.wid, p)] = rs
    for w, impl, variant, extra, p in cfgs:
        rs = results[key_of(w, impl, variant, p)]
        ts = [r["t"] for r in rs if "t" in r]
        errs = [r["error"] for r in rs if "error" in r]
        row = {"wid": w.wid, "impl": impl, "variant": variant, "p": p, "n": len(ts),
               "error": errs[0] if errs else None}
        if ts:
            row["median"] = statistics.median(ts)
            row["min"] = min(ts)
            last = [r for r in rs if "t" in r][-1]
            row["checksum"] = last.get("checksum")
            row["activities"] = last.get("activities")
            row["threads"] = last.get("threads")
            rss = [r["maxrss_kb"] for r in rs if "maxrss_kb" in r]
            row["rss_mb"] = statistics.median(rss) / 1024.0 if rss else None
            sk = (w.wid, p if w.serial_per_p else None)
            s = serial_med.get(sk)
            if s is not None and impl != "serial":
                if w.ratio and s > 0:
                    row["ratio"] = row["median"] / s
                acts = row["activities"]
                pp = p or 1
                if acts and acts > pp and w.per_act and (pp == 1 or w.per_act_all_p):
                    row["ns_act"] = (row["median"] - s) / acts * 1e9
                if w.ideal and p:
                    row["ideal"] = (s / p) / row["median"]
                    row["ideal_min"] = (serial_min[sk] / p) / row["min"]
                    # Round by round: the k-th run of every configuration
                    # belongs to round k (a failed one ends its list), so
                    # each parallel run meets the serial run of its own
                    # round, and a machine that drifts during the sitting
                    # moves both alike.
                    pairs = [(a["t"], b["t"]) for a, b in zip(serial_runs[sk], rs)
                             if "t" in a and "t" in b]
                    if pairs:
                        row["ideal_rounds"] = statistics.median(a / p / b for a, b in pairs)
            elif impl == "serial" and w.ratio:
                row["ratio"] = 1.0
        rows.append(row)
    # checksums must agree within a workload (and P, where the input depends on P)
    ref = {}
    for row in rows:
        if row.get("checksum") is None:
            continue
        w = row["wid"]
        k = (w, row["p"]) if w.startswith("W6") else w
        ref.setdefault(k, row["checksum"])
        if row["checksum"] != ref[k]:
            row["error"] = (row["error"] or "") + " checksum differs"
    for row in rows:
        if row["impl"] not in ("serial", "pthreads") and row.get("threads") not in (None, row["p"]):
            row["error"] = (row["error"] or "") + " ran with %s threads" % row["threads"]
    return rows


def fmt_t(t):
    if t is None:
        return "n/a"
    if t >= 1:
        return "%.3f s" % t
    if t >= 1e-3:
        return "%.2f ms" % (t * 1e3)
    return "%.1f us" % (t * 1e6)


def fmt_num(x, f, none=""):
    return none if x is None else f % x


def table_rows(ws, rows, exes, impl_filter):
    out = []
    for w in ws:
        wrows = [r for r in rows if r["wid"] == w.wid]
        for r in wrows:
            exe = exes.get((r["impl"], w.prog))
            na = exe if exe and exe.startswith("n/a") else None
            cells = [w.wid, "-" if r["p"] is None else str(r["p"]), IMPLS[r["impl"]][0], r["variant"]]
            if na:
                cells += ["n/a", "n/a", "", "", "", "", "", na[5:]]
            elif "median" not in r:
                cells += ["n/a", "n/a", "", "", "", "", "0", r["error"] or ""]
            else:
                cells += [fmt_t(r["median"]), fmt_t(r["min"]),
                          fmt_num(r.get("ratio"), "%.2f"), fmt_num(r.get("ns_act"), "%.0f"),
                          fmt_num(r.get("ideal"), "%.4f"), fmt_num(r.get("rss_mb"), "%.1f"),
                          str(r["n"]), (r["error"] or "").strip()]
            out.append(cells)
    return out


HEAD = ["workload", "P", "impl", "variant", "median", "min", "x serial", "ns/act", "ideal",
        "RSS MB", "runs", "notes"]


def text_table(cells):
    widths = [max(len(str(c[i])) for c in cells + [HEAD]) for i in range(len(HEAD))]
    lines = ["  ".join(h.ljust(widths[i]) for i, h in enumerate(HEAD)).rstrip()]
    lines.append("  ".join("-" * wd for wd in widths))
    prev = None
    for c in cells:
        if prev is not None and c[0] != prev:
            lines.append("")
        prev = c[0]
        lines.append("  ".join(str(x).ljust(widths[i]) for i, x in enumerate(c)).rstrip())
    return "\n".join(lines)


def md_table(ws, rows, exes, procs):
    """The table for docs: one row per implementation and variant, the P
    columns side by side: median (min), x serial of the median; per activity
    at P=1 (W4/W5: at every P), W3's fraction of ideal at the largest P."""
    head = ["workload", "impl", "variant"]
    for p in procs:
        head += ["P=%d median (min)" % p, "P=%d x serial" % p]
    head += ["ns/act", "ideal", "RSS MB"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for w in ws:
        seen = []
        for r in rows:
            if r["wid"] == w.wid and (r["impl"], r["variant"]) not in seen:
                seen.append((r["impl"], r["variant"]))
        for impl, variant in seen:
            exe = exes.get((impl, w.prog), "")
            mine = {r["p"]: r for r in rows
                    if (r["wid"], r["impl"], r["variant"]) == (w.wid, impl, variant)}
            c = [w.wid, IMPLS[impl][0], variant]
            for p in procs:
                r = mine.get(p) or mine.get(None)
                if exe.startswith("n/a"):
                    c += ["n/a", ""]
                elif r is None or "median" not in r:
                    c += [(r or {}).get("error") or "n/a", ""]
                else:
                    c += ["%s (%s)" % (fmt_t(r["median"]), fmt_t(r["min"])),
                          fmt_num(r.get("ratio"), "%.2f")]
            nsa = [mine[p].get("ns_act") for p in procs if p in mine]
            nsa = [x for x in nsa if x is not None]
            if w.per_act_all_p:
                c.append(" / ".join(fmt_num(mine[p].get("ns_act"), "%.0f", "-")
                                    for p in procs if p in mine))
            else:
                c.append(fmt_num(nsa[0] if nsa else None, "%.0f"))
            pm = mine.get(max(procs))
            c.append(fmt_num(pm.get("ideal") if pm else None, "%.3f"))
            any_r = pm or mine.get(None)
            c.append(fmt_num(any_r.get("rss_mb") if any_r else None, "%.1f"))
            lines.append("| " + " | ".join(str(x).replace("|", "/") for x in c) + " |")
    return "\n".join(lines)


def targets(rows, procs, stat="median"):
    """Issue 5's targets, judged on medians (or minimums: --judge min) at the
    largest P, and at P=1 where the target says so."""
    pmax = max(procs)

    def get(wid, impl, variant, p):
        for r in rows:
            if (r["wid"], r["impl"], r["variant"], r["p"]) == (wid, impl, variant, p):
                return r
        return None

    def med(wid, impl, variant, p):
        r = get(wid, impl, variant, p)
        return r.get(stat) if r else None

    def best(wid, cands, p):
        vals = [(med(wid, i, v, p), "%s %s" % (IMPLS[i][0], v)) for i, v in cands]
        vals = [x for x in vals if x[0] is not None]
        return min(vals) if vals else (None, None)

    out = []
    present = {r["wid"].split("@")[0] for r in rows}

    def verdict(name, val, limit, how, group="issue 5"):
        if name.split()[0].split("@")[0] not in present:
            return
        if val is None or limit is None:
            out.append((name, "n/a", how, group))
        else:
            ok = val <= limit
            out.append((name, "met" if ok else "NOT met", how, group))

    r1 = get("W1", "parcc", "parblock", 1) if 1 in procs else None
    verdict("W1 per activity at P=1 <= 25 ns", r1.get("ns_act") if r1 else None, 25,
            "%s ns" % fmt_num(r1.get("ns_act") if r1 else None, "%.0f", "n/a"))
    t, tb = med("W1", "parcc", "parblock", pmax), med("W1", "tbb", "task_group", pmax)
    verdict("W1 at P=%d <= 0.5 x TBB" % pmax, t, tb and 0.5 * tb,
            "%s vs TBB %s" % (fmt_t(t), fmt_t(tb)))
    bs, bsn = best("W2", [("gomp", "static"), ("libomp", "static")], pmax)
    t = med("W2", "parcc", "lparfor", pmax)
    verdict("W2 lparfor <= 1.1 x OpenMP static", t, bs and 1.1 * bs,
            "%s vs %s %s" % (fmt_t(t), bsn, fmt_t(bs)))
    tp = med("W2", "parcc", "parfor", pmax)
    verdict("W2 parfor <= 2 x lparfor", tp, t and 2 * t, "%s vs %s" % (fmt_t(tp), fmt_t(t)))
    # The same targets with clang-19 as parcc's back end, where it was run.
    clang = any(r["impl"] == "parcc-clang" for r in rows)
    tc = med("W2", "parcc-clang", "lparfor", pmax)
    if clang:
        verdict("W2 lparfor (clang-19 back end) <= 1.1 x OpenMP static", tc, bs and 1.1 * bs,
                "%s vs %s %s" % (fmt_t(tc), bsn, fmt_t(bs)))
        tcp = med("W2", "parcc-clang", "parfor", pmax)
        verdict("W2 parfor (clang-19 back end) <= 2 x lparfor", tcp, tc and 2 * tc,
                "%s vs %s" % (fmt_t(tcp), fmt_t(tc)))
    r = get("W3", "parcc", "parfor", pmax)
    ideal = r.get("ideal" if stat == "median" else "ideal_min") if r else None
    if "W3" in present:
        rounds = r.get("ideal_rounds") if r else None
        out.append(("W3 parfor >= 0.997 of ideal",
                    "n/a" if ideal is None else ("met" if ideal >= 0.997 else "NOT met"),
                    fmt_num(ideal, "%.4f", "n/a") +
                    ("" if rounds is None else " (round by round: %.4f)" % rounds), "issue 5"))
    t = med("W4", "parcc", "parfor", pmax)
    verdict("W4 <= 2 ms", t, 2e-3, fmt_t(t))
    t = med("W5", "parcc", "parfor", pmax)
    verdict("W5 <= 50 ms", t, 50e-3, fmt_t(t))
    for r in rows:
        if r["wid"].startswith("W6") and r["impl"] == "parcc" and r["variant"] == "pbreak" \
                and r["p"] == pmax:
            bc, bcn = best(r["wid"], [("gomp", "cancel"), ("libomp", "cancel")], pmax)
            t = r.get(stat)
            verdict("%s pbreak <= 1.2 x OpenMP cancel" % r["wid"], t, bc and 1.2 * bc,
                    "%s vs %s %s" % (fmt_t(t), bcn, fmt_t(bc)))
    bp, bpn = best("W7", [("gomp", "task"), ("libomp", "task"), ("tbb", "invoke"),
                          ("tbb", "group")], pmax)
    t = med("W7", "parcc", "parblock", pmax)
    verdict("W7 <= best peer", t, bp, "%s vs %s %s" % (fmt_t(t), bpn, fmt_t(bp)))
    if clang:
        t = med("W7", "parcc-clang", "parblock", pmax)
        verdict("W7 (clang-19 back end) <= best peer", t, bp,
                "%s vs %s %s" % (fmt_t(t), bpn, fmt_t(bp)))
    bp, bpn = best("W8", [("gomp", "task"), ("libomp", "task"), ("tbb", "task_group")], pmax)
    t = med("W8", "parcc", "parfor", pmax)
    verdict("W8 <= 1.05 x best peer", t, bp and 1.05 * bp, "%s vs %s %s" % (fmt_t(t), bpn, fmt_t(bp)))
    if clang:
        t = med("W8", "parcc-clang", "parfor", pmax)
        verdict("W8 (clang-19 back end) <= 1.05 x best peer", t, bp and 1.05 * bp,
                "%s vs %s %s" % (fmt_t(t), bpn, fmt_t(bp)))
    # W12's row loop is vectorised by clang -O2, not by gcc -O2: each parcc
    # against the OpenMP static loop of its own back end's compiler
    for impl, peer in (("parcc", "gomp"), ("parcc-clang", "libomp")):
        if impl == "parcc-clang" and not clang:
            continue
        t, tp = med("W12", impl, "lparfor", pmax), med("W12", peer, "static", pmax)
        verdict("W12 lparfor%s <= 1.1 x %s static" % (
            " (clang-19 back end)" if impl == "parcc-clang" else "", IMPLS[peer][0]),
            t, tp and 1.1 * tp, "%s vs %s" % (fmt_t(t), fmt_t(tp)), group="suite")
    rp, rs = get("W2", "parcc", "parfor", pmax), get("W2", "serial", "loop", None)
    d = (rp["rss_mb"] - rs["rss_mb"]) if rp and rs and rp.get("rss_mb") and rs.get("rss_mb") else None
    verdict("W2 parfor peak RSS <= serial + 16 MB", d, 16 if d is not None else None,
            "%s MB over serial" % fmt_num(d, "%+.1f", "n/a"))
    return out


# ---------------------------------------------------------------- chart

def svg_chart(ws, rows, procs, path, title):
    """Grouped bars, one group per workload, one bar per implementation and
    variant, log scale, one panel per P: median / serial median for the
    workloads that have a serial program, microseconds per activity for W4/W5."""
    def find(wid, impl, variant, p):
        return next((r for r in rows if (r["wid"], r["impl"], r["variant"], r["p"]) ==
                     (wid, impl, variant, p)), None)

    def per_act_us(r):
        if r and r.get("median") is not None and r.get("activities"):
            return r["median"] / r["activities"] * 1e6
        return None

    panels = []  # (label, [(group, [(impl, variant)])], value(r), base, axis text)
    rgroups = [(w.wid, [(i, v) for i, v, _ in w.configs if i != "serial"]) for w in ws if w.ratio]
    agroups = [(w.wid, [(i, v) for i, v, _ in w.configs if i != "serial"]) for w in ws
               if not w.ratio]
    for p in procs:
        if rgroups:
            panels.append(("P=%d: median time / serial median" % p, rgroups, p,
                           lambda r: r.get("ratio") if r else None, 1.0))
    for p in procs:
        if agroups:
            panels.append(("P=%d: median microseconds per activity" % p, agroups, p,
                           per_act_us, None))

    bar, gap, groupgap = 11, 1, 16
    left, top, panel_h, label_h, sep = 60, 46, 220, 64, 34
    width = 0
    for _, groups, _, _, _ in panels:
        wd = left + 20 + sum(len(c) * (bar + gap) + groupgap for _, c in groups)
        width = max(width, wd)
    width = max(width, 700)
    height = top + len(panels) * (panel_h + label_h + sep) + 30
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
         'font-size="10">' % (width, height),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="18" font-size="13">%s</text>' % (left, esc(title))]
    lx = left
    for impl in PARALLEL_IMPLS:
        s.append('<rect x="%d" y="27" width="10" height="10" fill="%s"/>' % (lx, IMPLS[impl][2]))
        s.append('<text x="%d" y="36">%s</text>' % (lx + 13, esc(IMPLS[impl][0])))
        lx += 110
    for pi, (label, groups, p, value, base) in enumerate(panels):
        y0 = top + 30 + pi * (panel_h + label_h + sep)
        vals = [value(find(g, i, v, p)) for g, c in groups for i, v in c]
        vals = [x for x in vals if x and x > 0]
        lo = math.floor(math.log10(min(vals + ([base] if base else [])))) if vals else 0
        hi = math.ceil(math.log10(max(vals + ([base] if base else [])))) if vals else 1
        if hi <= lo:
            hi = lo + 1
        # bars grow from the base line (ratio 1), or from the panel floor
        ref = base if base else 10 ** lo

        def ypos(x, lo=lo, hi=hi, y0=y0):
            return y0 + panel_h * (hi - math.log10(x)) / (hi - lo)

        s.append('<text x="8" y="%d" font-size="12" font-weight="bold">%s</text>' %
                 (y0 - 14, esc(label)))
        for e in range(lo, hi + 1):
            y = ypos(10 ** e)
            s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="%s"/>' %
                     (left, width - 10, y, y, "#000" if base and e == 0 else "#ddd"))
            s.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (left - 4, y + 3, 10 ** e))
        x = left + 6
        y1 = ypos(ref)
        for g, c in groups:
            gx = x
            for impl, variant in c:
                val = value(find(g, impl, variant, p))
                if val and val > 0:
                    y = ypos(val)
                    s.append('<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="%s">'
                             '<title>%s %s %s P=%d: %.3g</title></rect>' %
                             (x, min(y, y1), bar, max(abs(y1 - y), 0.5), IMPLS[impl][2],
                              g, esc(IMPLS[impl][0]), esc(variant), p, val))
                else:
                    s.append('<text x="%d" y="%.1f" font-size="7" fill="#999">n/a</text>' %
                             (x, y1 - 2))
                s.append('<text transform="translate(%d,%d) rotate(60)" font-size="8">%s</text>' %
                         (x + 3, y0 + panel_h + 4, esc(variant)))
                x += bar + gap
            s.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="11">%s</text>' %
                     ((gx + x) / 2, y0 + panel_h + label_h - 4, esc(g)))
            x += groupgap
    s.append('<text x="%d" y="%d" fill="#555">log scales; ratio below 1 = faster than serial; '
             'hover a bar for its value</text>' % (left, height - 12))
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


def esc(t):
    return str(t).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description="Build and run the parcc benchmark suite.")
    ap.add_argument("--quick", action="store_true", help="smoke run: 2 rounds, small sizes")
    ap.add_argument("--only", default="",
                    help="workloads, e.g. W1,W4 (W6, W9 = every position, every work)")
    ap.add_argument("--impls", default="", help="implementations, e.g. parcc,gomp (serial is always run)")
    ap.add_argument("--procs", default="1,2", help="processor counts P (default 1,2)")
    ap.add_argument("--rounds", type=int, default=None, help="rounds (default 5, --quick 2)")
    ap.add_argument("--size", action="append", default=[], metavar="W=A,B",
                    help="override a workload's size arguments, e.g. W4=2000 or W5=100,200")
    ap.add_argument("--double", action="store_true",
                    help="also run W4 and W5 with twice the activities (rows W4x2, W5x2: W4's n "
                         "and W5's inner count doubled), interleaved with them in every round")
    ap.add_argument("--w6-pos", default="10,50,90", help="W6 key positions in %% of a share")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per run (default 300, --quick 60)")
    ap.add_argument("--env", action="append", default=[], metavar="K=V",
                    help="extra environment for every run (e.g. PARC_PIN=0, OMP_PROC_BIND=true)")
    ap.add_argument("--wait-idle", type=float, default=0, metavar="S",
                    help="before each run, wait up to S seconds for no other runnable task "
                         "(a shared machine); 0 = off")
    ap.add_argument("--idle-max", type=int, default=0, metavar="N",
                    help="--wait-idle counts the machine idle with at most N other runnable tasks")
    ap.add_argument("--judge", choices=["median", "min"], default="median",
                    help="statistic the issue-5 targets are judged on (default: median, as the issue says)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the per-round shuffle")
    ap.add_argument("--no-shuffle", action="store_true", help="fixed order inside each round")
    ap.add_argument("--no-build", action="store_true",
                    help="run the binaries in out/bin, built here or by --build-only elsewhere; "
                         "no compiler needed")
    ap.add_argument("--build-only", action="store_true",
                    help="build into out/bin with the shared libraries the binaries load "
                         "(out/bin/lib) and the toolchain's versions, then stop: copy out/bin "
                         "to a machine without compilers, TBB or libomp and run --no-build there")
    ap.add_argument("--deadline", type=float, default=None, metavar="S",
                    help="start no round that would end more than S seconds after the first "
                         "(judged by the longest round so far); the table says how many ran")
    ap.add_argument("--out", default=os.path.join(HERE, "out"), help="output folder")
    ap.add_argument("--copy-chart", action="store_true", help="copy the chart to docs/perf/bench.svg")
    ap.add_argument("--parcc", default=os.path.join(ROOT, "build", "bin", "parcc"))
    ap.add_argument("--parcc-cc", default="", help="PARCC_CC for building the PARC versions")
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--clang", default="clang-19")
    ap.add_argument("--jobs", type=int, default=2, help="parallel compilations")
    ap.add_argument("--report", metavar="RESULTS_JSON",
                    help="run nothing: print the table and redraw the chart from a saved results.json")
    args = ap.parse_args()

    rounds = args.rounds or (2 if args.quick else 5)
    timeout = args.timeout or (60 if args.quick else 300)
    procs = [int(x) for x in args.procs.split(",") if x]
    positions = [int(x) for x in args.w6_pos.split(",") if x]
    user_env = dict(kv.split("=", 1) for kv in args.env)
    if args.report:
        return report_from(args)
    ws = select(workloads(positions), args.only)
    for spec in args.size:
        wid, _, vals = spec.partition("=")
        hit = [w for w in ws if w.wid == wid.upper() or w.wid.split("@")[0] == wid.upper()]
        if not hit or not vals:
            sys.exit("run.py: error: --size %s names no selected workload" % spec)
        for w in hit:
            new = vals.split(",")
            if w.prog == "w6":  # keep the key position, the last argument
                new = new[:1] + w.full[1:]
            w.full = w.quick = new
    if args.double:
        ws += [doubled(w) for w in ws if w.wid in ("W4", "W5")]
    impls = set(IMPLS)
    if args.impls:
        impls = {"serial"} | {x.strip() for x in args.impls.split(",")}
        bad = impls - set(IMPLS)
        if bad:
            sys.exit("run.py: error: unknown implementation(s) %s" % ",".join(sorted(bad)))
    os.makedirs(args.out, exist_ok=True)

    info = machine_info(args)
    print("parcc benchmark suite: %s, commit %s" % (info["date"], info["commit"]))
    print("machine: %s, %s CPUs, %s, %s" % (info.get("Model name"), info.get("CPU(s)"),
                                           info["Memory"], info["OS"]))
    print("building (%s) ..." % ("reuse" if args.no_build else "gcc/g++/clang-19/parcc"),
          flush=True)
    with open(os.path.join(args.out, "build.log"), "w") as log:
        exes = build(ws, impls, args, log)
    for (impl, prog), v in sorted(exes.items()):
        if v.startswith("n/a") and impl != "parcc":
            print("  %s %s: %s" % (impl, prog, v))
    if any(k[0] == "parcc" and v.startswith("n/a") for k, v in exes.items()):
        print("  parcc: %s" % next(v for k, v in exes.items() if k[0] == "parcc" and v.startswith("n/a")))
    if args.build_only:
        libs = bundle(exes, os.path.join(args.out, "bin"), info)
        print("built %d of %d binaries in %s; libraries bundled: %s" % (
            sum(not v.startswith("n/a") for v in exes.values()), len(exes),
            os.path.relpath(os.path.join(args.out, "bin"), os.getcwd()), " ".join(libs) or "none"))
        return 1 if any(v.startswith("n/a: build failed") for v in exes.values()) else 0

    spin = calibrate_spin(exes, args) if any(w.prog == "w3" for w in ws) else None
    if spin:
        print("W3: %d spin steps = 1 ms (calibrated)" % spin)

    cfgs = plan(ws, impls, procs)
    runnable = [c for c in cfgs if not exes.get((c[1], c[0].prog), "n/a").startswith("n/a")]
    results = {key_of(w, i, v, p): [] for w, i, v, e, p in cfgs}
    dead = set()
    load_before = loadavg()
    print("running %d configurations x %d rounds (P = %s), load average %s ..." %
          (len(runnable), rounds, args.procs, " ".join(load_before)), flush=True)
    libdir = os.path.join(args.out, "bin", "lib")
    meta = {"machine": info, "rounds": rounds, "procs": procs, "quick": args.quick,
            "spin_per_ms": spin, "load_before": load_before,
            "env": user_env, "only": args.only, "w6_pos": args.w6_pos,
            "impls": sorted(impls), "exes": {"%s|%s" % k: v for k, v in exes.items()}}
    t_start, longest = time.time(), 0.0
    for rnd in range(rounds):
        if args.deadline and rnd and time.time() - t_start + longest > args.deadline:
            print("  --deadline %g s: stopping after %d rounds" % (args.deadline, rnd), flush=True)
            meta["rounds"] = rnd
            break
        t_round = time.time()
        order = list(runnable)
        if not args.no_shuffle:
            random.Random(args.seed * 1000 + rnd).shuffle(order)
        for w, impl, variant, extra, p in order:
            k = key_of(w, impl, variant, p)
            if k in dead:
                continue
            argv = [variant] + [str(spin) if a == "SPIN" else a
                                for a in (w.quick if args.quick else w.full)]
            env = run_env(p or 1, extra, user_env, libdir)
            waited = wait_idle(args.wait_idle, args.idle_max)
            busy = others_runnable()
            res = run_one(exes[(impl, w.prog)], argv, env, timeout)
            res["busy_before"] = busy
            res["waited_s"] = waited
            results[k].append(res)
            if "error" in res:
                dead.add(k)  # a failing or hanging configuration is not retried
        longest = max(longest, time.time() - t_round)
        print("  round %d/%d done in %.0f s, load average %s" % (
            rnd + 1, rounds, time.time() - t_round, " ".join(loadavg())), flush=True)
        # the runs so far, for --report, should the rest never come (a killed job)
        with open(os.path.join(args.out, "partial.json"), "w") as f:
            json.dump(dict(meta, rounds=rnd + 1, load_after=loadavg(), runs=results), f,
                      default=str)
    meta["load_after"] = loadavg()
    return report(args, ws, impls, procs, results, exes, meta)


def report(args, ws, impls, procs, results, exes, meta):
    """Table, targets, chart, results.md/json from the runs (live or loaded)."""
    info, rounds = meta["machine"], meta["rounds"]
    cfgs = plan(ws, impls, procs)
    for w, i, v, e, p in cfgs:
        results.setdefault(key_of(w, i, v, p), [])
    rows = summarize(cfgs, results, procs)
    cells = table_rows(ws, rows, exes, impls)
    print()
    print(text_table(cells))
    stat = getattr(args, "judge", "median")
    tg = targets(rows, procs, stat)
    # issue 5's targets, then the suite's own (W12, added after the issue)
    groups = [(g, [t for t in tg if t[3] == g]) for g in ("issue 5", "suite")]
    groups = [(g, ts) for g, ts in groups if ts]
    for g, ts in groups:
        print("\n%s targets (%ss, P=%d unless stated):" % (g, stat, max(procs)))
        for name, verdict, how, _ in ts:
            print("  %-40s %-8s %s" % (name, verdict, how))

    title = "parcc benchmarks, %s, commit %s, %d rounds%s" % (
        info["date"], info["commit"].replace(" (with uncommitted changes)", "+changes"), rounds,
        ", --quick sizes" if meta["quick"] else "")
    os.makedirs(args.out, exist_ok=True)
    svg = os.path.join(args.out, "bench.svg")
    svg_chart(ws, rows, procs, svg, title)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(dict(meta, runs=results, rows=rows), f, indent=1, default=str)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("Measured %s at commit %s, %d rounds, P = %s%s; load average %s before, %s after"
                " (1, 5, 15 min).\n\n"
                % (info["date"], info["commit"], rounds, ",".join(map(str, procs)),
                   " (--quick sizes)" if meta["quick"] else "", " ".join(meta["load_before"]),
                   " ".join(meta["load_after"])))
        f.write("Machine: %s, %s CPUs (%s per core), %s, %s.\n\n" % (
            info.get("Model name"), info.get("CPU(s)"), info.get("Thread(s) per core", "?"),
            info.get("Memory"), info.get("OS")))
        if info.get("built"):
            f.write("Binaries built %s (run.py --build-only: %s; %s; TBB %s; libomp %s), "
                    "run here with --no-build.\n\n" % (info["built"], info["gcc"], info["clang"],
                                                         info["TBB"], info["libomp"]))
        allruns = [r for rs in results.values() for r in rs if "t" in r]
        busy = [r for r in allruns if r.get("busy_before")]
        late = [r for r in allruns if "waited_s" in r and r["waited_s"] is None]
        if allruns and "busy_before" in allruns[0]:
            f.write("Of %d runs, %d started while another task was runnable%s.\n\n" % (
                len(allruns), len(busy),
                "; %d of them after --wait-idle gave up waiting" % len(late) if late else ""))
        f.write(md_table(ws, rows, exes, procs) + "\n")
        for g, ts in groups:
            f.write("\n| target (%s; %ss, P=%d) | verdict | measured |\n|---|---|---|\n"
                    % (g, stat, max(procs)))
            for name, verdict, how, _ in ts:
                f.write("| %s | %s | %s |\n" % (name, verdict, how))
    print("\nwrote %s, results.md, results.json in %s" %
          (os.path.basename(svg), os.path.relpath(args.out, os.getcwd())))
    if args.copy_chart:
        dst = os.path.join(ROOT, "docs", "perf")
        os.makedirs(dst, exist_ok=True)
        shutil.copy(svg, os.path.join(dst, "bench.svg"))
        print("copied the chart to docs/perf/bench.svg")
    # a configuration that was built but failed, hung or disagreed fails the
    # run; one that could not be built (n/a) does not
    failed = [r for r in rows if r.get("error")]
    for r in failed:
        print("run.py: %s %s %s P=%s: %s" % (r["wid"], r["impl"], r["variant"],
                                             r["p"] or "-", r["error"].strip()), file=sys.stderr)
    return 1 if failed else 0


def report_from(args):
    """--report FILE: redo table and chart from a saved results.json."""
    with open(args.report) as f:
        meta = json.load(f)
    runs = meta.pop("runs")
    meta.pop("rows", None)
    procs = meta["procs"]
    ws = select(workloads([int(x) for x in meta.get("w6_pos", "10,50,90").split(",") if x]),
                meta.get("only", ""))
    impls = set(meta.get("impls") or IMPLS)
    exes = {tuple(k.split("|")): v for k, v in meta.get("exes", {}).items()}
    ran = {(k.split("|")[0].split("@")[0].lower(), k.split("|")[1]) for k, v in runs.items() if v}
    for w in ws:
        for impl, _, _ in w.configs:
            exes.setdefault((impl, w.prog), "(loaded)" if (w.prog, impl) in ran else "n/a: not run")
    return report(args, ws, impls, procs, runs, exes, meta)


def doubled(w):
    """W4 or W5 with twice the activities (issue 3's doubling check): W4's n,
    W5's inner count; the same configurations, as a workload of its own so
    that its runs interleave with the original's."""
    d = copy.copy(w)
    d.wid = w.wid + "x2"
    d.title = w.title + ", twice the activities"
    d.full = w.full[:-1] + [str(2 * int(w.full[-1]))]
    d.quick = w.quick[:-1] + [str(2 * int(w.quick[-1]))]
    return d


def select(ws, only):
    if not only:
        return ws
    want = [x.strip().upper() for x in only.split(",")]
    ws = [w for w in ws if w.wid in want or w.wid.split("@")[0] in want]
    if not ws:
        sys.exit("run.py: error: --only %s selects no workload" % only)
    return ws


if __name__ == "__main__":
    sys.exit(main())
