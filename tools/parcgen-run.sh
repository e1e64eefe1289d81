#!/usr/bin/env bash
# parcgen-run.sh - run random PARC programs from tools/parcgen.py through parcc
# and compare their output with gcc's build of the same program as serial C.
#
#   tools/parcgen-run.sh [--build DIR | --parcc PATH] [--out DIR] [--quick] FIRST_SEED [COUNT]
#
# For each seed FIRST_SEED .. FIRST_SEED+COUNT-1 (COUNT defaults to 1):
#   - the serial C is built with gcc -O1 -Wall -Wextra -Werror: its output is
#     the expected one (a failure here is a generator bug, "GEN");
#   - the PARC program is built by DIR/bin/parcc (default build/) three ways,
#     each with -Wall -Wextra -Werror: gcc -O0, gcc -O2, clang-19 -O2;
#   - each build runs at PARC_NPROCS=1,2,3,4,8,16 and with PARC_SCHED=random
#     at P=1 and P=4 (two PARC_SEEDs each) and P=8; --quick: gcc -O2 and clang-19 -O2 at
#     P=1, 4 and random P=4 only.
# Every difference, crash, time-out (20 s), compile error or warning is a
# finding: the seed's files, the failing build's output and a log are kept in
# OUT/fail-SEED/ (default OUT: build/parcgen).  Passing seeds leave nothing.
# Prints one line per finding and a summary; exit status 1 if any finding.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
parcc=""
out=""
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$(realpath -m "$2"); shift ;;
    --parcc) parcc=$(realpath -m "$2"); shift ;;
    --out) out=$(realpath -m "$2"); shift ;;
    --quick) quick=1 ;;
    -h|--help) sed -n '2,/^set -uo/{/^set -uo/!p}' "$0"; exit 0 ;;
    -*) echo "parcgen-run.sh: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
[ $# -ge 1 ] || { echo "usage: parcgen-run.sh [--build DIR] [--out DIR] [--quick] FIRST_SEED [COUNT]" >&2; exit 2; }
first=$1
count=${2:-1}
out=${out:-$build/parcgen}
parcc=${parcc:-$build/bin/parcc}
[ -x "$parcc" ] || { echo "parcgen-run.sh: no $parcc (build parcc first)" >&2; exit 2; }
clang=$(command -v clang-19 || true)
mkdir -p "$out"
tmp=$(mktemp -d "$out/run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
strict="-std=gnu17 -Wall -Wextra -Werror"

if [ $quick = 1 ]; then
  configs="gcc-O2 clang-O2"
  runs="1 4 r4a"
else
  configs="gcc-O0 gcc-O2 clang-O2"
  runs="1 2 3 4 8 16 r1a r1b r4a r4b r8"
fi

seeds=0 nruns=0 findings=0
finding() {  # seed what detail
  findings=$((findings + 1))
  local dir="$out/fail-$1"
  mkdir -p "$dir"
  cp "$tmp/gen-$1.pc" "$tmp/gen-$1.c" "$tmp/expected" "$dir/" 2>/dev/null
  echo "$2: $3" >>"$dir/log"
  echo "seed $1: $2: $3"
}
run_limited() {  # [VAR=VALUE...] prog: 20 s, 4 GB
  "$top/tools/run-limited.sh" 20 "$@"
}

for ((seed = first; seed < first + count; seed++)); do
  seeds=$((seeds + 1))
  if ! python3 "$top/tools/parcgen.py" "$seed" -o "$tmp" >"$tmp/genlog" 2>&1; then
    finding "$seed" GEN "parcgen.py failed: $(tail -1 "$tmp/genlog")"; continue
  fi
  if ! gcc $strict -O1 "$tmp/gen-$seed.c" -o "$tmp/serial" >"$tmp/cclog" 2>&1; then
    finding "$seed" GEN "serial C does not build: $(grep -m1 -E 'error|warning' "$tmp/cclog")"; continue
  fi
  if ! (ulimit -v 4000000; timeout -k 2 20 "$tmp/serial") >"$tmp/expected" 2>&1; then
    finding "$seed" GEN "serial program failed"; continue
  fi
  for cfg in $configs; do
    case $cfg in
      gcc-O0) cc=gcc opt=-O0 ;;
      gcc-O2) cc=gcc opt=-O2 ;;
      clang-O2) [ -n "$clang" ] || continue; cc=$clang opt=-O2 ;;
    esac
    bin="$tmp/$cfg"
    if ! PARCC_CC=$cc timeout -k 2 120 "$parcc" $strict $opt "$tmp/gen-$seed.pc" -o "$bin" >"$tmp/cclog" 2>&1; then
      cp "$tmp/cclog" "$out/fail-$seed.$cfg.cclog" 2>/dev/null
      finding "$seed" "$cfg" "parcc failed: $(grep -m1 -E 'error|warning' "$tmp/cclog")"
      mkdir -p "$out/fail-$seed" && mv "$out/fail-$seed.$cfg.cclog" "$out/fail-$seed/$cfg.cclog"
      continue
    fi
    for r in $runs; do
      nruns=$((nruns + 1))
      case $r in
        r1a) envs="PARC_NPROCS=1 PARC_SCHED=random PARC_SEED=$seed" ;;
        r1b) envs="PARC_NPROCS=1 PARC_SCHED=random PARC_SEED=$((seed + 7919))" ;;
        r4a) envs="PARC_NPROCS=4 PARC_SCHED=random PARC_SEED=$seed" ;;
        r4b) envs="PARC_NPROCS=4 PARC_SCHED=random PARC_SEED=$((seed + 7919))" ;;
        r8) envs="PARC_NPROCS=8 PARC_SCHED=random PARC_SEED=$seed" ;;
        *) envs="PARC_NPROCS=$r" ;;
      esac
      run_limited $envs "$bin" >"$tmp/got"
      rc=$?
      if [ $rc -ne 0 ] || ! cmp -s "$tmp/got" "$tmp/expected"; then
        finding "$seed" "$cfg $envs" "rc=$rc, $(diff "$tmp/expected" "$tmp/got" | grep -c '^[<>]') lines differ"
        cp "$tmp/got" "$out/fail-$seed/got.$cfg.$r"
      fi
    done
  done
done
echo "parcgen-run: $seeds seeds, $nruns runs, $findings findings (kept in $out)"
[ $findings -eq 0 ]
