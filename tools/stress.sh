#!/usr/bin/env bash
# stress.sh - run the stress programs (test/stress/*.pc: kill, sync and
# semaphores under random timing) many times at several processor counts,
# with a time limit per run, and report what ran.
#
#   tools/stress.sh [--runs N] [--procs 1,2,3,4,8] [--timeout S] [--build DIR]
#                   [--jobs J] [--seed S] [--max-hangs H]
#
# --runs N     runs in all (default 1000), spread evenly over programs and P
# --procs L    the values of PARC_NPROCS (default 1,2,3,4,8)
# --timeout S  seconds per run before it counts as a hang (default 10, 60
#              with a sanitizer; a passing run takes well under a second)
# --build DIR  the build whose parcc and libparc are used (default build/;
#              build-tsan or build-asan stress the sanitized runtime)
# --jobs J     runs at a time (default: the number of CPUs)
# --seed S     first seed (default: from the clock); run k gets seed S+k
# --max-hangs H  after H hangs of one program at one P, skip its other runs
#              (default 3), so that a runtime that hangs often still ends soon
#
# A run passes when it exits 0, prints exactly "OK" and nothing on stderr
# but the runtime's PARC_SCHED=random seed line (a sanitizer report fails
# it); a run that passes the time limit is a hang.  With PARC_SCHED=random
# and no PARC_SEED, each run's PARC_SEED is its own seed.
# Failed runs keep their output in DIR/stress/logs with the command that
# replays them (same program, P and seed).  Other PARC_* variables of the
# environment (PARC_SCHED, PARC_SEED, PARC_KILL, ...) reach the programs.
# Exit status: 0 if every run passed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
runs=1000
procs=1,2,3,4,8
timeout_s=
max_hangs=3
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
    --max-hangs) max_hangs=$2; shift ;;
    --max-hangs=*) max_hangs=${1#*=} ;;
    -h|--help) sed -n '2,/^set -e/{/^set -e/!p}' "$0"; exit 0 ;;
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
[ -n "$timeout_s" ] || timeout_s=$([ -n "$san" ] && echo 60 || echo 10)
# As the LIT suite runs sanitized programs (test/lit.cfg.py), unless the
# caller says otherwise.
case "$san" in
  thread) export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1} ;;
  address) export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
           export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} ;;
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
# With PARC_SCHED=random every run gets PARC_SEED = its own seed (unless
# the caller fixed PARC_SEED), so that its replay line replays the schedule.
own_sched_seed=0
if [ "${PARC_SCHED:-}" = random ] && [ -z "${PARC_SEED:-}" ]; then own_sched_seed=1; fi
export work results timeout_s max_hangs own_sched_seed
unset PARC_NPROCS PARC_STATS PARC_TRACE
start=$(date +%s)
xargs -P "$jobs" -L 1 sh -c '
  prog=$1 p=$2 s=$3
  out=$work/logs/$prog-P$p-$s
  if [ "$(grep -c "^$prog $p [0-9]* hang" "$results")" -ge "$max_hangs" ]; then
    echo "$prog $p $s skip -" >>"$results"
    exit 0
  fi
  rc=0
  [ "$own_sched_seed" = 1 ] && export PARC_SEED=$s
  PARC_NPROCS=$p timeout -k 5 "$timeout_s" "$work/bin/$prog" "$s" >"$out.stdout" 2>"$out.stderr" || rc=$?
  # The runtime names the schedule seed of PARC_SCHED=random on stderr.
  noise=$(grep -cv "^parc: PARC_SCHED=random PARC_SEED=[0-9]*$" "$out.stderr")
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    verdict=hang
  elif [ "$rc" -eq 0 ] && [ "$(cat "$out.stdout")" = OK ] && [ "$noise" -eq 0 ]; then
    verdict=pass
  else
    verdict=fail
  fi
  if [ "$verdict" = pass ]; then
    rm -f "$out.stdout" "$out.stderr"
  else
    sched=${PARC_SCHED:+PARC_SCHED=$PARC_SCHED }${PARC_SEED:+PARC_SEED=$PARC_SEED }
    echo "replay: ${sched}PARC_NPROCS=$p $work/bin/$prog $s   (exit status $rc)" >"$out.cmd"
  fi
  echo "$prog $p $s $verdict $rc" >>"$results"
' sh <"$plan"
elapsed=$(( $(date +%s) - start ))

# "failed" counts wrong outputs and hangs; "skipped" the runs not made
# after max_hangs hangs.
echo "program              P  runs  passed  failed  hangs  skipped"
sort -k1,1 -k2,2n "$results" | awk '
  { key = $1 " " $2; n[key]++
    if ($4 == "pass") ok[key]++; else if ($4 == "skip") sk[key]++; else f[key]++
    if ($4 == "hang") h[key]++
    if (!(key in seen)) { seen[key] = 1; order[++m] = key } }
  END { for (i = 1; i <= m; i++) { k = order[i]; split(k, a, " ")
          printf "%-18s %3d  %4d  %6d  %6d  %5d  %7d\n", a[1], a[2], n[k] - sk[k], ok[k], f[k], h[k], sk[k] } }'
passed=$(awk '$4 == "pass"' "$results" | wc -l)
failed=$(awk '$4 == "fail" || $4 == "hang"' "$results" | wc -l)
hangs=$(awk '$4 == "hang"' "$results" | wc -l)
skipped=$(awk '$4 == "skip"' "$results" | wc -l)
if [ "$failed" -gt 0 ]; then
  echo "failed runs (output in $work/logs):"
  awk -v own="$own_sched_seed" -v sched="${PARC_SCHED:+PARC_SCHED=$PARC_SCHED }${PARC_SEED:+PARC_SEED=$PARC_SEED }" \
    -v bin="$work/bin" '$4 == "fail" || $4 == "hang" {
      env = own == 1 ? sched "PARC_SEED=" $3 " " : sched
      print "  " $4 ": " env "PARC_NPROCS=" $2 " " bin "/" $1 " " $3 " (exit status " $5 ")" }' \
    "$results" | sort | head -20
fi
skipnote=""
[ "$skipped" -eq 0 ] || skipnote=", $skipped runs skipped after $max_hangs hangs"
echo "$passed passed, $failed failed ($hangs hangs$skipnote) in ${elapsed}s"
[ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ]
