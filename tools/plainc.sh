#!/bin/bash
# tools/plainc.sh: plain C through parcc, against the C compiler alone.
#
#   tools/plainc.sh [--cc CC] [--parcc PARCC] DIR [FLAG...]
#
# A valid C translation unit is a valid PARC one with the same meaning
# (PARC-LANGUAGE.md, section 1).  For every DIR/*.c (a public suite's
# single-file programs: c-testsuite's tests/single-exec, the gcc torture
# tests' execute/), this builds the program with parcc and with CC (gcc by
# default; parcc's back end is --cc CC too), FLAGs added to both, runs both
# for at most 10 s, and compares exit status and output.  It prints one line
# per program that differs and a summary:
#   same     parcc's program did what CC's did
#   DIFFERS  both built, different exit status or output (a parcc bug)
#   REFUSED  CC built it, parcc did not (its first error is shown: Clang's
#            front end lacks some GCC extensions, e.g. nested functions)
#   skipped  CC does not build it either
# Exit status 1 if any program DIFFERS.
set -u
CC=gcc
PARCC=$(dirname "$0")/../build/bin/parcc
while [ $# -gt 0 ]; do
  case "$1" in
    --cc) CC=$2; shift 2 ;;
    --parcc) PARCC=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--cc CC] [--parcc PARCC] DIR [FLAG...]" >&2; exit 2; }
DIR=$1; shift
PARCC=$(realpath "$PARCC")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/plainc.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
same=0 differs=0 refused=0 skipped=0
cd "$DIR" || exit 2
for f in *.c; do
  b=$WORK/${f%.c}
  if ! timeout 60 "$CC" -w "$@" "$f" -o "$b.cc" -lm >/dev/null 2>&1; then
    skipped=$((skipped + 1))
    continue
  fi
  if ! timeout 60 "$PARCC" --cc="$CC" -w "$@" "$f" -o "$b.parcc" -lm >"$b.log" 2>&1; then
    echo "REFUSED $f: $(grep -m1 'error' "$b.log")"
    refused=$((refused + 1))
    continue
  fi
  want=$(timeout 10 "$b.cc" 2>&1 </dev/null); wrc=$?
  got=$(timeout 10 "$b.parcc" 2>&1 </dev/null); grc=$?
  if [ "$wrc" -eq "$grc" ] && [ "$want" == "$got" ]; then
    same=$((same + 1))
  else
    echo "DIFFERS $f: $CC exit $wrc, parcc exit $grc"
    differs=$((differs + 1))
  fi
done
echo "same=$same DIFFERS=$differs REFUSED=$refused skipped=$skipped"
[ "$differs" -eq 0 ]
