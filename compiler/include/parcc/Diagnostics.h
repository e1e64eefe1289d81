//===- Diagnostics.h - diagnostics at the user's line and column -*- C++ -*-===//
//
// Clang parses B1, the token pass's rewrite of the main file, whose columns
// differ from the user's wherever a PARC keyword was replaced.  The user's
// text is loaded once more into a SourceManager of its own
// (OriginalSource); DiagPrinter maps every main-file location of a Clang
// diagnostic through the PosMap into that copy and prints it with Clang's
// TextDiagnostic, so messages, source lines and carets are the user's.
//
//===----------------------------------------------------------------------===//
#ifndef PARCC_DIAGNOSTICS_H
#define PARCC_DIAGNOSTICS_H

#include "parcc/TokenPass.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnostic.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace parcc {

/// The user's main file, as written, in a SourceManager of its own.  Its
/// DiagnosticsEngine reports the token pass's errors.
class OriginalSource {
public:
  OriginalSource(llvm::StringRef Path, llvm::StringRef Text,
                 clang::DiagnosticOptions *DiagOpts, clang::DiagnosticConsumer *Client);
  clang::SourceManager &sm() { return *SM; }
  clang::FileID fid() const { return FID; }
  clang::SourceLocation loc(unsigned Offset) const;
  clang::DiagnosticsEngine &diags() { return *Diags; }
  /// The user's `#line` (or `# N "file"`) directive whose number token is at
  /// Offset: positions after it are told as the directive says, in
  /// diagnostics and in the lowered C's own #line directives.  Filename is
  /// empty when the directive names none.  In offset order.
  void addLineNote(unsigned Offset, unsigned LineNo, llvm::StringRef Filename,
                   clang::SrcMgr::CharacteristicKind Kind);
  bool hasLineNotes() const { return HasLineNotes; }

private:
  bool HasLineNotes = false;
  std::unique_ptr<clang::FileManager> FM;
  std::unique_ptr<clang::DiagnosticsEngine> Diags;
  std::unique_ptr<clang::SourceManager> SM;
  clang::FileID FID;
};

/// The printer's stream: passes its text on, or, while held, keeps each
/// diagnostic (with its notes) apart, to be passed on in line order.
class HeldStream : public llvm::raw_ostream {
public:
  explicit HeldStream(llvm::raw_ostream &Real) : Real(Real) {
    SetUnbuffered();
    enable_colors(Real.colors_enabled());
  }
  void hold() { Holding = true; }
  bool holding() const { return Holding; }
  /// A diagnostic that is not a note begins; Key orders it.
  void startGroup(uint64_t Key, clang::DiagnosticsEngine::Level Level) {
    Groups.push_back({Key, Level, {}});
  }
  /// What release() passed on.
  struct Released {
    unsigned Errors = 0, Warnings = 0;
    bool Limited = false; // stopped at the error limit
    bool Any = false;     // anything was held
  };
  /// Passes the held diagnostics on, by Key (stable), and stops holding.
  /// As Clang's engine would have: after ErrorLimit errors (0: none), the
  /// rest is dropped (the caller says so), and so is everything after a
  /// fatal error.
  Released release(unsigned ErrorLimit = 0);
  bool is_displayed() const override { return Real.is_displayed(); }

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Pos; }

  struct Group {
    uint64_t Key;
    clang::DiagnosticsEngine::Level Level;
    std::string Text;
  };
  llvm::raw_ostream &Real;
  bool Holding = false;
  uint64_t Pos = 0;
  std::vector<Group> Groups;
};

/// Prints diagnostics in Clang's format.  Locations in the main file of the
/// parse (B1) are mapped to the user's text; headers print as they are.
class DiagPrinter : public clang::DiagnosticConsumer {
public:
  DiagPrinter(llvm::raw_ostream &OS, clang::DiagnosticOptions *Opts)
      : OS(OS), Opts(Opts) {}
  /// parcc's own checks run after the parse, one check after another over
  /// the whole file: the parse's diagnostics and theirs are held until the
  /// checks end, then printed in the order of their lines (a tester's
  /// mistakes on lines 2, 3, 4 and 5 were reported 2, 5, 4, 3: Clang's
  /// first, then parcc's check by check).
  /// The parse's engine gets no error limit while the diagnostics are
  /// held (parcc's checks report after the parse, and their errors on
  /// earlier lines would be cut while Clang's later ones were kept): the
  /// limit, Limit (-ferror-limit), is applied here, in line order.
  void holdInLineOrder(unsigned Limit) {
    ErrorLimit = Limit;
    OS.hold();
  }
  void releaseInLineOrder();
  /// The run after the token pass's error (Frontend.cpp, blankBody): its
  /// warnings are not printed.
  /// An error where an earlier run's error is (in line order) is left out
  /// too: it follows from what that run's error made the next run blank
  /// (`parblock {...} : {...}` and no epar before `sync;`: the sync, now
  /// outside the parblock).
  void setRecovering() {
    Recovering = true;
    EarlierErrors.insert(ErrorKeys.begin(), ErrorKeys.end());
  }
  void setOriginal(OriginalSource *O) { Orig = O; }
  /// The text as the user wrote it, where the run's text (Orig) differs
  /// at the same offsets (a recovery run's, with a construct blanked):
  /// diagnostics quote its lines, not the blanked ones.
  void setShown(OriginalSource *S) { Shown = S; }
  void setMap(const PosMap *M) { Map = M; }
  /// B1 range of the marker declarations: notes pointing there are dropped.
  void setPrelude(unsigned Begin, unsigned End) {
    PreludeBegin = Begin;
    PreludeEnd = End;
  }
  /// B1 offsets of the `return` tokens that stand for the user's preturn.
  void setPreturns(const std::vector<unsigned> *P) { Preturns = P; }
  /// The token pass's placeholders for the user's names that look like
  /// parcc's (`__parcc_u0` for `parc_x_`), with the names: messages and
  /// fix-its name the user's.
  void setRenamed(const std::vector<std::pair<std::string, std::string>> *R) { Renamed = R; }
  /// TokenPassResult::BodilessSteps.
  void setBodilessSteps(const std::vector<unsigned> *B) { BodilessSteps = B; }
  /// Where the parse's errors are, in the source manager SM, as locations
  /// in its main file (expansion locations): parcc's checks then still run
  /// on the declarations that hold none of them (Frontend.cpp).  Warnings
  /// that -Werror or a pragma made errors leave the tree whole and are not
  /// counted, nor are the errors in the user's own headers (what uses
  /// their broken declarations is broken too).  False when an error has
  /// no place in SM's main file or a user's header (a system header's, the
  /// command line's, or one before the parse).
  bool errorsLocated(const clang::SourceManager &SM,
                     std::vector<clang::SourceLocation> &Out) const;

