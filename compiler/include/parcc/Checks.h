//===- Checks.h - the compile-time rules of PARC -----------------*- C++ -*-===//
//
// Every compile-time error of the contract, in Clang's voice with the fix as
// a note: pbreak and sync outside a construct, sync in an lparfor body,
// return/break/continue/goto leaving an activity, goto into one, a case label
// whose switch is outside the activity, non-integer index, bounds that are
// not arithmetic or that use the index, constructs inside macro arguments.
//
//===----------------------------------------------------------------------===//
#ifndef PARCC_CHECKS_H
#define PARCC_CHECKS_H

#include "parcc/Session.h"

namespace parcc {

/// Reports every rule violation found in S.M.  Returns false if any.
bool runChecks(Session &S);

/// A `#pragma omp` or `#pragma acc` line (Kind "omp" or "acc", else empty)
/// and the names it gives as variables (Checks.cpp, directiveNames).
struct Directive {
  llvm::StringRef Kind;
  /// A simd directive: honoured under -fopenmp-simd.
  bool Simd = false;
  std::vector<clang::Token> Names;
  bool honoured(const LowerOptions &O) const {
    return Kind == "omp" ? O.OpenMP || (O.OpenMPSimd && Simd) : Kind == "acc" && O.OpenACC;
  }
};

/// Reads the directive whose `#` is at file location Hash.
Directive readDirective(const clang::SourceManager &SM, const clang::LangOptions &LO,
                        clang::SourceLocation Hash);

} // namespace parcc

#endif
