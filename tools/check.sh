#!/usr/bin/env bash
# check.sh - the whole test suite: configure and build if needed, then run
# every LIT test (runtime, lowering, diagnostics, driver, programs, examples),
# then the runtime's tests and the examples on AArch64 (tools/cross-check.sh).
#
#   tools/check.sh                     normal build in build/
#   tools/check.sh --sanitize=thread   ThreadSanitizer build in build-tsan/
#   tools/check.sh --sanitize=address  ASan+UBSan build in build-asan/
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
san=""
for a in "$@"; do
  case "$a" in
    --sanitize=thread|--sanitize=address) san=${a#--sanitize=} ;;
    *) echo "check.sh: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
case "$san" in
  thread) build="$top/build-tsan" ;;
  address) build="$top/build-asan" ;;
  *) build="$top/build" ;;
esac

cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPARCC_SANITIZE="$san" >/dev/null
ninja -C "$build" parcc parc
lit=/usr/lib/llvm-19/build/utils/lit/lit.py
log=$(mktemp)
set +e
python3 "$lit" -v "$build/test" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
rm -f "$log"
echo "${passed:-0} passed, ${failed:-0} failed"
# libparc on AArch64, under qemu-user (normal build on x86-64 only: the
# sanitizer builds check this machine's runtime).
if [ -z "$san" ] && [ "$(uname -m)" = x86_64 ]; then
  "$top/tools/cross-check.sh" --arch aarch64 "$build" || rc=1
fi
exit "$rc"
