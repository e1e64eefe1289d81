//===- Warnings.h - parcc's own warnings and their -W names -----*- C++ -*-===//
//
// Clang 19's custom diagnostics belong to no warning group, so parcc's own
// warnings (Checks.cpp) get their names here.  Each prints with its option
// as Clang's warnings do (`[-Wparc-inclusive-to]`, `[-Werror,-Wparc-...]`),
// and the options that name it, or the group -Wparc that holds them all,
// act on it as Clang's act on its own: -Wno-NAME, -WNAME, -Werror=NAME,
// -Wno-error=NAME on the command line, in order, with -Werror, -w,
// -Weverything and -Wno-everything; and `#pragma clang diagnostic` (or
// `GCC diagnostic`) ignored / warning / error / push / pop in the file, from
// the pragma on.  None of them reaches Clang's engine, which would call
// the names unknown, nor the back end, which compiles with -w.
//
//===----------------------------------------------------------------------===//
#ifndef PARCC_WARNINGS_H
#define PARCC_WARNINGS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clang {
class SourceManager;
}

namespace parcc {

/// parcc's warnings, one per -W name.  All but EmptyRange, IndexWrite and
/// IgnoredOpenMP are on by default; -Wparc turns those on too, and -Wall
/// IgnoredOpenMP, as gcc's -Wall does its -Wunknown-pragmas.
enum class OwnWarning : unsigned {
  SyncCall,               ///< parc-sync-call: `sync()` is the C library's
  EmptyBody,              ///< parc-empty-body: a parfor header with no body
  IndexConversion,        ///< parc-index-conversion: FROM/TO/STEP changed by the index type
  ZeroStep,               ///< parc-zero-step: a constant STEP that is or becomes zero
  InclusiveTo,            ///< parc-inclusive-to: TO one past the end of an array
  UninitializedSemaphore, ///< parc-uninitialized-semaphore
  EmptyRange,             ///< parc-empty-range: constants that make the range empty (off:
                          ///< a test of the contract's empty ranges writes them on purpose)
  CountOverflow,          ///< parc-count-overflow: 2^64 iterations or more
  SignalHandler,          ///< parc-signal-handler: a construct in a signal handler
  IgnoredOpenMP,          ///< parc-ignored-openmp: `#pragma omp` without -fopenmp (also
                          ///< -Wall and -W[no-]unknown-pragmas, gcc's name for it)
  OpenMPInActivity,       ///< parc-openmp-in-activity: `#pragma omp barrier`, `single`,
                          ///< `master` honoured in an activity, which is no OpenMP thread
  PrivateSemaphore,       ///< parc-private-semaphore: a semaphore declared in an activity
                          ///< and used only by it
  BusyWait,               ///< parc-busy-wait: a loop in an activity that only tests
                          ///< memory another activity may change
  IndexWrite,             ///< parc-index-write: the body of a parfor or lparfor writes
                          ///< its index, which skips no iteration as a for's would
};
constexpr unsigned NumOwnWarnings = 14;

/// The option's name without -W ("parc-inclusive-to").
llvm::StringRef ownWarningName(OwnWarning W);

/// The warnings a group name (without -W) stands for, as a mask of
/// 1 << OwnWarning: all for "parc", one for its own name, 0 for a name
/// that is not parcc's.
unsigned ownWarningMask(llvm::StringRef Group);

/// -W<Opt>, Opt without the -W, about parcc's warnings: the group it names
/// after no-, error= or no-error=, when that starts with "parc" (known or
/// not); empty otherwise.
llvm::StringRef ownWarningGroupOf(llvm::StringRef Opt);

/// A command-line argument about parcc's warnings: -W<Opt> with an Opt
/// that ownWarningGroupOf takes (-Wparc-zero-step, -Wno-error=parc, and a
/// misspelt -Wparc-zero-stp too).
bool isOwnWarningOption(llvm::StringRef Arg);

/// For a group that starts with "parc" but is none of parcc's: the nearest
/// name, for "did you mean".
llvm::StringRef nearestOwnWarning(llvm::StringRef Group);

/// Reports Fmt at L at level Lv with its option as Clang writes it (" [-WOption]",
/// " [-Werror,-WOption]" when -Werror made it an error): parcc's own
/// warnings, whose custom IDs belong to no group Clang could name.
clang::DiagnosticBuilder reportWithOption(clang::DiagnosticsEngine &D, clang::SourceLocation L,
                                          clang::DiagnosticsEngine::Level Lv,
                                          llvm::StringRef Fmt, llvm::StringRef Option);

/// What each warning is at one point of the file: off, a warning, an error.
class OwnWarningState {
public:
  OwnWarningState() {
    Each[static_cast<unsigned>(OwnWarning::EmptyRange)].Enabled = false;
    // The contract makes the index a private variable, which a program
    // may write (a test of that privacy does): -Wparc turns it on.
    Each[static_cast<unsigned>(OwnWarning::IndexWrite)].Enabled = false;
    Each[static_cast<unsigned>(OwnWarning::IgnoredOpenMP)].Enabled = false; // -Wall: as gcc's
  }
  /// -W<Opt> (without -W), applied in command-line order.  Acts on
  /// parcc's groups, and on error, no-error, everything and no-everything.
  void applyOption(llvm::StringRef Opt);
  /// `#pragma ... diagnostic <Sev> "-W<Group>"` for one of parcc's groups.
  void applyPragma(unsigned Mask, clang::diag::Severity Sev);
  /// Ignored, Warning, Error or Fatal, under -w when IgnoreAll.
  clang::DiagnosticsEngine::Level level(OwnWarning W, bool IgnoreAll) const;
  /// The level of "unknown warning group" for a pragma's "-Wparc..." name
  /// that is none of parcc's (-Wunknown-warning-option, on by default).
  clang::DiagnosticsEngine::Level unknownGroupLevel(bool IgnoreAll) const;

private:
  struct One {
    bool Enabled = true;
    /// -Werror=NAME or a pragma's `error` (1), -Wno-error=NAME or a
    /// pragma's `warning` (0), neither (-1): -Werror decides.
    signed char AsError = -1;
    /// A pragma's `fatal`.
    bool Fatal = false;
  };
  One Each[NumOwnWarnings];
  bool WarningsAsErrors = false;
  bool UnknownGroups = true;
};

/// A `#pragma clang diagnostic` or `#pragma GCC diagnostic` line: push,
/// pop, or a severity for one of parcc's groups.
struct DiagnosticPragma {
  enum KindTy { Push, Pop, Set } Kind;
  clang::SourceLocation Loc;
  unsigned Mask = 0;
  clang::diag::Severity Sev = clang::diag::Severity::Warning;
};

/// The tokens of the directive line whose `#` is at Hash, read raw.
std::vector<clang::Token> rawDirectiveTokens(const clang::SourceManager &SM,
                                             const clang::LangOptions &LO,
                                             clang::SourceLocation Hash);

/// The pragma of the line whose `#` is at Hash, if it is one of those
/// DiagnosticPragma records; Unknown gets the group of a "-Wparc..." name
/// that is not parcc's, with the location of its string.  LineEnd: the
/// file offset just past the line's last token.
bool readDiagnosticPragma(const clang::SourceManager &SM, const clang::LangOptions &LO,
                          clang::SourceLocation Hash, DiagnosticPragma &Out,
                          std::string &Unknown, clang::SourceLocation &UnknownLoc,
                          unsigned &LineEnd);

/// The command line's state, then the file's pragmas before a location.
class OwnWarnings {
public:
  OwnWarningState CommandLine;
  /// In the order the preprocessor met them.
  std::vector<DiagnosticPragma> Pragmas;
  clang::DiagnosticsEngine::Level level(OwnWarning W, clang::SourceLocation L,
                                        const clang::SourceManager &SM, bool IgnoreAll) const;
  /// The main file's pragma lines that name a "-Wparc..." group, as B1
  /// [begin, end): the emitted C leaves them out, or gcc (-Wpragmas) and
  /// clang (-Wunknown-warning-option) would warn about a group they lack
  /// when that C is compiled by hand.
  std::vector<std::pair<unsigned, unsigned>> OwnPragmaLines;
};

} // namespace parcc

#endif
