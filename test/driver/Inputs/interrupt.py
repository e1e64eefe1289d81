"""Runs a parcc command line, sends it a signal once its back end has
started (the back end, a script, creates the file STARTED), and prints the
files left in the temporary directory $TMPDIR, one per line.

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
os.remove(started)
for root, _, files in os.walk(tmpdir):
    for f in files:
        print(os.path.join(root, f))
