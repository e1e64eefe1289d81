//===- Session.h - state shared by the passes over one file ------*- C++ -*-===//
#ifndef PARCC_SESSION_H
#define PARCC_SESSION_H

#include "parcc/Diagnostics.h"
#include "parcc/EditList.h"
#include "parcc/Model.h"
#include "parcc/TokenPass.h"
#include "parcc/Warnings.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace parcc {

/// See Session::Macros.
struct MacroUses {
  /// `#x` of a macro written in the file, of an argument written there.
  std::set<unsigned> Stringized;
  /// `#x` reached through another macro's expansion (`#define S(x) STR(x)`,
  /// which expands its argument before STR sees it).
  std::set<unsigned> StringizedDeep;
  /// `x ## y` of a macro written in the file, of an argument written there:
  /// rewritten in place, the paste would get `(*parc_p_x_)`.
  std::set<unsigned> Pasted;
  /// Per outermost expansion written in the file (keyed by its B1 offset),
  /// what decides whether `#define n (*parc_p_n_)` around it renames the
  /// shared variable n and nothing else (Captures.cpp, whyNotRenamable):
  /// how many identifier tokens of each name it hands the parser,
  std::map<unsigned, std::map<const clang::IdentifierInfo *, unsigned>> Emitted;
  /// the names of the macros it runs,
  std::map<unsigned, std::set<const clang::IdentifierInfo *>> Expanded;
  /// and the names that reach `##` after an enclosing macro substituted
  /// them as an argument (and so would first have expanded n: the paste
  /// would get `(*parc_p_n_)`; a `#` that does so only spells the string
  /// differently, which is allowed).
  /// A macro called in another's argument runs while that argument is
  /// expanded, and is recorded in these two at its own offset, inside the
  /// outermost expansion's range (Outliner::inSet looks there).
  std::map<unsigned, std::set<const clang::IdentifierInfo *>> PastedDeep;
  /// Expansions written in the file of macros defined by an included file,
  /// with the B1 offset of the file's outermost #include (Checks.cpp,
  /// checkIncludedMacros: an #include inside a function stays there, and an
  /// activity's outlined function, emitted before it, does not see it).
  struct Included {
    unsigned Use, Include;
    const clang::IdentifierInfo *Name;
  };
  std::vector<Included> FromIncludes;
  /// Macros of the user's (not of system headers) named as a C keyword that
  /// parcc's code for a construct uses (`#define int long long`, `#define
  /// struct union`), each with where it takes effect in the file and where
  /// an #undef ends it (B1 offsets; ~0u: never): Frontend.cpp,
  /// reportKeywordMacros.
  struct KeywordMacro {
    const clang::IdentifierInfo *Name;
    clang::SourceLocation Def;
    unsigned From, To;
  };
  std::vector<KeywordMacro> Keywords;
  /// The variables that OpenMP or OpenACC directives of the file name, when
  /// the back end honours them (Frontend.cpp, DirectiveRecorder, which
  /// finds each name's declaration where the directive stands): Checks.cpp,
  /// checkDirectiveNames.
  struct DirectiveName {
    unsigned Hash;        // B1 offset of the directive's `#`
    clang::SourceLocation At;
    const clang::VarDecl *Var;
    const char *Kind;     // "omp" or "acc"
  };
  std::vector<DirectiveName> DirectiveNames;
  /// `#pragma omp` directives of the file that the back end ignores (no
  /// -fopenmp): Checks.cpp, checkIgnoredOpenMP.
  struct IgnoredDirective {
    clang::SourceLocation At; // the word after `omp`
    std::string Name;         // "atomic", "parallel for", ...
  };
  std::vector<IgnoredDirective> IgnoredDirectives;
  /// `#pragma omp` directives of the file that the back end honours:
  /// Checks.cpp, checkOpenMPOnConstructs.
  struct HonouredDirective {
    unsigned End;             // B1 offset just past the directive's line
    clang::SourceLocation At; // the word after `omp`
    std::string Name;         // "parallel for", ...
  };
  std::vector<HonouredDirective> OpenMPDirectives;
};

struct LowerOptions {
  /// Emit parc_poll() at function entries and loop back-edges.
  bool Polls = true;
  /// Lower the syncs of parfor bodies to frames where exact (LowerSync.cpp).
  bool StacklessSync = true;
  /// The file declares its own faa: undo parc.h's macro in the output.
  bool UndefFaa = false;
  /// __PARCC__ is defined where the file starts (not undone by -U): the
  /// emitted C defines it too, for the conditionals left to the back end.
  bool DefinesParcc = true;
  /// The back end honours `#pragma omp` (-fopenmp), only its simd
  /// directives (-fopenmp-simd), `#pragma acc` (-fopenacc): a directive in
  /// an activity must not name a variable the activity shares.
  bool OpenMP = false, OpenMPSimd = false, OpenACC = false;
  /// The whole file runs under non-default floating-point modes as far as
  /// the back end knows (-frounding-math, -ffp-model=strict): as if
  /// `#pragma STDC FENV_ACCESS ON` were at its top.
  bool FenvAccess = false;
};

