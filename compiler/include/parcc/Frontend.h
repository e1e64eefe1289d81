//===- Frontend.h - one source file from PARC to C ---------------*- C++ -*-===//
//
// The front end of parcc for one .pc (or .c) file: the preprocessor finds the
// regions #if skips, the token pass writes B1, Clang parses it (diagnostics
// mapped to the user's text), Analysis and Checks judge it, the Outliner
// lowers it.
//
//===----------------------------------------------------------------------===//
#ifndef PARCC_FRONTEND_H
#define PARCC_FRONTEND_H

#include "parcc/BackEndFeatures.h"
#include "parcc/Session.h"

#include <string>
#include <vector>

namespace parcc {

struct FrontendOptions {
  /// Options for Clang as the user gave them (-I -D -U -std= -W -include
  /// -isystem -iquote -idirafter -O -f... that affect parsing).
  std::vector<std::string> ClangArgs;
  std::string RuntimeIncludeDir;
  std::string ResourceDir;
  /// Path of a clang executable for the driver's defaults (only its
  /// directory matters; it need not exist).
  std::string ClangPath;
  LowerOptions Lower;
  /// -MD/-MMD: dependency file of the main parse.
  std::string DepFile;
  std::vector<std::string> DepTargets;
  bool DepSystemHeaders = true;
  bool DepPhony = false;
  /// -E only: -dM -dD -dI -P -C -CC, as cc takes them.
  std::vector<std::string> PreprocessFlags;
  /// When the lowered C goes on to a back end: what it compiles (see
  /// BackEndFeatures.h).  Unset: no question is asked.
  BackEndQuestions BackEnd;
};

/// Translates Path.  With SyntaxOnly, stops after the checks.  Diagnostics
/// are printed to stderr; returns false on any error.
bool translateFile(const std::string &Path, const FrontendOptions &Opts, bool SyntaxOnly,
                   std::string &OutC);

/// -E: the file preprocessed as written (constructs survive).  OutFile "-"
/// is stdout.  With AsCompiled (-M, -MM), parc.h is included as a compile
/// includes it, so that the dependencies are the ones -MD would write.
bool preprocessFile(const std::string &Path, const FrontendOptions &Opts,
                    const std::string &OutFile, bool AsCompiled = false);

/// A -W option of the user's that Clang does not know, with Clang's
/// message for it ("unknown warning option '-Wal'; did you mean
/// '-Wall'?") and whether -Werror made that message an error.
struct UnknownWarningOption {
  std::string Flag;
  std::string Message;
  bool Error;
  /// A misspelt name of parcc's own warnings (-Wparc-zero-stp): no back
  /// end knows it either.
  bool Own = false;
};

/// The -W options among Args (the user's options for Clang, in order) that
/// Clang does not know, as Clang judges them (after -w, -Werror and
/// -Wno-unknown-warning-option among Args).  -Wno-X is never one: gcc
/// takes an unknown -Wno-X without a word, so that a newer compiler's
/// option does not break an older one's build.
std::vector<UnknownWarningOption> unknownWarningOptions(const std::vector<std::string> &Args);

} // namespace parcc

#endif
