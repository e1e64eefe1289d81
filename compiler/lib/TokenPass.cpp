//===- TokenPass.cpp - PARC keywords to parseable C (text B1) -------------===//
//
// See TokenPass.h for the shapes.  The pass only tracks a stack of open
// constructs and the bracket depth: that is all it takes to find the ':'
// between parblock sections, the ';' that end the parts of a parfor header
// and the 'epar' that closes each construct.  Tokens inside regions the
// preprocessor skips (#if 0) and on directive lines are left alone.
//
//===----------------------------------------------------------------------===//
#include "parcc/TokenPass.h"

#include "parcc/Checks.h"

#include "clang/Basic/IdentifierTable.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace parcc {

const char MarkerPrelude[] =
    "void parc_mark_parblock(void); void parc_mark_parfor(void); "
    "void parc_mark_lparfor(int); "
    "void parc_mark_bounds(int, ...); "
    "int parc_mark_act(void); void parc_mark_end(void); int parc_mark_sections(void); "
    "void parc_mark_pbreak(void); void parc_mark_sync(void); ";

//===--- PosMap -----------------------------------------------------------===//

void PosMap::addCopy(unsigned B1Start, unsigned OrigStart, unsigned Len) {
  if (Len)
    Segs.push_back({B1Start, Len, OrigStart, true});
}

void PosMap::addSynthetic(unsigned B1Start, unsigned Len, unsigned OrigAnchor) {
  if (Len)
    Segs.push_back({B1Start, Len, OrigAnchor, false});
}

const PosMap::Seg *PosMap::find(unsigned B1Off) const {
  // Segments are appended in B1 order and never overlap.
  auto It = std::upper_bound(Segs.begin(), Segs.end(), B1Off,
                             [](unsigned Off, const Seg &S) { return Off < S.B1Start; });
  if (It == Segs.begin())
    return nullptr;
  --It;
  if (B1Off >= It->B1Start + It->Len)
    return nullptr;
  return &*It;
}

unsigned PosMap::toOrig(unsigned B1Off) const {
  if (Segs.empty())
    return std::min(B1Off, OrigSize);
  if (B1Off >= B1Size)
    return OrigSize;
  if (const Seg *S = find(B1Off))
    return S->Copy ? S->Orig + (B1Off - S->B1Start) : S->Orig;
  return std::min(B1Off, OrigSize);
}

bool PosMap::isSynthetic(unsigned B1Off) const {
  const Seg *S = find(B1Off);
  return S && !S->Copy;
}

//===--- Tokens -------------------------------------------------------------===//

namespace {

enum class KW {
  None, Parblock, Parfor, Lparfor, Epar, Pbreak, Preturn, Sync, Mapped,
  If, While, For, Switch, Else, Do
};

KW classify(StringRef S) {
  return llvm::StringSwitch<KW>(S)
      .Case("parblock", KW::Parblock)
      .Case("parfor", KW::Parfor)
      .Case("lparfor", KW::Lparfor)
      .Case("epar", KW::Epar)
      .Case("pbreak", KW::Pbreak)
      .Case("preturn", KW::Preturn)
      .Case("sync", KW::Sync)
      .Case("mapped", KW::Mapped)
      .Case("if", KW::If)
      .Case("while", KW::While)
      .Case("for", KW::For)
      .Case("switch", KW::Switch)
      .Case("else", KW::Else)
      .Case("do", KW::Do)
      .Default(KW::None);
}

/// The spelling of an identifier after translation phase 2: a line splice
/// (backslash, optional blanks, newline) inside it is not part of the name,
/// so `par\<newline>block` is the keyword parblock.
StringRef cleanIdentifier(StringRef Raw, llvm::StringSaver &Saver) {
  if (!Raw.contains('\\'))
    return Raw;
  std::string Out;
  for (size_t I = 0; I < Raw.size(); ++I) {
    if (Raw[I] == '\\') {
      size_t J = I + 1;
      while (J < Raw.size() && (Raw[J] == ' ' || Raw[J] == '\t' || Raw[J] == '\f' || Raw[J] == '\v'))
        ++J;
      if (J < Raw.size() && Raw[J] == '\r')
        ++J;
      if (J < Raw.size() && Raw[J] == '\n') {
        I = J;
        continue;
      }
    }
    Out += Raw[I];
  }
  return Saver.save(Out);
}

StringRef identifierOf(const Token &T, llvm::StringSaver &Saver) {
  StringRef Raw = T.getRawIdentifier();
  return T.needsCleaning() ? cleanIdentifier(Raw, Saver) : Raw;
}

struct RTok {
  tok::TokenKind Kind;
  unsigned Off, Len;
  StringRef Ident; // spelling of a raw identifier, else empty
  KW Word = KW::None;
};

bool isOpener(tok::TokenKind K) {
  return K == tok::l_paren || K == tok::l_square || K == tok::l_brace;
}
bool isCloser(tok::TokenKind K) {
  return K == tok::r_paren || K == tok::r_square || K == tok::r_brace;
}
const char *closerFor(tok::TokenKind Open) {
  return Open == tok::l_paren ? ")" : Open == tok::l_square ? "]" : "}";
}
const char *spell(tok::TokenKind K) {
  return K == tok::l_paren ? "(" : K == tok::l_square ? "[" : "{";
}
/// Does the closer Close close the bracket Open?
bool closes(tok::TokenKind Open, tok::TokenKind Close) {
  return closerFor(Open)[0] == *tok::getPunctuatorSpelling(Close);
}

/// A preprocessor directive line of the main file.
struct Directive {
  enum Kind { If, Elif, Else, Endif, Other } K = Other;
  unsigned Begin; // the '#'
  unsigned End;   // the next token at the start of a line (or end of file)
  size_t NextTok; // index of the first active token after it
  bool Define = false;
  /// In a #define body: the first construct keyword ('sync' only before ';').
  unsigned MacroKw = ~0u;
  KW MacroWord = KW::None;
  /// A #define's name, and whether its body has a ';'.
  StringRef MacroName = {};
  unsigned MacroNameOff = 0;
  bool MacroSemi = false;
};

/// Lexes the main file raw; drops directive lines and skipped regions,
/// which it lists in Dirs.
std::vector<RTok> lexActive(const SourceManager &SM, FileID FID, const LangOptions &LO,
                            ArrayRef<SkippedRange> Skipped, std::vector<Directive> &Dirs,
                            llvm::StringSaver &Saver, std::vector<RTok> &DirIdents) {
  std::vector<RTok> Out;
  llvm::MemoryBufferRef Buf = SM.getBufferOrFake(FID);
  Lexer L(FID, Buf, SM, LO);
  L.SetCommentRetentionState(false);
  Token T;
  size_t SkipIdx = 0;
  bool InDirective = false;
  unsigned SinceHash = 0; // tokens of the current directive after its '#'
  unsigned SyncOff = ~0u; // a 'sync' just lexed in a #define body
  while (true) {
    bool AtEOF = L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    unsigned Off = SM.getFileOffset(T.getLocation());
    if (T.isAtStartOfLine()) {
      if (InDirective) {
        // Up to the start of this token's line: its indentation stays.
        unsigned E = Off;
        while (E > Dirs.back().Begin && Buf.getBuffer()[E - 1] != '\n')
          --E;
        Dirs.back().End = E;
      }
      InDirective = false;
    }
    bool DirectiveName = false;
    if (T.is(tok::hash) && T.isAtStartOfLine()) {
      InDirective = true;
      SinceHash = 0;
      Dirs.push_back({Directive::Other, Off, (unsigned)Buf.getBufferSize(), Out.size()});
    } else if (InDirective) {
      DirectiveName = SinceHash++ == 0;
    }
    if (DirectiveName && T.is(tok::raw_identifier)) {
      StringRef W = identifierOf(T, Saver);
      Directive &D = Dirs.back();
      if (W == "if" || W == "ifdef" || W == "ifndef")
        D.K = Directive::If;
      else if (W == "elif" || W == "elifdef" || W == "elifndef")
        D.K = Directive::Elif;
      else if (W == "else")
        D.K = Directive::Else;
      else if (W == "endif")
        D.K = Directive::Endif;
      else if (W == "define")
        D.Define = true;
    }
    if (InDirective && !DirectiveName && SinceHash >= 2 && Dirs.back().Define &&
        Dirs.back().MacroKw == ~0u) {
      Directive &D = Dirs.back();
      KW Word = T.is(tok::raw_identifier) ? classify(identifierOf(T, Saver)) : KW::None;
      if (SyncOff != ~0u && T.is(tok::semi)) {
        D.MacroKw = SyncOff;
        D.MacroWord = KW::Sync;
      } else if (Word == KW::Parblock || Word == KW::Parfor || Word == KW::Lparfor ||
                 Word == KW::Epar || Word == KW::Pbreak || Word == KW::Preturn) {
        D.MacroKw = Off;
        D.MacroWord = Word;
      }
      SyncOff = Word == KW::Sync ? Off : ~0u;
    } else {
      SyncOff = ~0u;
    }
    if (InDirective && !DirectiveName && Dirs.back().Define) {
      Directive &D = Dirs.back();
      if (SinceHash == 2 && T.is(tok::raw_identifier)) {
        D.MacroName = identifierOf(T, Saver);
        D.MacroNameOff = SM.getFileOffset(T.getLocation());
      } else if (SinceHash > 2 && T.is(tok::semi))
        D.MacroSemi = true;
    }
    if (InDirective && T.is(tok::raw_identifier)) {
      while (SkipIdx < Skipped.size() && Skipped[SkipIdx].End <= Off)
        ++SkipIdx;
      if (!(SkipIdx < Skipped.size() && Skipped[SkipIdx].Begin <= Off))
        DirIdents.push_back({T.getKind(), Off, T.getLength(), identifierOf(T, Saver), KW::None});
    }
    if (!InDirective) {
      while (SkipIdx < Skipped.size() && Skipped[SkipIdx].End <= Off)
        ++SkipIdx;
      bool InSkipped = SkipIdx < Skipped.size() && Skipped[SkipIdx].Begin <= Off;
      if (!InSkipped) {
        RTok R{T.getKind(), Off, T.getLength(), {}, KW::None};
        if (T.is(tok::raw_identifier)) {
          R.Ident = identifierOf(T, Saver);
          R.Word = classify(R.Ident);
        }
        Out.push_back(R);
      }
    }
    if (AtEOF)
      break;
  }
  return Out;
}

struct Repl {
  unsigned Off, Len;
  std::string Text;
  unsigned Anchor;
  bool Linear;
  bool Preturn;
};

class TokenPass {
public:
  TokenPass(const SourceManager &SM, FileID FID, const LangOptions &LO,
            ArrayRef<SkippedRange> Skipped, DiagnosticsEngine &Diags)
      : SM(SM), FID(FID), LO(LO), Skipped(Skipped), Diags(Diags), Idents(LO) {}

