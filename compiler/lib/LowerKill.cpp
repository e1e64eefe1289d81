//===- LowerKill.cpp - pbreak and preturn ---------------------------------===//
//
//   pbreak;              =>  parc_pbreak(parc_self_);
//
//   int f(...) {                     int f(...) { int parc_rv_; parc_poll();
//     parfor ...                       { ... parc_spawn(&parc_d_L3_, ...);
//       if (found) preturn i;            if (parc_preturned(&parc_d_L3_)) return parc_rv_; }
//     epar                           and in f_parfor_L3, with depth 1 (the
//   }                                outermost construct's activity):
//     { __typeof__(*parc_env_->parc_rv_) parc_v_ = (i);
//       if (parc_preturn_claim(parc_self_, 1)) *parc_env_->parc_rv_ = parc_v_;
//       parc_preturn(parc_self_, 1); }
//
// parc_rv_ is declared at the top of the function (Polls.cpp inserts it with
// the entry poll) and reaches the activity through every environment between
// (Captures.cpp); depth counts the constructs from the innermost one out.
// Outside every construct preturn is a plain return and the token pass's
// `return` stays.
//
//===----------------------------------------------------------------------===//
#include "parcc/Lowering.h"

#include "clang/Analysis/Analyses/ReachableCode.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"

using namespace clang;

namespace parcc {

bool lowerKills(Outliner &O) {
  Session &S = O.S;
  bool Ok = true;
  for (const PreturnUse &P : S.M.Preturns) {
    const ReturnStmt *R = P.Ret;
    if (R->getReturnLoc().isMacroID())
      continue; // reported by the checks
    std::string D = std::to_string(P.Depth);
    std::string Kill = "parc_preturn(parc_self_, " + D + "); }";
    std::string Claim = "parc_preturn_claim(parc_self_, " + D + ")";
    unsigned Kw = S.offset(R->getReturnLoc());
    unsigned After = R->getRetValue() ? S.expansionEnd(R->getRetValue()->getEndLoc()) : Kw + 6;
    unsigned Semi;
    tok::TokenKind K;
    if (!S.tokenAt(After, Semi, K) || K != tok::semi) {
      S.error(R->getReturnLoc(), "expected ';' after 'preturn'");
      Ok = false;
      continue;
    }
    bool Void = P.Act->Owner->Func->getReturnType()->isVoidType();
    if (R->getRetValue() && !Void) {
      // A struct with a const member cannot be assigned, only initialized
      // (as return does) or copied.
      const auto *RT = P.Act->Owner->Func->getReturnType()->getAs<RecordType>();
      std::string Store = RT && RT->hasConstFields()
                              ? "__builtin_memcpy(parc_env_->parc_rv_, &parc_v_, sizeof parc_v_);"
                              : "*parc_env_->parc_rv_ = parc_v_;";
      S.Edits.replace(Kw, Kw + 6, "{ __typeof__(*parc_env_->parc_rv_) parc_v_ = (");
      S.Edits.replace(Semi, Semi + 1, "); if (" + Claim + ") " + Store + " " + Kill);
    } else if (R->getRetValue()) {
      S.Edits.replace(Kw, Kw + 6, "{ (void)(");
      S.Edits.replace(Semi, Semi + 1, "); (void)" + Claim + "; " + Kill);
    } else {
      S.Edits.replace(Kw, Kw + 6, "{ (void)" + Claim + "; " + Kill);
      S.Edits.replace(Semi, Semi + 1, "");
    }
  }
  for (const MarkUse &M : S.M.Marks) {
    if (M.Kind != MarkKind::Pbreak || !M.Act || M.Call->getBeginLoc().isMacroID())
      continue;
    S.Edits.replace(S.offset(M.Call->getBeginLoc()), S.endOffset(M.Call->getEndLoc()),
                    "parc_pbreak(parc_self_)");
  }
  return Ok;
}

/// Is C's epar unreachable in Clang's CFG of its function (every section
/// preturns, say), with no pbreak of C's own, which goes there in a way
/// the CFG does not show (it sees pbreak as a call)?
static bool neverCompletes(const Outliner &O, const Construct &C) {
  const Session &S = O.S;
  for (const MarkUse &M : S.M.Marks)
    if (M.Kind == MarkKind::Pbreak && M.Act && M.Act->Owner == &C)
      return false;
  const Stmt *End = C.Block->body_back();
  std::unique_ptr<CFG> G =
      CFG::buildCFG(C.Func, C.Func->getBody(), &S.Ctx, CFG::BuildOptions());
  if (!G)
    return false;
  llvm::BitVector Reached(G->getNumBlockIDs());
  reachable_code::ScanReachableFromBlock(&G->getEntry(), Reached);
  for (const CFGBlock *B : *G)
    if (Reached.test(B->getBlockID()))
      for (const CFGElement &E : *B)
        if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>(); CS && CS->getStmt() == End)
          return false;
  return true;
}

std::string preturnCheck(const Outliner &O, const Construct &C) {
  if (C.Parent || !C.ContainsPreturn)
    return "";
  bool Void = C.Func->getReturnType()->isVoidType();
  // A construct that ends only by preturn (`parblock { preturn a; } : {
  // preturn b; } epar` at the end of an int function) returns without a
  // test: gcc -Wall warned that control reached the end of the function.
  if (!Void && neverCompletes(O, C))
    return "(void)parc_preturned(&" + O.descName(C) + "); return parc_rv_; ";
  return "if (parc_preturned(&" + O.descName(C) + ")) return" + (Void ? "" : " parc_rv_") + "; ";
}

} // namespace parcc