/// One translation unit on its way through analysis, checks and lowering.
struct Session {
  Session(clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags, const TokenPassResult &TP,
          OriginalSource &Orig, std::string FileName, LowerOptions Opts);

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  clang::DiagnosticsEngine &Diags;
  /// What the command line and the file's diagnostic pragmas make of
  /// parcc's own warnings (Warnings.h).
  OwnWarnings Warnings;
  const TokenPassResult &TP;
  OriginalSource &Orig;
  /// The file name as given to parcc: for #line, sites and messages.
  std::string FileName;
  LowerOptions Opts;
  /// Active #define and #undef lines of the main file: B1 [begin, end) of
  /// each line, in order (recorded by the preprocessor during the parse).
  std::vector<std::pair<unsigned, unsigned>> MacroLines;
  /// Active `#pragma GCC diagnostic` and `#pragma clang diagnostic` lines
  /// of the main file, as MacroLines: replayed before the functions that
  /// parcc outlines from the code they govern.
  std::vector<std::pair<unsigned, unsigned>> DiagPragmaLines;
  /// What macro expansions do with the main file's text (recorded by the
  /// preprocessor during the parse): the B1 offsets of identifiers that a
  /// macro turns into a string (`#x`), directly or not, and, by the B1
  /// offset of each expansion, the identifiers it hands the parser, the
  /// macros it runs and the names it quotes or pastes after expanding them.
  MacroUses Macros;
  Model M;
  EditList Edits;

  /// The parse reported errors at Errors (expansion locations in the main
  /// file): the checks then look only at the top-level declarations that
  /// hold none of them, are valid, and have no expression Clang could not
  /// build, so that a class sees its `return` inside a parfor beside its
  /// typo in one run, not after fixing the typo.  Nothing is lowered.
  void setParseErrors(const std::vector<clang::SourceLocation> &Errors);
  /// The translation unit's top-level declarations that the checks and the
  /// analysis look at: all of them, or, after errors, those left whole.
  const std::vector<clang::Decl *> &checkedDecls();
  /// A RecursiveASTVisitor over checkedDecls().
  template <class Visitor> Visitor &traverseChecked(Visitor &&V) {
    for (clang::Decl *D : checkedDecls())
      V.TraverseDecl(D);
    return V;
  }

  /// B1 offset of a location in the main file (file location).
  unsigned offset(clang::SourceLocation L) const;
  /// Offset just past the token at L.
  unsigned endOffset(clang::SourceLocation L) const;
  bool inMainFile(clang::SourceLocation L) const;
  /// Offset just past the last token of the expansion that L is part of.
  unsigned expansionEnd(clang::SourceLocation L) const;
  /// Is the token at L spelled in the main file where it is used: outside
  /// any macro, or in the argument list of the outermost macro call it is
  /// part of?  Then an edit at its spelling changes that use alone.  Not
  /// when a macro's body, token pasting or a header spells it, even in an
  /// argument of another call (`faa(&s, GV)` with `#define GV (v * 2)`).
  bool writtenInPlace(clang::SourceLocation L) const;
  /// The first token at or after B1 offset Off: its offset and kind (raw
  /// lexing, comments skipped).  Returns false at end of file.
  bool tokenAt(unsigned Off, unsigned &TokOff, clang::tok::TokenKind &Kind) const;
  struct RawToken {
    unsigned Off, Len;
    clang::tok::TokenKind Kind;
  };
  /// The raw tokens that start in B1[B, E).
  std::vector<RawToken> lexRange(unsigned B, unsigned E) const;
  /// Does B1[B, E) hold a preprocessor directive (a `#` first on its
  /// line)?  Text written twice may not: `#ifndef G` / `#define G` in it
  /// (an include guard) keeps the second copy out.
  bool hasDirective(unsigned B, unsigned E) const;
  /// Line of a B1 offset (lines are the user's: the token pass keeps them).
  unsigned lineOf(unsigned B1Offset) const;
  /// Spaces as wide as the text before B1 offset Off on its line: what
  /// keeps Off's column after a directive parcc writes in front of it.
  std::string columnPad(unsigned B1Offset) const;
  /// Line and column of a B1 offset in the user's text.
  void userPosition(unsigned B1Offset, unsigned &Line, unsigned &Col) const;
  /// Text as the body of a C string literal: `\` and `"` escaped, and the
  /// second `?` of `??` (a trigraph under -std=c99) (a file name, a
  /// function's signature, a parc_P argument).
  static std::string escaped(llvm::StringRef Text);
  /// The file name as a C string literal body (escaped).
  std::string quotedFileName() const;
  /// The file (quoted for a string literal) and line that the user's line
  /// Line stands for: its own, or what a #line of the user's says.
  void presumedLine(unsigned Line, std::string &QuotedFile, unsigned &PLine) const;
  std::string lineDirective(unsigned Line) const;

  /// Diagnostics in Clang's voice through the parse's engine (the printer
  /// maps them to the user's columns): errors and notes.
  template <unsigned N>
  clang::DiagnosticBuilder report(clang::SourceLocation L, clang::DiagnosticsEngine::Level Lv,
                                  const char (&Fmt)[N]) {
    return Diags.Report(L, Diags.getCustomDiagID(Lv, Fmt));
  }
  /// One of parcc's own warnings, at the level that the options and the
  /// pragmas before L give it (an ignored one takes its notes with it),
  /// with its option as Clang writes it: "... [-Wparc-zero-step]".
  clang::DiagnosticBuilder warn(clang::SourceLocation L, OwnWarning W, llvm::StringRef Fmt);
  template <unsigned N>
  clang::DiagnosticBuilder error(clang::SourceLocation L, const char (&Fmt)[N]) {
    return report(L, clang::DiagnosticsEngine::Error, Fmt);
  }
  template <unsigned N>
  clang::DiagnosticBuilder note(clang::SourceLocation L, const char (&Fmt)[N]) {
    return report(L, clang::DiagnosticsEngine::Note, Fmt);
  }
  bool hasErrors() const { return Diags.hasErrorOccurred(); }

  std::string printType(clang::QualType T, llvm::StringRef Name = "") const;

private:
  std::vector<unsigned> LineStarts;
  std::optional<std::vector<clang::Decl *>> Checked; // checkedDecls
};

} // namespace parcc

#endif
