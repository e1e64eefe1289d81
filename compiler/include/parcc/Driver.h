//===- Driver.h - parcc used like cc -----------------------------*- C++ -*-===//
//
// Command-line handling in the manner of cc: each .pc or .c input goes
// through the PARC front end into C, the back-end C compiler (PARCC_CC,
// --cc=, or cc) compiles that C, and a link step adds libparc.
//
//===----------------------------------------------------------------------===//
#ifndef PARCC_DRIVER_H
#define PARCC_DRIVER_H

#include "llvm/ADT/ArrayRef.h"

namespace parcc {

/// Runs parcc on the command line Argv (Argv[0] is the program).  Returns
/// the exit status.
int runDriver(llvm::ArrayRef<const char *> Argv);

} // namespace parcc

#endif
