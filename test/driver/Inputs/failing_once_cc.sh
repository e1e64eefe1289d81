#!/bin/sh
# A back end that fails on the C of bad.pc as gcc 12 does, with the notes
# gcc adds about the -Wno-... options it does not know, and compiles the
# rest with gcc.
for a in "$@"; do
  case "$a" in
    *bad.pc*)
      printf 'bad.pc:1:14: error: this back end takes nothing\nAt top level:\ncc1: note: unrecognized command-line option %s may have been intended to silence earlier diagnostics\n' "'-Wno-return-mismatch'" >&2
      exit 1;;
  esac
done
exec gcc "$@"