  TokenPassResult run();

private:
  enum class CK { Parblock, Parfor, Lparfor };
  enum class PB { ExpectSection, InSection, AfterSection };
  struct Frame {
    CK Kind;
    unsigned KwTok;
    unsigned Depth;
    PB Pb = PB::ExpectSection;
    int Part = 0; // parfor: 0 decl, 1 FROM, 2 TO, 3 STEP, 4 body
    unsigned PartStart = 0;
    unsigned PartStarts[4] = {}; // the first token of each part so far
    bool Mapped = false;
    unsigned Ifs = 0; // `if`s of the body's top level that an `else` may follow
    /// parblock: 1 + the first ':' that starts a statement in a section
    /// (after ';', '{' or '}' at the section's own level), which no C
    /// statement does: the section's '}' was left out before it.
    unsigned StrayColon = 0;
    /// parblock: its sections so far, and its keyword's entry in Repls
    /// (sectionOrder).
    unsigned Sections = 0;
    size_t KwRepl = 0;
  };
  struct Bracket {
    tok::TokenKind Open;
    unsigned Tok;
    bool Head; // '(' of an if/while/for/switch head
  };

  static const char *name(CK K, bool Mapped = false) {
    return K == CK::Parblock ? "parblock"
           : K == CK::Parfor ? "parfor"
           : Mapped          ? "mapped lparfor"
                             : "lparfor";
  }
  static const char *name(const Frame &F) { return name(F.Kind, F.Mapped); }
  SourceLocation loc(unsigned Off) const {
    return SM.getLocForStartOfFile(FID).getLocWithOffset(Off);
  }
  unsigned eofOffset() const { return SM.getBufferData(FID).size(); }
  /// The column of the first non-blank character of the line that holds
  /// Off (1 for a line that starts at its left margin).
  unsigned lineIndent(unsigned Off) const {
    StringRef Buf = SM.getBufferData(FID);
    size_t Start = Buf.rfind('\n', Off);
    Start = Start == StringRef::npos ? 0 : Start + 1;
    size_t First = Buf.find_first_not_of(" \t", Start);
    return unsigned(std::min(First, Buf.size()) - Start) + 1;
  }
  bool inSkipped(unsigned Off) const {
    for (const SkippedRange &R : Skipped)
      if (R.Begin <= Off && Off < R.End)
        return true;
    return false;
  }
  /// Is the branch that directive D opens skipped?  A range that the
  /// preprocessor skipped starts at D, or starts before it and goes on past
  /// its line (one range spans `#if 0 ... #elif 0 ... #else`, ending with
  /// the line of the directive whose branch is taken).  The text right
  /// after D may lie in a range of a nested conditional instead.
  bool branchSkipped(const Directive &D) const {
    for (const SkippedRange &R : Skipped)
      if (R.Begin == D.Begin || (R.Begin < D.Begin && D.End < R.End))
        return true;
    return false;
  }

  /// Every replacement but those of pbreak, preturn and sync changes the
  /// construct structure; a preprocessor conditional whose branches see
  /// different structures straddles a construct boundary.
  void replace(const RTok &T, std::string Text, bool Linear = false, bool Preturn = false,
               bool Structural = true) {
    // A token with line splices spans lines: keep them.
    StringRef Spelled = SM.getBufferData(FID).substr(T.Off, T.Len);
    Text.append(Spelled.count('\n'), '\n');
    Repls.push_back({T.Off, T.Len, std::move(Text), T.Off, Linear, Preturn});
    Structure += Structural;
  }
  void insert(unsigned Off, std::string Text, unsigned Anchor) {
    Repls.push_back({Off, 0, std::move(Text), Anchor, false, false});
    ++Structure;
  }
  void flattenStraddlingConditionals();

  enum class SectionPoint { Start, End };
  /// A parblock's sections run in parallel, so one may read what another
  /// wrote, after a semaphore or a sync; Clang's flow analyses took them to
  /// run in their written order ("'x' is uninitialized when used here" on a
  /// read that a parc_P orders after another section's write: tester).
  /// So in B1 the sections of a parblock of two or more run in any order,
  /// each at least once (the -Wreturn-type of a parblock whose sections all
  /// return stays right), and none must run on any path from the entry:
  ///
  ///   { parc_mark_parblock();
  ///     __parcc_pt_N: if (parc_mark_sections()) { goto __parcc_ps_N_2; }
  ///     do { S1 } while (parc_mark_act());
  ///     if (parc_mark_sections()) { goto __parcc_pe_N; }
  ///     __parcc_ps_N_2: do { S2 } while (parc_mark_act());
  ///     if (parc_mark_sections()) { goto __parcc_pe_N; }
  ///     do { S3 } while (parc_mark_act());
  ///     ...
  ///     __parcc_pe_N: if (parc_mark_sections()) { goto __parcc_pt_N; }
  ///     parc_mark_end(); }
  ///
  /// A read that another section may precede is then "may be
  /// uninitialized" (-Wconditional-uninitialized, not in -Wall), and one
  /// that nothing before the parblock nor any section writes stays
  /// "uninitialized".  (A loop around the sections that may run no time
  /// gave a false -Wreturn-type; a loop that must run once, "sometimes
  /// uninitialized whenever the function is called", which -Wall has.)
  /// unwrapSectionDispatch (Analysis.cpp) takes the dispatch out of the AST
  /// after the parse, and out of the lowered C.  Returns the text that
  /// goes before a section's `do`, or before the epar's marker.
  std::string sectionOrder(Frame &F, SectionPoint At) {
    std::string N = std::to_string(F.KwTok);
    if (At == SectionPoint::Start) {
      if (++F.Sections == 1)
        return "";
      if (F.Sections == 2)
        Repls[F.KwRepl].Text += " __parcc_pt_" + N + ": if (parc_mark_sections()) { goto __parcc_ps_" +
                                N + "_2; }";
      return "if (parc_mark_sections()) { goto __parcc_pe_" + N + "; }" +
             (F.Sections == 2 ? " __parcc_ps_" + N + "_2: " : " ");
    }
    if (F.Sections < 2)
      return "";
    return "__parcc_pe_" + N + ": if (parc_mark_sections()) { goto __parcc_pt_" + N + "; } ";
  }

