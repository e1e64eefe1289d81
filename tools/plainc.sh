#!/bin/bash
# tools/plainc.sh: plain C through parcc, against the C compiler alone.
#
#   tools/plainc.sh [--cc CC] [--parcc PARCC] [--ref] [--args "ARG..."]
#                   [--timeout S] DIR [FLAG...]
#
# A valid C translation unit is a valid PARC one with the same meaning
# (PARC-LANGUAGE.md, section 1).  For every DIR/*.c (a public suite's
# single-file programs: c-testsuite's tests/single-exec, the gcc torture
# tests' execute/), this builds the program with parcc and with CC (gcc by
# default; parcc's back end is --cc CC too), FLAGs added to both, runs both
# for at most S seconds (10 by default) with the ARGs, and compares exit
# status and output (stdout and stderr together).  It prints one line per
# program that differs and a summary:
#   same     parcc's program did what CC's did
#   DIFFERS  both built, different exit status or output (a parcc bug)
#   REFUSED  CC built it, parcc did not (its first error is shown: Clang's
#            front end lacks some GCC extensions, e.g. nested functions)
#   skipped  CC does not build it either
# With --ref, a program that has a DIR/NAME.reference_output (llvm-test-suite's
# form: the output, then "exit N") is also checked against it, exactly (not
# with llvm-test-suite's floating-point tolerances); the summary counts
# those that match (refok) and each that does not is listed as
#   REF      parcc's run is not the reference, and CC's run is, or is not
# Exit status 1 if any program DIFFERS.
set -u
CC=gcc
PARCC=$(dirname "$0")/../build/bin/parcc
REF=0 ARGS="" TIMEOUT=10
while [ $# -gt 0 ]; do
  case "$1" in
    --cc) CC=$2; shift 2 ;;
    --parcc) PARCC=$2; shift 2 ;;
    --ref) REF=1; shift ;;
    --args) ARGS=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--cc CC] [--parcc PARCC] [--ref] [--args \"ARG...\"] [--timeout S] DIR [FLAG...]" >&2; exit 2; }
DIR=$1; shift
PARCC=$(realpath "$PARCC")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/plainc.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
same=0 differs=0 refused=0 skipped=0 refok=0 refbad=0
# The run as llvm-test-suite's timeit --append-exitstatus writes it.
asref() { if [ -n "$1" ]; then printf '%s\nexit %d' "$1" "$2"; else printf 'exit %d' "$2"; fi; }
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
  # shellcheck disable=SC2086 # ARGS are words
  want=$(timeout "$TIMEOUT" "$b.cc" $ARGS 2>&1 </dev/null); wrc=$?
  # shellcheck disable=SC2086
  got=$(timeout "$TIMEOUT" "$b.parcc" $ARGS 2>&1 </dev/null); grc=$?
  if [ "$wrc" -eq "$grc" ] && [ "$want" == "$got" ]; then
    same=$((same + 1))
  else
    echo "DIFFERS $f: $CC exit $wrc, parcc exit $grc"
    differs=$((differs + 1))
  fi
  r=${f%.c}.reference_output
  if [ "$REF" -eq 1 ] && [ -f "$r" ]; then
    ref=$(cat "$r")
    if [ "$(asref "$got" "$grc")" == "$ref" ]; then
      refok=$((refok + 1))
    else
      cc="$CC's is not either"
      [ "$(asref "$want" "$wrc")" == "$ref" ] && cc="$CC's is"
      echo "REF $f: parcc's run is not $r, $cc"
      refbad=$((refbad + 1))
    fi
  fi
done
summary="same=$same DIFFERS=$differs REFUSED=$refused skipped=$skipped"
[ "$REF" -eq 1 ] && summary="$summary refok=$refok REF=$refbad"
echo "$summary"
[ "$differs" -eq 0 ]
