//===- BackEndFeatures.h - what Clang takes and a back end may not -*- C++ -*-===//
//
// PARC is C as Clang 19 accepts it, but the lowered C is compiled by the
// back-end C compiler (cc: gcc 12 on Debian 12), which lacks some of what
// Clang takes: _BitInt, the C23 keywords, #embed, Clang's own builtins and
// attributes.  The front end notes where the user's code (not a system
// header: the back end reads its own) uses such a feature; when it does,
// the back end is asked, once, whether it compiles a small example of each,
// and every feature it lacks is reported at its first use, with the way
// out, instead of the back end's errors inside the lowered C.  Programs
// that use none of them cost nothing.
//
//===----------------------------------------------------------------------===//
#ifndef PARCC_BACKENDFEATURES_H
#define PARCC_BACKENDFEATURES_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/Token.h"

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
}

namespace parcc {

/// The driver's answers about its back end (FrontendOptions::BackEnd).
struct BackEndQuestions {
  /// Compiles Text (C) with the back end and the options the lowered C gets,
  /// checking only; fills ErrorLines with the lines of Text that it reports
  /// errors on.  False: no answer (the back end did not run, or failed
  /// without an error parcc can place).
  std::function<bool(const std::string &Text, std::set<unsigned> &ErrorLines)> Compile;
  /// The back end as a message names it, with the way out: "the back-end C
  /// compiler 'cc' (gcc 12.2.0)" and "set PARCC_CC=clang-19 ...".
  std::function<std::string()> Name;
  std::function<std::string()> WayOut;
  /// The file reads a file with #embed or asks __has_embed: the back end
  /// must look for it in the file's directory too.
  std::function<void()> Embeds;
};

class BackEndFeatures {
public:
  /// Prelude: the B1 range of the token pass's marker declarations.
  BackEndFeatures(clang::SourceManager &SM, unsigned PreludeBegin, unsigned PreludeEnd)
      : SM(SM), PreludeBegin(PreludeBegin), PreludeEnd(PreludeEnd) {}
  /// A token the parser gets.
  void token(const clang::Token &T, clang::Preprocessor &PP);
  /// An #include of a standard header by the user's code (<stdbool.h>
  /// defines bool for a back end without the C23 keyword).
  void included(clang::SourceLocation HashLoc, llvm::StringRef Name, bool Angled);
  void embed(clang::SourceLocation HashLoc);
  /// The condition of an #if or #elif: C23's `true` and `false` there are
  /// 1 and 0, where a back end without them reads 0 for both.
  void condition(clang::SourceRange Cond, clang::Preprocessor &PP);
  /// A conditional directive opens (#if, #ifdef, #ifndef at Hash; its
  /// condition is read from Cond to the end of the line), goes on (#elif) or
  /// ends (#endif).  Inside a conditional that asks which compiler this
  /// is (__has_builtin, __clang__, ...) and that the emitted C keeps for
  /// the back end, a feature is not reported: the back end chooses its
  /// own branch (xxHash's `#if __has_builtin(__builtin_rotateleft32)`).
  void openConditional(clang::SourceLocation Hash, clang::SourceLocation Cond,
                       clang::Preprocessor &PP);
  void continueConditional(clang::SourceLocation Cond, clang::Preprocessor &PP);
  void closeConditional(clang::SourceLocation Endif);
  /// The features that only the AST shows (auto, fixed enums, ...).
  void scan(clang::ASTContext &Ctx);
  bool empty() const { return Uses.empty(); }
  /// Asks the back end about the features used; reports each that it
  /// lacks at its first use.  False if it reported any.
  bool check(clang::DiagnosticsEngine &D, const BackEndQuestions &Q) const;

private:
  void add(clang::SourceLocation L, const std::string &What, const std::string &Example,
           const char *Group = "");
  bool userWritten(clang::SourceLocation L) const;
  void keyword(clang::tok::TokenKind Kind, llvm::StringRef Spelling, clang::SourceLocation L);

  struct Use {
    std::string What;    // as a message names it: "_BitInt"
    std::string Example; // C that a back end with the feature compiles
    clang::SourceLocation Loc;
    /// Uses of one group (C23's keywords) are reported once: one cause,
    /// one way out.
    const char *Group;
  };
  bool asksCompiler(clang::SourceLocation From, clang::Preprocessor &PP) const;
  bool keptForBackEnd(clang::SourceLocation Hash, const clang::LangOptions &LO) const;
  bool inCompilerConditional(clang::SourceLocation L) const;

  clang::SourceManager &SM;
  unsigned PreludeBegin, PreludeEnd;
  /// Open conditionals: where each began, and whether it asks which
  /// compiler this is (and is kept for the back end).
  struct Open {
    clang::SourceLocation Begin;
    bool Asks;
  };
  std::vector<Open> Conds;
  /// Closed conditionals that asked, for the AST's features (scan).
  std::vector<clang::SourceRange> AskedRanges;
  std::vector<Use> Uses;
  std::set<std::string> Seen;
  std::vector<std::string> Headers; // "<stdbool.h>"
};

} // namespace parcc

#endif
