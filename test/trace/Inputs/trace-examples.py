#!/usr/bin/env python3
"""trace-examples.py PARCC PARC_TRACE NPROCS OUTDIR FILE.pc... - end to end:
build each PARC program with PARCC (a command line), run it at NPROCS
processors with PARC_TRACE and PARC_STATS set, then check the trace with
PARC_TRACE (the parc-trace command line) --check, compare its activity count
with the runtime's statistics, and draw it as an SVG that must be well-formed
XML with one lane per processor.  Prints one line per program:

    NAME: ok: A activities (K killed), stats activities=S, L lanes

or NAME: FAIL: reason (and exits 1 at the end).  The trace and the runtime
must agree: the non-root activities in the trace, less those killed while
running, are the activities the runtime counted (started and not killed)."""
import os
import re
import shlex
import subprocess
import sys
import xml.dom.minidom
import xml.parsers.expat

parcc, parc_trace, nprocs, outdir = shlex.split(sys.argv[1]), shlex.split(sys.argv[2]), sys.argv[3], sys.argv[4]
os.makedirs(outdir, exist_ok=True)
failed = 0


def run(cmd, env=None, timeout=300):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, timeout=timeout,
                          universal_newlines=True)


for src in sys.argv[5:]:
    name = os.path.splitext(os.path.basename(src))[0]
    exe = os.path.join(outdir, name)
    trace = exe + ".json"
    svg = exe + ".svg"
    try:
        r = run(parcc + ["-O2", src, "-o", exe])
        if r.returncode:
            raise RuntimeError("parcc failed: " + r.stderr.strip()[-500:])
        if os.path.exists(trace):
            os.unlink(trace)
        r = run([exe], {"PARC_TRACE": trace, "PARC_NPROCS": nprocs, "PARC_STATS": "1"})
        if r.returncode:
            raise RuntimeError("exit status %d: %s" % (r.returncode, r.stderr.strip()[-500:]))
        m = re.search(r"^parc: stats: total .*\bactivities=(\d+)", r.stderr, re.M)
        if not m:
            raise RuntimeError("no PARC_STATS total record")
        stats = int(m.group(1))
        r = run(parc_trace + ["--check", trace])
        if r.returncode:
            raise RuntimeError("parc-trace --check failed:\n" + r.stdout + r.stderr)
        acts = killed = 0
        for line in r.stdout.splitlines():
            m = re.match(r"site (\S+) .*: executions=\d+ activities=(\d+) indices=\d+ segments=\d+ killed=(\d+)$", line)
            if m and m.group(1) != "<root>":
                acts += int(m.group(2))
                killed += int(m.group(3))
        if acts - killed != stats:
            raise RuntimeError("the trace has %d activities, %d killed while running, but the runtime "
                               "counted %d run\n%s" % (acts, killed, stats, r.stdout))
        r = run(parc_trace + [trace, "-o", svg])
        if r.returncode:
            raise RuntimeError("parc-trace failed to draw: " + r.stderr)
        doc = xml.dom.minidom.parse(svg)
        lanes = sum(1 for g in doc.getElementsByTagName("g") if g.getAttribute("class") == "lane")
        if lanes != int(nprocs):
            raise RuntimeError("%d lanes in the SVG for %s processors" % (lanes, nprocs))
        print("%s: ok: %d activities (%d killed), stats activities=%d, %d lanes" % (name, acts, killed, stats, lanes))
    except (RuntimeError, OSError, subprocess.TimeoutExpired, xml.parsers.expat.ExpatError) as e:
        print("%s: FAIL: %s" % (name, e))
        failed += 1
sys.exit(1 if failed else 0)
