//===- LowerParfor.cpp - parfor, lparfor and mapped lparfor ---------------===//
//
//   parfor int i; m+1; end; 1;            static void f_parfor_L12(parc_act *parc_self_,
//   { a[i] += a[m]; }                                              void *parc_envp_) {
//   epar                                    struct parc_env_f_L12 *parc_env_ = ...;
//                                           int (*const parc_p_a_)[100] = parc_env_->a; ...
//                                           const unsigned long long parc_from_ = ...;
//                                           __UINT64_TYPE__ parc_k_;
//                                           while (parc_next(parc_self_, &parc_k_)) {
//                                             int i = (int)parc_iter(parc_from_, 1ULL, parc_k_);
//                                           #line 13 "prog.pc"
//                                             { { (*parc_p_a_)[i] += ... } }
//                                           } }
// A constant STEP is written into the body function (1ULL above), so that
// the back end sees a unit stride; any other is loaded once, as parc_step_.
// and in the parent (FROM, TO, STEP evaluated once, converted to the index
// type, then widened):
//   { long long parc_f_L12_ = (long long)(int)(m+1), parc_t_L12_ = ..., parc_s_L12_ = ...;
//     __UINT64_TYPE__ parc_n_L12_ = parc_count_s(parc_f_L12_, parc_t_L12_, parc_s_L12_, &site);
//     struct parc_env_f_L12 parc_e_L12_ = { &a, &m, (unsigned long long)parc_f_L12_,
//                                           (unsigned long long)parc_s_L12_ };
//     parc_desc parc_d_L12_;
//     parc_spawn(&parc_d_L12_, &site, f_parfor_L12, &parc_e_L12_, parc_n_L12_); }
//
// lparfor makes one activity per chunk (parc_spawn_lparfor); its body
// function runs the chunk's iterations serially.  With a brief body
// (Polls.cpp: no call, no loop but a tiny one) the chunk polls once per
// block of PARC_BLOCK iterations, and a full block is a loop of that
// constant trip count, which gcc -O2 vectorises (its very cheap cost model
// takes no loop that needs a scalar epilogue or a runtime check):
//   while (parc_next(parc_self_, &parc_k_)) {
//     parc_j_ = parc_chunk_lo(niter, parc_self_->total, parc_k_);
//     parc_hi_ = parc_chunk_lo(niter, parc_self_->total, parc_k_ + 1);
//     for (;;) {
//       if (parc_hi_ - parc_j_ >= PARC_BLOCK) {
//         unsigned parc_b_;
//         int parc_i0_ = ...(parc_j_);   (STEP 1 or -1, a signed index)
//         PARC_FULL_BLOCK_BEGIN for (parc_b_ = 0; parc_b_ < PARC_BLOCK; parc_b_++, parc_j_++)
//           { int i = (int)(parc_i0_ + (int)parc_b_); BODY } PARC_FULL_BLOCK_END
//       } else {
//         for (; parc_j_ < parc_hi_; parc_j_++) { int i = ...(parc_j_); BODY }
//       }
//       if (parc_j_ == parc_hi_) break;
//       parc_poll();
//     }
//   }
// The chunk is one activity running its iterations serially (contract), so
// a block of a brief body is straight-line code between two polls, like a
// counted loop (Polls.cpp).  A parfor of brief activities that neither
// pbreak nor preturn runs its batch the same way, a block of activities per
// parc_next_block (parc_abi.h, "Blocks of activities", argues why no
// program can tell).  The body is written twice, so only when two copies
// mean one (Activity::Twice: no label, no static or _Thread_local
// declaration, no variably modified type, no preprocessor directive, at
// most 300 tokens); a brief
// lparfor body that may not be written twice runs its blocks in one loop
// (parc_stop_ = min(parc_hi_, parc_j_ + PARC_BLOCK)), a parfor one activity
// per parc_next.  Any other body polls on each iteration:
//     for (; parc_j_ < parc_hi_; parc_j_++) { int i = ...(parc_j_); parc_poll(); BODY }
//
//===----------------------------------------------------------------------===//
#include "parcc/Lowering.h"

using namespace clang;

