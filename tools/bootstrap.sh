#!/usr/bin/env bash
# bootstrap.sh - the newcomer's first command: install what is missing (Debian
# 12 packages), configure and build parcc and libparc, then compile and run
# the paper's Figure 1 program (docs/examples/prefix/prefix.pc).
#
#   tools/bootstrap.sh [--deps-only] [BUILD_DIR]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
deps_only=0
if [ "${1:-}" = "--deps-only" ]; then deps_only=1; shift; fi
build=${1:-"$top/build"}

# Everything parcc, its tests and its benchmarks need, by Debian package name
# (ccache and librsvg2-bin only for the tests of PARCC_CC="ccache gcc" and of
# parc-trace's PNG output, which are skipped without them).
pkgs=(build-essential cmake ninja-build python3 clang-19 libclang-19-dev llvm-19-dev
      llvm-19-tools libclang-rt-19-dev libnuma-dev libtbb-dev libomp-19-dev valgrind
      csmith libcsmith-dev ccache librsvg2-bin)
# On x86-64, a cross compiler and qemu-user for the check of libparc on
# AArch64 (tools/cross-check.sh, run by tools/check.sh).
if [ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ]; then
  pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
[ $deps_only -eq 1 ] && exit 0

cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build" parcc parc

echo "bootstrap: compiling docs/examples/prefix/prefix.pc (the paper's Figure 1)"
"$build/bin/parcc" -O2 "$top/docs/examples/prefix/prefix.pc" -o "$build/prefix"
"$build/prefix"