  template <unsigned N>
  bool error(unsigned Off, const char (&Fmt)[N], ArrayRef<StringRef> Args = {}) {
    unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error, Fmt);
    auto DB = Diags.Report(loc(Off), ID);
    for (StringRef A : Args)
      DB << A;
    LastErrorOff = Off;
    return false;
  }
  template <unsigned N>
  void note(unsigned Off, const char (&Fmt)[N], ArrayRef<StringRef> Args = {}) {
    unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Note, Fmt);
    auto DB = Diags.Report(loc(Off), ID);
    for (StringRef A : Args)
      DB << A;
  }
  bool matchNote(const Frame &F) {
    note(Toks[F.KwTok].Off, "to match this '%0'", {name(F)});
    return false;
  }
  /// A misspelt keyword among Toks[From, To), the last one: a name that
  /// starts a statement, is followed by a name, a brace or ';' (as
  /// `parfro int i; ...`, `endpar` alone on its line are), and is within
  /// two edits of one of Words, case aside.  Its note points the user at
  /// the typo, where the error is only where the construct fails to
  /// match (its `epar`, or the end of the function).
  size_t misspeltNote(size_t From, size_t To, ArrayRef<StringRef> Words) {
    for (size_t J = To; J-- > From;) {
      const RTok &T = Toks[J];
      if (T.Ident.empty() || T.Word != KW::None || !(J == 0 || stmtBoundaryBefore(J)) ||
          J + 1 >= Toks.size())
        continue;
      tok::TokenKind Next = Toks[J + 1].Kind;
      if (Next != tok::raw_identifier && Next != tok::l_brace && Next != tok::r_brace &&
          Next != tok::semi)
        continue;
      if (StringRef Best = nearestKeyword(T.Ident, Words); !Best.empty()) {
        note(T.Off, "'%0' is not a PARC keyword: did you mean '%1'?", {userName(T.Ident), Best});
        return J;
      }
    }
    return ~size_t(0);
  }
  /// A construct or bracket still open where it must be closed is most
  /// often one whose end a string, character constant or comment left open
  /// has swallowed: say where (the raw lexer takes the rest of the line as
  /// one unknown token, and the rest of the file as the comment).
  void unterminatedNotes(size_t From, size_t To, bool AtEOF) {
    StringRef Src = SM.getBufferData(FID);
    for (size_t I = From; I < To && I < Toks.size(); ++I) {
      const RTok &T = Toks[I];
      if (T.Kind != tok::unknown)
        continue;
      StringRef Text = Src.substr(T.Off, T.Len).ltrim("LuU8");
      if (Text.starts_with("\"") || Text.starts_with("'")) {
        note(T.Off, "this %0 has no closing quote on its line",
             {Text[0] == '"' ? "string literal" : "character constant"});
        return;
      }
    }
    if (!AtEOF)
      return;
    unsigned Tail = Toks.empty() ? 0 : Toks.back().Off + Toks.back().Len;
    size_t Open = Src.find("/*", Tail);
    if (Open != StringRef::npos && Src.find("*/", Open + 2) == StringRef::npos)
      note(Open, "this comment is never closed with '*/'");
  }
  /// Is T a `}` that stands first on its line, left of F's keyword's line:
  /// by its indentation, the end of a function or block the construct was in?
  bool braceLeftOf(const Frame &F, const RTok &T) const {
    unsigned Indent = lineIndent(T.Off);
    return T.Kind == tok::r_brace && Indent == SM.getColumnNumber(FID, T.Off) &&
           Indent < lineIndent(Toks[F.KwTok].Off);
  }
  /// The first such `}` after F's keyword; else Toks.size().
  size_t firstBraceLeftOf(const Frame &F) const {
    for (size_t J = F.KwTok + 1; J < Toks.size(); ++J)
      if (braceLeftOf(F, Toks[J]))
        return J;
    return Toks.size();
  }
  /// An error in F's header at Off, and a note with the header's form.
  /// Where a macro of this file was to supply a ';' between the header's
  /// parts or the index's name, the error is said at the macro instead:
  /// this pass finds them before macros expand (`#define ALL(n) 0; n - 1;
  /// 1`, `#define IDX int i`), and what it found wrong follows from that.
  template <unsigned N>
  bool headerError(const Frame &F, unsigned Off, const char (&Fmt)[N],
                   ArrayRef<StringRef> Args = {}) {
    if (macroHeaderError(F, Off))
      LastErrorOff = Off; // recovery goes by where the header went wrong
    else
      error(Off, Fmt, Args);
    note(Toks[F.KwTok].Off, "the header of '%0' is 'TYPE VAR; FROM; TO; STEP;'",
         {name(F)});
    return false;
  }
  /// The last #define before T of the macro that T names, if it names one.
  const Directive *macroDefinedBefore(const RTok &T) const {
    if (T.Kind != tok::raw_identifier || T.Word != KW::None)
      return nullptr;
    const Directive *Def = nullptr;
    for (const Directive &D : Dirs)
      if (D.Define && D.Begin < T.Off && D.MacroName == T.Ident)
        Def = &D;
    return Def;
  }
  /// After an error at T: if T names a macro (`#define SEP :` used
  /// between sections), say that parcc reads a parblock's punctuation
  /// before macros expand; the error alone read as if the macro were not
  /// there.
  void macroPartNote(const RTok &T) {
    const Directive *Def = macroDefinedBefore(T);
    if (!Def)
      return;
    note(T.Off, "'%0' is a macro: parcc reads the '{', ':' and 'epar' of a 'parblock' before "
                "macros expand; write them out",
         {T.Ident});
    note(Def->MacroNameOff, "macro '%0' defined here", {T.Ident});
  }
  bool macroHeaderError(const Frame &F, unsigned Off) {
    for (size_t I = F.KwTok + 1; I < Toks.size() && Toks[I].Off <= Off; ++I) {
      const RTok &T = Toks[I];
      const Directive *Def = macroDefinedBefore(T);
      if (!Def)
        continue;
      bool AsIndex = F.Part >= 1 ? I + 2 == F.PartStarts[1]
                                 : I + 1 < Toks.size() && Toks[I + 1].Kind == tok::semi;
      if (Def->MacroSemi)
        error(T.Off, "the macro '%0' cannot supply the ';' of a '%1' header: parcc finds "
                     "them before macros expand",
              {T.Ident, name(F)});
      else if (AsIndex)
        error(T.Off, "the macro '%0' cannot supply the index's name in a '%1' header: parcc "
                     "reads it before macros expand",
              {T.Ident, name(F)});
      else
        continue;
      note(Def->MacroNameOff, "macro '%0' defined here", {T.Ident});
      return true;
    }
    return false;
  }
  /// The name of header part 1, 2 or 3.
  static StringRef partName(int Part) {
    static const char *const Parts[] = {"", "FROM", "TO", "STEP"};
    return Parts[Part];
  }
  /// A ',' at the top level of a header part before F.Part, where the
  /// header then fails (`0, 9, 1;`, as in C's argument lists or Fortran's
  /// DO: FROM a comma expression, the body read as TO and STEP): the error
  /// said there, if so.
  bool commaForSemi(const Frame &F) {
    for (int Part = 1; Part < F.Part && F.Part < 4; ++Part) {
      int Depth = 0;
      for (size_t K = F.PartStarts[Part]; K + 1 < F.PartStarts[Part + 1]; ++K) {
        Depth += isOpener(Toks[K].Kind) - isCloser(Toks[K].Kind);
        if (Depth == 0 && Toks[K].Kind == tok::comma) {
          headerError(F, Toks[K].Off,
                      "expected ';' after %0 in '%1' header, not ','", {partName(Part), name(F)});
          return true;
        }
      }
    }
    return false;
  }
  /// Header part F.Part (FROM, TO or STEP) is empty where Off ends it.
  bool emptyPart(const Frame &F, unsigned Off) {
    if (commaForSemi(F))
      return false;
    return headerError(F, Off,
                       "expected %0 expression in '%1' header", {partName(F.Part), name(F)});
  }

  bool isKeyword(StringRef S) {
    return Idents.get(S).getTokenID() != tok::identifier;
  }
  /// Token I, at the top level of header part F.Part (FROM, TO or STEP),
  /// cannot continue that expression: the user left out the part's ';' and
  /// went on with the body.  A '{' (not a compound literal's, after a
  /// parenthesised type name), or a word that starts a new line right after
  /// an identifier or a constant (`parfor int i; 0; 9; 1` then `a[i] =
  /// i;`), which no C expression allows.  Without this the body became part
  /// of the expression and the error named a parenthesis parcc wrote, or
  /// the end of the body (`parfor int i; 0; 9; (1)` then `{ ... }`).
  bool missingHeaderSemi(const Frame &F, size_t I) {
    const RTok &T = Toks[I];
    if (T.Kind == tok::l_brace)
      return I == F.PartStart || Toks[I - 1].Kind != tok::r_paren ||
             !compoundLiteralType(F, I - 1);
    if (I == F.PartStart || T.Kind != tok::raw_identifier)
      return false;
    const RTok &P = Toks[I - 1];
    bool Operand =
        (P.Kind == tok::raw_identifier && !isKeyword(P.Ident)) || tok::isLiteral(P.Kind);
    unsigned End = P.Off + P.Len;
    return Operand && SM.getBufferData(FID).substr(End, T.Off - End).contains('\n');
  }
  bool compoundLiteralType(const Frame &F, size_t Close);
  bool checkColonColon();
  /// ToEnd: and the rest of the file balances (no closer without its
  /// opener after them).
  bool closesAround(size_t From, size_t Depth, bool ToEnd = false) const;
  bool constructExtent(size_t Kw, unsigned &Begin, unsigned &End) const;
  size_t ownEpar(size_t From, size_t Depth) const;
  /// What to set aside after the error, where the error says better than
  /// the open constructs: an explicit range (a stray `epar`, a construct
  /// up to its misspelt `epar`), or the construct that a misspelt keyword
  /// opens.
  unsigned AsideBegin = 0, AsideEnd = 0;
  size_t AsideOpener = ~size_t(0);
  /// The set-aside text follows a line whose ';' was left out: no empty
  /// statement in its place, so that Clang says so of that line.
  bool AsideNoSemi = false;
  void findRecovery(TokenPassResult &R) const;
  bool keywordAsName(size_t I);
  bool cutShort(const Frame &F, size_t I);
  size_t twoOperands(size_t B, size_t E);
  /// Does token I start a line after one that ends an expression without
  /// its ';' (`x++`, `int x = 0`, `a[i]`; with Names, a name too: `x = x
  /// + i` then `sync;`)?  Not a name where a construct follows: it may be
  /// a macro that is a whole statement (`TIMER_START`), nor `)`, which may
  /// end one too (`LOG(x)`) or an if's condition.
  bool afterUnendedLine(size_t I, bool Names) {
    if (I == 0)
      return false;
    const RTok &P = Toks[I - 1];
    unsigned End = P.Off + P.Len;
    bool Ends = (Names && P.Kind == tok::raw_identifier && P.Word == KW::None &&
                 !isKeyword(P.Ident)) ||
                tok::isLiteral(P.Kind) || P.Kind == tok::r_square || P.Kind == tok::plusplus ||
                P.Kind == tok::minusminus;
    return Ends && SM.getBufferData(FID).substr(End, Toks[I].Off - End).contains('\n');
  }
  bool stmtBoundaryBefore(size_t I) const;
  /// A keyword that may write (part of) a parfor's index type, or a
  /// mistaken one: `int`, `unsigned`, `double`, ...
  bool indexTypeWord(const RTok &T) {
    if (T.Kind != tok::raw_identifier)
      return false;
    switch (Idents.get(T.Ident).getTokenID()) {
    case tok::kw_int: case tok::kw_long: case tok::kw_short: case tok::kw_char:
    case tok::kw_unsigned: case tok::kw_signed: case tok::kw__Bool: case tok::kw___int128:
    case tok::kw_float: case tok::kw_double:
      return true;
    default:
      return false;
    }
  }
  bool misspeltOpener(size_t I);
  bool macroArgBefore(size_t I) const;
  bool endHeaderPart(Frame &F, size_t I);
  bool step(size_t &I);

  const SourceManager &SM;
  FileID FID;
  const LangOptions &LO;
  ArrayRef<SkippedRange> Skipped;
  DiagnosticsEngine &Diags;
  IdentifierTable Idents;

  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver{Alloc};
  std::vector<RTok> Toks;
  /// TokenPassResult::BodilessSteps.
  std::vector<unsigned> BodilessSteps;
  /// Identifiers on active directive lines (#define bodies, #if operands).
  std::vector<RTok> DirIdents;
  /// Their names, to look one up.
  llvm::StringSet<> DirNames;
  /// The user's names that look generated -> their placeholders.
  std::map<std::string, std::string, std::less<>> Placeholders;
  StringRef userName(StringRef Ident) const {
    auto It = Placeholders.find(Ident);
    return It == Placeholders.end() ? Ident : StringRef(It->second);
  }
  std::vector<Directive> Dirs;
  unsigned LastErrorOff = 0;
  /// Structure before each token (see replace()).
  std::vector<unsigned> StructureAt;
  unsigned Structure = 0;
  std::vector<char> HeadClose, TernaryColon;
  std::vector<Frame> Frames;
  std::vector<Bracket> Brackets;
  std::vector<unsigned> QCount{0};
  std::vector<Repl> Repls;
};

/// A misplaced `::` (see ColonColonCheck) is rejected here, before Clang
/// parses.  A `::` written by a macro is caught as Clang lexes (Frontend.cpp).
bool TokenPass::checkColonColon() {
  ColonColonCheck Check;
  for (const RTok &T : Toks) {
    tok::TokenKind K = T.Kind == tok::raw_identifier ? Idents.get(T.Ident).getTokenID() : T.Kind;
    if (Check.misplaced(K))
      return error(T.Off, "'::' is not allowed here in C");
  }
  return true;
}

/// Does token I start an argument of what looks like a macro call: right
/// after the '(' or a ',' of parentheses that follow a plain identifier?
bool TokenPass::macroArgBefore(size_t I) const {
  if (I == 0 || Brackets.empty() || Brackets.back().Open != tok::l_paren)
    return false;
  tok::TokenKind P = Toks[I - 1].Kind;
  unsigned Open = Brackets.back().Tok;
  return (P == tok::l_paren || P == tok::comma) && Open > 0 &&
         !Toks[Open - 1].Ident.empty() && Toks[Open - 1].Word == KW::None;
}

bool TokenPass::stmtBoundaryBefore(size_t I) const {
  if (I == 0)
    return false;
  const RTok &P = Toks[I - 1];
  switch (P.Kind) {
  case tok::semi:
  case tok::l_brace:
  case tok::r_brace:
    return true;
  case tok::colon:
    return !TernaryColon[I - 1];
  case tok::r_paren:
    return HeadClose[I - 1];
  default:
    return P.Word == KW::Else || P.Word == KW::Do || P.Word == KW::Epar;
  }
}

