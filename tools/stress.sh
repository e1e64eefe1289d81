#!/usr/bin/env bash
# stress.sh - run the stress programs (test/stress/*.pc: kill, sync and
# semaphores under random timing) many times at several processor counts,
# with a time limit per run, and report what ran.
#
#   tools/stress.sh [--runs N] [--procs 1,2,3,4,8] [--timeout S] [--build DIR]
#                   [--jobs J] [--seed S]
#
# --runs N     runs in all (default 1000), spread evenly over programs and P
# --procs L    the values of PARC_NPROCS (default 1,2,3,4,8)
# --timeout S  seconds per run before it counts as a hang (default 30)
# --build DIR  the build whose parcc and libparc are used (default build/;
#              build-tsan or build-asan stress the sanitized runtime)
# --jobs J     runs at a time (default: the number of CPUs)
# --seed S     first seed (default: from the clock); run k gets seed S+k
#
# A run passes when it exits 0, prints exactly "OK" and nothing on stderr
# (a sanitizer report fails it); a run that passes the time limit is a hang.
# Failed runs keep their output in DIR/stress/logs with the command that
# replays them (same program, P and seed).  Other PARC_* variables of the
# environment (PARC_SCHED, PARC_SEED, PARC_KILL, ...) reach the programs.
# Exit status: 0 if every run passed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
runs=1000
procs=1,2,3,4,8
timeout_s=30
build="$top/build"
jobs=$(nproc)
seed=$(date +%s)
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift ;;
    --runs=*) runs=${1#*=} ;;
    --procs) procs=$2; shift ;;
    --procs=*) procs=${1#*=} ;;
    --timeout) timeout_s=$2; shift ;;
    --timeout=*) timeout_s=${1#*=} ;;
    --build) build=$(realpath -m "$2"); shift ;;
    --build=*) build=$(realpath -m "${1#*=}") ;;
    --jobs) jobs=$2; shift ;;
    --jobs=*) jobs=${1#*=} ;;
    --seed) seed=$2; shift ;;
    --seed=*) seed=${1#*=} ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "stress.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

if [ ! -f "$build/build.ninja" ]; then
  echo "stress.sh: no build in $build; configure it first (tools/check.sh builds build/," >&2
  echo "  build-tsan and build-asan with --sanitize=thread|address)" >&2
  exit 2
fi
ninja -C "$build" parcc parc >/dev/null

# Compile as the LIT suite does: the runtime's C compiler as back end, and
# the build's sanitizer flags.
cache="$build/CMakeCache.txt"
san=$(sed -n 's/^PARCC_SANITIZE:[A-Z]*=//p' "$cache")
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$cache")
case "$san" in
  address) sanflags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" ;;
  thread) sanflags="-fsanitize=thread" ;;
  *) sanflags="" ;;
esac
work="$build/stress"
rm -rf "$work/logs"
mkdir -p "$work/bin" "$work/logs"
progs=()
for src in "$top"/test/stress/*.pc; do
  name=$(basename "$src" .pc)
  PARCC_CC="$cc" "$build/bin/parcc" -O2 -g $sanflags "$src" -o "$work/bin/$name"
  progs+=("$name")
done

IFS=, read -r -a plist <<<"$procs"
combos=$(( ${#progs[@]} * ${#plist[@]} ))
per=$(( (runs + combos - 1) / combos ))
plan="$work/plan"
: >"$plan"
k=0
for prog in "${progs[@]}"; do
  for p in "${plist[@]}"; do
    for _ in $(seq 1 "$per"); do
      echo "$prog $p $((seed + k))" >>"$plan"
      k=$((k + 1))
    done
  done
done
# Shuffled, so that the programs and processor counts run side by side.
shuf -o "$plan" "$plan"
echo "stress.sh: ${#progs[@]} programs x P in {$procs} x $per runs = $k runs," \
     "timeout ${timeout_s}s, $jobs at a time, seeds $seed..$((seed + k - 1))${san:+, $san sanitizer}"

results="$work/results"
: >"$results"
export work results timeout_s
unset PARC_NPROCS PARC_STATS PARC_TRACE
start=$(date +%s)
xargs -P "$jobs" -L 1 sh -c '
  prog=$1 p=$2 s=$3
  out=$work/logs/$prog-P$p-$s
  rc=0
  PARC_NPROCS=$p timeout -k 5 "$timeout_s" "$work/bin/$prog" "$s" >"$out.stdout" 2>"$out.stderr" || rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    verdict=hang
  elif [ "$rc" -eq 0 ] && [ "$(cat "$out.stdout")" = OK ] && [ ! -s "$out.stderr" ]; then
    verdict=pass
  else
    verdict=fail
  fi
  if [ "$verdict" = pass ]; then
    rm -f "$out.stdout" "$out.stderr"
  else
    echo "replay: PARC_NPROCS=$p $work/bin/$prog $s   (exit status $rc)" >"$out.cmd"
  fi
  echo "$prog $p $s $verdict $rc" >>"$results"
' sh <"$plan"
elapsed=$(( $(date +%s) - start ))

echo "program              P  runs  passed  failed  hangs"
sort -k1,1 -k2,2n "$results" | awk '
  { key = $1 " " $2; n[key]++; if ($4 == "pass") ok[key]++; else if ($4 == "hang") h[key]++; else f[key]++
    if (!(key in seen)) { seen[key] = 1; order[++m] = key } }
  END { for (i = 1; i <= m; i++) { split(order[i], a, " ")
          printf "%-18s %3d  %4d  %6d  %6d  %5d\n", a[1], a[2], n[order[i]], ok[order[i]], f[order[i]], h[order[i]] } }'
passed=$(awk '$4 == "pass"' "$results" | wc -l)
failed=$(awk '$4 != "pass"' "$results" | wc -l)
hangs=$(awk '$4 == "hang"' "$results" | wc -l)
if [ "$failed" -gt 0 ]; then
  echo "failed runs (output in $work/logs):"
  awk '$4 != "pass" { print "  " $4 ": PARC_NPROCS=" $2 " '"$work"'/bin/" $1 " " $3 " (exit status " $5 ")" }' \
    "$results" | head -20
fi
echo "$passed passed, $failed failed ($hangs hangs) in ${elapsed}s"
[ "$failed" -eq 0 ]
