#!/usr/bin/env bash
# run-limited.sh - run one program under the limits of the random-program
# scripts (tools/parcgen-run.sh, tools/csmith-run.sh).
#
#   tools/run-limited.sh SECONDS [VAR=VALUE...] PROG [ARG...]
#
# Runs PROG with the ARGs and the VARs in its environment, for at most SECONDS seconds
# (then SIGTERM, SIGKILL 2 s later) and with 4 GB of address space; its
# stdout and stderr both go to stdout.  Exit status: PROG's, 124 (or 137)
# when it ran out of time.
[ $# -ge 2 ] || { echo "usage: run-limited.sh SECONDS [VAR=VALUE...] PROG [ARG...]" >&2; exit 2; }
s=$1
shift
vars=()
while [ $# -gt 0 ] && [[ $1 == *=* ]]; do
  vars+=("$1")
  shift
done
ulimit -v 4000000
exec env "${vars[@]}" timeout -k 2 "$s" "$@" 2>&1
