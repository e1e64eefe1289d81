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

/// Records which interrupt signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE)
/// parcc's parent left ignored; call before anything installs handlers
/// (llvm::InitLLVM does).  Those stay ignored.
void noteInheritedSignals();

/// Out of memory ends parcc with a message and status 1, not LLVM's abort.
void installOutOfMemoryHandler();

/// The flags parcc gives the back end when it compiles emitted C: warnings
/// were reported by the front end, and the back end must not stop at
/// Clang's DefaultError ones either.  (The fuzz target's in-process back-end
/// check uses the same list.)
llvm::ArrayRef<const char *> backEndQuietFlags();

} // namespace parcc

#endif
