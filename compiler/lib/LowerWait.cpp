//===- LowerWait.cpp - semaphore calls and waits that name their place ----===//
//
//   parc_P(&s[1]);   =>   parc_P_at(&s[1], &parc_wsite_0_);
//   parc_V(&s[1]);   =>   parc_V_at(&s[1], &parc_wsite_2_);
//   sync;            =>   parc_sync(parc_self_, &parc_wsite_1_);   (LowerSync.cpp)
//
// and at the top of the file (parc_abi.h, "Semaphore calls"):
//
//   static const parc_wait_site parc_wsite_0_ =
//       PARC_WAIT_SITE_INIT("prog.pc", "main", 11, 5, "&s[1]");
//   static const parc_wait_site parc_wsite_1_ =
//       PARC_WAIT_SITE_INIT("prog.pc", "main", 14, 7, "");
//
// so that a deadlock report says where each blocked activity waits and on
// what, as the user wrote it (a sync's site has no argument), and a
// semaphore error (not initialised, a value past INT_MAX) names the call.
// Only a call whose `parc_P` or `parc_V` and `)` are written in the file
// itself is rewritten: a macro's call, or one in a macro's argument (which
// the macro might quote), stays as it is and is reported by the semaphore's
// address.
//
//===----------------------------------------------------------------------===//
#include "parcc/Lowering.h"

using namespace clang;

namespace parcc {

namespace {

/// The argument as the user wrote it, for a C string literal: white space
/// runs made one space, cut at MaxArg characters, escaped.
std::string argText(StringRef Orig) {
  enum { MaxArg = 60 };
  std::string T;
  for (char C : Orig.trim()) {
    bool Space = C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' || C == '\v';
    if (Space && !T.empty() && T.back() == ' ')
      continue;
    T += Space ? ' ' : C;
  }
  if (T.size() > MaxArg)
    T = T.substr(0, MaxArg - 3) + "...";
  return Session::escaped(T);
}

} // namespace

std::string Outliner::waitSite(unsigned At, const FunctionDecl *Fn, const std::string &Arg) {
  unsigned Line, Col;
  S.userPosition(At, Line, Col);
  std::string File;
  unsigned PLine;
  S.presumedLine(Line, File, PLine);
  std::string Name = "parc_wsite_" + std::to_string(NextWaitSite++) + "_";
  WaitSites += "static const parc_wait_site " + Name + " = PARC_WAIT_SITE_INIT(\"" + File +
               "\", \"" + Session::escaped(Fn->getName()) + "\", " + std::to_string(PLine) +
               ", " + std::to_string(Col) + ", \"" + Arg + "\");\n";
  return Name;
}

void lowerSemCalls(Outliner &O) {
  Session &S = O.S;
  StringRef User = S.Orig.sm().getBufferData(S.Orig.fid());
  for (const auto &W : S.M.SemCalls) {
    const CallExpr *CE = W.first;
    SourceLocation Callee = CE->getCallee()->IgnoreParenImpCasts()->getBeginLoc();
    SourceLocation RParen = CE->getRParenLoc();
    if (CE->getNumArgs() != 1 || !Callee.isFileID() || !RParen.isFileID() ||
        !S.inMainFile(Callee) || !S.inMainFile(RParen))
      continue;
    SourceLocation Arg = S.SM.getExpansionLoc(CE->getArg(0)->getBeginLoc());
    unsigned At = S.offset(Callee), End = S.offset(RParen);
    StringRef Op = StringRef(S.TP.Text).substr(At, 6);
    if (!S.inMainFile(Arg) || S.offset(Arg) > End || (Op != "parc_P" && Op != "parc_V"))
      continue;
    unsigned ArgB = S.TP.Map.toOrig(S.offset(Arg)), ArgE = S.TP.Map.toOrig(End);
    if (ArgB > ArgE || ArgE > User.size())
      continue;
    std::string Name = O.waitSite(At, W.second, argText(User.slice(ArgB, ArgE)));
    S.Edits.replace(At, At + 6, (Op + "_at").str());
    S.Edits.insert(End, ", &" + Name);
  }
}

} // namespace parcc
