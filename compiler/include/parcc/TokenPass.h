//===- TokenPass.h - PARC keywords to parseable C (text B1) ------*- C++ -*-===//
//
// The first pass of parcc: Clang's raw Lexer walks the main file and replaces
// each PARC keyword by a fixed piece of C that Clang parses, built around calls
// to marker functions (parc_mark_*) that the AST passes recognise.  Every line
// stays on its line; PosMap translates offsets in the result (B1) back to the
// user's source.  Structural errors (missing or stray epar, a misplaced ':',
// a malformed parfor header, 'mapped' before anything but lparfor) are
// reported here, at the user's line and column.
//
//   parblock { A } : { B } epar
//   =>  { parc_mark_parblock(); do { A } while (parc_mark_act());
//                               do { B } while (parc_mark_act()); parc_mark_end(); }
//
//   parfor int i; F; T; S; BODY epar          (lparfor: parc_mark_lparfor(0|1))
//   =>  { int i; parc_mark_parfor();
//         parc_mark_bounds(0, (void *)(__typeof__(sizeof 0))&i, (F));
//         parc_mark_bounds(1, 0, (T)); parc_mark_bounds(2, 0, (S));
//         while (parc_mark_act()) { BODY } parc_mark_end(); }
//
//   pbreak;  => parc_mark_pbreak();     sync;  => parc_mark_sync();
//   preturn e;  => return e;            (the offset is remembered as a preturn)
//
//===----------------------------------------------------------------------===//
#ifndef PARCC_TOKENPASS_H
#define PARCC_TOKENPASS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace parcc {

/// Offsets in B1 -> offsets in the original source.  Copied text maps one to
/// one; text the token pass synthesised maps to the keyword it replaces.
class PosMap {
public:
  void addCopy(unsigned B1Start, unsigned OrigStart, unsigned Len);
  void addSynthetic(unsigned B1Start, unsigned Len, unsigned OrigAnchor);
  void setSizes(unsigned B1Size, unsigned OrigSize) {
    this->B1Size = B1Size;
    this->OrigSize = OrigSize;
  }
  unsigned toOrig(unsigned B1Off) const;
  /// True when B1Off lies in text that the token pass wrote.
  bool isSynthetic(unsigned B1Off) const;

private:
  struct Seg {
    unsigned B1Start, Len, Orig;
    bool Copy;
  };
  const Seg *find(unsigned B1Off) const;
  std::vector<Seg> Segs;
  unsigned B1Size = 0, OrigSize = 0;
};

/// A region of the main file that the preprocessor skipped (#if 0 ...), as
/// half-open original offsets.
struct SkippedRange {
  unsigned Begin, End;
};

struct TokenPassResult {
  bool Ok = true;
  /// The file uses some PARC keyword (B1 differs from the source).
  bool UsesParc = false;
  std::string Text;
  PosMap Map;
  /// B1 offsets of the `return` that replaces each preturn, ascending.
  std::vector<unsigned> PreturnOffsets;
  /// B1 range of the injected marker declarations (empty when none).
  unsigned PreludeBegin = 0, PreludeEnd = 0;
  /// The user's identifiers that look like names parcc generates
  /// (parc_rv_, parc_env_f_L3, main_parfor_L12, ...), renamed in B1 to
  /// placeholders that nothing else uses: (placeholder, the user's name).
  /// restoreUserNames undoes it in the emitted C after renaming parcc's own
  /// names that equal one of them.
  std::vector<std::pair<std::string, std::string>> Renamed;
  /// Original offsets of the STEP of each parfor or lparfor whose epar
  /// follows its header at once.
  std::vector<unsigned> BodilessSteps;
  /// After an error (!Ok): what holds it, [RecoverBegin, RecoverEnd) in
  /// the original text: the construct in error (RecoverStatement), or else
  /// the inside of the function body that holds it (empty when there is
  /// none, as at file scope).  The front end blanks it (a construct becomes
  /// an empty statement) and goes on, to report the rest of the file's
  /// errors in the same run.
  unsigned RecoverBegin = 0, RecoverEnd = 0;
  bool RecoverStatement = false;
};

/// Whether parcc may generate the identifier Name: parc_..._ (temporaries,
/// sites, descriptors), parc_env_..., parc_mark_..., and body functions
/// FUNC_parfor_L12, FUNC_lparfor_L12, FUNC_parblock_L12.
bool looksGenerated(llvm::StringRef Name);

/// The word of Words nearest to Name, case aside, if it is within two
/// edits; else empty.  For "did you mean" about a misspelt PARC keyword.
llvm::StringRef nearestKeyword(llvm::StringRef Name, llvm::ArrayRef<llvm::StringRef> Words);

/// The marker functions, declared in front of the first token of B1.
extern const char MarkerPrelude[];

/// Runs the token pass over the main file FID of SM.  Errors go to Diags,
/// whose source manager is SM.
TokenPassResult runTokenPass(const clang::SourceManager &SM, clang::FileID FID,
                             const clang::LangOptions &LangOpts,
                             llvm::ArrayRef<SkippedRange> Skipped,
                             clang::DiagnosticsEngine &Diags);

/// C has a `::` token only inside `[[...]]` attributes and in the operand
/// lists of an asm statement (`asm("" ::: "memory")`); anywhere else it is
/// an error, and Clang 19's C parser loops forever on some (`(::x)`).  Fed
/// the kinds of a token stream (identifiers as their keyword kinds), it
/// tells which `::` are misplaced.
class ColonColonCheck {
public:
  bool misplaced(clang::tok::TokenKind K);

private:
  std::vector<char> Open; // per open '[' or '(': `::` allowed inside
  unsigned Allowed = 0;
  bool PrevLSquare = false, AsmPending = false;
};

/// What a cheap raw scan of the main file tells before parsing.
struct SourceScan {
  /// A PARC keyword and a conditional directive: the preprocessor must find
  /// the skipped regions first.
  bool HasKeyword = false, HasConditional = false;
  /// A `#line` directive or a GNU line marker (`# 12 "file"`): the
  /// preprocessor tells what lines it gives.
  bool HasLineDirective = false;
  /// `faa` declared at file scope (scanSource tells a declaration from a
  /// call): the file declares a faa of its own (plain C that never meant
  /// parc.h's macro), so parc.h is not force-included.
  bool DeclaresFaa = false;
};
SourceScan scanSource(llvm::StringRef Text, const clang::LangOptions &LangOpts);

} // namespace parcc

#endif