bool TokenPass::endHeaderPart(Frame &F, size_t I) {
  const RTok &Semi = Toks[I];
  size_t B = F.PartStart, E = I;
  switch (F.Part) {
  case 0: {
    if (E == B) {
      return headerError(F, Semi.Off,
                         "expected the declaration of the index in '%0' header", {name(F)});
    }
    const RTok &Var = Toks[E - 1];
    if (Var.Kind != tok::raw_identifier || isKeyword(Var.Ident)) {
      // `parfor int i 0; 9; 1;`: a name, then FROM without the ';'.
      const RTok *Name = E - B >= 3 ? &Toks[E - 2] : nullptr;
      if (Name && Name->Kind == tok::raw_identifier && !isKeyword(Name->Ident) &&
          Toks[E - 3].Kind == tok::raw_identifier && Var.Kind != tok::l_paren &&
          Var.Kind != tok::r_paren && Var.Kind != tok::l_square && Var.Kind != tok::r_square) {
        return headerError(F, Name->Off + Name->Len,
                           "expected ';' after the index '%0' in '%1' header",
                           {Name->Ident, name(F)});
      }
      // `parfor int i[2]; ...`, `parfor int (i); ...`: a name is there,
      // declared as something other than one variable.
      if (Var.Kind == tok::r_square) {
        // K: the '[' of the first of the trailing `[...]`s.
        size_t K = E;
        while (K > B && Toks[K - 1].Kind == tok::r_square) {
          int Depth = 0;
          for (--K; K > B; --K) {
            Depth += Toks[K].Kind == tok::r_square ? 1 : Toks[K].Kind == tok::l_square ? -1 : 0;
            if (Depth == 0)
              break;
          }
        }
        if (K > B && K < E && Toks[K].Kind == tok::l_square &&
            Toks[K - 1].Kind == tok::raw_identifier && !isKeyword(Toks[K - 1].Ident)) {
          error(Toks[K].Off, "index '%0' of '%1' cannot be an array", {Toks[K - 1].Ident, name(F)});
          note(Toks[K - 1].Off, "each activity gets one value of the index, in a variable of "
                                "integer type: 'TYPE %0; FROM; TO; STEP;'",
               {Toks[K - 1].Ident});
          return false;
        }
      }
      if (Var.Kind == tok::r_paren && E - B >= 4 && Toks[E - 3].Kind == tok::l_paren &&
          Toks[E - 2].Kind == tok::raw_identifier && !isKeyword(Toks[E - 2].Ident)) {
        return headerError(F, Toks[E - 3].Off, "write the index '%0' of '%1' without parentheses",
                           {Toks[E - 2].Ident, name(F)});
      }
      // `parfor int i __attribute__((unused)); ...`: the name is there,
      // with an attribute after it (tester I, s46).
      for (size_t K = B + 1; K < E; ++K)
        if ((Toks[K].Ident == "__attribute__" || Toks[K].Ident == "__attribute") &&
            Toks[K - 1].Kind == tok::raw_identifier && !isKeyword(Toks[K - 1].Ident))
          return headerError(F, Toks[K].Off, "the index '%0' of '%1' cannot have attributes",
                             {Toks[K - 1].Ident, name(F)});
      // `parfor int i: 0; 9; 1;`: a ':' (a range-for's) where the ';' goes.
      for (size_t K = B + 2; K < E; ++K)
        if (Toks[K].Kind == tok::colon && Toks[K - 1].Kind == tok::raw_identifier &&
            !isKeyword(Toks[K - 1].Ident) && Toks[K - 2].Kind == tok::raw_identifier) {
          return headerError(F, Toks[K].Off,
                             "expected ';' after the index '%0' in '%1' header, not ':'",
                             {Toks[K - 1].Ident, name(F)});
        }
      // `parfor i int; ...`, `parfor k unsigned long; ...`: the name first.
      if (E - B >= 2 && Toks[B].Kind == tok::raw_identifier && !isKeyword(Toks[B].Ident) &&
          std::all_of(&Toks[B + 1], &Toks[E - 1] + 1,
                      [&](const RTok &T) { return indexTypeWord(T); })) {
        std::string Type;
        for (size_t K = B + 1; K < E; ++K)
          Type += (Type.empty() ? "" : " ") + Toks[K].Ident.str();
        return headerError(F, Toks[B].Off,
                           "the type of the index comes before its name in '%0' header: "
                           "write '%1 %2'",
                           {name(F), Type, Toks[B].Ident});
      }
      return headerError(F, Var.Off,
                         "expected the name of the index variable in '%0' header", {name(F)});
    }
    if (E - B == 1) {
      return headerError(F, Var.Off, "missing type of '%0' index '%1'", {name(F), Var.Ident});
    }
    // Each activity has an index of its own: `static` (one object for all,
    // as the user would read it), `extern` (another object's name) and
    // `typedef` (no object) cannot say so, and the first two were dropped
    // without a word.
    for (size_t K = B; K + 1 < E; ++K) {
      if (Toks[K].Kind != tok::raw_identifier)
        continue;
      tok::TokenKind W = Idents.get(Toks[K].Ident).getTokenID();
      if (W == tok::kw_static || W == tok::kw_extern || W == tok::kw_typedef ||
          W == tok::kw__Thread_local || W == tok::kw___thread || Toks[K].Ident == "thread_local") {
        error(Toks[K].Off, "'%0' index cannot be declared '%1'", {name(F), Toks[K].Ident});
        note(Var.Off, "each activity has its own '%0', private to it", {Var.Ident});
        return false;
      }
    }
    // `register` would make the marker's address of the index an error
    // inside text the user did not write; the index is private to each
    // activity and the lowered C declares it anew, so the word goes.
    for (size_t K = B; K + 1 < E; ++K)
      if (Toks[K].Kind == tok::raw_identifier && Toks[K].Ident == "register")
        replace(Toks[K], std::string(Toks[K].Len, ' '), /*Linear=*/true, false,
                /*Structural=*/false);
    // The index declaration comes first in the block, so that B1 has no
    // declaration after a statement that the user did not write.  Its
    // address goes through an integer: as a `const T *` (a `const` index)
    // Clang's -Wuninitialized would take the body's reads of the index for
    // reads of a variable nothing initialises, and a plain `(void *)` cast
    // would warn under -Wcast-qual.  The integer type is sizeof's, written
    // with no keyword that a program may have made a macro (`#define int
    // long long` made __UINTPTR_TYPE__ `long unsigned long long`, Clang's
    // error in text the user never wrote, before parcc's own about it).
    const char *Mark = F.Kind == CK::Parfor ? " parc_mark_parfor();"
                       : F.Mapped           ? " parc_mark_lparfor(1);"
                                            : " parc_mark_lparfor(0);";
    insert(Semi.Off + Semi.Len,
           (Mark + (" parc_mark_bounds(0, (void *)(__typeof__(sizeof 0))&" + userName(Var.Ident) +
                   ", (")).str(),
           Var.Off);
    break;
  }
  case 1:
  case 2:
  case 3: {
    if (E == B)
      return emptyPart(F, Semi.Off);
    // `parfor int i; 0; 3 1;`: TO's ';' left out, and the body taken for
    // STEP; Clang's error came after it, inside the body.
    if (size_t K = twoOperands(B, E); K < E) {
      return headerError(F, Toks[K].Off + Toks[K].Len,
                         "expected ';' after %0 in '%1' header", {partName(F.Part), name(F)});
    }
    // One marker per bound, as separate statements: the parent evaluates
    // FROM, TO and STEP in that order (the lowered C declares them in one
    // declaration, sequenced), so B1 must not make them unsequenced
    // arguments of one call (-Wunsequenced on 'parfor int i; k++; t; k++;').
    replace(Semi, F.Part == 1   ? ")); parc_mark_bounds(1, 0, ("
                  : F.Part == 2 ? ")); parc_mark_bounds(2, 0, ("
                                : ")); while (parc_mark_act()) {");
    // epar right after STEP: most likely STEP is missing and the body was
    // taken for it (Checks.cpp's empty-body warning, or, for a void call,
    // the printer's note beside Clang's error).
    if (F.Part == 3 && I + 1 < Toks.size() && Toks[I + 1].Word == KW::Epar)
      BodilessSteps.push_back(Toks[B].Off);
    break;
  }
  }
  ++F.Part;
  F.PartStart = I + 1;
  if (F.Part < 4)
    F.PartStarts[F.Part] = I + 1;
  return true;
}

/// Can the parenthesised group that ends at Toks[Close] (`)`, in a part of
/// header F) be the type name of a compound literal, `(T){...}`?  Not if it
/// holds a constant, a string or an operator other than `*` outside
/// brackets, or starts with anything but a word: `(1)`, `(n + 1)` and
/// `(n - 1) * 2` are expressions, so the '{' after them opens the body.  A
/// single name that is not a keyword, `(step)`, may be a typedef's; it is
/// taken for one unless the '{' starts a new line, where a body's brace
/// stands and a compound literal's hardly does.
bool TokenPass::compoundLiteralType(const Frame &F, size_t Close) {
  size_t Open = Close;
  unsigned Depth = 0;
  for (;; --Open) {
    if (Open < F.PartStart)
      return true; // not paired in this part: leave it to Clang
    if (isCloser(Toks[Open].Kind))
      ++Depth;
    else if (isOpener(Toks[Open].Kind) && --Depth == 0)
      break;
  }
  if (Toks[Open].Kind != tok::l_paren || Open + 1 == Close ||
      Toks[Open + 1].Kind != tok::raw_identifier)
    return false;
  Depth = 0;
  for (size_t K = Open + 1; K < Close; ++K) {
    tok::TokenKind Kind = Toks[K].Kind;
    if (Kind == tok::l_square)
      ++Depth;
    else if (Kind == tok::r_square && Depth)
      --Depth;
    else if (Depth == 0 && Kind != tok::raw_identifier && Kind != tok::star &&
             Kind != tok::l_paren && Kind != tok::r_paren && Kind != tok::comma &&
             Kind != tok::ellipsis)
      return false;
  }
  const RTok &Name = Toks[Open + 1];
  if (Open + 2 == Close && !isKeyword(Name.Ident)) {
    unsigned End = Toks[Close].Off + Toks[Close].Len;
    return !SM.getBufferData(FID).substr(End, Toks[Close + 1].Off - End).contains('\n');
  }
  return true;
}

/// The first of two operands in a row (names or constants, not two
/// strings) at the top level of Toks[B, E), which no expression has
/// without a macro: a header part's ';' left out there; else E.
size_t TokenPass::twoOperands(size_t B, size_t E) {
  auto Operand = [&](const RTok &T) {
    return (T.Kind == tok::raw_identifier && !isKeyword(T.Ident)) || tok::isLiteral(T.Kind);
  };
  unsigned Depth = 0;
  for (size_t K = B; K < E; ++K) {
    const RTok &T = Toks[K];
    if (isOpener(T.Kind))
      ++Depth;
    else if (isCloser(T.Kind) && Depth)
      --Depth;
    if (Depth == 0 && Operand(T) && K + 1 < E && Operand(Toks[K + 1]) &&
        !(tok::isStringLiteral(T.Kind) && tok::isStringLiteral(Toks[K + 1].Kind)))
      return K;
  }
  return E;
}

