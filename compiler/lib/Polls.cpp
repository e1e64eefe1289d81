//===- Polls.cpp - poll points at function entries and loop back-edges -----===//
//
//   int f(int n) {                  int f(int n) { parc_poll();
//     while (n > 0) n--;      =>      while ((parc_poll(), n > 0)) n--;
//     for (;;) { ... }                for (;(parc_poll(), 1);) { ... }
//
// A killed activity stops at its next poll point (contract, pbreak): every
// function entry and every loop condition of a file compiled by parcc.  The
// fast path is one relaxed load and a predicted branch (parc_abi.h);
// -fno-parc-polls leaves them out to measure that cost.  Loops written by
// macros, and C99 inline functions with external linkage (which may not call
// the static parc_poll), keep no poll.
//
//===----------------------------------------------------------------------===//
#include "parcc/Lowering.h"

#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace parcc {

static bool externInline(const FunctionDecl *FD) {
  return FD->isInlineSpecified() && FD->getStorageClass() != SC_Static;
}

/// Wraps a loop condition as (parc_poll(), COND).
static void wrapCond(Session &S, const Expr *Cond) {
  if (!Cond || Cond->getBeginLoc().isMacroID() || Cond->getEndLoc().isMacroID())
    return;
  S.Edits.insert(S.offset(Cond->getBeginLoc()), "(parc_poll(), ");
  S.Edits.insert(S.endOffset(Cond->getEndLoc()), ")");
}

/// for (init; ; inc): the poll becomes the condition.
static void pollEmptyFor(Session &S, const ForStmt *F) {
  if (F->getLParenLoc().isMacroID() || F->getRParenLoc().isMacroID())
    return;
  int Depth = 0;
  for (const Session::RawToken &T :
       S.lexRange(S.offset(F->getLParenLoc()) + 1, S.offset(F->getRParenLoc()))) {
    if (T.Kind == tok::l_paren || T.Kind == tok::l_brace || T.Kind == tok::l_square)
      ++Depth;
    else if (T.Kind == tok::r_paren || T.Kind == tok::r_brace || T.Kind == tok::r_square)
      --Depth;
    else if (T.Kind == tok::semi && Depth == 0) {
      S.Edits.insert(T.Off + 1, "(parc_poll(), 1)");
      return;
    }
  }
}

void insertPolls(Outliner &O) {
  Session &S = O.S;
  for (auto &F : S.M.Functions) {
    const FunctionDecl *FD = F->FD;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
    if (!Body || externInline(FD))
      continue;
    if (!Body->getLBracLoc().isMacroID()) {
      std::string Entry;
      if (F->NeedsRV)
        Entry += " " + S.printType(FD->getReturnType().getUnqualifiedType(), "parc_rv_") + ";";
      if (S.Opts.Polls)
        Entry += " parc_poll();";
      if (!Entry.empty())
        S.Edits.insert(S.offset(Body->getLBracLoc()) + 1, Entry);
    }
    if (!S.Opts.Polls)
      continue;
    for (const Stmt *L : F->Loops) {
      if (L->getBeginLoc().isMacroID())
        continue;
      if (const auto *W = dyn_cast<WhileStmt>(L))
        wrapCond(S, W->getCond());
      else if (const auto *D = dyn_cast<DoStmt>(L))
        wrapCond(S, D->getCond());
      else if (const auto *Fo = dyn_cast<ForStmt>(L)) {
        if (Fo->getCond())
          wrapCond(S, Fo->getCond());
        else
          pollEmptyFor(S, Fo);
      }
    }
  }
}

} // namespace parcc
