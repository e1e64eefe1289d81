#!/bin/sh
# test/bench/run.sh: the one command of the benchmark suite (see run.py --help).
#   test/bench/run.sh            full run: 5 rounds, P = 1,2
#   test/bench/run.sh --quick    smoke run: 2 rounds, small sizes
exec python3 "$(dirname "$0")/run.py" "$@"
