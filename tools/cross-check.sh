#!/usr/bin/env bash
# cross-check.sh - libparc on another architecture: cross-compile the
# runtime, then run (1) the hand-lowered runtime tests (test/runtime/*.c,
# with their own RUN and CHECK lines) and (2) the examples of docs/examples
# and the contract's programs (test/contract), translated here by parcc,
# compiled by the cross compiler and compared with the same program built
# for this machine, under qemu-user.
#
#   tools/cross-check.sh [--arch aarch64] [BUILD]
#
# BUILD is the native build tree (default build/): its parcc translates and
# its lit configuration runs the tests.  The cross runtime is built in
# BUILD-<arch>.  Needs Debian's gcc-<arch>-linux-gnu, libc6-dev-<debarch>-cross
# and qemu-user (tools/bootstrap.sh installs them); exits 0 with a note when
# they are missing.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
arch=aarch64
build="$top/build"
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --arch=*) arch=${1#--arch=}; shift ;;
    -*) echo "cross-check.sh: unknown option '$1'" >&2; exit 2 ;;
    *) build=$(cd "$1" && pwd); shift ;;
  esac
done
case "$arch" in
  aarch64) triple=aarch64-linux-gnu ;;
  *) echo "cross-check.sh: no toolchain file for '$arch' (cmake/<triple>.cmake)" >&2; exit 2 ;;
esac
cc=$triple-gcc
qemu=qemu-$arch
sysroot=/usr/$triple
for t in "$cc" "$qemu"; do
  if ! command -v "$t" >/dev/null; then
    echo "cross-check.sh: $t not found; nothing checked for $arch"
    exit 0
  fi
done

xbuild="$build-$arch"
cmake -S "$top" -B "$xbuild" -G Ninja -DPARCC_RUNTIME_ONLY=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_TOOLCHAIN_FILE="$top/cmake/$triple.cmake" >/dev/null
ninja -C "$xbuild" parc >/dev/null
run="$qemu -L $sysroot"

# (1) The runtime's own tests, cross-built and emulated.
lit=/usr/lib/llvm-19/build/utils/lit/lit.py
status=0
python3 "$lit" -sv "$build/test/runtime" --param cross_cc="$cc" \
  --param cross_lib="$xbuild/lib" --param cross_run="$run" || status=1

# (2) Programs translated here, compiled by the cross compiler, and
# compared with the same program built for this machine: the examples and
# the test of floating-point modes per activity (which the context switch
# saves) at 1, 2 and 4 processors, and the contract's programs at 4, as
# sorted lines (activities print in the order they run; a program whose
# lines change between two runs here is skipped).  Both builds run from
# one path, so argv[0] is the same.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/run"
n=0
bad=0
skipped=0
# compare SRC FLAGS PROCS TWICE: TWICE=1 compares sorted lines and skips a
# program whose lines differ between two native runs.
compare() {
  local src=$1 flags=$2 procs=$3 twice=$4
  local order=cat
  [ "$twice" = 1 ] && order="env LC_ALL=C sort"
  local name dir log want again got
  name=$(basename "$(dirname "$src")")-$(basename "$src" .pc)
  dir=$(dirname "$src")
  log="$work/$name.log"
  # A program whose output is timing's by design says so: two native runs
  # that agree by chance (under load, c10_exit_stdio's exit came before any
  # other activity printed, twice) are no reference for the emulated one.
  if grep -q "CROSS-CHECK: timing" "$src"; then
    skipped=$((skipped + 1)); return
  fi
  # Not a program of one file (an error test, one of several files): the
  # native build says so, and there is nothing to compare.
  if ! "$build/bin/parcc" -O2 "$src" -o "$work/$name.native" -lm 2>"$log" ||
     ! "$build/bin/parcc" -emit-c "$src" -o "$work/$name.c" 2>"$log"; then
    skipped=$((skipped + 1)); return
  fi
  # shellcheck disable=SC2086
  if ! "$cc" -O2 $flags -fstack-clash-protection -I"$top/runtime/include" -iquote "$dir" \
       "$work/$name.c" -L"$xbuild/lib" -lparc -lpthread -lm -o "$work/$name.$arch" 2>"$log"; then
    if grep -q "internal compiler error" "$log"; then
      echo "skipped: $name: $cc crashed on it (its own bug)"; skipped=$((skipped + 1)); return
    fi
    echo "FAIL: $name: $cc"; cat "$log"; bad=$((bad + 1)); return
  fi
  local bin="$work/run/$(basename "$src" .pc)"
  for p in $procs; do
    cp "$work/$name.native" "$bin"
    want=$(cd "$dir" && { PARC_NPROCS=$p timeout -k 5 60 "$bin" </dev/null 2>&1; echo "exit $?"; } | $order)
    if [ "$twice" = 1 ]; then
      again=$(cd "$dir" && { PARC_NPROCS=$p timeout -k 5 60 "$bin" </dev/null 2>&1; echo "exit $?"; } | $order)
      if [ "$want" != "$again" ]; then skipped=$((skipped + 1)); continue; fi
    fi
    cp "$work/$name.$arch" "$bin"
    got=$(cd "$dir" && { PARC_NPROCS=$p timeout -k 5 120 $run "$bin" </dev/null 2>&1; echo "exit $?"; } | $order)
    n=$((n + 1))
    if [ "$want" != "$got" ]; then
      echo "FAIL: $name at P = $p: $arch output differs"
      diff <(echo "$want") <(echo "$got") | head -20 || true
      bad=$((bad + 1))
    fi
  done
}
lenient="-Wall -Werror -Wno-implicit-int -Wno-implicit-function-declaration -Wno-return-type -Wno-unknown-pragmas"
for src in "$top"/docs/examples/*/*.pc "$top/test/runtime/fenv_modes.pc"; do
  compare "$src" "$lenient" "1 2 4" 0
done
for src in "$top"/test/contract/*.pc; do
  compare "$src" "-w" 4 1
done
echo "programs on $arch: $n runs compared, $bad failed, $skipped skipped"
[ "$bad" -eq 0 ] || status=1
exit "$status"
