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

/// Whether Name is one that parc_abi.h declares or #defines: the C that
/// parcc emits includes that header, so a user's declaration of the name
/// is an error (docs/reference.md, "Reserved names").
bool isAbiName(llvm::StringRef Name);
/// One of those that parc_abi.h #defines: not even a struct member or a
/// label may have it.
bool isAbiMacro(llvm::StringRef Name);

} // namespace parcc

#endif
