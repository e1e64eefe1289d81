//===- Session.cpp - state shared by the passes over one file --------------===//
#include "parcc/Session.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cstdio>

using namespace clang;

namespace parcc {

namespace {

/// Finds what Clang could not build in a declaration: an invalid
/// declaration, or an expression that contains errors (a RecoveryExpr, or
/// one built on it).
class ErrorFinder : public RecursiveASTVisitor<ErrorFinder> {
public:
  bool Found = false;
  bool VisitDecl(Decl *D) {
    Found = D->isInvalidDecl();
    return !Found;
  }
  bool VisitExpr(Expr *E) {
    Found = E->containsErrors();
    return !Found;
  }
};

} // namespace

void Session::setParseErrors(const std::vector<SourceLocation> &Errors) {
  Checked.emplace();
  std::vector<unsigned> At;
  for (SourceLocation L : Errors)
    At.push_back(SM.getFileOffset(L));
  std::sort(At.begin(), At.end());
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    SourceRange R = D->getSourceRange();
    SourceLocation B = SM.getExpansionLoc(R.getBegin()), E = SM.getExpansionLoc(R.getEnd());
    if (B.isValid() && E.isValid() && SM.isWrittenInMainFile(B) && SM.isWrittenInMainFile(E)) {
      unsigned Begin = SM.getFileOffset(B), End = endOffset(E);
      auto It = std::lower_bound(At.begin(), At.end(), Begin);
      if (It != At.end() && *It < End)
        continue;
    }
    ErrorFinder F;
    F.TraverseDecl(D);
    if (!F.Found)
      Checked->push_back(D);
  }
}

const std::vector<Decl *> &Session::checkedDecls() {
  if (!Checked) {
    DeclContext::decl_range All = Ctx.getTranslationUnitDecl()->decls();
    Checked.emplace(All.begin(), All.end());
  }
  return *Checked;
}

Session::Session(ASTContext &Ctx, DiagnosticsEngine &Diags, const TokenPassResult &TP,
                 OriginalSource &Orig, std::string FileName, LowerOptions Opts)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Diags), TP(TP), Orig(Orig),
      FileName(std::move(FileName)), Opts(Opts), Edits(TP.Text) {
  LineStarts.push_back(0);
  for (size_t I = 0; I < TP.Text.size(); ++I)
    if (TP.Text[I] == '\n')
      LineStarts.push_back(I + 1);
}

unsigned Session::offset(SourceLocation L) const {
  return SM.getFileOffset(SM.getFileLoc(L));
}

unsigned Session::endOffset(SourceLocation L) const {
  SourceLocation F = SM.getFileLoc(L);
  return SM.getFileOffset(F) + Lexer::MeasureTokenLength(F, SM, Ctx.getLangOpts());
}

unsigned Session::expansionEnd(SourceLocation L) const {
  SourceLocation E = L.isMacroID() ? SM.getExpansionRange(L).getEnd() : L;
  return SM.getFileOffset(E) + Lexer::MeasureTokenLength(E, SM, Ctx.getLangOpts());
}

bool Session::writtenInPlace(SourceLocation L) const {
  if (!L.isMacroID())
    return true;
  SourceLocation Sp = SM.getSpellingLoc(L);
  if (!SM.isMacroArgExpansion(L) || !SM.isWrittenInMainFile(Sp) || SM.getFileLoc(L) != Sp)
    return false;
  unsigned Off = SM.getFileOffset(Sp);
  return Off >= SM.getFileOffset(SM.getExpansionLoc(L)) && Off < expansionEnd(L);
}

bool Session::tokenAt(unsigned Off, unsigned &TokOff, tok::TokenKind &Kind) const {
  StringRef Text = TP.Text;
  if (Off >= Text.size())
    return false;
  Lexer L(SourceLocation::getFromRawEncoding(1), Ctx.getLangOpts(), Text.begin(),
          Text.begin() + Off, Text.end());
  Token T;
  L.LexFromRawLexer(T);
  if (T.is(tok::eof))
    return false;
  TokOff = T.getLocation().getRawEncoding() - 1;
  Kind = T.getKind();
  return true;
}

std::vector<Session::RawToken> Session::lexRange(unsigned B, unsigned E) const {
  std::vector<RawToken> Out;
  StringRef Text = TP.Text;
  Lexer L(SourceLocation::getFromRawEncoding(1), Ctx.getLangOpts(), Text.begin(),
          Text.begin() + B, Text.end());
  Token T;
  for (bool Done = false; !Done;) {
    Done = L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    unsigned Off = T.getLocation().getRawEncoding() - 1;
    if (Off >= E)
      break;
    Out.push_back({Off, T.getLength(), T.getKind()});
  }
  return Out;
}

