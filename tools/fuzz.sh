#!/usr/bin/env bash
# fuzz.sh - fuzz parcc's front end with libFuzzer (compiler/fuzz), or check
# that the C of every accepted corpus input compiles.
#
#   tools/fuzz.sh [--time S] [--jobs N] [--build DIR]     fuzz for S seconds (default 300)
#   tools/fuzz.sh --check-corpus [--cc CC] [--build DIR]  compile the corpus's C with CC
#   tools/fuzz.sh --seeds-only [--build DIR]              only refresh the seed corpus
#
# Builds parcc-fuzz in DIR (default build-fuzz, clang-19, -DPARCC_FUZZ=ON)
# when needed.  Seeds: every .pc file of the repository (docs/examples,
# test/**, the regression inputs of test/fuzz); corpus, findings and logs live
# in DIR/fuzz/.  A finding (crash-*, timeout-*, oom-*, leak-*) is an input the
# target failed on; replay it with `DIR/bin/parcc-fuzz FILE` or, outside
# libFuzzer, `DIR/bin/parcc -fsyntax-only FILE.pc` (a sanitized parcc).
# docs/reliability.md says what the target checks and where findings go.
# Exit status: non-zero if the run produced a finding or the check failed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
time_s=300
jobs=1
build="$top/build-fuzz"
mode=fuzz
cc=${CC:-cc}
while [ $# -gt 0 ]; do
  case "$1" in
    --time) time_s=$2; shift ;;
    --time=*) time_s=${1#--time=} ;;
    --jobs) jobs=$2; shift ;;
    --jobs=*) jobs=${1#--jobs=} ;;
    --build) build=$(realpath -m "$2"); shift ;;
    --build=*) build=$(realpath -m "${1#--build=}") ;;
    --cc) cc=$2; shift ;;
    --cc=*) cc=${1#--cc=} ;;
    --check-corpus) mode=check ;;
    --seeds-only) mode=seeds ;;
    -h|--help) sed -n '2,/^set -e/{/^set -e/!p}' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

work="$build/fuzz"
seeds="$work/seeds"
corpus="$work/corpus"
findings="$work/findings"
mkdir -p "$seeds" "$corpus" "$findings"

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 -DPARCC_FUZZ=ON >/dev/null
fi
nice ninja -C "$build" parcc-fuzz parcc >/dev/null
fuzzer="$build/bin/parcc-fuzz"

# Seeds: the repository's PARC programs, named after their paths.  Their
# directories go on the include path (the benchmarks include their headers).
rm -f "$seeds"/*
incdirs=()
while IFS= read -r f; do
  rel=${f#"$top"/}
  cp "$f" "$seeds/${rel//\//_}"
  incdirs+=("$(dirname "$f")")
done < <(find "$top/docs" "$top/test" -name '*.pc' -type f | sort)
PARCC_FUZZ_INCLUDE=$(printf '%s\n' "${incdirs[@]}" | sort -u | paste -sd:)
export PARCC_FUZZ_INCLUDE
echo "fuzz.sh: $(ls "$seeds" | wc -l) seed files, corpus $(ls "$corpus" | wc -l) files"
[ "$mode" = seeds ] && exit 0

if [ "$mode" = check ]; then
  # Every accepted input's C, named by the SHA-1 of the input, then the back
  # end's syntax check with the flags parcc's driver uses for emitted C.
  emit=$(mktemp -d)
  trap 'rm -rf "$emit"' EXIT
  PARCC_FUZZ_EMIT_DIR="$emit" nice "$fuzzer" -runs=0 -close_fd_mask=2 -max_len=1048576 \
    -timeout=60 "$corpus" "$seeds" >"$work/check.log" 2>&1 || {
    echo "fuzz.sh: the fuzz target failed while replaying the corpus (see $work/check.log)" >&2
    exit 1
  }
  n=$(find "$emit" -name '*.c' | wc -l)
  backflags="-w -Wno-implicit-int -Wno-implicit-function-declaration -Wno-int-conversion \
-Wno-incompatible-pointer-types -Wno-incompatible-function-pointer-types -Wno-return-type"
  # gcc 12 does not know -Wno-return-mismatch; clang does.
  if "$cc" -Wno-return-mismatch -fsyntax-only -x c /dev/null 2>/dev/null; then
    backflags="$backflags -Wno-return-mismatch"
  fi
  failed="$work/check-failed"
  rm -rf "$failed"
  mkdir -p "$failed"
  # The seeds' header directories, as the front end had them.
  incflags="-I$top/runtime/include -I${PARCC_FUZZ_INCLUDE//:/ -I}"
  export cc backflags incflags failed
  find "$emit" -name '*.c' -print0 | xargs -0 -r -n 20 -P "$(nproc)" sh -c '
    for c do
      if ! nice "$cc" -fsyntax-only $backflags $incflags "$c" >"$c.log" 2>&1; then
        cp "$c" "$c.log" "$failed/"
      fi
    done' sh
  m=$(find "$failed" -name '*.c' | wc -l)
  if [ "$m" -gt 0 ]; then
    echo "fuzz.sh: the emitted C of these accepted inputs does not compile with $cc:"
    for c in "$failed"/*.c; do
      h=$(basename "$c" .c)
      src=$( (cd "$corpus" && sha1sum -- * 2>/dev/null; cd "$seeds" && sha1sum -- * 2>/dev/null) |
             awk -v h="$h" '$1 == h { print $2; exit }')
      echo "  input ${src:-$h}: C in $c, errors in $c.log"
      grep -m3 'error' "$c.log" | sed 's/^/    /' || true
    done
  fi
  echo "$((n - m)) passed, $m failed (C of $n accepted corpus inputs, $cc -fsyntax-only)"
  [ "$m" -eq 0 ]
  exit
fi

# Fuzz: libFuzzer's fork mode, JOBS child processes at a time over one
# corpus; a crash, hang or OOM is saved to findings/ and fuzzing goes on.
before=$(ls "$findings" | wc -l)
log="$work/fuzz.log"
rc=0
nice "$fuzzer" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -close_fd_mask=2 -dict="$top/compiler/fuzz/parc.dict" -max_len=8192 -timeout=20 \
  -rss_limit_mb=4096 -max_total_time="$time_s" -artifact_prefix="$findings/" \
  "$corpus" "$seeds" >"$log" 2>&1 || rc=$?
# Fork mode's progress lines: "#EXECS: cov: ... crash/timeout/oom ...".
execs=$(grep -o '^#[0-9]*' "$log" | tail -n1 | tr -d '#')
# CPU time of the fuzzer and its jobs: the children line of `times`, which
# must run in this shell (in a pipeline it would report a subshell's).
times >"$work/times"
cpu=$(tail -n1 "$work/times" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.1f", t / 60 }')
after=$(ls "$findings" | wc -l)
echo "fuzz.sh: $jobs job(s) x ${time_s}s: ${execs:-0} executions in $cpu CPU-minutes, corpus $(ls "$corpus" | wc -l) files, $((after - before)) new finding(s) in $findings (log $log)"
if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
  ls -t "$findings" | head -n $((after - before)) | sed "s|^|  $findings/|"
  exit 1
fi
