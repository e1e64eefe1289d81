#!/usr/bin/env bash
# csmith-run.sh - csmith's random C programs through parcc, against the back
# end alone: plain C, and the same programs run inside PARC activities.
#
#   tools/csmith-run.sh [--build DIR | --parcc PATH] [--out DIR] [--configs "CFG..."]
#                       [--plain-only | --parc-only] FIRST_SEED [COUNT]
#   tools/csmith-run.sh --print SEED    (the PARC rewrite of SEED's program)
#
# csmith (https://github.com/csmith-project/csmith) writes UB-free C programs
# that print a checksum of their globals.  For each seed FIRST_SEED ..
# FIRST_SEED+COUNT-1 (COUNT defaults to 1) this generates one program
# (csmith --seed S $CSMITH_OPTS, default "--max-funcs 8") and, for each
# configuration CFG (default: gcc-O0 gcc-O2 clang-O0 clang-O2; a back end,
# gcc or clang-19, and an optimization level):
#   - builds it with the back end alone (-w): the reference.  A seed whose
#     reference does not build, or does not finish within 10 s, is skipped
#     for that configuration (csmith's programs may run for hours);
#   - plain: builds the same file with parcc --cc=CC -Wall and runs it at
#     PARC_NPROCS=1 and 2.  The output and exit status must be the
#     reference's, and parcc's warnings must be clang-19 -Wall's own
#     (parcc's front end is Clang: docs/reference.md, "Warnings and errors");
#   - parc: rewrites the program so that its work runs inside activities
#     (below), builds that with parcc --cc=CC -Wall and runs it at
#     PARC_NPROCS=1, 2, 4 and with PARC_SCHED=random at P=4.  The checksum
#     must be the reference's, and every warning must be one that the plain
#     program has too (same text, any line).
# The rewrite keeps the result independent of P and of the schedule, and
# makes every local of every function a variable captured by reference:
#   - each func_N's leading declarations stay where they are and the rest
#     of its body becomes the single activity of a construct, chosen by N and
#     the seed among: parblock with one section, parblock with an empty
#     section before or after it, parfor/lparfor/mapped lparfor over one
#     value, and one iteration of a parfor over 4 values or of an lparfor
#     over 10 (the others do nothing); its returns become preturns, which
#     kill the idle siblings that are still there, and __builtin_unreachable()
#     follows epar (csmith's functions end in a return);
#   - main's body, after its declarations, is one parblock section (its
#     return 0 after epar), and its call of func_1 is the one activity of a
#     parfor or an lparfor.
# Every difference, crash, time-out, compile error or unexpected warning is
# a finding: the program, the PARC rewrite and a log are kept in
# OUT/fail-SEED/ (default OUT: build/csmith).  Passing seeds leave nothing.
# Runs are limited to 4 GB of address space; parcc's builds to 120 s.
# Prints one line per finding and a summary; exit status 1 if any finding,
# 2 if csmith is missing.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
parcc="" out="" mode=both print=0
configs="gcc-O0 gcc-O2 clang-O0 clang-O2"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$(realpath -m "$2"); shift ;;
    --parcc) parcc=$(realpath -m "$2"); shift ;;
    --out) out=$(realpath -m "$2"); shift ;;
    --configs) configs=$2; shift ;;
    --plain-only) mode=plain ;;
    --parc-only) mode=parc ;;
    --print) print=1 ;;
    -h|--help) sed -n '2,/^set -uo/{/^set -uo/!p}' "$0"; exit 0 ;;
    -*) echo "csmith-run.sh: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