bool Session::hasDirective(unsigned B, unsigned E) const {
  StringRef Text = TP.Text;
  for (const RawToken &T : lexRange(B, E))
    if (T.Kind == tok::hash && Text.slice(LineStarts[lineOf(T.Off) - 1], T.Off).trim().empty())
      return true;
  return false;
}

bool Session::inMainFile(SourceLocation L) const {
  return L.isValid() && SM.isWrittenInMainFile(SM.getFileLoc(L));
}

unsigned Session::lineOf(unsigned B1Offset) const {
  auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), B1Offset);
  return It - LineStarts.begin();
}

std::string Session::columnPad(unsigned B1Offset) const {
  // The user's column: the token pass may have written longer text than the
  // keywords it replaced earlier on the line.
  unsigned Line, Col;
  userPosition(B1Offset, Line, Col);
  return std::string(Col - 1, ' ');
}

void Session::userPosition(unsigned B1Offset, unsigned &Line, unsigned &Col) const {
  unsigned O = TP.Map.toOrig(B1Offset);
  SourceLocation L = Orig.loc(O);
  Line = Orig.sm().getSpellingLineNumber(L);
  Col = Orig.sm().getSpellingColumnNumber(L);
}

std::string Session::escaped(StringRef Text) {
  std::string R;
  for (char C : Text) {
    // A control character (a newline in a file name) would end the string
    // literal or the #line: an octal escape.
    if ((unsigned char)C < 0x20 || C == 0x7f) {
      char Oct[5];
      snprintf(Oct, sizeof Oct, "\\%03o", (unsigned char)C);
      R += Oct;
      continue;
    }
    // `??` would start a trigraph under -std=c99 and friends.
    if (C == '\\' || C == '"' || (C == '?' && !R.empty() && R.back() == '?'))
      R += '\\';
    R += C;
  }
  return R;
}

std::string Session::quotedFileName() const { return escaped(FileName); }

void Session::presumedLine(unsigned Line, std::string &QuotedFile, unsigned &PLine) const {
  QuotedFile = quotedFileName();
  PLine = Line;
  if (!Orig.hasLineNotes())
    return;
  // After a #line of the user's, the lines are the ones it gives.
  SourceManager &OSM = Orig.sm();
  PresumedLoc P = OSM.getPresumedLoc(OSM.translateLineCol(Orig.fid(), Line, 1));
  if (P.isValid()) {
    QuotedFile = escaped(P.getFilename());
    PLine = P.getLine();
  }
}

std::string Session::lineDirective(unsigned Line) const {
  std::string File;
  unsigned PLine;
  presumedLine(Line, File, PLine);
  return "#line " + std::to_string(PLine) + " \"" + File + "\"\n";
}

DiagnosticBuilder Session::warn(SourceLocation L, OwnWarning W, StringRef Fmt) {
  return reportWithOption(Diags, L, Warnings.level(W, L, SM, Diags.getIgnoreAllWarnings()), Fmt,
                          ownWarningName(W));
}

std::string Session::printType(QualType T, StringRef Name) const {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressTagKeyword = false;
  P.AnonymousTagLocations = false;
  P.PrintCanonicalTypes = false;
  // _Bool, not C23's bool: gcc before 13 has no bool keyword in -std=c2x.
  P.Bool = false;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  T.print(OS, P, Name);
  OS.flush();
  // A va_list parameter has the decayed type `struct __va_list_tag *`
  // (x86-64), whose tag names Clang's and gcc's built-in record: written in
  // C, `struct __va_list_tag` declares a new one, with which va_arg and
  // va_copy refuse to work.  The element of __builtin_va_list is the
  // built-in record under both compilers.
  static const char Tag[] = "struct __va_list_tag";
  for (size_t At = Out.find(Tag); At != std::string::npos; At = Out.find(Tag, At))
    if (At + sizeof Tag - 1 == Out.size() || !isAsciiIdentifierContinue(Out[At + sizeof Tag - 1])) {
      static const char Builtin[] = "__typeof__((*(__builtin_va_list *)0)[0])";
      Out.replace(At, sizeof Tag - 1, Builtin);
      At += sizeof Builtin - 1;
    } else {
      At += sizeof Tag - 1;
    }
  return Out;
}

} // namespace parcc