/// Header F ends at token I (a closer, epar or a construct keyword) before
/// its STEP's ';'.  Most often a ';' was left out further back, and the
/// parts after it each took the next one's text: `parfor int i; 0; 10
/// a[i] = i; epar` has TO `10 a[i] = i` and an empty STEP.  Two operands
/// in a row at a part's top level (names or constants, not two strings),
/// which no expression has without a macro, show where; else the part at I
/// is empty, or lacks only its ';'.  The error was "expected ';' in
/// 'parfor' header" at I, whatever had happened.
bool TokenPass::cutShort(const Frame &F, size_t I) {
  if (commaForSemi(F))
    return false;
  for (int Part = 1; Part <= F.Part && F.Part < 4; ++Part) {
    size_t B = F.PartStarts[Part], E = Part < F.Part ? F.PartStarts[Part + 1] - 1 : I;
    if (size_t K = twoOperands(B, E); K < E) {
      return headerError(F, Toks[K].Off + Toks[K].Len,
                         "expected ';' after %0 in '%1' header", {partName(Part), name(F)});
    }
  }
  if (F.Part >= 1 && F.Part < 4) {
    if (I == F.PartStart)
      return emptyPart(F, Toks[I].Off);
    const RTok &P = Toks[I - 1];
    return headerError(F, P.Off + P.Len,
                       "expected ';' after %0 in '%1' header", {partName(F.Part), name(F)});
  }
  return headerError(F, Toks[I].Off, "expected ';' in '%0' header", {name(F)});
}

/// Does construct keyword I stand where C allows only a name: after a
/// type, qualifier or storage word, `struct`/`union`/`enum` (and their
/// tag), `.` or `->`, `return`, `goto`, `case` or `sizeof`, or an
/// operator; or before `=`?  No construct can: C code brought to PARC that
/// names a variable or function `parfor` or `epar` got an error about a
/// construct it never meant (`int parfor = 3;`: "'parfor' index cannot
/// have an initializer").  `(` and `,` are left out: a construct in a
/// macro's argument has its own error.
bool TokenPass::keywordAsName(size_t I) {
  if (I + 1 < Toks.size() && Toks[I + 1].Kind == tok::equal)
    return true;
  if (I == 0)
    return false;
  const RTok &P = Toks[I - 1];
  if (P.Kind == tok::raw_identifier) {
    switch (Idents.get(P.Ident).getTokenID()) {
    case tok::kw_void: case tok::kw_char: case tok::kw_short: case tok::kw_int:
    case tok::kw_long: case tok::kw_float: case tok::kw_double: case tok::kw_signed:
    case tok::kw_unsigned: case tok::kw__Bool: case tok::kw__Complex: case tok::kw_const:
    case tok::kw_volatile: case tok::kw_restrict: case tok::kw__Atomic: case tok::kw_static:
    case tok::kw_extern: case tok::kw_register: case tok::kw_auto: case tok::kw_typedef:
    case tok::kw_inline: case tok::kw__Thread_local: case tok::kw___thread:
    case tok::kw_struct: case tok::kw_union: case tok::kw_enum: case tok::kw_return:
    case tok::kw_goto: case tok::kw_case: case tok::kw_sizeof:
      return true;
    case tok::identifier:
      if (I < 2 || Toks[I - 2].Kind != tok::raw_identifier)
        return false;
      switch (Idents.get(Toks[I - 2].Ident).getTokenID()) {
      case tok::kw_struct: case tok::kw_union: case tok::kw_enum:
        return true;
      default:
        return false;
      }
    default:
      return false;
    }
  }
  switch (P.Kind) {
  case tok::period: case tok::arrow: case tok::l_square: case tok::equal:
  case tok::plus: case tok::minus: case tok::star: case tok::slash: case tok::percent:
  case tok::less: case tok::greater: case tok::exclaim: case tok::tilde: case tok::amp:
  case tok::pipe: case tok::caret: case tok::question: case tok::equalequal:
  case tok::exclaimequal: case tok::lessequal: case tok::greaterequal: case tok::ampamp:
  case tok::pipepipe: case tok::lessless: case tok::greatergreater: case tok::plusequal:
  case tok::minusequal: case tok::starequal: case tok::slashequal: case tok::percentequal:
  case tok::ampequal: case tok::pipeequal: case tok::caretequal: case tok::lesslessequal:
  case tok::greatergreaterequal: case tok::plusplus: case tok::minusminus:
    return true;
  default:
    return false;
  }
}

