#!/usr/bin/env python3
"""cross-cc.py - %cc-runtime of the cross mode of the lit suite.

    cross-cc.py CC RUNNER -- ARGS...

Compiles with CC and ARGS (which hold `-o OUT`, as cc's), writing the
program to OUT.bin, and OUT as a shell script that runs it under RUNNER
(an emulator such as `qemu-aarch64 -L /usr/aarch64-linux-gnu`) with exec:
the tests' command lines, exit statuses and signals then stay as they are
(tools/cross-check.sh, test/lit.cfg.py).
"""
import os
import shlex
import subprocess
import sys


def main(argv):
    if len(argv) < 4 or argv[2] != "--":
        sys.stderr.write("usage: cross-cc.py CC RUNNER -- ARGS...\n")
        return 2
    cc, runner, args = argv[0], argv[1], argv[3:]
    if "-o" not in args or args.index("-o") + 1 >= len(args):
        sys.stderr.write("cross-cc.py: no -o OUT among the arguments\n")
        return 2
    i = args.index("-o") + 1
    out = args[i]
    args[i] = out + ".bin"
    rc = subprocess.call(shlex.split(cc) + args)
    if rc != 0:
        return rc
    with open(out, "w") as f:
        f.write("#!/bin/sh\nexec %s %s \"$@\"\n" % (runner, shlex.quote(os.path.abspath(out + ".bin"))))
    os.chmod(out, 0o755)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