namespace parcc {

/// The index type as written in outlined code: canonical (so a local
/// typedef needs no hoisting), enums as their integer type, qualifiers kept.
static QualType indexType(const Session &S, const VarDecl *Index, bool &Signed) {
  QualType T = Index->getType();
  Qualifiers Q = T.getLocalQualifiers();
  QualType C = S.Ctx.getCanonicalType(T).getUnqualifiedType();
  Q.addQualifiers(S.Ctx.getCanonicalType(T).getQualifiers());
  if (const auto *ET = C->getAs<EnumType>())
    if (ET->getDecl()->isComplete())
      C = S.Ctx.getCanonicalType(ET->getDecl()->getIntegerType());
  Signed = C->isSignedIntegerType();
  return S.Ctx.getQualifiedType(C, Q);
}

/// STEP as the body function sees it, (unsigned long long)(W)(T)STEP, as a
/// literal when it is an integer constant: a unit stride the back end can
/// see is what lets it keep the index in a register and vectorise.
static std::string constantStep(const Session &S, const Construct &C, QualType IT, bool Signed) {
  const Expr *E = C.Bounds[2];
  Expr::EvalResult R;
  unsigned W = S.Ctx.getIntWidth(IT);
  if (!E->getType()->isIntegerType() || W > 64 || !E->EvaluateAsInt(R, S.Ctx))
    return "";
  llvm::APSInt V = R.Val.getInt().extOrTrunc(W);
  V.setIsSigned(Signed);
  int64_t Value = Signed ? V.getSExtValue() : (int64_t)V.getZExtValue();
  if (Value == 0)
    return ""; // the parent stops the program (parc_count_*)
  if (Value < 0 && Value > INT32_MIN)
    return "(unsigned long long)" + std::to_string(Value) + "LL";
  return std::to_string((uint64_t)Value) + "ULL";
}

/// The unsigned index type when it is wider than 64 bits, else null.
static QualType wideWord(const Session &S, const Construct &C) {
  QualType T = S.Ctx.getCanonicalType(C.Index->getType()).getUnqualifiedType();
  if (const auto *ET = T->getAs<EnumType>())
    if (ET->getDecl()->isComplete())
      T = S.Ctx.getCanonicalType(ET->getDecl()->getIntegerType());
  if (!T->isIntegerType() || S.Ctx.getIntWidth(T) <= 64)
    return QualType();
  return T->isSignedIntegerType() ? S.Ctx.getCorrespondingUnsignedType(T) : T;
}

/// The spelling of the loop word for wideWord's result Wide.
static std::string wordSpelling(const Session &S, QualType Wide) {
  return Wide.isNull() ? "unsigned long long" : S.printType(Wide);
}

std::string loopWordType(const Session &S, const Construct &C) { return wordSpelling(S, wideWord(S, C)); }

std::string loopNames(const Outliner &O, const Construct &C) {
  const Session &S = O.S;
  bool Signed;
  QualType IT = indexType(S, C.Index, Signed);
  bool Chunks = C.Kind != ConstructKind::Parfor;
  // The offsets written here, not in the header's macro: a user's
  // parc_from_ renames parcc's (restoreUserNames).
  auto At = [&](const char *Field) {
    return ", __builtin_offsetof(" + O.envType(C) + ", " + Field + ")";
  };
  return std::string(Chunks ? "PARC_LPARFOR_NAMES_INIT" : "PARC_INDEX_NAMES_INIT") + "(\"" +
         C.Index->getName().str() + "\", " +
         std::to_string(S.Ctx.getTypeSizeInChars(IT).getQuantity()) + ", " +
         (Signed ? "1" : "0") + At("parc_from_") + At("parc_step_") +
         (Chunks ? At("parc_niter_") : "") + ")";
}

void lowerParfor(Outliner &O, const Construct &C, std::string &Defs, std::string &Spawn) {
  Session &S = O.S;
  bool Light = C.Kind != ConstructKind::Parfor;
  bool Signed;
  QualType IT = indexType(S, C.Index, Signed);
  std::string T = S.printType(IT);
  std::string Var = C.Index->getName().str();
  std::string Name = O.bodyName(C);
  std::string Step = constantStep(S, C, IT, Signed);
  // An index wider than 64 bits (__int128): FROM and STEP travel in its
  // unsigned type, and the index is computed there (parc_iter is 64-bit);
  // the count of iterations is 64-bit like every other.
  QualType Wide = wideWord(S, C);
  std::string U = wordSpelling(S, Wide);
  // `T i = (T)parc_iter(...); (void)i;` at the top of each iteration.
  auto Iter = [&](const char *Pad, const char *K) {
    std::string Value =
        Wide.isNull() ? "parc_iter(parc_from_, " + (Step.empty() ? std::string("parc_step_") : Step) +
                            ", " + K + ")"
                      : "(parc_from_ + (" + U + ")" + K + " * parc_step_)";
    return Pad + S.printType(IT, Var) + " = (" + T + ")" + Value + ";\n" + Pad + "(void)" + Var +
           ";\n";
  };

  size_t FnStart = Defs.size();
  Defs += O.bodyHead(C, Name);
  Defs += "  const " + U + " parc_from_ = parc_env_->parc_from_;\n";
  if (Step.empty())
    Defs += "  const " + U + " parc_step_ = parc_env_->parc_step_;\n";
  const Activity &A = *C.Acts[0];
  bool Polls = S.Opts.Polls;
  // `if (HI - J >= PARC_BLOCK) FULL else REST`, the body once in each, at
  // indentation Pad: a full block is a loop of constant trip count.
  // In a full block with a STEP of 1 or -1 and a signed index of int's
  // width or more, the index counts from the block's first value in its
  // own type, `int i = (int)(parc_i0_ + (int)parc_b_)`: gcc vectorises the
  // loop only so (from (int)parc_iter(..., parc_j_), a 64-bit count
  // narrowed, it could not tell that i steps by one: the guide's saxpy
  // ran scalar, 1.9x the serial loop).  Every value is an iteration's, in
  // the index's range, so the signed sum cannot overflow.
  const char *Dir = Step == "1ULL" ? "+" : Step == "(unsigned long long)-1LL" ? "-" : nullptr;
  bool Counted = Wide.isNull() && Dir && IT->isSignedIntegerType() && !IT->isEnumeralType() &&
                 S.Ctx.getIntWidth(IT) >= S.Ctx.getIntWidth(S.Ctx.IntTy);
  auto FullIter = [&](const std::string &Pad, const std::string &In, const char *J) {
    if (!Counted)
      return std::make_pair(std::string(), Iter(In.c_str(), J));
    return std::make_pair(Pad + "  " + S.printType(IT, "parc_i0_") + " = (" + T +
                              ")parc_iter(parc_from_, " + Step + ", " + J + ");\n",
                          In + S.printType(IT, Var) + " = (" + T + ")(parc_i0_ " + Dir + " (" +
                              T + ")parc_b_);\n" + In + "(void)" + Var + ";\n");
  };
  auto Blocks = [&](const std::string &Pad, const char *J, const char *Hi, const char *Full) {
    std::string In = Pad + "    ";
    auto [Base, Index] = FullIter(Pad, In, J);
    // (parc_b_ declared apart: C89 has no declaration in a for.)
    // (PARC_FULL_BLOCK_BEGIN/END: no gcc warning that a full block's
    // iterations would overrun a smaller array: it never runs then.)
    return Pad + "if (" + Full + ") {\n" + Pad + "  unsigned parc_b_;\n" + Base + Pad +
           "  PARC_FULL_BLOCK_BEGIN\n" + Pad + "  for (parc_b_ = 0; parc_b_ < PARC_BLOCK; parc_b_++, " +
           J + "++) {\n" + Index + O.activityText(A) + Pad + "  }\n" + Pad +
           "  PARC_FULL_BLOCK_END\n" + Pad + "} else {\n" + Pad + "  for (; " + J + " < " + Hi +
           "; " + J + "++) {\n" + Iter(In.c_str(), J) + O.activityText(A) + Pad + "  }\n" +
           Pad + "}\n";
  };
  // An lparfor's body function: each chunk k of the batch runs iterations
  // [parc_j_, parc_hi_) in Loop (declaring Vars beside the indices).
  auto Chunks = [&](const char *Vars, const std::string &Loop) {
    return std::string("  __UINT64_TYPE__ parc_k_, parc_j_, parc_hi_") + Vars +
           ";\n"
           "  while (parc_next(parc_self_, &parc_k_)) {\n"
           "    parc_j_ = parc_chunk_lo(parc_env_->parc_niter_, parc_self_->total, parc_k_);\n"
           "    parc_hi_ = parc_chunk_lo(parc_env_->parc_niter_, parc_self_->total, parc_k_ + 1);\n" +
           Loop + "  }\n}\n";
  };
  if (!Light && Polls && A.Twice && !A.Ends) {
    // Brief activities that do not end themselves: a block of them per
    // parc_next_block (parc_abi.h, "Blocks of activities").
    Defs += "  __UINT64_TYPE__ parc_k_, parc_stop_;\n"
            "  while (parc_next_block(parc_self_, &parc_k_, &parc_stop_)) {\n" +
            Blocks("    ", "parc_k_", "parc_stop_", "parc_stop_ - parc_k_ == PARC_BLOCK") +
            "  }\n}\n";
  } else if (!Light && O.Frames.count(&A)) {
    // Activities that wait at sync in a frame (LowerSync.cpp).
    Defs += O.frameDecl(C, O.Frames.find(&A)->second) +
            "  __UINT64_TYPE__ parc_k_;\n"
            "  while ((parc_fr_ = (struct parc_fr_" + C.Tag +
            " *)parc_next_frame(parc_self_, &parc_k_, sizeof *parc_fr_))) {\n" +
            Iter("    ", "parc_k_") +
            "    switch (parc_fr_->parc_st_) {\n"
            "    case 0:;\n" +
            O.activityText(A) + "    }\n  parc_susp_" + O.suffix(C) + "_:;\n  }\n}\n";
  } else if (!Light) {
    Defs += "  __UINT64_TYPE__ parc_k_;\n"
            "  while (parc_next(parc_self_, &parc_k_)) {\n" +
            Iter("    ", "parc_k_") + O.activityText(A) + "  }\n}\n";
  } else if (A.Twice) {
    // A brief body written twice: full blocks of PARC_BLOCK iterations,
    // then the rest, with a poll between blocks (none under
    // -fno-parc-polls: the same loops, so that the two builds differ by
    // the poll alone and its cost can be measured).
    Defs += Chunks("", "    for (;;) {\n" +
                           Blocks("      ", "parc_j_", "parc_hi_", "parc_hi_ - parc_j_ >= PARC_BLOCK") +
                           "      if (parc_j_ == parc_hi_)\n"
                           "        break;\n" +
                           (Polls ? "      parc_poll();\n" : "") + "    }\n");
  } else if (Polls && A.Brief) {
    // A brief body that may not be written twice: the chunk still polls
    // once per block, in one loop of variable trip count.
    Defs += Chunks(", parc_stop_",
                   "    for (;;) {\n"
                   "      parc_stop_ = parc_hi_ - parc_j_ > PARC_BLOCK ? parc_j_ + PARC_BLOCK : parc_hi_;\n"
                   "      for (; parc_j_ < parc_stop_; parc_j_++) {\n" +
                       Iter("        ", "parc_j_") + O.activityText(A) +
                       "      }\n"
                       "      if (parc_j_ == parc_hi_)\n"
                       "        break;\n"
                       "      parc_poll();\n"
                       "    }\n");
  } else {
    Defs += Chunks("", "    for (; parc_j_ < parc_hi_; parc_j_++) {\n" +
                           Iter("      ", "parc_j_") + (Polls ? "      parc_poll();\n" : "") +
                           O.activityText(A) + "    }\n");
  }
  Defs.replace(FnStart, std::string::npos, O.placeLines(Defs.substr(FnStart), C.Line));

  std::string Sx = O.suffix(C);
  std::string W = Signed ? "long long" : "unsigned long long";
  std::string F = "parc_f_" + Sx + "_", To = "parc_t_" + Sx + "_", St = "parc_s_" + Sx + "_";
  std::string N = "parc_n_" + Sx + "_";
  std::string Site = "&" + O.siteName(C);
  // A local typedef that only the header names (`typedef int myint;` then
  // `parfor myint j; ...`): the parent's conversions name it, or gcc's
  // -Wall calls it unused once the header is gone from the parent.
  std::string CastT = T;
  if (const auto *TT = C.Index->getType()->getAs<TypedefType>())
    if (TT->getDecl()->getParentFunctionOrMethod() && !C.Index->getType().hasQualifiers())
      CastT = S.printType(C.Index->getType());
  auto Conv = [&](const Expr *B) { return "(" + W + ")(" + CastT + ")" + O.render(B); };

  if (Wide.isNull()) {
    Spawn = "{ " + W + " " + F + " = " + Conv(C.Bounds[0]) + ", " + To + " = " +
            Conv(C.Bounds[1]) + ", " + St + " = " + Conv(C.Bounds[2]) + "; ";
    Spawn += "__UINT64_TYPE__ " + N + " = parc_count_" + (Signed ? "s" : "u") + "(" + F + ", " +
             To + ", " + St + ", " + Site + "); ";
  } else {
    // As parc_count_s/u, in the wide type.
    std::string WT = S.printType(IT.getUnqualifiedType());
    auto WConv = [&](const Expr *B) { return "(" + WT + ")(" + O.render(B) + ")"; };
    std::string Q = "parc_q_" + Sx + "_", Empty = "parc_none_" + Sx + "_";
    Spawn = "{ " + WT + " " + F + " = " + WConv(C.Bounds[0]) + ", " + To + " = " +
            WConv(C.Bounds[1]) + ", " + St + " = " + WConv(C.Bounds[2]) + "; ";
    Spawn += U + " " + Q + " = 0; int " + Empty + "; if (" + St + " == 0) parc_error_step0(" +
             Site + "); ";
    if (Signed)
      Spawn += Empty + " = " + St + " > 0 ? " + F + " > " + To + " : " + F + " < " + To +
               "; if (!" + Empty + ") " + Q + " = (" + St + " > 0 ? (" + U + ")" + To + " - (" +
               U + ")" + F + " : (" + U + ")" + F + " - (" + U + ")" + To + ") / (" + St +
               " > 0 ? (" + U + ")" + St + " : (" + U + ")0 - (" + U + ")" + St + "); ";
    else
      Spawn += Empty + " = " + F + " > " + To + "; if (!" + Empty + ") " + Q + " = (" + To +
               " - " + F + ") / " + St + "; ";
    Spawn += "if (" + Q + " >= (" + U + ")__UINT64_MAX__) parc_error_count(" + Site + "); ";
    Spawn += "__UINT64_TYPE__ " + N + " = " + Empty + " ? 0 : (__UINT64_TYPE__)" + Q + " + 1; ";
  }
  std::string Inits = O.envInits(C);
  if (!Inits.empty())
    Inits += ", ";
  Inits += "(" + U + ")" + F + ", (" + U + ")" + St;
  if (Light)
    Inits += ", " + N;
  std::string E = O.envVarName(C), D = O.descName(C);
  Spawn += O.envType(C) + " " + E + " = { " + Inits + " }; parc_desc " + D + "; ";
  if (C.PollFirst)
    Spawn += "parc_poll(); ";
  if (!Light)
    Spawn += "parc_spawn(&" + D + ", " + Site + ", " + Name + ", &" + E + ", " + N + "); ";
  else
    Spawn += "parc_spawn_lparfor(&" + D + ", " + Site + ", " + Name + ", &" + E + ", " + N +
             ", " + (C.Kind == ConstructKind::MappedLparfor ? "1" : "0") + "); ";
  Spawn += preturnCheck(O, C) + "}";
}

/// parc_procid() in a mapped lparfor's chunk: the chunk's number, parc_k_
/// of the chunk function above, where the call is written in the file.
void lowerChunkProcIds(Outliner &O) {
  Session &S = O.S;
  for (const CallExpr *CE : S.M.ChunkProcIds) {
    SourceLocation B = CE->getBeginLoc(), E = CE->getRParenLoc();
    if (!B.isFileID() || !E.isFileID() || !S.inMainFile(B) || !S.inMainFile(E))
      continue;
    S.Edits.replace(S.offset(B), S.endOffset(E), "((int)parc_k_)");
  }
}

} // namespace parcc