/// Handles token I; may consume more tokens by advancing I.  Returns false
/// after reporting an error.
bool TokenPass::step(size_t &I) {
  const RTok &T = Toks[I];

  switch (T.Word) {
  case KW::Parblock: case KW::Parfor: case KW::Lparfor: case KW::Epar: case KW::Pbreak:
  case KW::Preturn:
  {
    // `int n = parblock { ... } epar;`, `(void)(parfor ...)`, `sizeof
    // (parblock ...)`: a construct where a value goes (what follows it is
    // a section's brace, or a parfor's index type), not a name.  Clang
    // took one in parentheses for a void expression, and a parblock in
    // sizeof never ran.  The argument of a call (a macro's, `TWICE(parblock
    // ...)`) is Checks.cpp's "inside a macro argument".
    KW W = T.Word;
    tok::TokenKind Next = I + 1 < Toks.size() ? Toks[I + 1].Kind : tok::eof;
    const RTok *Prev = I ? &Toks[I - 1] : nullptr;
    bool Shaped = (W == KW::Parblock && Next == tok::l_brace) ||
                  ((W == KW::Parfor || W == KW::Lparfor) && Next == tok::raw_identifier);
    bool CallArg = macroArgBefore(I) &&
                   Idents.get(Toks[Brackets.back().Tok - 1].Ident).getTokenID() ==
                       tok::identifier;
    bool InValue = Prev && !CallArg &&
                   (Prev->Kind == tok::l_paren || Prev->Kind == tok::comma ||
                    (Prev->Kind == tok::raw_identifier &&
                     Idents.get(Prev->Ident).getTokenID() == tok::kw_return) ||
                    (Prev->Kind != tok::raw_identifier && keywordAsName(I)));
    if ((Shaped || Next == tok::l_paren) && afterUnendedLine(I, /*Names=*/false) &&
        (W == KW::Parblock || W == KW::Parfor || W == KW::Lparfor)) {
      // `x++` then `parfor ...` on the next line: the ';' left out.  The
      // construct is set aside, and Clang's message about the line before
      // in the next run is this one's.
      AsideOpener = I;
      AsideNoSemi = true;
      return error(Prev->Off + Prev->Len, "expected ';' before '%0'", {T.Ident});
    }
    if (Shaped && InValue && !(Prev->Kind == tok::l_paren && Brackets.back().Head))
      return error(T.Off, "'%0' is a statement and has no value: it cannot be part of an "
                          "expression", {T.Ident});
    if (keywordAsName(I))
      return error(T.Off, "'%0' is a PARC keyword and cannot be used as a name", {T.Ident});
    break;
  }
  default:
    break;
  }

  if (!Frames.empty()) {
    Frame &F = Frames.back();
    bool AtTop = Brackets.size() == F.Depth;
    bool ParforLike = F.Kind != CK::Parblock;

    if (F.Kind == CK::Parblock && F.Pb == PB::InSection && T.Kind == tok::colon &&
        Brackets.size() == F.Depth + 1 && !F.StrayColon &&
        (Toks[I - 1].Kind == tok::semi || Toks[I - 1].Kind == tok::l_brace ||
         Toks[I - 1].Kind == tok::r_brace))
      F.StrayColon = I + 1; // reported if the section's brace is still open at epar

    if (ParforLike && F.Part == 4 && AtTop && T.Kind == tok::raw_identifier) {
      // An `else` that no `if` of the body can take is its construct's
      // outer if's: `if (c) parfor ... a[i] = i; else` left out the epar.
      if (T.Ident == "if") {
        ++F.Ifs;
      } else if (T.Ident == "else" && F.Ifs) {
        --F.Ifs;
      } else if (T.Ident == "else") {
        error(T.Off, "expected 'epar' before 'else'");
        matchNote(F);
        AsideBegin = Toks[F.KwTok].Off;
        AsideEnd = T.Off;
        return false;
      }
    }

    if (ParforLike && F.Part < 4 && AtTop) {
      // A header written like C's 'for (...)': no type starts with '(', and
      // without this the error would land inside the body, at its first
      // top-level '=' or ';'.
      if (F.Part == 0 && I == F.PartStart && T.Kind == tok::l_paren) {
        return headerError(F, T.Off, "'%0' header takes no parentheses", {name(F)});
      }
      if (T.Kind == tok::semi)
        return endHeaderPart(F, I);
      bool Stops = isCloser(T.Kind) || T.Word == KW::Epar || T.Word == KW::Parblock ||
                   T.Word == KW::Parfor || T.Word == KW::Lparfor;
      if (Stops)
        return cutShort(F, I);
      if (F.Part >= 1 && missingHeaderSemi(F, I)) {
        if (I == F.PartStart)
          return emptyPart(F, T.Off);
        return headerError(F, Toks[I - 1].Off + Toks[I - 1].Len,
                           "expected ';' after %0 in '%1' header", {partName(F.Part), name(F)});
      }
      if (F.Part == 0 && T.Kind == tok::equal) {
        return headerError(F, T.Off, "'%0' index cannot have an initializer", {name(F)});
      }
      if (F.Part == 0 && T.Kind == tok::comma) {
        return headerError(F, T.Off,
                           "'%0' header declares more than one index variable", {name(F)});
      }
    }

    if (AtTop && F.Kind == CK::Parblock && F.Pb != PB::InSection) {
      if (F.Pb == PB::ExpectSection) {
        if (T.Kind != tok::l_brace) {
          error(T.Off, "expected '{' to begin a 'parblock' section");
          macroPartNote(T);
          return matchNote(F);
        }
        insert(T.Off, sectionOrder(F, SectionPoint::Start) + "do ", T.Off);
        Brackets.push_back({T.Kind, (unsigned)I, false});
        QCount.push_back(0);
        F.Pb = PB::InSection;
        return true;
      }
      if (T.Kind == tok::colon) {
        replace(T, " ");
        F.Pb = PB::ExpectSection;
        return true;
      }
      if (T.Word == KW::Epar) {
        replace(T, sectionOrder(F, SectionPoint::End) + "parc_mark_end(); }");
        Frames.pop_back();
        return true;
      }
      const RTok &Close = Toks[I - 1];
      if (T.Kind != tok::l_brace && braceLeftOf(F, Close)) {
        // `} : {` then the enclosing block's `}` on a line of its own, to
        // the left of the parblock: the last section's `}` and the epar
        // were left out, and that `}` is the function's (or the block's).
        error(Close.Off, "expected '}' and 'epar' to end 'parblock' before this '}'");
        matchNote(F);
        AsideBegin = Toks[F.KwTok].Off;
        AsideEnd = Close.Off;
        return false;
      }
      error(T.Off, "expected ':' or 'epar' after a 'parblock' section");
      macroPartNote(T);
      if (T.Kind == tok::l_brace)
        AsideOpener = F.KwTok; // a section whose ':' was left out: the parblock goes
      return matchNote(F);
    }

    if (T.Word == KW::Epar && Brackets.size() > F.Depth) {
      const Bracket &B = Brackets.back();
      if (F.StrayColon && Brackets.size() == F.Depth + 1) {
        // `{ a(); : { b(); } epar`: said where the section should end.
        error(Toks[F.StrayColon - 1].Off, "expected '}' to end the 'parblock' section before ':'");
        note(Toks[B.Tok].Off, "the section begins here");
      } else {
        error(T.Off, "expected '%0' before 'epar'", {closerFor(B.Open)});
        note(Toks[B.Tok].Off, "to match this '%0'", {spell(B.Open)});
        unterminatedNotes(B.Tok, I, /*AtEOF=*/false);
      }
      // The construct ends at this epar, the bracket with it, when what
      // follows closes the brackets open around the construct (a section's
      // `}` left out, a student's mistake): the rest is checked.  Not when
      // a closer there was meant for the bracket (`( epar )`).
      if (I + 1 < Toks.size() && Brackets.size() == F.Depth + 1 &&
          isCloser(Toks[I + 1].Kind) && closes(B.Open, Toks[I + 1].Kind) &&
          closesAround(I + 2, F.Depth, /*ToEnd=*/true)) {
        // `{ a[i] = i; epar }`: the closer written after the epar, and the
        // rest of the file balances with it taken as the construct's.  The
        // epar alone set aside left that '}' to close the function, and
        // the next line's call was "conflicting types for 'printf'"
        // (tester I, s46).
        AsideBegin = Toks[F.KwTok].Off;
        AsideEnd = Toks[I + 1].Off + Toks[I + 1].Len;
      } else if (closesAround(I + 1, F.Depth)) {
        AsideBegin = Toks[F.KwTok].Off;
        AsideEnd = T.Off + T.Len;
      }
      return false;
    }
    if (isCloser(T.Kind) && AtTop) {
      error(T.Off, "expected 'epar' to end '%0'", {name(F)});
      matchNote(F);
      if (size_t J = misspeltNote(F.KwTok + 1, I, {"epar"}); J < I) {
        // The construct ends at its misspelt epar: what follows is checked.
        AsideBegin = Toks[F.KwTok].Off;
        AsideEnd = Toks[J].Off + Toks[J].Len;
      }
      return false;
    }
    if (T.Word == KW::Epar && ParforLike && AtTop) {
      replace(T, "} parc_mark_end(); }");
      Frames.pop_back();
      return true;
    }
  }

  if (isOpener(T.Kind)) {
    bool Head = T.Kind == tok::l_paren && I > 0 &&
                (Toks[I - 1].Word == KW::If || Toks[I - 1].Word == KW::While ||
                 Toks[I - 1].Word == KW::For || Toks[I - 1].Word == KW::Switch);
    Brackets.push_back({T.Kind, (unsigned)I, Head});
    QCount.push_back(0);
    return true;
  }
  if (isCloser(T.Kind)) {
    if (Brackets.empty())
      return true; // unbalanced: Clang reports it
    Bracket B = Brackets.back();
    // `parblock { f(r}; } epar`: Clang read the '}' as the end of the
    // section's `do { ... }` that B1 wraps it in, and went on about a
    // `do`, a `while` and a label the user never wrote (tester I, s46).
    // Inside a construct the mismatch is reported here, as Clang words
    // it, and the construct is set aside.
    if (!Frames.empty() && B.Open != tok::l_brace && !closes(B.Open, T.Kind)) {
      error(T.Off, "expected '%0'", {closerFor(B.Open)});
      note(Toks[B.Tok].Off, "to match this '%0'", {spell(B.Open)});
      // Set aside: the construct up to its epar, found by the constructs
      // alone (its brackets do not balance).
      for (size_t J = I + 1, Nested = 0; J < Toks.size(); ++J) {
        KW W = Toks[J].Word;
        if (W == KW::Parblock || W == KW::Parfor || W == KW::Lparfor)
          ++Nested;
        else if (W == KW::Epar && Nested-- == 0) {
          AsideBegin = Toks[Frames.back().KwTok].Off;
          AsideEnd = Toks[J].Off + Toks[J].Len;
          break;
        }
      }
      return false;
    }
    Brackets.pop_back();
    QCount.pop_back();
    if (T.Kind == tok::r_paren && B.Head)
      HeadClose[I] = 1;
    if (!Frames.empty()) {
      Frame &F = Frames.back();
      if (F.Kind == CK::Parblock && F.Pb == PB::InSection && Brackets.size() == F.Depth) {
        insert(T.Off + T.Len, " while (parc_mark_act());", T.Off);
        F.Pb = PB::AfterSection;
      }
    }
    return true;
  }
  if (T.Kind == tok::question) {
    ++QCount.back();
    return true;
  }
  if (T.Kind == tok::colon) {
    if (QCount.back()) {
      --QCount.back();
      TernaryColon[I] = 1;
    }
    return true;
  }

  auto Open = [&](CK Kind, const char *Text, bool Mapped = false) {
    if (Brackets.empty()) {
      error(T.Off, "'%0' is only allowed inside a function body", {name(Kind, Mapped)});
      return false;
    }
    size_t KwRepl = Repls.size();
    replace(T, Text);
    Frame F{Kind, (unsigned)I, (unsigned)Brackets.size()};
    F.KwRepl = KwRepl;
    F.Mapped = Mapped;
    F.PartStart = I + 1;
    Frames.push_back(F);
    return true;
  };

  // A statement at file scope, where a lost or extra '}' leaves the rest of
  // a function: `pbreak;` was a declaration to Clang ("conflicting types
  // for 'pbreak'"), and `faa(&x, 1);` drew messages about parc.h's
  // __atomic_fetch_add and __ATOMIC_SEQ_CST (tester I, s46).
  auto Next = [&](size_t K) { return I + K < Toks.size() ? Toks[I + K].Kind : tok::eof; };
  if (Brackets.empty() && (I == 0 || stmtBoundaryBefore(I))) {
    bool Stmt = ((T.Word == KW::Pbreak || T.Word == KW::Sync) && Next(1) == tok::semi) ||
                T.Word == KW::Preturn;
    bool Faa = T.Kind == tok::raw_identifier && T.Ident == "faa" && Next(1) == tok::l_paren &&
               Next(2) == tok::amp;
    if (Stmt || Faa) {
      if (Stmt)
        error(T.Off, "'%0' is only allowed inside a function body", {T.Ident});
      else
        error(T.Off, "'faa' is a call: it is only allowed inside a function body");
      // The '}' before it that ended a function's body (not a struct's or
      // an initializer's, which a ';' follows).
      for (size_t J = I; J-- > 0;)
        if (Toks[J].Kind == tok::r_brace) {
          if (Toks[J + 1].Kind != tok::semi)
            note(Toks[J].Off, "the function's body ends at this '}': is a '{' missing "
                              "above, or a '}' too many?");
          break;
        }
      return false;
    }
  }

  switch (T.Word) {
  case KW::Parblock:
    return Open(CK::Parblock, "{ parc_mark_parblock();");
  case KW::Parfor:
    return Open(CK::Parfor, "{");
  case KW::Lparfor:
    if (I + 1 < Toks.size() && Toks[I + 1].Word == KW::Mapped) {
      // `lparfor mapped int i; ...`: Clang would take mapped for the index
      // type, then every use of the index for an undeclared name.
      error(Toks[I + 1].Off, "'mapped' goes before 'lparfor': write 'mapped lparfor'");
      return false;
    }
    return Open(CK::Lparfor, "{");
  case KW::Mapped: {
    KW Next = I + 1 < Toks.size() ? Toks[I + 1].Word : KW::None;
    if (Next == KW::Parfor || Next == KW::Parblock) {
      error(T.Off, "'mapped' applies only to 'lparfor'");
      note(Toks[I + 1].Off, "'%0' may create more activities than there are processors",
           {Next == KW::Parfor ? "parfor" : "parblock"});
      return false;
    }
    if (Next != KW::Lparfor)
      return true; // an ordinary identifier
    if (!Open(CK::Lparfor, "{", /*Mapped=*/true))
      return false;
    replace(Toks[I + 1], "");
    ++I;
    Frames.back().PartStart = I + 1;
    return true;
  }
  case KW::Epar:
    error(T.Off, "'epar' without a matching 'parblock', 'parfor' or 'lparfor'");
    AsideBegin = T.Off; // the rest of the function is checked without it
    AsideEnd = T.Off + T.Len;
    if (size_t J = misspeltNote(Brackets.empty() ? 0 : Brackets.front().Tok + 1, I,
                                {"parfor", "lparfor", "parblock"});
        J < I)
      AsideBegin = Toks[J].Off; // from the misspelt keyword that opened it
    return false;
  case KW::Pbreak:
    replace(T, "parc_mark_pbreak()", false, false, false);
    if (I + 1 >= Toks.size() || Toks[I + 1].Kind != tok::semi) {
      error(I + 1 < Toks.size() ? Toks[I + 1].Off : eofOffset(), "expected ';' after 'pbreak'");
      return false;
    }
    return true;
  case KW::Preturn:
    replace(T, "return ", /*Linear=*/true, /*Preturn=*/true, /*Structural=*/false);
    // `preturn }`: Clang's "expected expression" said nothing of the ';'
    // a void function's preturn needs (tester I, s46).
    if (I + 1 >= Toks.size() || Toks[I + 1].Kind == tok::r_brace || Toks[I + 1].Word == KW::Epar)
      return error(I + 1 < Toks.size() ? Toks[I + 1].Off : eofOffset(),
                   "expected an expression or ';' after 'preturn'");
    return true;
  case KW::Sync:
    // Also first in a macro's argument, `ID(sync;)`: no C reads `(sync;`
    // otherwise, and the mark gets Checks.cpp's "inside a macro argument".
    if (I + 1 < Toks.size() && Toks[I + 1].Kind == tok::semi &&
        (stmtBoundaryBefore(I) || macroArgBefore(I) || afterUnendedLine(I, /*Names=*/true)))
      replace(T, "parc_mark_sync()", false, false, false);
    else if (stmtBoundaryBefore(I) &&
             (I + 1 >= Toks.size() || Toks[I + 1].Kind == tok::r_brace ||
              Toks[I + 1].Word == KW::Epar))
      // `{ a[i] = i; sync }`: no C reads a name alone before `}`, and Clang
      // would call sync undeclared.
      return error(I + 1 < Toks.size() ? Toks[I + 1].Off : eofOffset(),
                   "expected ';' after 'sync'");
    return true;
  default:
    return misspeltOpener(I);
  }
}

