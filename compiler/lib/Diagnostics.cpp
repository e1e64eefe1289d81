//===- Diagnostics.cpp - diagnostics at the user's line and column --------===//
#include "parcc/Diagnostics.h"

#include "clang/Basic/CharInfo.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/IdentifierTable.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstring>

using namespace clang;

namespace parcc {

OriginalSource::OriginalSource(StringRef Path, StringRef Text, DiagnosticOptions *DiagOpts,
                               DiagnosticConsumer *Client) {
  FM = std::make_unique<FileManager>(FileSystemOptions());
  Diags = std::make_unique<DiagnosticsEngine>(
      llvm::IntrusiveRefCntPtr<DiagnosticIDs>(new DiagnosticIDs()), DiagOpts, Client,
      /*ShouldOwnClient=*/false);
  SM = std::make_unique<SourceManager>(*Diags, *FM);
  Diags->setSourceManager(SM.get());
  FID = SM->createFileID(llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
  SM->setMainFileID(FID);
}

void OriginalSource::addLineNote(unsigned Offset, unsigned LineNo, StringRef Filename,
                                 SrcMgr::CharacteristicKind Kind) {
  int FilenameID = Filename.empty() ? -1 : SM->getLineTableFilenameID(Filename);
  SM->AddLineNote(loc(Offset), LineNo, FilenameID, /*IsFileEntry=*/false,
                  /*IsFileExit=*/false, Kind);
  HasLineNotes = true;
}

SourceLocation OriginalSource::loc(unsigned Offset) const {
  return SM->getLocForStartOfFile(FID).getLocWithOffset(Offset);
}

void DiagPrinter::BeginSourceFile(const LangOptions &L, const Preprocessor *) {
  LO = L;
  FaaArity = DropNotes = false;
  FaaDropped.clear();
  DroppedParens.clear();
  ClangColumns.clear();
  OrigTD.reset();
  OtherTD.reset();
}

void HeldStream::write_impl(const char *Ptr, size_t Size) {
  Pos += Size;
  if (!Holding) {
    Real.write(Ptr, Size);
    return;
  }
  if (Groups.empty())
    Groups.push_back({UINT64_MAX, DiagnosticsEngine::Note, {}});
  Groups.back().Text.append(Ptr, Size);
}

HeldStream::Released HeldStream::release(unsigned ErrorLimit) {
  flush();
  Holding = false;
  Released R;
  R.Any = !Groups.empty();
  std::stable_sort(Groups.begin(), Groups.end(),
                   [](const Group &A, const Group &B) { return A.Key < B.Key; });
  for (const Group &G : Groups) {
    bool Error = G.Level >= DiagnosticsEngine::Error;
    if (Error && ErrorLimit && R.Errors == ErrorLimit) {
      R.Limited = true;
      break;
    }
    Real << G.Text;
    R.Errors += Error;
    R.Warnings += G.Level == DiagnosticsEngine::Warning;
    if (G.Level == DiagnosticsEngine::Fatal)
      break;
  }
  Groups.clear();
  Real.flush();
  return R;
}

void DiagPrinter::releaseInLineOrder() {
  if (!OS.holding())
    return;
  HeldStream::Released R = OS.release(ErrorLimit);
  if (!R.Any)
    return;
  // The counts of "N errors generated." are of what was printed.
  NumErrors = R.Errors;
  NumWarnings = R.Warnings;
  if (R.Limited) {
    TextDiagnostic::printDiagnosticLevel(OS, DiagnosticsEngine::Fatal, Opts->ShowColors);
    TextDiagnostic::printDiagnosticMessage(
        OS, false,
        Opts->ShowOptionNames ? "too many errors emitted, stopping now [-ferror-limit=]"
                              : "too many errors emitted, stopping now",
        0, 0, Opts->ShowColors);
    OS.flush();
    ++NumErrors;
  }
}

/// Where a diagnostic goes among the held ones: its line and column in the
/// user's file (within a line, Clang's own keep their order: `n = n + "x"`
/// reports column 17 before 13), a header's the line that includes it, or
/// after them all (one without a place).
uint64_t DiagPrinter::lineOrderKey(const Diagnostic &Info, SourceLocation At) {
  if (!Orig || !Info.hasSourceManager() || At.isInvalid())
    return UINT64_MAX;
  const SourceManager &SM = Info.getSourceManager();
  bool InMain = true;
  SourceLocation L = &SM == &Orig->sm() ? SM.getFileLoc(At) : mapLoc(SM, At, InMain);
  if (!InMain) {
    // A header's goes where the file includes it (a tester's error in
    // the header included on line 1 came after line 3's).
    SourceLocation F = SM.getFileLoc(At);
    FileID FID = SM.getFileID(F);
    while (FID.isValid() && FID != SM.getMainFileID() && SM.getIncludeLoc(FID).isValid()) {
      F = SM.getIncludeLoc(FID);
      FID = SM.getFileID(F);
    }
    if (FID == SM.getMainFileID())
      L = mapLoc(SM, F, InMain);
  }
  if (!InMain)
    return UINT64_MAX;
  // Within a line, by column, but Clang's own keep their order: each
  // counts as far along the line as the furthest of Clang's before it.
  uint64_t Line = Orig->sm().getSpellingLineNumber(L);
  uint64_t Col = std::min<uint64_t>(Orig->sm().getSpellingColumnNumber(L), (1u << 24) - 1);
  if (Info.getID() < diag::DIAG_UPPER_LIMIT) {
    unsigned &Furthest = ClangColumns[Line];
    Furthest = std::max<unsigned>(Furthest, Col);
    Col = Furthest;
  }
  return Line << 24 | Col;
}

// Before CompilerInstance prints "N errors generated.": a parse with
// errors never reaches the checks, which release the rest.
void DiagPrinter::EndSourceFile() { releaseInLineOrder(); }

TextDiagnostic &DiagPrinter::origTD() {
  if (!OrigTD)
    OrigTD = std::make_unique<TextDiagnostic>(OS, LO, Opts.get());
  return *OrigTD;
}

void DiagPrinter::emitOrig(SourceLocation Loc, DiagnosticsEngine::Level Level, StringRef Msg,
                           ArrayRef<CharSourceRange> Ranges, ArrayRef<FixItHint> FixIts) {
  if (!Shown) {
    origTD().emitDiagnostic(FullSourceLoc(Loc, Orig->sm()), Level, Msg, Ranges, FixIts);
    return;
  }
  auto To = [&](SourceLocation L) {
    return L.isValid() ? Shown->loc(Orig->sm().getFileOffset(L)) : L;
  };
  auto ToRange = [&](const CharSourceRange &R) {
    return CharSourceRange(SourceRange(To(R.getBegin()), To(R.getEnd())), R.isTokenRange());
  };
  SmallVector<CharSourceRange, 4> R;
  for (const CharSourceRange &X : Ranges)
    R.push_back(ToRange(X));
  SmallVector<FixItHint, 2> F;
  for (FixItHint H : FixIts) {
    H.RemoveRange = ToRange(H.RemoveRange);
    F.push_back(H);
  }
  origTD().emitDiagnostic(FullSourceLoc(To(Loc), Shown->sm()), Level, Msg, R, F);
}

TextDiagnostic &DiagPrinter::otherTD() {
  if (!OtherTD)
    OtherTD = std::make_unique<TextDiagnostic>(OS, LO, Opts.get());
  return *OtherTD;
}

SourceLocation DiagPrinter::mapLoc(const SourceManager &SM, SourceLocation L,
                                   bool &InMain) const {
  InMain = false;
  if (L.isInvalid())
    return L;
  SourceLocation F = SM.getFileLoc(L);
  if (!Orig || !Map || SM.getFileID(F) != SM.getMainFileID())
    return F;
  InMain = true;
  return Orig->loc(Map->toOrig(SM.getFileOffset(F)));
}

/// The " [-Wflag]" suffix, as TextDiagnosticPrinter writes it.
static void appendOptionName(SmallVectorImpl<char> &Out, DiagnosticsEngine::Level Level,
                             const Diagnostic &Info) {
  llvm::raw_svector_ostream OS(Out);
  bool Started = false;
  if (Level == DiagnosticsEngine::Error &&
      DiagnosticIDs::isBuiltinWarningOrExtension(Info.getID()) &&
      !DiagnosticIDs::isDefaultMappingAsError(Info.getID())) {
    OS << " [-Werror";
    Started = true;
  }
  StringRef Opt = DiagnosticIDs::getWarningOptionForDiag(Info.getID());
  if (!Opt.empty()) {
    OS << (Started ? "," : " [") << "-W" << Opt;
    StringRef Value = Info.getDiags()->getFlagValue();
    if (!Value.empty())
      OS << "=" << Value;
    Started = true;
  }
  if (Started)
    OS << "]";
}

/// Messages about the token pass's marker functions name the user's keyword
/// instead (they reach the user only for code so broken that the markers
/// land where no construct can be, e.g. after a brace hidden in a macro).
static void nameKeywords(SmallString<256> &Msg) {
  static const std::pair<const char *, const char *> Names[] = {
      {"parc_mark_parblock", "parblock"}, {"parc_mark_lparfor", "lparfor"},
      {"parc_mark_parfor", "parfor"},     {"parc_mark_bounds", "parfor"},
      {"parc_mark_act", "epar"},          {"parc_mark_end", "epar"},
      {"parc_mark_pbreak", "pbreak"},     {"parc_mark_sync", "sync"},
      {"parc_mark_sections", "parblock"}};
  std::string S(Msg.str());
  for (const auto &N : Names) {
    size_t P;
    while ((P = S.find(N.first)) != std::string::npos)
      S.replace(P, strlen(N.first), N.second);
  }
  Msg = S;
}

/// A construct keyword that reached Clang as an identifier was written where
/// the token pass does not look: in a header or in the body of a macro
/// defined in one.  Returns the keyword, or an empty string.
static StringRef strayKeyword(DiagnosticsEngine::Level Level, StringRef Msg) {
  if (Level != DiagnosticsEngine::Error || !Msg.consume_front("use of undeclared identifier '"))
    return {};
  StringRef Word = Msg.take_until([](char C) { return C == '\''; });
  for (const char *K : {"parblock", "parfor", "lparfor", "epar", "pbreak", "preturn", "sync"})
    if (Word == K)
      return Word;
  return {};
}

/// A misspelt pbreak or preturn (`p_break;`, `preturm x;`) that Clang took
/// for an undeclared name: the keyword within two edits of it, or empty.
/// Clang's own suggestion, when it makes one, is the nearest C keyword
/// ('break', 'return'): the very jump an activity may not make, so the
/// PARC keyword replaces it, fix-it included; a suggested variable of the
/// user's is kept.
static StringRef misspeltKeyword(DiagnosticsEngine::Level Level, StringRef Msg,
                                 StringRef &Name) {
  if (Level != DiagnosticsEngine::Error || !(Msg.consume_front("use of undeclared identifier '") ||
                                             Msg.consume_front("unknown type name '")))
    return {};
  Name = Msg.take_until([](char C) { return C == '\''; });
  Msg = Msg.drop_front(Name.size());
  if (Msg.consume_front("'; did you mean '")) {
    StringRef Suggested = Msg.take_until([](char C) { return C == '\''; });
    if (!llvm::is_contained({"break", "return", "continue", "goto"}, Suggested))
      return {};
  } else if (Msg != "'") {
    return {};
  }
  if (Name.size() < 4)
    return {};
  StringRef K = nearestKeyword(Name, {"pbreak", "preturn"});
  return K == Name ? StringRef() : K;
}

/// Clang's "argument type 'void' is incomplete" about a FROM, TO or STEP of
/// the user's: the token pass hands the bounds to a variadic marker, so the
/// message would name an argument that the user did not write.  B1 is the
/// parse's text and Off the expression's offset there; on success Off
/// becomes the offset of the user's expression (past the marker's paren).
/// Is B1 offset Off inside the bounds marker that holds a FROM, TO or STEP
/// of the user's (TokenPass.h)?  At: the marker's offset; Part: 0, 1 or 2
/// (FROM, TO, STEP); Kw: the construct's keyword.
static bool inBound(StringRef B1, unsigned Off, size_t &At, int &Part, const char *&Kw) {
  StringRef Before = B1.substr(0, Off);
  At = Before.rfind("parc_mark_bounds(");
  if (At == StringRef::npos || Before.substr(At).contains(';'))
    return false;
  char P = Before[At + strlen("parc_mark_bounds(")];
  if (P < '0' || P > '2')
    return false;
  Part = P - '0';
  StringRef Head = Before.substr(0, At);
  size_t Par = Head.rfind("parc_mark_parfor();"), Lpar = Head.rfind("parc_mark_lparfor(");
  Kw = Lpar != StringRef::npos && (Par == StringRef::npos || Lpar > Par)
           ? (Head.substr(Lpar).starts_with("parc_mark_lparfor(1)") ? "mapped lparfor"
                                                                    : "lparfor")
           : "parfor";
  return true;
}

static const char *const BoundNames[] = {"FROM", "TO", "STEP"};

static bool nameBound(SmallString<256> &Msg, StringRef B1, unsigned &Off) {
  StringRef M = Msg.str();
  if (!M.consume_front("argument type '") || !M.consume_back("' is incomplete"))
    return false;
  size_t At;
  int Part;
  const char *Kw;
  StringRef Tail = B1.substr(0, Off).rtrim();
  if (!inBound(B1, Off, At, Part, Kw) || !(Tail.ends_with(",") || Tail.ends_with(", (")))
    return false;
  Msg = (Twine(BoundNames[Part]) + " of '" + Kw + "' has incomplete type '" + M + "'").str();
  if (Off < B1.size() && B1[Off] == '(')
    ++Off;
  while (Off < B1.size() && (B1[Off] == ' ' || B1[Off] == '\t' || B1[Off] == '\n'))
    ++Off;
  return true;
}

/// The B1 offset of the innermost '(' open at Off, lexing from At (raw, so
/// that parentheses in strings and comments do not count), or -1.
static long innermostParen(const SourceManager &SM, const LangOptions &LO, StringRef B1,
                           size_t At, unsigned Off) {
  SourceLocation Start = SM.getLocForStartOfFile(SM.getMainFileID());
  Lexer L(Start, LO, B1.begin(), B1.begin() + At, B1.end());
  std::vector<unsigned> Open;
  Token T;
  for (;;) {
    L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    unsigned O = SM.getFileOffset(T.getLocation());
    if (O >= Off)
      break;
    if (T.is(tok::l_paren))
      Open.push_back(O);
    else if (T.is(tok::r_paren) && !Open.empty())
      Open.pop_back();
  }
  return Open.empty() ? -1 : (long)Open.back();
}

/// Clang's errors about the parentheses that the token pass puts around a
/// FROM, TO or STEP (TokenPass.h), where the innermost '(' open at the
/// error is one of those.
///  - "expected ')'" (`parfor int i; 0; 9 1;`, a ';' left out between two
///    operands): the note "to match this '('" named a parenthesis the user
///    never wrote.  It becomes "expected ';' after TO in 'parfor' header"
///    just after the last operand, as the token pass says it where it can.
///  - A FROM, TO or STEP that is one undeclared name: in `(count)` Clang
///    may take the name for a misspelt type keyword ("did you mean
///    'const'?"), since `(const)` could begin a cast, and then reports an
///    "overloaded function" at the '('.  C's `(count)` does the same;
///    `count` alone in a header does not, so parcc's parenthesis must not.
///    The suggestion goes, and so do later errors at that '(' (Dropped).
enum class BoundParen { None, MissingSemi, TypoKeyword };

/// What boundParen found: the '(''s B1 offset; for MissingSemi, that of the
/// '{' that stands for the keyword, and the keyword.
struct BoundSpot {
  BoundParen Kind = BoundParen::None;
  unsigned Paren = 0, KwAt = 0;
  const char *Kw = nullptr;
};

/// Off: the error's B1 offset, moved to where the ';' is missing.
static BoundSpot boundParen(SmallString<256> &Msg, const SourceManager &SM,
                            const LangOptions &LO, const PosMap &Map, unsigned &Off) {
  StringRef B1 = SM.getBufferData(SM.getMainFileID());
  StringRef M = Msg.str();
  bool Missing = M == "expected ')'";
  bool Typo = M.starts_with("use of undeclared identifier '") && M.contains("'; did you mean '");
  size_t At;
  int Part;
  BoundSpot S;
  if ((!Missing && !Typo) || !inBound(B1, Off, At, Part, S.Kw))
    return {};
  long P = innermostParen(SM, LO, B1, At, Off);
  if (P < 0 || !Map.isSynthetic((unsigned)P))
    return {};
  S.Paren = (unsigned)P;
  if (Missing) {
    S.KwAt = S.Paren;
    for (size_t I = At; I-- > 0;)
      if (B1[I] == '{' && Map.isSynthetic(I)) {
        S.KwAt = I;
        break;
      }
    Msg = (Twine("expected ';' after ") + BoundNames[Part] + " in '" + S.Kw + "' header").str();
    while (Off > 0 && isspace((unsigned char)B1[Off - 1]))
      --Off;
    S.Kind = BoundParen::MissingSemi;
    return S;
  }
  // Only where the name is all that the parenthesis holds so far, and the
  // suggestion is a keyword (a variable's name is good advice).
  StringRef Suggested = M.substr(M.find("'; did you mean '") + strlen("'; did you mean '"));
  Suggested = Suggested.take_until([](char C) { return C == '\''; });
  IdentifierTable Idents(LO);
  if (!B1.substr(S.Paren + 1, Off - S.Paren - 1).trim().empty() ||
      Idents.get(Suggested).getTokenID() == tok::identifier)
    return {};
  Msg = M.substr(0, M.find("; did you mean '")).str();
  S.Kind = BoundParen::TypoKeyword;
  return S;
}

/// Clang's "expected ';' after return statement" where the return is the
/// token pass's spelling of a preturn (sorted B1 offsets): the user wrote
/// preturn.  B1 is the parse's text and Off the diagnostic's offset there.
static void namePreturn(SmallString<256> &Msg, StringRef B1, unsigned Off,
                        const std::vector<unsigned> &Preturns) {
  StringRef M = Msg.str();
  if (!M.ends_with("after return statement"))
    return;
  size_t At = B1.substr(0, Off).rfind("return");
  if (At == StringRef::npos || !std::binary_search(Preturns.begin(), Preturns.end(), At))
    return;
  Msg = (M.drop_back(strlen("return statement")) + "'preturn'").str();
}

/// Clang's warning that a return's value does not match its function, on
/// a return that stands for a preturn: Checks.cpp reports an error there.
bool DiagPrinter::isPreturnMismatch(const Diagnostic &Info) const {
  unsigned ID = Info.getID();
  if ((ID != diag::ext_return_missing_expr && ID != diag::ext_return_has_expr) || !Preturns ||
      !Info.hasSourceManager() || !Orig || &Info.getSourceManager() == &Orig->sm() ||
      !Info.getLocation().isFileID())
    return false;
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation L = Info.getLocation();
  return SM.getFileID(L) == SM.getMainFileID() &&
         std::binary_search(Preturns->begin(), Preturns->end(), SM.getFileOffset(L));
}

/// Clang's warning that parc_P, parc_V or parc_sem_init gets an argument of
/// another type than a semaphore's pointer: Checks.cpp (SemInitChecker)
/// reports an error at the same argument.
bool DiagPrinter::isSemArgMismatch(const Diagnostic &Info) const {
  unsigned ID = Info.getID();
  if (ID != diag::ext_typecheck_convert_incompatible_pointer &&
      ID != diag::ext_typecheck_convert_int_pointer)
    return false;
  SmallString<128> M;
  Info.FormatDiagnostic(M);
  return StringRef(M).contains("to parameter of type 'parc_sem_t *'");
}

/// Clang's warning that faa's value is a pointer (`faa(&n, "a")`):
/// FaaChecker (Checks.cpp) makes it an error that names faa.
bool DiagPrinter::isFaaValueMismatch(const Diagnostic &Info) const {
  if (Info.getID() != diag::ext_typecheck_convert_pointer_int || !Info.hasSourceManager())
    return false;
  const SourceManager &SM = Info.getSourceManager();
  for (SourceLocation L = Info.getLocation(); L.isMacroID(); L = SM.getImmediateMacroCallerLoc(L))
    if (Lexer::getImmediateMacroName(L, SM, LO) == "faa")
      return true;
  return false;
}

/// Clang's "expression result unused" about a statement that is the bare
/// name `sync`: Checks.cpp says what is wrong with it (SyncNameChecker).
bool DiagPrinter::isSyncNameUnused(const Diagnostic &Info) const {
  if (Info.getID() != diag::warn_unused_expr || !Info.hasSourceManager() ||
      !Info.getLocation().isValid())
    return false;
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation L = SM.getSpellingLoc(Info.getLocation());
  bool Invalid = false;
  StringRef Text = SM.getCharacterData(L, &Invalid);
  return !Invalid && Text.starts_with("sync") &&
         Lexer::MeasureTokenLength(L, SM, LO) == strlen("sync");
}

/// Clang's "address argument to atomic builtin must be a pointer" about the
/// user's faa (parc.h's macro for __atomic_fetch_add), as in `faa(n, 1)`
/// for `faa(&n, 1)`: the message names the builtin that the user did not
/// write.  It says what FaaChecker (Checks.cpp) says of other wrong types.
/// Clang refuses an _Atomic object in the same builtin ("atomic operation
/// must be a pointer to integer ...") where GCC takes it; faa is atomic by
/// itself, so the note says to declare the object plainly.
enum class FaaMisuse { None, NotPointer, NotInteger, Array, BitInt, Atomic, Const };

static FaaMisuse nameFaa(SmallString<256> &Msg, const Diagnostic &Info, const LangOptions &LO) {
  StringRef M = Msg.str();
  SourceLocation L = Info.getLocation();
  if (!L.isMacroID() || Lexer::getImmediateMacroName(L, Info.getSourceManager(), LO) != "faa")
    return FaaMisuse::None;
  // faa(vp, 1) on a void * (or a pointer to an incomplete struct).
  if (M.consume_front("incomplete type '") && M.consume_back("' where a complete type is required")) {
    Msg = (Twine("'faa' needs a pointer to an integer object, not '") + M + " *'").str();
    return FaaMisuse::NotInteger;
  }
  // faa on a _BitInt(N) (tester L, s46): Clang's message named its builtin.
  if (M == "argument to atomic builtin of type '_BitInt' is not supported") {
    Msg = "'faa' does not work on a _BitInt object";
    return FaaMisuse::BitInt;
  }
  if (!M.consume_back(" invalid)"))
    return FaaMisuse::None;
  // faa(&arr, 1) on an array (tester F, s45): Clang's words named the
  // builtin's pointer and floating point types.
  if (!M.contains("_Atomic") &&
      M.consume_front("address argument to atomic operation must be a pointer to integer, "
                      "pointer or supported floating point type (")) {
    Msg = (Twine("'faa' needs a pointer to an integer object, not ") + M).str();
    return M.contains("(*)[") ? FaaMisuse::Array : FaaMisuse::NotInteger;
  }
  if (M.consume_front("address argument to atomic builtin must be a pointer (")) {
    Msg = (Twine("'faa' needs a pointer to an integer object, not ") + M).str();
    return FaaMisuse::NotPointer;
  }
  if (M.consume_front("address argument to atomic operation must be a pointer to non-const "
                      "type (")) {
    Msg = (Twine("'faa' needs a pointer to an integer object it can change, not ") + M).str();
    return FaaMisuse::Const;
  }
  size_t Open = M.rfind(" ('");
  if (M.starts_with("address argument to atomic operation must be a pointer to integer") &&
      Open != StringRef::npos && M.substr(Open).contains("_Atomic")) {
    Msg = (Twine("'faa' needs a pointer to a plain integer object, not ") + M.substr(Open + 2))
              .str();
    return FaaMisuse::Atomic;
  }
  return FaaMisuse::None;
}

static const char FaaNote[] =
    "faa atomically adds to the integer that its first argument points to: write faa(&x, v)";

/// faa called with one argument or three: Clang's message about a macro
/// call, said of faa, in the user's words.
static bool faaArity(SmallString<256> &Msg, const Diagnostic &Info, const LangOptions &LO) {
  StringRef M = Msg.str();
  if ((M != "too few arguments provided to function-like macro invocation" &&
       M != "too many arguments provided to function-like macro invocation") ||
      !Info.hasSourceManager() || Info.getLocation().isInvalid())
    return false;
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation F = SM.getFileLoc(Info.getLocation());
  if (SM.getFileID(F) != SM.getMainFileID())
    return false;
  StringRef B1 = SM.getBufferData(SM.getMainFileID());
  long Open = innermostParen(SM, LO, B1, 0, SM.getFileOffset(F));
  if (Open <= 0)
    return false;
  StringRef Before = B1.substr(0, Open).rtrim();
  if (!Before.ends_with("faa") ||
      (Before.size() > 3 && isAsciiIdentifierContinue(Before[Before.size() - 4])))
    return false;
  Msg = "'faa' takes two arguments: faa(p, v) adds v to the integer that p points to";
  return true;
}

static const char FaaIntegerNote[] =
    "faa atomically adds to an integer (int, unsigned, long, size_t, ...); guard other "
    "objects with a semaphore";

static const char FaaBitIntNote[] =
    "faa works on the standard integer types (char to long long, and __int128); guard a "
    "_BitInt with a semaphore";

static const char FaaArrayNote[] =
    "faa adds to one integer: for an element of the array, write faa(&a[i], v)";

static const char FaaConstNote[] =
    "faa writes the object its first argument points to: it cannot be const";

static const char FaaAtomicNote[] =
    "faa is atomic by itself: declare the object without _Atomic, or use atomic_fetch_add "
    "from <stdatomic.h> on an _Atomic one";

static const char StrayNote[] =
    "PARC constructs are translated only where they are written in the source files "
    "given to parcc, not in headers, in macros defined there or on the command line";

static const char SyncStrayNote[] =
    "the barrier is the statement 'sync;', written out in the activity as 'sync' and ';', "
    "not through a macro";

/// Puts the user's names back for the token pass's placeholders in Text.
void DiagPrinter::unrename(std::string &Text) const {
  if (!Renamed || Text.find("__parcc_u") == std::string::npos)
    return;
  for (const auto &[Placeholder, Name] : *Renamed)
    for (size_t At = Text.find(Placeholder); At != std::string::npos;
         At = Text.find(Placeholder, At)) {
      size_t End = At + Placeholder.size();
      if (End < Text.size() && isAsciiIdentifierContinue(Text[End])) {
        At = End; // __parcc_u1 inside __parcc_u12
        continue;
      }
      Text.replace(At, Placeholder.size(), Name);
      At += Name.size();
    }
}

void DiagPrinter::noteError(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
  if (Level < DiagnosticsEngine::Error || DiagnosticIDs::isBuiltinWarningOrExtension(Info.getID()))
    return;
  SourceLocation L = Info.getLocation();
  if (L.isInvalid() || !Info.hasSourceManager()) {
    ErrorElsewhere = true;
    return;
  }
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(L);
  if (SM.getFileID(At) == SM.getMainFileID())
    ErrorLocs.push_back({&SM, At});
  else if (SM.isInSystemHeader(At) || !SM.getFileEntryRefForID(SM.getFileID(At)))
    // A system header's (parc.h's among them), or the command line's.
    ErrorElsewhere = true;
  // A header of the user's: the declarations of the file that use what it
  // could not declare hold what Clang could not build, and are left out
  // for that (Session::setParseErrors); the others are checked.
}

bool DiagPrinter::errorsLocated(const SourceManager &SM, std::vector<SourceLocation> &Out) const {
  if (ErrorElsewhere)
    return false;
  // Another source manager's are the token pass's, of a run before this
  // one (its function is blanked here: Frontend.cpp, blankBody).
  for (auto [In, At] : ErrorLocs)
    if (In == &SM)
      Out.push_back(At);
  return true;
}

/// Does the file location of L come from a macro's definition (not only
/// from macro arguments written in the file)?  As getFileLoc walks.
static bool inMacroBody(const SourceManager &SM, SourceLocation L) {
  for (; L.isMacroID(); L = SM.getImmediateSpellingLoc(L))
    if (!SM.isMacroArgExpansion(L))
      return true;
  return false;
}

/// Clang's "expanded from macro 'M'" notes, which the diagnostic's place,
/// moved to the user's text, no longer carries: each macro the place comes
/// through, at its definition, outermost first, as Clang's
/// DiagnosticRenderer prints them (within -fmacro-backtrace-limit), after
/// an error or a warning (a note of parcc's at the same place would repeat
/// them).
void DiagPrinter::macroBacktrace(const Diagnostic &Info) {
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation L = Info.getLocation();
  // A level where the place is a macro argument and so is every range (a
  // token of the same expansion of that argument) is left out with those
  // inside it, as Clang does: there is nothing of the macro's to see.
  auto oneArgument = [&](SourceLocation At) {
    SourceLocation Arg, Other;
    if (!SM.isMacroArgExpansion(At, &Arg))
      return false;
    for (const CharSourceRange &R : Info.getRanges())
      if (R.getBegin() != R.getEnd() || SM.getFileID(R.getBegin()) != SM.getFileID(At) ||
          !SM.isMacroArgExpansion(R.getBegin(), &Other) || Other != Arg)
        return false;
    return true;
  };
  SmallVector<SourceLocation, 8> Stack;
  size_t Ignored = 0;
  while (L.isMacroID()) {
    Stack.push_back(SM.isMacroArgExpansion(L) ? SM.getImmediateExpansionRange(L).getBegin() : L);
    if (oneArgument(L))
      Ignored = Stack.size();
    L = SM.getImmediateMacroCallerLoc(L);
    if (L.isFileID())
      L = SM.getImmediateMacroCallerLoc(Stack.back());
  }
  Stack.erase(Stack.begin(), Stack.begin() + Ignored);
  unsigned Limit = Opts->MacroBacktraceLimit, Depth = Stack.size();
  unsigned Head = Limit && Depth > Limit ? Limit / 2 : Depth;
  unsigned Tail = Limit && Depth > Limit ? Limit / 2 + Limit % 2 : 0;
  for (unsigned K = 0; K < Depth; ++K) {
    if (K == Head && Tail) {
      std::string Skip = "(skipping " + std::to_string(Depth - Limit) +
                         " expansions in backtrace; use -fmacro-backtrace-limit=0 to see all)";
      TextDiagnostic::printDiagnosticLevel(OS, DiagnosticsEngine::Note, Opts->ShowColors);
      TextDiagnostic::printDiagnosticMessage(OS, true, Skip, 0, 0, Opts->ShowColors);
      K = Depth - Tail;
    }
    SourceLocation At = Stack[Depth - 1 - K];
    SourceLocation Sp = SM.getSpellingLoc(At);
    if (SM.isInSystemHeader(Sp) && llvm::sys::path::filename(SM.getFilename(Sp)) == "parc.h")
      continue; // faa: a word of the language, not a macro of the user's
    StringRef Name = Lexer::getImmediateMacroNameForDiagnostics(At, SM, LO);
    std::string Msg =
        Name.empty() ? "expanded from here" : ("expanded from macro '" + Name + "'").str();
    // The diagnostic's ranges that are spelt on the definition's line.
    SmallVector<CharSourceRange, 2> Ranges;
    bool InMain;
    SourceLocation Mapped = mapLoc(SM, Sp, InMain);
    auto onLine = [&](SourceLocation X) {
      return SM.getFileID(X) == SM.getFileID(Sp) &&
             SM.getSpellingLineNumber(X) == SM.getSpellingLineNumber(Sp);
    };
    for (const CharSourceRange &R : Info.getRanges()) {
      SourceLocation B = SM.getSpellingLoc(R.getBegin()), E = SM.getSpellingLoc(R.getEnd());
      if (!onLine(B) || !onLine(E) || E < B)
        continue;
      bool InB, InE;
      if (InMain) {
        B = mapLoc(SM, B, InB);
        E = mapLoc(SM, E, InE);
        if (!InB || !InE || E < B)
          continue;
      }
      Ranges.push_back(R.isTokenRange() ? CharSourceRange::getTokenRange(B, E)
                                        : CharSourceRange::getCharRange(B, E));
    }
    if (InMain)
      emitOrig(Mapped, DiagnosticsEngine::Note, Msg, Ranges, {});
    else
      otherTD().emitDiagnostic(FullSourceLoc(Sp, SM), DiagnosticsEngine::Note, Msg, Ranges, {});
  }
}

/// Is Info on a line where Clang took a construct keyword for a name, and
/// not that keyword's own error?  `parfor int i; 0; 3; 1;` in a header drew
/// "expected ';' after expression" and four "expression result unused"
/// after the error that says constructs are not translated there.
bool DiagPrinter::onStrayLine(DiagnosticsEngine::Level Level, const Diagnostic &Info,
                              StringRef Msg) {
  if (Level == DiagnosticsEngine::Note || !Info.hasSourceManager() ||
      Info.getLocation().isInvalid())
    return false;
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation F = SM.getExpansionLoc(Info.getLocation());
  auto Line = std::make_tuple(&SM, SM.getFileID(F), SM.getExpansionLineNumber(F));
  if (!strayKeyword(Level, Msg).empty()) {
    StrayLines.insert(Line);
    return false;
  }
  return StrayLines.count(Line);
}

void DiagPrinter::HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
  noteError(Level, Info);
  // Clang's message, formatted once for every test below.
  SmallString<256> Raw;
  Info.FormatDiagnostic(Raw);
  if (onStrayLine(Level, Info, Raw)) {
    DropNotes = true;
    return;
  }
  // faa with one argument or three: Clang reports the macro call, notes
  // "macro 'faa' defined here", and then takes faa for an undeclared
  // identifier (with notes, and warnings at the same faa, as "expression
  // result unused"), which is no mistake of the user's: those are dropped.
  if (Level == DiagnosticsEngine::Note && DropNotes)
    return;
  DropNotes = false;
  // Clang's warnings, also those that -Werror or a pragma made errors:
  // some are about the blanked body (no return, unused parameters, a
  // static function that only it called).
  if (Recovering && (Level == DiagnosticsEngine::Warning ||
                     (Level == DiagnosticsEngine::Error &&
                      DiagnosticIDs::isBuiltinWarningOrExtension(Info.getID())))) {
    DropNotes = true;
    return;
  }
  SourceLocation DiagLoc = Info.getLocation();
  if (DiagLoc.isValid() && FaaDropped.count(DiagLoc.getRawEncoding())) {
    DropNotes = true;
    return;
  }
  if (Level <= DiagnosticsEngine::Error && isPreturnMismatch(Info))
    return;
  if (Level >= DiagnosticsEngine::Warning && DiagLoc.isValid() && Info.hasSourceManager()) {
    const SourceManager &SM = Info.getSourceManager();
    auto Here = std::make_tuple(&SM, SM.getFileLoc(DiagLoc).getRawEncoding(), std::string(Raw));
    if (Here == Last) {
      DropNotes = true;
      return;
    }
    Last = std::move(Here);
  }
  if (Level == DiagnosticsEngine::Warning && isSyncNameUnused(Info))
    return;
  if (Level == DiagnosticsEngine::Warning && isFaaValueMismatch(Info)) {
    DropNotes = true;
    return;
  }
  if (Level == DiagnosticsEngine::Warning && isSemArgMismatch(Info)) {
    DropNotes = true; // "passing argument to parameter 's' here", in parc.h
    return;
  }
  if (Level == DiagnosticsEngine::Note || Level == DiagnosticsEngine::Error) {
    if (Level == DiagnosticsEngine::Note && Raw == "macro 'faa' defined here") {
      FaaArity = true;
    } else if (Level == DiagnosticsEngine::Error && FaaArity && DiagLoc.isValid() &&
               Raw.str().starts_with("use of undeclared identifier 'faa'")) {
      FaaDropped.insert(DiagLoc.getRawEncoding());
      DropNotes = true;
      return;
    }
  }
  if (Level == DiagnosticsEngine::Note && Info.hasSourceManager() && Orig &&
      &Info.getSourceManager() != &Orig->sm() && Info.getLocation().isValid()) {
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation F = SM.getFileLoc(Info.getLocation());
    if (SM.getFileID(F) == SM.getMainFileID()) {
      unsigned Off = SM.getFileOffset(F);
      if (Off >= PreludeBegin && Off < PreludeEnd)
        return; // a note about parcc's own declarations
    }
  }
  if (Level == DiagnosticsEngine::Error && !DroppedParens.empty() && Info.hasSourceManager() &&
      DiagLoc.isValid()) {
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation F = SM.getFileLoc(DiagLoc);
    if (SM.getFileID(F) == SM.getMainFileID() && DroppedParens.count(SM.getFileOffset(F))) {
      DropNotes = true; // Clang's recovery from the typo it took (boundParen)
      return;
    }
  }
  DiagnosticConsumer::HandleDiagnostic(Level, Info);

  SmallString<256> Msg = Raw;
  if (Renamed && !Renamed->empty()) {
    std::string T = Msg.str().str();
    unrename(T);
    Msg = T;
  }
  SourceLocation At = Info.getLocation();
  if (Level == DiagnosticsEngine::Error && faaArity(Msg, Info, LO)) {
    // Its note, "macro 'faa' defined here", showed parc.h's
    // __atomic_fetch_add (tester I, s46).
    FaaArity = true;
    DropNotes = true;
  }
  if (Msg.str().contains("parc_mark_"))
    nameKeywords(Msg);
  FaaMisuse Faa = FaaMisuse::None;
  BoundSpot Bound;
  bool StepMissing = false;
  if (Level == DiagnosticsEngine::Error && Info.hasSourceManager() && Orig &&
      &Info.getSourceManager() != &Orig->sm() && Info.getLocation().isValid()) {
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation F = SM.getFileLoc(Info.getLocation());
    unsigned Off = SM.getFileOffset(F);
    Faa = nameFaa(Msg, Info, LO);
    if (SM.getFileID(F) == SM.getMainFileID() && Map &&
        (Bound = boundParen(Msg, SM, LO, *Map, Off)).Kind != BoundParen::None) {
      At = SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Off);
      if (Bound.Kind == BoundParen::TypoKeyword)
        DroppedParens.insert(Bound.Paren);
    }
    if (SM.getFileID(F) == SM.getMainFileID() && Preturns)
      namePreturn(Msg, SM.getBufferData(SM.getMainFileID()), Off, *Preturns);
    if (SM.getFileID(F) == SM.getMainFileID() &&
        nameBound(Msg, SM.getBufferData(SM.getMainFileID()), Off)) {
      At = SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Off);
      // `parfor int i; 0; 9; work(); epar` with a void work(): STEP is
      // missing, as the empty-body warning says of an int-returning one.
      StepMissing = Map && BodilessSteps && Msg.str().starts_with("STEP of") &&
                    llvm::is_contained(*BodilessSteps, Map->toOrig(Off));
    }
  }
  // A construct keyword that Clang saw as a name: its suggestion of a C
  // keyword ("did you mean 'break'?" for pbreak) is the forbidden jump.
  StringRef Word = strayKeyword(Level, Msg);
  bool Stray = !Word.empty();
  const char *StrayWhy = Word == "sync" ? SyncStrayNote : StrayNote;
  bool DropFixIts = false;
  if (Stray) {
    size_t Typo = Msg.str().find("; did you mean '");
    if (Typo != StringRef::npos) {
      Msg.resize(Typo);
      DropFixIts = true;
      DropNotes = true; // "'perror' declared here", for the dropped suggestion
    }
  }
  StringRef TypoName;
  StringRef Misspelt = Stray ? StringRef() : misspeltKeyword(Level, Msg, TypoName);
  std::string TypoText = TypoName.str();
  if (!Misspelt.empty()) {
    size_t Typo = Msg.str().find("; did you mean '");
    if (Typo != StringRef::npos)
      Msg.resize(Typo);
    Msg += ("; did you mean '" + Misspelt + "'?").str();
    DropFixIts = true;
  }
  if (Opts->ShowOptionNames)
    appendOptionName(Msg, Level, Info);
  if (OS.holding() && Level != DiagnosticsEngine::Note) {
    uint64_t Key = lineOrderKey(Info, At);
    if (Level >= DiagnosticsEngine::Error && Key != UINT64_MAX) {
      if (EarlierErrors.count(Key)) {
        DropNotes = true;
        return;
      }
      ErrorKeys.insert(Key);
    }
    OS.startGroup(Key, Level);
  }

  if (!Info.hasSourceManager() || Info.getLocation().isInvalid()) {
    TextDiagnostic::printDiagnosticLevel(OS, Level, Opts->ShowColors);
    TextDiagnostic::printDiagnosticMessage(OS, Level == DiagnosticsEngine::Note, Msg,
                                           0, 0, Opts->ShowColors); // ends the line
    OS.flush();
    return;
  }

  const SourceManager &SM = Info.getSourceManager();
  if (Orig && &SM == &Orig->sm()) {
    // The token pass reports against the original text directly.
    emitOrig(Info.getLocation(), Level, Msg, Info.getRanges(), Info.getFixItHints());
    OS.flush();
    return;
  }

  bool InMain;
  SourceLocation Loc = mapLoc(SM, At, InMain);
  if (!InMain) {
    otherTD().emitDiagnostic(FullSourceLoc(Info.getLocation(), SM), Level, Msg,
                             Info.getRanges(),
                             DropFixIts ? ArrayRef<FixItHint>() : Info.getFixItHints(), &Info);
    if (Stray)
      otherTD().emitDiagnostic(FullSourceLoc(Info.getLocation(), SM), DiagnosticsEngine::Note,
                               StrayWhy, {}, {});
    OS.flush();
    return;
  }

  // Ranges and fix-its are kept only where both ends map into the user's
  // text; a fix-it that touches text parcc wrote would be wrong advice.
  SmallVector<CharSourceRange, 4> Ranges;
  for (const CharSourceRange &R : Info.getRanges()) {
    bool InB, InE;
    SourceLocation B = mapLoc(SM, R.getBegin(), InB);
    SourceLocation E = mapLoc(SM, R.getEnd(), InE);
    if (InB && InE && !(E < B))
      Ranges.push_back(R.isTokenRange() ? CharSourceRange::getTokenRange(B, E)
                                        : CharSourceRange::getCharRange(B, E));
  }
  SmallVector<FixItHint, 2> FixIts;
  bool FixItsOk = true;
  for (const FixItHint &H : Info.getFixItHints()) {
    bool InB, InE;
    SourceLocation B = mapLoc(SM, H.RemoveRange.getBegin(), InB);
    SourceLocation E = mapLoc(SM, H.RemoveRange.getEnd(), InE);
    unsigned BOff = SM.getFileOffset(SM.getFileLoc(H.RemoveRange.getBegin()));
    // One inside a macro's definition would land on the macro's call
    // (Clang drops those too); one that covers a whole expansion is kept.
    SourceLocation HB = H.RemoveRange.getBegin(), HE = H.RemoveRange.getEnd();
    if (!InB || !InE || (Map && Map->isSynthetic(BOff)) ||
        (inMacroBody(SM, HB) && !Lexer::isAtStartOfMacroExpansion(HB, SM, LO)) ||
        (inMacroBody(SM, HE) && !Lexer::isAtEndOfMacroExpansion(HE, SM, LO))) {
      FixItsOk = false;
      break;
    }
    FixItHint N = H;
    unrename(N.CodeToInsert);
    N.RemoveRange = H.RemoveRange.isTokenRange() ? CharSourceRange::getTokenRange(B, E)
                                                 : CharSourceRange::getCharRange(B, E);
    FixIts.push_back(N);
  }
  if (!FixItsOk || Bound.Kind == BoundParen::TypoKeyword || DropFixIts)
    FixIts.clear();
  if (!Misspelt.empty())
    FixIts.push_back(FixItHint::CreateReplacement(
        CharSourceRange::getCharRange(Loc, Loc.getLocWithOffset(TypoText.size())), Misspelt));
  emitOrig(Loc, Level, Msg, Ranges, FixIts);
  if (Level != DiagnosticsEngine::Note && Info.getLocation().isMacroID())
    macroBacktrace(Info);
  if (Stray)
    emitOrig(Loc, DiagnosticsEngine::Note, StrayWhy, {}, {});
  if (Faa != FaaMisuse::None)
    emitOrig(Loc, DiagnosticsEngine::Note,
             Faa == FaaMisuse::Atomic       ? FaaAtomicNote
             : Faa == FaaMisuse::Const      ? FaaConstNote
             : Faa == FaaMisuse::NotInteger ? FaaIntegerNote
             : Faa == FaaMisuse::Array      ? FaaArrayNote
             : Faa == FaaMisuse::BitInt     ? FaaBitIntNote
                                            : FaaNote,
             {}, {});
  if (StepMissing)
    emitOrig(Loc, DiagnosticsEngine::Note,
             "the header is 'TYPE VAR; FROM; TO; STEP;' and the body follows "
             "it: is STEP missing? (write ';' as the body for none)",
             {}, {});
  if (Bound.Kind == BoundParen::MissingSemi) {
    // Clang's "to match this '('" follows: the header's shape instead.
    DropNotes = true;
    std::string Note =
        (Twine("the header of '") + Bound.Kw + "' is 'TYPE VAR; FROM; TO; STEP;'").str();
    emitOrig(Orig->loc(Map->toOrig(Bound.KwAt)), DiagnosticsEngine::Note, Note, {}, {});
  }
  OS.flush();
}

} // namespace parcc