  void BeginSourceFile(const clang::LangOptions &LO, const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

private:
  clang::TextDiagnostic &origTD();
  /// origTD's diagnostic at Loc, a location of Orig's, quoting Shown's
  /// text where there is one.
  void emitOrig(clang::SourceLocation Loc, clang::DiagnosticsEngine::Level Level,
                llvm::StringRef Msg, llvm::ArrayRef<clang::CharSourceRange> Ranges,
                llvm::ArrayRef<clang::FixItHint> FixIts);
  clang::TextDiagnostic &otherTD();
  bool isPreturnMismatch(const clang::Diagnostic &Info) const;
  bool isSemArgMismatch(const clang::Diagnostic &Info) const;
  bool isSyncNameUnused(const clang::Diagnostic &Info) const;
  bool isFaaValueMismatch(const clang::Diagnostic &Info) const;
  clang::SourceLocation mapLoc(const clang::SourceManager &SM, clang::SourceLocation L,
                               bool &InMain) const;
  void macroBacktrace(const clang::Diagnostic &Info);

  HeldStream OS;
  unsigned ErrorLimit = 0;
  bool Recovering = false;
  std::set<uint64_t> ErrorKeys, EarlierErrors; // lineOrderKey of errors
  void noteError(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info);
  std::vector<std::pair<const clang::SourceManager *, clang::SourceLocation>> ErrorLocs;
  bool ErrorElsewhere = false;
  uint64_t lineOrderKey(const clang::Diagnostic &Info, clang::SourceLocation At);
  /// Per line, the furthest column of Clang's diagnostics so far.
  std::map<uint64_t, unsigned> ClangColumns;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> Opts;
  OriginalSource *Orig = nullptr, *Shown = nullptr;
  const PosMap *Map = nullptr;
  unsigned PreludeBegin = 0, PreludeEnd = 0;
  /// A call of faa with the wrong number of arguments was reported.
  bool FaaArity = false;
  /// Where Clang took such a faa for an undeclared identifier: the
  /// diagnostics there, and the notes after them, are dropped.
  std::set<clang::SourceLocation::UIntTy> FaaDropped;
  bool DropNotes = false;
  /// B1 offsets of header parentheses where Clang took an undeclared name
  /// for a type keyword: its later errors there are dropped (boundParen).
  std::set<unsigned> DroppedParens;
  /// The lines (source manager, file, line) on which Clang took a construct
  /// keyword for a name (a construct in a header, in a macro): the rest of
  /// such a line is PARC that cannot compile there, and Clang's other
  /// diagnostics on it are dropped with their notes.  (Not those up to the
  /// epar: Clang's recovery may swallow it, and the user's real errors
  /// after it would go unreported.)
  std::set<std::tuple<const clang::SourceManager *, clang::FileID, unsigned>> StrayLines;
  bool onStrayLine(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info,
                   llvm::StringRef Msg);
  const std::vector<unsigned> *Preturns = nullptr;
  const std::vector<unsigned> *BodilessSteps = nullptr;
  const std::vector<std::pair<std::string, std::string>> *Renamed = nullptr;
  void unrename(std::string &Text) const;
  /// The last error or warning passed on, as its source manager, file
  /// location and text: a macro argument expanded twice (`TWICE(sync;)`)
  /// repeats it word for word at the same place, and the repeat is dropped
  /// with its notes.
  std::tuple<const clang::SourceManager *, clang::SourceLocation::UIntTy, std::string> Last;
  clang::LangOptions LO;
  std::unique_ptr<clang::TextDiagnostic> OrigTD, OtherTD;
};

} // namespace parcc

#endif
