//===- LowerSync.cpp - sync -----------------------------------------------===//
//
//   parfor int i; 0; n-1; 1;              ... in f_parfor_L3:
//     a[i] = g(i);                            (*parc_p_a_)[i] = g(i);
//     sync;                        =>         parc_sync(parc_self_);
//     b[i] = a[n-1-i];                        ...
//   epar
//
// parc_self_ is the batch of the innermost construct, which is the body
// function the sync lands in: the barrier binds to the innermost construct.
// sync outside a construct or directly in an lparfor body has been rejected
// by the checks.
//
//===----------------------------------------------------------------------===//
#include "parcc/Lowering.h"

namespace parcc {

bool lowerSyncs(Outliner &O) {
  Session &S = O.S;
  for (const MarkUse &M : S.M.Marks) {
    if (M.Kind != MarkKind::Sync || !M.Act || M.Call->getBeginLoc().isMacroID())
      continue;
    S.Edits.replace(S.offset(M.Call->getBeginLoc()), S.endOffset(M.Call->getEndLoc()),
                    "parc_sync(parc_self_)");
  }
  return true;
}

} // namespace parcc