/// `Parfor int i; ...`, `parblok { ... }`: a name within two edits of a
/// construct keyword, case aside, that starts a statement and is followed
/// by what the construct takes (a type name for a parfor, a brace for a
/// parblock), which no C statement is.  Reported at the typo: otherwise the
/// error comes at its epar, or, when the epar is misspelt too, as Clang's
/// undeclared names at every use of the index.
bool TokenPass::misspeltOpener(size_t I) {
  const RTok &T = Toks[I];
  if (T.Ident.empty() || T.Word != KW::None || I + 1 >= Toks.size())
    return true;
  bool Unended = false; // `int x = 0` then `parfro ...`
  if (!stmtBoundaryBefore(I) && !(Unended = afterUnendedLine(I, /*Names=*/false)))
    return true;
  const RTok &N = Toks[I + 1];
  // A parfor's index type: a C type keyword, or a name ending in _t.
  bool TypeNext = N.Kind == tok::raw_identifier && I + 2 < Toks.size() &&
                  Toks[I + 2].Kind == tok::raw_identifier &&
                  (indexTypeWord(N) || N.Ident.ends_with("_t"));
  SmallVector<StringRef, 2> Fits;
  if (TypeNext)
    Fits.append({"parfor", "lparfor"});
  if (N.Kind == tok::l_brace)
    Fits.push_back("parblock");
  // A macro of the file's may be used so (`FOREVER { ... }`).  Looked up
  // only here, for a name followed as a construct's keyword would be: a
  // scan of every directive's names at every statement made a file of
  // 32,768 macros used in loops take 7 s (0.4 s for Clang).
  if (Fits.empty() || DirNames.count(T.Ident))
    return true;
  StringRef Best = nearestKeyword(T.Ident, Fits);
  if (Best.empty())
    return true;
  AsideOpener = I; // the construct it opens, to its epar
  AsideNoSemi = Unended;
  return error(T.Off, "'%0' is not a PARC keyword: did you mean '%1'?", {userName(T.Ident), Best});
}

/// A conditional group (#if ... #endif) whose directives lie at different
/// construct structures straddles a construct boundary: outlining would
/// split it between the parent and a body function.  Such a group is
/// resolved here, as the preprocessor resolved it: its directive lines and
/// inactive branches become blank lines, its active branch stays.  Groups
/// inside one activity or outside all constructs stay as written.
void TokenPass::flattenStraddlingConditionals() {
  StringRef Src = SM.getBufferData(FID);

  auto Blank = [&](unsigned B, unsigned E) {
    std::string NL;
    for (unsigned I = B; I < E; ++I)
      if (Src[I] == '\n')
        NL += '\n';
    Repls.push_back({B, E - B, NL, B, false, false});
  };
  std::vector<std::vector<const Directive *>> Open;
  for (const Directive &D : Dirs) {
    if (D.K == Directive::If) {
      Open.push_back({&D});
      continue;
    }
    if (D.K == Directive::Other || Open.empty())
      continue;
    Open.back().push_back(&D);
    if (D.K != Directive::Endif)
      continue;
    std::vector<const Directive *> G = std::move(Open.back());
    Open.pop_back();
    bool Straddles = false;
    for (const Directive *X : G)
      Straddles |= StructureAt[X->NextTok] != StructureAt[G.front()->NextTok];
    if (!Straddles)
      continue;
    // A branch whose first line opened a nested conditional was taken for
    // skipped when that one's first branch was (`#ifdef __PARCC__` then
    // `#if 0 parfor ... #else lparfor ... #endif`): the whole construct was
    // blanked, silently.
    for (size_t K = 0; K + 1 < G.size(); ++K) {
      if (branchSkipped(*G[K]))
        Blank(G[K]->Begin, G[K + 1]->Begin);
      else
        Blank(G[K]->Begin, G[K]->End);
    }
    Blank(G.back()->Begin, G.back()->End);
  }
  // A group blanked inside an outer blanked branch would overlap it.
  std::stable_sort(Repls.begin(), Repls.end(),
                   [](const Repl &A, const Repl &B) { return A.Off < B.Off; });
  std::vector<Repl> Kept;
  for (Repl &P : Repls) {
    if (!Kept.empty() && Kept.back().Len && P.Off < Kept.back().Off + Kept.back().Len)
      continue;
    Kept.push_back(std::move(P));
  }
  Repls.swap(Kept);
}

/// The construct whose keyword (or a misspelling of one) is token Kw, as
/// original offsets [Begin, End): from its keyword to the end of its `epar`, or, where it
/// has none (the error is its missing `epar`), to the closer of the block
/// it is in.  False where the brackets and constructs after it do not nest
/// (an `epar` inside a bracket it did not open).
/// Do the tokens from From on close the first Depth brackets of Brackets
/// (those open around a construct) as they are, with each closer matching
/// its opener?  A later construct whose `epar` comes with brackets of its
/// own still open is taken to end there, as this one does: the same
/// mistake twice in a function (a section's `}` left out in two
/// constructs) sets aside each construct, not the function.
bool TokenPass::closesAround(size_t From, size_t Depth, bool ToEnd) const {
  std::vector<tok::TokenKind> Open;
  for (size_t K = 0; K < Depth; ++K)
    Open.push_back(Brackets[K].Open);
  std::vector<size_t> Constructs; // Open.size() at each later construct's keyword
  for (size_t I = From; I < Toks.size() && (ToEnd || !Open.empty()); ++I) {
    tok::TokenKind K = Toks[I].Kind;
    KW W = Toks[I].Word;
    if (W == KW::Parblock || W == KW::Parfor || W == KW::Lparfor) {
      Constructs.push_back(Open.size());
    } else if (W == KW::Epar && !Constructs.empty()) {
      size_t At = Constructs.back();
      Constructs.pop_back();
      if (Open.size() < At)
        return false;
      // ToEnd: a later construct's closer written after its epar, as the
      // caller takes this one's.
      if (ToEnd && Open.size() == At + 1 && I + 1 < Toks.size() && isCloser(Toks[I + 1].Kind) &&
          closes(Open.back(), Toks[I + 1].Kind))
        ++I;
      Open.resize(At);
    } else if (isOpener(K)) {
      Open.push_back(K);
    } else if (isCloser(K)) {
      if (Open.empty() || !closes(Open.back(), K))
        return false;
      Open.pop_back();
    }
  }
  return Open.empty();
}

/// The `epar` that ends the parblock whose separator was expected at token
/// From, its brackets open around it Depth: the first `epar` of no later
/// construct, reached with at most one unmatched closer (the '}' of a
/// section whose '{' went with a commented-out separator) and with the
/// brackets around the construct closing as they are after it.  Not past a
/// '{' that follows that unmatched closer other than after a ':' (a
/// section): that is the next function's body, and the epar was left out.
/// Toks.size() if there is none.
size_t TokenPass::ownEpar(size_t From, size_t Depth) const {
  int D = 0;
  size_t Nested = 0;
  for (size_t I = From; I < Toks.size(); ++I) {
    const RTok &T = Toks[I];
    if (T.Word == KW::Parblock || T.Word == KW::Parfor || T.Word == KW::Lparfor) {
      ++Nested;
    } else if (T.Word == KW::Epar) {
      if (Nested == 0)
        return closesAround(I + 1, Depth) ? I : Toks.size();
      --Nested;
    } else if (isOpener(T.Kind)) {
      if (D == -1 && T.Kind == tok::l_brace && Toks[I - 1].Kind != tok::colon)
        return Toks.size();
      ++D;
    } else if (isCloser(T.Kind) && --D < -1) {
      return Toks.size();
    }
  }
  return Toks.size();
}

bool TokenPass::constructExtent(size_t Kw, unsigned &Begin, unsigned &End) const {
  Begin = Toks[Kw].Off;
  std::vector<int> Open{0}; // the bracket depth of each open construct
  int Depth = 0;
  for (size_t I = Kw + 1; I < Toks.size(); ++I) {
    const RTok &T = Toks[I];
    if (isOpener(T.Kind)) {
      ++Depth;
    } else if (isCloser(T.Kind)) {
      if (--Depth < 0) {
        End = T.Off;
        return true;
      }
    } else if (T.Word == KW::Parblock || T.Word == KW::Parfor || T.Word == KW::Lparfor) {
      Open.push_back(Depth);
    } else if (T.Word == KW::Epar) {
      if (Open.empty() || Open.back() != Depth)
        return false;
      Open.pop_back();
      if (Open.empty()) {
        End = T.Off + T.Len;
        return true;
      }
    }
  }
  return false;
}

/// What the front end sets aside to go on after the error: the construct
/// in error, where its extent holds the error, so that the rest of its
/// function is checked too; else the function body that holds the
/// outermost open construct (or, with none open, the error): a `{` at file
/// level after a `)` (or a K&R definition's `;`) and its `}`.
void TokenPass::findRecovery(TokenPassResult &R) const {
  unsigned Begin = AsideBegin, End = AsideEnd;
  if (End > Begin || (AsideOpener < Toks.size() && constructExtent(AsideOpener, Begin, End))) {
    R.RecoverBegin = Begin;
    R.RecoverEnd = End;
    R.RecoverStatement = !AsideNoSemi;
    return;
  }
  if (!Frames.empty()) {
    const Frame &F = Frames.back();
    if (F.Kind == CK::Parblock && F.Pb == PB::AfterSection && Brackets.size() == F.Depth) {
      // A statement where ':' or 'epar' was to follow a section: the epar
      // left out before it, most often, and the rest is checked as
      // written.  But where the construct's own epar follows, the
      // separator was miswritten (`} , {`, `} ; {`, a section without
      // braces) or commented out with the next section's '{' (`} // : {`,
      // leaving that section's '}' unmatched): the parblock goes up to
      // that epar, and what follows it is checked.
      R.RecoverBegin = Toks[F.KwTok].Off;
      R.RecoverEnd = LastErrorOff;
      R.RecoverStatement = true;
      auto At = std::lower_bound(Toks.begin(), Toks.end(), LastErrorOff,
                                 [](const RTok &T, unsigned Off) { return T.Off < Off; });
      if (At != Toks.end() && At->Off == LastErrorOff)
        if (size_t J = ownEpar(At - Toks.begin(), F.Depth); J < Toks.size())
          R.RecoverEnd = Toks[J].Off + Toks[J].Len;
      return;
    }
    if (constructExtent(F.KwTok, Begin, End) && Begin <= LastErrorOff && LastErrorOff <= End) {
      R.RecoverBegin = Begin;
      R.RecoverEnd = End;
      R.RecoverStatement = true;
      return;
    }
  }
  unsigned At = Frames.empty() ? LastErrorOff : Toks[Frames.front().KwTok].Off;
  int Depth = 0;
  size_t Open = 0;
  bool Body = false;
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (Toks[I].Kind == tok::l_brace) {
      if (Depth++ == 0) {
        Open = I;
        // After `)`, or after a K&R definition's parameter declarations.
        Body = I > 0 && (Toks[I - 1].Kind == tok::r_paren || Toks[I - 1].Kind == tok::semi);
      }
    } else if (Toks[I].Kind == tok::r_brace && Depth > 0 && --Depth == 0) {
      if (Toks[Open].Off > At)
        return;
      if (Body && At < Toks[I].Off) {
        R.RecoverBegin = Toks[Open].Off + 1;
        R.RecoverEnd = Toks[I].Off;
        return;
      }
    }
  }
}

