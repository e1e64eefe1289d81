#!/usr/bin/env bash
# cross-check.sh - libparc on another architecture: cross-compile the
# runtime, then run (1) the hand-lowered runtime tests (test/runtime/*.c,
# with their own RUN and CHECK lines) and (2) every example of docs/examples,
# translated here by parcc, compiled by the cross compiler and compared
# with the same program built for this machine, under qemu-user.
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

# (2) The examples, and the test of floating-point modes per activity
# (which the context switch saves): parcc's C for this machine and for
# $arch, the same output at 1, 2 and 4 processors.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
bad=0
for src in "$top"/docs/examples/*/*.pc "$top/test/runtime/fenv_modes.pc"; do
  name=$(basename "$(dirname "$src")")-$(basename "$src" .pc)
  dir=$(dirname "$src")
  "$build/bin/parcc" -O2 "$src" -o "$work/$name.native" -lm 2>/dev/null
  "$build/bin/parcc" -emit-c "$src" -o "$work/$name.c" 2>/dev/null
  if ! "$cc" -O2 -Wall -Werror -Wno-implicit-int -Wno-implicit-function-declaration -Wno-return-type \
       -Wno-unknown-pragmas -fstack-clash-protection -I"$top/runtime/include" -iquote "$dir" "$work/$name.c" \
       -L"$xbuild/lib" -lparc -lpthread -lm -o "$work/$name.$arch"; then
    echo "FAIL: $name: $cc"
    bad=$((bad + 1))
    continue
  fi
  for p in 1 2 4; do
    n=$((n + 1))
    want=$(cd "$dir" && PARC_NPROCS=$p timeout -k 5 60 "$work/$name.native" </dev/null 2>&1; echo "exit $?")
    got=$(cd "$dir" && PARC_NPROCS=$p timeout -k 5 120 $run "$work/$name.$arch" </dev/null 2>&1; echo "exit $?")
    if [ "$want" != "$got" ]; then
      echo "FAIL: $name at P = $p: $arch output differs"
      diff <(echo "$want") <(echo "$got") | head -20
      bad=$((bad + 1))
    fi
  done
done
echo "programs on $arch: $n runs, $bad failed"
[ "$bad" -eq 0 ] || status=1
exit "$status"
