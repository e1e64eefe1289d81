// MS-style inline assembly (-fms-extensions -fasm-blocks, which clang takes
// and gcc does not) goes through the target's assembly parser while Clang
// parses; parcc registers the targets as clang does, so the block compiles
// as with clang-19 alone rather than failing with "no targets are
// registered".  (llvm-test-suite's Vector/AVX512F/inline_asm.c and swizzle.c.)
// REQUIRES: clang19
// RUN: %parcc-clang -fms-extensions -fasm-blocks %s -o %t
// RUN: %run-1 %t | %FileCheck %s
// CHECK: 42
#include <stdio.h>

int main(void) {
  int x = 20;
  __asm {
    mov eax, x
    add eax, 22
    mov x, eax
  }
  printf("%d\n", x);
  return 0;
}