TokenPassResult TokenPass::run() {
  TokenPassResult R;
  Toks = lexActive(SM, FID, LO, Skipped, Dirs, Saver, DirIdents);
  for (const RTok &D : DirIdents)
    DirNames.insert(D.Ident);
  for (const std::vector<RTok> *V : {&Toks, &DirIdents})
    for (const RTok &T : *V)
      if (!T.Ident.empty() && looksGenerated(T.Ident) && !Placeholders.count(T.Ident))
        Placeholders[T.Ident.str()] = "__parcc_u" + std::to_string(Placeholders.size());
  if (!checkColonColon()) {
    R.Ok = false;
    return R;
  }
  // The constructs are translated where they are written; a macro body is
  // only text until the preprocessor expands it, after this pass, so a
  // construct keyword there would reach Clang as an undeclared identifier.
  for (const Directive &D : Dirs) {
    if (D.MacroKw == ~0u || inSkipped(D.Begin))
      continue;
    static const char *const Words[] = {"", "parblock", "parfor", "lparfor", "epar",
                                        "pbreak", "preturn", "sync"};
    error(D.MacroKw, "'%0' cannot be used in a macro definition",
          {Words[unsigned(D.MacroWord)]});
    note(D.MacroKw, "parcc translates the PARC constructs written directly in the "
                    "source file; write the construct at the place of use");
    R.Ok = false;
    return R;
  }
  HeadClose.assign(Toks.size(), 0);
  TernaryColon.assign(Toks.size(), 0);
  StructureAt.assign(Toks.size() + 1, 0);

  for (size_t I = 0; I < Toks.size(); ++I) {
    StructureAt[I] = Structure;
    size_t Before = I;
    bool Ok = step(I);
    for (size_t J = Before + 1; J <= I; ++J)
      StructureAt[J] = Structure;
    if (!Ok) {
      R.Ok = false;
      findRecovery(R);
      return R;
    }
  }
  if (!Frames.empty()) {
    const Frame &F = Frames.back();
    if (F.Kind != CK::Parblock && F.Part < 4) {
      headerError(F, eofOffset(), "expected ';' in '%0' header", {name(F)});
    } else if (size_t J = firstBraceLeftOf(F); J < Toks.size()) {
      // `parfor ...; if (c) { a[i] = i;` then the function's `}`: the
      // rest of the file was read into the construct.  A `}` on a line of
      // its own, to the left of the construct, is where it was to end.  A
      // parblock's last section that this `}`, the file's last token,
      // closed lost its own `}` too, as where more text follows (step).
      if (F.Kind == CK::Parblock && F.Pb == PB::AfterSection && J + 1 == Toks.size())
        error(Toks[J].Off, "expected '}' and 'epar' to end 'parblock' before this '}'");
      else
        error(Toks[J].Off, "expected 'epar' to end '%0' before this '}'", {name(F)});
      matchNote(F);
      AsideBegin = Toks[F.KwTok].Off;
      AsideEnd = Toks[J].Off;
    } else {
      error(eofOffset(), "expected 'epar' to end '%0'", {name(F)});
      matchNote(F);
      misspeltNote(F.KwTok + 1, Toks.size(), {"epar"});
    }
    unterminatedNotes(F.KwTok, Toks.size(), /*AtEOF=*/true);
    R.Ok = false;
    findRecovery(R);
    return R;
  }

  StructureAt[Toks.size()] = Structure;
  StringRef Src = SM.getBufferData(FID);
  R.UsesParc = !Repls.empty();
  R.BodilessSteps = BodilessSteps;
  if (!Placeholders.empty()) {
    for (const std::vector<RTok> *V : {&Toks, &DirIdents})
      for (const RTok &T : *V)
        if (!T.Ident.empty() && Placeholders.count(T.Ident))
          replace(T, Placeholders.find(T.Ident)->second, /*Linear=*/true, false, false);
    for (const auto &P : Placeholders)
      R.Renamed.push_back({P.second, P.first});
    // Directive identifiers come after the others: keep B1 order.
    std::stable_sort(Repls.begin(), Repls.end(),
                     [](const Repl &A, const Repl &B) { return A.Off < B.Off; });
  }
  // Also where no branch is skipped: `#ifndef SERIAL` around a header and
  // again around its epar left both groups' directives in the activity's
  // function ("#endif without #if" from the back end).
  if (R.UsesParc)
    flattenStraddlingConditionals();
  if (R.UsesParc)
    Repls.insert(Repls.begin(), Repl{Toks.front().Off, 0, MarkerPrelude,
                                     Toks.front().Off, false, false});
  std::stable_sort(Repls.begin(), Repls.end(),
                   [](const Repl &A, const Repl &B) { return A.Off < B.Off; });

  std::string &Out = R.Text;
  Out.reserve(Src.size() + Repls.size() * 24 + sizeof(MarkerPrelude));
  unsigned Cur = 0;
  // The prelude is not always the first edit: a placeholder for a name in
  // a directive above the first token (`#define parc_self_ 0` on line 1)
  // comes before it, and was taken for the prelude and cut from the output.
  bool Prelude = R.UsesParc;
  for (const Repl &P : Repls) {
    R.Map.addCopy(Out.size(), Cur, P.Off - Cur);
    Out.append(Src.data() + Cur, P.Off - Cur);
    unsigned B1 = Out.size();
    if (Prelude && P.Len == 0 && P.Text == MarkerPrelude) {
      R.PreludeBegin = B1;
      R.PreludeEnd = B1 + P.Text.size();
      Prelude = false;
    }
    if (P.Linear) {
      unsigned N = std::min<unsigned>(P.Len, P.Text.size());
      R.Map.addCopy(B1, P.Off, N);
      R.Map.addSynthetic(B1 + N, P.Text.size() - N, P.Off + P.Len);
    } else {
      R.Map.addSynthetic(B1, P.Text.size(), P.Anchor);
    }
    if (P.Preturn)
      R.PreturnOffsets.push_back(B1);
    Out += P.Text;
    Cur = P.Off + P.Len;
  }
  R.Map.addCopy(Out.size(), Cur, Src.size() - Cur);
  Out.append(Src.data() + Cur, Src.size() - Cur);
  R.Map.setSizes(Out.size(), Src.size());
  return R;
}

} // namespace

TokenPassResult runTokenPass(const SourceManager &SM, FileID FID, const LangOptions &LangOpts,
                             ArrayRef<SkippedRange> Skipped, DiagnosticsEngine &Diags) {
  return TokenPass(SM, FID, LangOpts, Skipped, Diags).run();
}

StringRef nearestKeyword(StringRef Name, ArrayRef<StringRef> Words) {
  std::string Lower = Name.lower();
  StringRef Best;
  unsigned BestDistance = 3;
  for (StringRef W : Words)
    if (unsigned D = StringRef(Lower).edit_distance(W, true, 2); D < BestDistance) {
      Best = W;
      BestDistance = D;
    }
  return Best;
}

bool looksGenerated(StringRef N) {
  if (N.starts_with("parc_")) {
    if (isAbiName(N)) // parc_abi.h's (parc_poll_hook_): Checks.cpp reports it
      return false;
    return N.ends_with("_") || N.starts_with("parc_env_") || N.starts_with("parc_mark_");
  }
  for (StringRef Kw : {"_parfor_L", "_lparfor_L", "_parblock_L"}) {
    size_t At = N.find(Kw);
    if (At != StringRef::npos && At + Kw.size() < N.size() &&
        llvm::isDigit(N[At + Kw.size()]))
      return true;
  }
  return false;
}

bool ColonColonCheck::misplaced(tok::TokenKind K) {
  bool WasLSquare = PrevLSquare, WasAsm = AsmPending;
  PrevLSquare = K == tok::l_square;
  AsmPending = K == tok::kw_asm ||
               (AsmPending && (K == tok::kw_volatile || K == tok::kw_inline || K == tok::kw_goto));
  switch (K) {
  case tok::l_square: {
    // The second '[' of `[[` opens an attribute: both brackets allow `::`.
    bool Attr = WasLSquare && !Open.empty() && !Open.back();
    if (Attr) {
      Open.back() = 1;
      ++Allowed;
    }
    Open.push_back(Attr);
    Allowed += Attr;
    return false;
  }
  case tok::l_paren:
    Open.push_back(WasAsm);
    Allowed += WasAsm;
    return false;
  case tok::r_square:
  case tok::r_paren:
    if (!Open.empty()) {
      Allowed -= Open.back();
      Open.pop_back();
    }
    return false;
  case tok::coloncolon:
    return Allowed == 0;
  default:
    return false;
  }
}

SourceScan scanSource(StringRef Text, const LangOptions &LangOpts) {
  SourceScan R;
  Lexer L(SourceLocation::getFromRawEncoding(1), LangOpts, Text.begin(), Text.begin(),
          Text.end());
  Token T;
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  bool AfterHash = false, InDirective = false;
  int Depth = 0;
  // `faa` at file scope declares a faa of its own when a type comes before
  // it (`static int faa(`, `long *faa(`), or, with nothing before it (a K&R
  // definition, `faa(p, v) int *p; ...`), when a name or `)` follows its
  // `(`.  Not a call such as `faa(&n, 1);` that a missing `{` left at file
  // scope: parc.h was then not included, and the first errors were
  // "unknown type name 'parc_sem_t'" in the program's headers, before the
  // real one (tester: a parblock section without its `{`).
  tok::TokenKind Prev = tok::unknown; // the last token outside directives
  int KnrFaa = 0; // 1: `faa` seen with nothing before it; 2: and its `(`
  for (bool Done = false; !Done;) {
    Done = L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    if (T.isAtStartOfLine())
      InDirective = false;
    bool Hash = T.is(tok::hash) && T.isAtStartOfLine();
    if (!InDirective && !Hash) {
      if (KnrFaa == 2 && (T.is(tok::raw_identifier) || T.is(tok::r_paren)))
        R.DeclaresFaa = true;
      KnrFaa = KnrFaa == 1 && T.is(tok::l_paren) ? 2 : 0;
    }
    if (T.is(tok::raw_identifier)) {
      StringRef S = identifierOf(T, Saver);
      if (AfterHash && (S == "if" || S == "ifdef" || S == "ifndef"))
        R.HasConditional = true;
      else if (AfterHash && S == "line")
        R.HasLineDirective = true;
      else if (!InDirective) {
        KW W = classify(S);
        if (W != KW::None && W < KW::If)
          R.HasKeyword = true;
        if (S == "faa" && Depth == 0) {
          if (Prev == tok::raw_identifier || Prev == tok::star || Prev == tok::l_paren)
            R.DeclaresFaa = true;
          else if (Prev == tok::unknown || Prev == tok::semi || Prev == tok::r_brace)
            KnrFaa = 1;
        }
      }
    } else if (AfterHash && T.is(tok::numeric_constant)) {
      R.HasLineDirective = true;
    } else if (!InDirective && isOpener(T.getKind())) {
      ++Depth;
    } else if (!InDirective && isCloser(T.getKind()) && Depth > 0) {
      --Depth;
    }
    AfterHash = Hash;
    InDirective |= AfterHash;
    if (!InDirective)
      Prev = T.getKind();
  }
  return R;
}

} // namespace parcc
