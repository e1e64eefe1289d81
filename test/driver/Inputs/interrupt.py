"""Runs a parcc command line, sends it a signal once its back end has
started (the back end creates the file STARTED, which may list the process
ids of the back end and of what it started), and prints what is wrong
afterwards: files and directories left in the temporary directory $TMPDIR,
one per line, processes of the back end still running, and an exit other
than death by the signal.

usage: interrupt.py SIGNAL STARTED TMPDIR parcc ARGS...
"""
import os
import signal
import subprocess
import sys
import time

sig = getattr(signal, sys.argv[1])
started, tmpdir, cmd = sys.argv[2], sys.argv[3], sys.argv[4:]
env = dict(os.environ, TMPDIR=tmpdir)
# The signal as a user's kill or Ctrl-C would deliver it: to parcc, whatever
# the disposition this script inherited (a test runner may ignore SIGINT).
proc = subprocess.Popen(cmd, env=env, preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
deadline = time.time() + 60
while not os.path.exists(started) and proc.poll() is None and time.time() < deadline:
    time.sleep(0.05)
if not os.path.exists(started):
    sys.exit("the back end did not start")
proc.send_signal(sig)
proc.wait()
if proc.returncode == 0:
    sys.exit("parcc was not stopped by the signal")
if proc.returncode != -sig:
    print("parcc exited with status %d, not by signal %s" % (proc.returncode, sys.argv[1]))


def running(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except OSError:
        return False


with open(started) as f:
    pids = [int(p) for p in f.read().split()]
os.remove(started)
deadline = time.time() + 5
while any(running(p) for p in pids) and time.time() < deadline:
    time.sleep(0.05)
for p in pids:
    if running(p):
        print("process %d of the back end still runs" % p)
        os.kill(p, signal.SIGKILL)
for root, dirs, files in os.walk(tmpdir):
    for f in dirs + files:
        print(os.path.join(root, f))
