"""A back end that starts a process of its own, as gcc starts cc1, as and
collect2, and then waits for it.  Once both run it writes their process ids
to the file STARTED (for interrupt.py).

usage: slowcc.py STARTED ARGS...  (the compiler's arguments are ignored)
"""
import os
import signal
import subprocess
import sys

for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGPIPE):
    signal.signal(s, signal.SIG_DFL)
started = sys.argv[1]
child = subprocess.Popen(["sleep", "30"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
with open(started + ".tmp", "w") as f:
    f.write("%d %d\n" % (os.getpid(), child.pid))
os.rename(started + ".tmp", started)
child.wait()
