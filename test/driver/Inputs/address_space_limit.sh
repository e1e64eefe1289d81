#!/bin/bash
# address_space_limit.sh PARCC INPUT OUT: compiles INPUT with -c under
# address-space limits from 300 to 380 MiB in 4 MiB steps, then 460 MiB,
# and prints each status, with what parcc said other than its
# out-of-memory message and the loader's refusal (below what parcc needs
# to start at all).
PARCC=$1 IN=$2 OUT=$3
for kb in $(seq 307200 4096 389120) 471040; do
  (ulimit -v $kb; "$PARCC" -O2 -c "$IN" -o "$OUT/obj$kb.o" 2>"$OUT/err$kb"; echo "limit $kb status $?")
  grep -v -e "^parcc: error: out of memory: the address-space limit (ulimit -v) is [0-9]* MiB, too little for parcc$" \
          -e "error while loading shared libraries" "$OUT/err$kb"
done
exit 0
