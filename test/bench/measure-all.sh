#!/bin/sh
# test/bench/measure-all.sh: every figure of docs/performance.md, in one sitting.
#
#   test/bench/measure-all.sh             full (9 minutes on 2 idle CPUs)
#   test/bench/measure-all.sh --quick     smoke run (about a minute): small sizes,
#                                         few rounds, docs/perf/bench.svg untouched
#   ROUNDS=5 test/bench/measure-all.sh    fewer suite rounds (default 7)
#
# Runs, one after the other, on the parcc in build/bin (build it first):
#   1. the suite, W1-W12 against serial, OpenMP and TBB at P = 1,2, with W6
#      at the key positions of the MAXI paper's Figure 7 (10-90%), and the
#      chart copied to docs/perf/bench.svg (run.py);
#   2. issue 3's doubling check: W4 and W5 (parcc and serial) at the issue's
#      sizes and with twice the activities (run.py --double: W4 2000, W5
#      100x200), interleaved in every round, three times the suite's rounds
#      (the runs take milliseconds, and a ratio of two medians is noisier
#      than either), each run started once no other task is runnable (the
#      suite's W4/W5 peers leave thousands of exiting threads behind);
#   3. issue 3's envelope count: PARC_STATS=1 of a parfor of 10,000
#      independent activities at P = 1,2,4, tiny ones (w2) and ~10 us ones (w3);
#   4. issue 4's kill latency, Table 3 and poll cost (kill.py).
# Everything goes to test/bench/out/all/ (git-ignored): suite/, double/
# (run.py's results.md, results.json, bench.svg), envelopes.txt,
# kill.md, summary.md (issue 3's and 4's figures with targets and verdicts,
# summary.py); a summary of what ran to stdout.  Exits non-zero when a step fails
# (after running the others).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$here/out/all
quick=
rounds=${ROUNDS:-7}
case "${1:-}" in
  --quick) quick=--quick; rounds=2 ;;
  "") ;;
  *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac
parcc=$root/build/bin/parcc
if [ ! -x "$parcc" ]; then
  echo "measure-all.sh: error: $parcc not built (ninja -C build parcc parc)" >&2
  exit 2
fi
mkdir -p "$out"
status=0
step() {
  echo "== $(date -u '+%H:%M:%S') $*; load average $(cut -d' ' -f1-3 /proc/loadavg)"
}

echo "measure-all.sh: commit $(git -C "$root" rev-parse --short HEAD)$(
  git -C "$root" status --porcelain -- compiler runtime test/bench | grep -q . &&
  echo ' (with uncommitted changes)'), $(nproc) CPUs; uptime: $(uptime)"

step "1. suite: $rounds rounds, P = 1,2, W6 at 10,30,50,70,90%"
if [ -n "$quick" ]; then chart=; else chart=--copy-chart; fi
python3 "$here/run.py" $quick --rounds "$rounds" --w6-pos 10,30,50,70,90 $chart \
  --out "$out/suite" || status=1

step "2. doubling: W4 1000 and 2000, W5 100x100 and 100x200, interleaved"
python3 "$here/run.py" $quick --rounds "$((3 * rounds))" --only W4,W5 --impls parcc --double \
  --wait-idle 2 --out "$out/double" >/dev/null || status=1
grep '^| W[45]\(x2\)\? | parcc' "$out/double/results.md"

step "3. envelopes: parfor of 10,000 independent activities, PARC_STATS=1"
bins=$out/suite/bin/parcc
spin=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["spin_per_ms"] // 100)' \
  "$out/suite/results.json" 2>/dev/null || echo 4000)
: >"$out/envelopes.txt"
for p in 1 2 4; do
  for prog in "w2 parfor 10000" "w3 parfor 10000 $spin"; do
    set -- $prog
    exe=$bins/$1
    shift
    for rep in 1 2 3; do
      if ! r=$(env PARC_NPROCS=$p PARC_STATS=1 "$exe" "$@" 2>&1); then
        echo "measure-all.sh: $exe $* at P=$p failed: $r" >&2
        status=1
      fi
      tot=$(echo "$r" | grep '^parc: stats: total' | sed 's/^parc: stats: total //')
      echo "P=$p $(basename "$exe") $* run $rep: $tot" | tee -a "$out/envelopes.txt" |
        sed 's/ shares=.*//'
    done
  done
done

step "4. kill latency, Table 3, poll cost (kill.py)"
python3 "$here/kill.py" $quick --out "$out/kill" >"$out/kill.md" || status=1
tail -n 3 "$out/kill.md"

step "5. issue 3 and 4 figures against their targets (summary.py)"
python3 "$here/summary.py" "$out" | tee "$out/summary.md" || status=1

step "done (status $status); results in ${out#"$root"/}"
exit $status