[ $# -ge 1 ] || { echo "usage: csmith-run.sh [--build DIR] [--out DIR] [--configs \"CFG...\"] [--plain-only|--parc-only] FIRST_SEED [COUNT]" >&2; exit 2; }
first=$1
count=${2:-1}
csmith=$(command -v csmith) || { echo "csmith-run.sh: csmith is not installed" >&2; exit 2; }
inc=${CSMITH_INCLUDE:-$(dirname "$csmith")/../include/csmith}
[ -f "$inc/csmith.h" ] || { echo "csmith-run.sh: no csmith.h in $inc (set CSMITH_INCLUDE)" >&2; exit 2; }
# The PARC rewrite: python3 -c "$rewrite" SEED < prog.c > prog.pc
rewrite='
import re, sys
seed = int(sys.argv[1])
src = sys.stdin.read().split("\n")
DECL = re.compile(r"    (const|volatile|static|struct|union|unsigned|signed|int|char|short|long|float|double|u?int\d+_t)\b")
def wrap(body, kind):
    # body: the lines between a function'"'"'s braces.  Leading declarations stay.
    n = 0
    while n < len(body) and DECL.match(body[n]) and body[n].rstrip().endswith(";"):
        n += 1
    stmts = [re.sub(r"\breturn\b", "preturn", l) for l in body[n:]]
    head, tail = {
        0: ("parblock {", "} epar"),
        1: ("parblock {", "} : { } epar"),
        2: ("parfor int parc_cs_k; 0; 0; 1; {", "} epar"),
        3: ("lparfor int parc_cs_k; 0; 0; 1; {", "} epar"),
        4: ("mapped lparfor int parc_cs_k; 0; 0; 1; {", "} epar"),
        5: ("parblock { } : {", "} epar"),
        6: ("parfor int parc_cs_k; 0; 3; 1; if (parc_cs_k == 2) {", "} epar"),
        7: ("lparfor int parc_cs_k; 0; 9; 1; if (parc_cs_k == 5) {", "} epar"),
    }[kind]
    return body[:n] + ["    " + head] + stmts + ["    " + tail]
res, i = [], 0
while i < len(src):
    line = src[i]
    m = re.match(r"static .*\bfunc_(\d+)\(.*\)$", line)
    is_main = line.startswith("int main (")
    if (m or is_main) and i + 1 < len(src) and src[i + 1].startswith("{"):
        end = src.index("}", i + 2)
        body = src[i + 2:end]
        res += [line, src[i + 1]]
        if is_main:
            ret = [l for l in body if l.strip() == "return 0;"]
            body = [l for l in body if l.strip() != "return 0;"]
            loop = "lparfor" if seed % 2 else "parfor"
            body = [l.replace("func_1();", "%s int parc_cs_k; 0; 0; 1; func_1(); epar" % loop) for l in body]
            res += wrap(body, 0) + ret
        else:
            res += wrap(body, (int(m.group(1)) + seed) % 8)
            if not line.startswith("static void"):
                # The body ends in a preturn, but in one activity out of
                # several that the compiler cannot count.
                res.append("    __builtin_unreachable();")
        res.append("}")
        i = end + 1
        continue
    res.append(line)
    i += 1
sys.stdout.write("\n".join(res))
'
# csmith writes platform.info into its working directory.
gen() {  # seed dir: dir/p.c
  (cd "$2" && "$csmith" --seed "$1" ${CSMITH_OPTS:---max-funcs 8} -o p.c >/dev/null 2>&1)
}
if [ $print = 1 ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  gen "$first" "$tmp" || { echo "csmith-run.sh: csmith failed" >&2; exit 2; }
  python3 -c "$rewrite" "$first" <"$tmp/p.c"
  exit
fi
out=${out:-$build/csmith}
parcc=${parcc:-$build/bin/parcc}
[ -x "$parcc" ] || { echo "csmith-run.sh: no $parcc (build parcc first)" >&2; exit 2; }
clang=$(command -v clang-19) || { echo "csmith-run.sh: clang-19 is needed for the warnings check" >&2; exit 2; }
mkdir -p "$out"
tmp=$(mktemp -d "$out/run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

seeds=0 nruns=0 findings=0 skipped=0
finding() {  # seed what detail
  findings=$((findings + 1))
  local dir="$out/fail-$1"
  mkdir -p "$dir"
  cp "$tmp/p.c" "$dir/csmith-$1.c" 2>/dev/null
  cp "$tmp/p.pc" "$dir/csmith-$1.pc" 2>/dev/null
  echo "$2: $3" >>"$dir/log"
  echo "seed $1: $2: $3"
}
run_limited() {  # seconds [VAR=VALUE...] prog, then its exit status
  "$top/tools/run-limited.sh" "$@"
  echo "exit $?"
}
# Clang's warnings, without the file's directory or the closing count.
warnings() { sed -n "s|^$tmp/||; /warning:/p" "$1" | sort; }
# The text of each warning, without its place.
warning_texts() { sed -n 's/^.*warning: //p' "$1" | sort -u; }

for ((seed = first; seed < first + count; seed++)); do
  seeds=$((seeds + 1))
  rm -f "$tmp"/*
  if ! gen "$seed" "$tmp"; then
    finding "$seed" csmith "csmith failed"; continue
  fi
  python3 -c "$rewrite" "$seed" <"$tmp/p.c" >"$tmp/p.pc"
  "$clang" -fsyntax-only -Wall -I"$inc" "$tmp/p.c" 2>"$tmp/clang.log"
  warnings "$tmp/clang.log" >"$tmp/want.warn"
  for cfg in $configs; do
    case $cfg in
      gcc-O*) cc=gcc ;;
      clang-O*) cc=$clang ;;
      *) echo "csmith-run.sh: unknown configuration '$cfg'" >&2; exit 2 ;;
    esac
    opt=-${cfg#*-}
    if ! timeout -k 2 120 "$cc" $opt -w -I"$inc" "$tmp/p.c" -o "$tmp/ref" >/dev/null 2>&1; then
      skipped=$((skipped + 1)); continue
    fi
    run_limited 10 "$tmp/ref" >"$tmp/expected"
    if [ "$(tail -1 "$tmp/expected")" != "exit 0" ]; then
      skipped=$((skipped + 1)); continue
    fi
    if [ $mode != parc ]; then
      if ! timeout -k 2 120 "$parcc" --cc="$cc" $opt -Wall -I"$inc" "$tmp/p.c" -o "$tmp/plain" >"$tmp/plain.log" 2>&1; then
        finding "$seed" "plain $cfg" "parcc failed: $(grep -m1 -E 'error' "$tmp/plain.log")"
      else
        warnings "$tmp/plain.log" >"$tmp/got.warn"
        if ! cmp -s "$tmp/want.warn" "$tmp/got.warn"; then
          finding "$seed" "plain $cfg" "warnings differ from clang-19's: $(diff "$tmp/want.warn" "$tmp/got.warn" | grep -m1 '^[<>]')"
        fi
        for p in 1 2; do
          nruns=$((nruns + 1))
          run_limited 20 PARC_NPROCS=$p "$tmp/plain" >"$tmp/got"
          cmp -s "$tmp/got" "$tmp/expected" ||
            finding "$seed" "plain $cfg P=$p" "got $(head -1 "$tmp/got" | cut -c1-40) $(tail -1 "$tmp/got"), want $(head -1 "$tmp/expected")"
        done
      fi
    fi
    if [ $mode != plain ]; then
      if ! timeout -k 2 120 "$parcc" --cc="$cc" $opt -Wall -I"$inc" "$tmp/p.pc" -o "$tmp/parc" >"$tmp/parc.log" 2>&1; then
        finding "$seed" "parc $cfg" "parcc failed: $(grep -m1 -E 'error' "$tmp/parc.log")"
        continue
      fi
      new=$(comm -13 <(warning_texts "$tmp/clang.log") <(warning_texts "$tmp/parc.log") | head -1)
      [ -z "$new" ] || finding "$seed" "parc $cfg" "warning the plain program has not: $new"
      for r in 1 2 4 r4; do
        nruns=$((nruns + 1))
        case $r in
          r4) envs="PARC_NPROCS=4 PARC_SCHED=random PARC_SEED=$seed" ;;
          *) envs="PARC_NPROCS=$r" ;;
        esac
        # shellcheck disable=SC2086 # envs are words
        run_limited 60 $envs "$tmp/parc" >"$tmp/got"
        cmp -s "$tmp/got" "$tmp/expected" ||
          finding "$seed" "parc $cfg $envs" "got $(head -1 "$tmp/got" | cut -c1-40) $(tail -1 "$tmp/got"), want $(head -1 "$tmp/expected")"
      done
    fi
  done
done
echo "csmith-run: $seeds seeds, $nruns runs, $skipped skipped, $findings findings (kept in $out)"
[ $findings -eq 0 ]
