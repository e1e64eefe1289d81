//===- Checks.cpp - the compile-time rules of PARC -------------------------===//
//
// Each rule reads facts that Analysis recorded and reports at the user's
// line and column (the printer maps B1 locations back), with the fix as a
// note.  Messages follow Clang: lowercase, no trailing period, code quoted.
//
//===----------------------------------------------------------------------===//
#include "parcc/Checks.h"
#include "parcc/Analysis.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>

using namespace clang;

namespace parcc {

namespace {

/// Finds references to a variable inside an expression.
class RefFinder : public RecursiveASTVisitor<RefFinder> {
public:
  explicit RefFinder(const VarDecl *V) : V(V) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() == V && !Found)
      Found = E;
    return true;
  }
  const VarDecl *V;
  const DeclRefExpr *Found = nullptr;
};

static llvm::DenseMap<const FunctionDecl *, const CallExpr *> calledByActivities(Session &S);

/// The variable that E writes by name, when E is an assignment (`i = ...`,
/// `i += 2`) or an increment or decrement (`i++`, `--i`); null otherwise.
static const ValueDecl *writtenVar(const Expr *E) {
  const Expr *Target = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
    Target = U->getSubExpr();
  else if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
    Target = B->getLHS();
  const auto *R = Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr;
  return R ? R->getDecl() : nullptr;
}

/// Does R hold L (its ends included)?
static bool encloses(const SourceManager &SM, SourceRange R, SourceLocation L) {
  return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), L);
}

/// The variable that C's index hides where the construct is written (`int
/// i = 3; parfor int i; i; 9; 1;`): the innermost local of the function
/// declared before the construct in a block around it, else a parameter,
/// else a file-scope variable; null if none.
static const VarDecl *hiddenByIndex(Session &S, const Construct &C) {
  struct Locals : RecursiveASTVisitor<Locals> {
    StringRef Name;
    std::vector<const VarDecl *> Found;
    bool VisitVarDecl(VarDecl *V) {
      if (V->getName() == Name && !isa<ParmVarDecl>(V))
        Found.push_back(V);
      return true;
    }
  } L;
  StringRef Name = C.Index->getName();
  L.Name = Name;
  L.TraverseStmt(C.Func->getBody());
  SourceLocation At = C.Block->getLBracLoc();
  const VarDecl *Best = nullptr;
  for (const VarDecl *V : L.Found) {
    if (V == C.Index || !S.SM.isBeforeInTranslationUnit(V->getLocation(), At))
      continue;
    // In scope at the construct: the statement that holds its declaration
    // (a block, a for's header) holds the construct too.
    const Stmt *Scope = nullptr;
    DynTypedNodeList Ps = S.Ctx.getParents(*V);
    if (const Stmt *Decl = Ps.empty() ? nullptr : Ps[0].get<Stmt>()) {
      DynTypedNodeList Qs = S.Ctx.getParents(*Decl);
      Scope = Qs.empty() ? nullptr : Qs[0].get<Stmt>();
    }
    if (!Scope || !encloses(S.SM, Scope->getSourceRange(), At))
      continue;
    if (!Best || S.SM.isBeforeInTranslationUnit(Best->getLocation(), V->getLocation()))
      Best = V;
  }
  if (Best)
    return Best;
  for (const ParmVarDecl *P : C.Func->parameters())
    if (P->getName() == Name)
      return P;
  for (const NamedDecl *D : S.Ctx.getTranslationUnitDecl()->lookup(C.Index->getDeclName()))
    if (const auto *V = dyn_cast<VarDecl>(D); V && V->isFileVarDecl())
      return V;
  return nullptr;
}

/// Is the function that holds St called from an activity (directly or
/// through functions of the file)?
static bool inCalledFunction(Session &S, const Stmt *St,
                             const llvm::DenseMap<const FunctionDecl *, const CallExpr *> &Called) {
  for (const auto &F : S.M.Functions) {
    const Stmt *Body = F->FD->getBody();
    if (Body && encloses(S.SM, Body->getSourceRange(), St->getBeginLoc()))
      return Called.count(F->FD->getCanonicalDecl());
  }
  return false;
}

void checkMarks(Session &S) {
  llvm::DenseMap<const FunctionDecl *, const CallExpr *> Called;
  bool CalledKnown = false;
  for (const MarkUse &U : S.M.Marks) {
    SourceLocation L = U.Call->getBeginLoc();
    bool Pbreak = U.Kind == MarkKind::Pbreak;
    const char *Word = Pbreak ? "pbreak" : "sync";
    if (L.isMacroID()) {
      S.error(L, "'%0' cannot be used inside a macro argument") << Word;
      continue;
    }
    if (!U.Act) {
      S.error(L, "'%0' outside a parallel construct") << Word;
      // "not in a function it calls" only where an activity calls this
      // one: said of main, with no construct anywhere, it puzzled (tester
      // L, s46).
      if (!CalledKnown && !S.M.Constructs.empty())
        Called = calledByActivities(S);
      CalledKnown = true;
      bool Callee = inCalledFunction(S, U.Call, Called);
      if (Pbreak)
        S.note(L, "'pbreak' ends the innermost 'parblock', 'parfor' or 'lparfor' around it%0")
            << (Callee ? " and must be written inside that construct, not in a function it calls"
                       : ", and there is none around this one");
      else
        S.note(L, "'sync' is a barrier among the activities of the innermost "
                  "'parblock' or 'parfor' around it%0")
            << (Callee ? " and must be written inside that construct, not in a function it calls"
                       : ", and there is none around this one");
      continue;
    }
    if (!Pbreak && isLoop(U.Act->Owner->Kind) && U.Act->Owner->Kind != ConstructKind::Parfor) {
      ConstructKind K = U.Act->Owner->Kind;
      S.error(L, "'sync' is not allowed in %0 '%1' body")
          << (K == ConstructKind::MappedLparfor ? "a" : "an") << spellingOf(K);
      S.note(U.Act->Owner->Block->getLBracLoc(),
             "use 'parfor' if the iterations must synchronize");
    }
  }
}

/// `goto *e;` inside an activity reaches only the labels whose address the
/// function takes; the activity's body is a function of its own, so each of
/// them must be a label of this activity, outside any construct nested in it
/// (an address taken in another activity is refused as crossing already).
void checkIndirectGoto(Session &S, const JumpUse &G) {
  const DeclContext *Fn = G.Act->Owner->Func;
  for (const JumpUse &T : S.M.Jumps) {
    if (T.K != JumpUse::AddrLabel || T.Label->getDeclContext() != Fn || !T.Label->getStmt())
      continue;
    auto It = S.M.LabelAct.find(T.Label);
    if (It != S.M.LabelAct.end() && It->second == G.Act)
      continue;
    SourceLocation L = G.S->getBeginLoc();
    S.error(L, "indirect 'goto' inside a parallel activity may reach label '%0', which is "
               "outside the activity")
        << T.Label->getName();
    S.note(T.S->getBeginLoc(), "the address of '%0' is taken here") << T.Label->getName();
    S.note(L, "an activity runs as a function of its own: an indirect 'goto' in it may "
              "only jump to labels of the same activity");
    return;
  }
}

void checkJumps(Session &S) {
  for (const JumpUse &J : S.M.Jumps) {
    SourceLocation L = J.S->getBeginLoc();
    switch (J.K) {
    case JumpUse::Return:
      S.error(L, "'return' inside a parallel activity");
      S.note(L, "use 'preturn' to return from inside a parallel construct");
      break;
    case JumpUse::Break:
    case JumpUse::Continue:
      S.error(L, "'%0' cannot leave a parallel activity")
          << (J.K == JumpUse::Break ? "break" : "continue");
      if (J.K == JumpUse::Continue && J.Act && isLoop(J.Act->Owner->Kind))
        // Most likely meant: skip the rest of this iteration.  pbreak would
        // end every iteration of the construct.
        S.note(L, "to end only this iteration, skip the rest of the body (with 'if', or "
                  "'goto' a label at its end); 'pbreak' would end the whole '%0'")
            << spellingOf(J.Act->Owner->Kind);
      else
        S.note(L, "use 'pbreak' to leave a parallel construct");
      break;
    case JumpUse::Case:
      S.error(L, "'%0' label inside a parallel activity belongs to a 'switch' outside it")
          << (isa<CaseStmt>(J.S) ? "case" : "default");
      S.note(J.Act->Owner->Block->getLBracLoc(), "the activity starts here");
      break;
    case JumpUse::IndirectGoto:
      checkIndirectGoto(S, J);
      break;
    case JumpUse::Goto:
    case JumpUse::AddrLabel: {
      auto It = S.M.LabelAct.find(J.Label);
      if (It == S.M.LabelAct.end() || !J.Label->getStmt())
        break; // undefined label: Clang has reported it
      Activity *LA = It->second;
      if (LA == J.Act)
        break;
      if (J.K == JumpUse::AddrLabel) {
        S.error(L, "address of label '%0' cannot cross the boundary of a parallel activity")
            << J.Label->getName();
        S.note(J.Label->getStmt()->getIdentLoc(), "label '%0' is defined here")
            << J.Label->getName();
        break;
      }
      if (LA && within(LA, J.Act)) {
        S.error(L, "cannot jump into a parallel activity");
        S.note(J.Label->getStmt()->getIdentLoc(), "label '%0' is inside the activity")
            << J.Label->getName();
      } else {
        S.error(L, "cannot jump out of a parallel activity");
        S.note(J.Label->getStmt()->getIdentLoc(), "label '%0' is outside the activity")
            << J.Label->getName();
        S.note(L, "use 'pbreak' or 'preturn' to leave a parallel construct");
      }
      break;
    }
    }
  }
}

/// An activity's body is compiled as a function of its own, which has no
/// variable arguments to start on.
void checkVaStarts(Session &S) {
  for (const CallExpr *CE : S.M.VaStarts) {
    S.error(CE->getBeginLoc(), "'va_start' cannot be used inside a parallel activity");
    S.note(CE->getBeginLoc(), "call 'va_start' before the construct; its activities can "
                              "use the 'va_list' (or a 'va_copy' of it)");
  }
}

/// `sync();` in an activity calls the C library's sync(), which flushes file
/// systems: valid C, so a warning, but almost surely meant as the barrier.
void checkSyncCalls(Session &S) {
  for (const CallExpr *CE : S.M.SyncCalls) {
    S.warn(CE->getBeginLoc(), OwnWarning::SyncCall,
           "'sync()' calls the C library function 'sync', which is not a barrier");
    S.note(CE->getBeginLoc(), "the barrier of a 'parfor' or 'parblock' is the statement "
                              "'sync;', without parentheses; write '(sync)()' to call the "
                              "function");
  }
}

/// A value of type From, not a constant, that parcc's code converts to the
/// integer type To where C would convert it implicitly (FROM, TO or STEP to
/// the index type, faa's value to *p's type): Clang's own warnings, which the
/// user's flags govern as in C (-Wsign-conversion, -Wimplicit-int-conversion,
/// -Wshorten-64-to-32, -Wfloat-conversion: -Wconversion has them all).  The
/// header is no C conversion, so Sema saw none: `parfor unsigned u; 0; n - 1;
/// 1;` with an int n, whose n == 0 makes 2^32 activities, drew nothing.  A
/// constant gets parcc's own checks, which say what it becomes.
void implicitConversion(Session &S, SourceLocation L, QualType From, QualType To) {
  From = From.getUnqualifiedType();
  To = To.getUnqualifiedType();
  if (To->isBooleanType() || !To->isIntegerType())
    return;
  if (From->isRealFloatingType()) {
    S.Diags.Report(L, diag::warn_impcast_float_integer) << From << To;
    return;
  }
  if (!From->isIntegerType() || From->isBooleanType())
    return;
  unsigned FW = S.Ctx.getIntWidth(From), TW = S.Ctx.getIntWidth(To);
  bool FS = From->isSignedIntegerOrEnumerationType(), TS = To->isSignedIntegerOrEnumerationType();
  if (FW > TW)
    S.Diags.Report(L, FW == 64 && TW == 32 ? diag::warn_impcast_integer_64_32
                                           : diag::warn_impcast_integer_precision)
        << From << To;
  else if (FS != TS && !(!FS && FW < TW)) // not unsigned into a wider signed
    S.Diags.Report(L, diag::warn_impcast_integer_sign) << From << To;
}

/// A range that constants make too large to count, or empty.  Empty, as a
/// countdown written with a positive STEP (`parfor int i; 9; 0; 1;`): the
/// construct runs nothing, without a word at compile or run time.  That one
/// only where FROM and TO are written out: a bound from a macro (`0; N -
/// 1;` with N 0) may be empty on purpose.
static void checkConstantRange(Session &S, const Construct &C,
                            const std::optional<llvm::APSInt> (&V)[3]) {
  if (!V[0] || !V[1] || !V[2])
    return;
  bool Up = !V[2]->isNegative();
  llvm::SmallString<24> From, To, Step;
  V[0]->toString(From);
  V[1]->toString(To);
  V[2]->toString(Step);
  const auto *PE = dyn_cast<ParenExpr>(C.Bounds[2]);
  SourceLocation BL = PE ? PE->getSubExpr()->getBeginLoc() : C.Bounds[2]->getBeginLoc();
  // 2^64 values or more (`parfor unsigned long u; 0; -1; 1;`, TO the
  // type's maximum): the count does not fit the runtime's 64 bits, and the
  // program stops with "too many iterations" when it runs.
  // Two bits more than the widest bound (a _BitInt(193) index's too: a
  // fixed 130 bits truncated its bounds, and APInt's sext wrote past its
  // storage, tester P), and 130 at least for the 2^64 test.
  unsigned W = 2 + std::max({V[0]->getBitWidth(), V[1]->getBitWidth(), V[2]->getBitWidth(), 128u});
  auto Wide = [W](const llvm::APSInt &X) {
    return llvm::APSInt(X.isUnsigned() ? X.zext(W) : X.sext(W), /*isUnsigned=*/false);
  };
  llvm::APSInt F = Wide(*V[0]), T = Wide(*V[1]), St = Wide(*V[2]);
  if (Up ? F <= T : F >= T) {
    llvm::APInt Span = Up ? T - F : F - T;
    llvm::APInt Count = Span.sdiv(Up ? St : -St) + 1;
    if (Count.getActiveBits() > 64)
      S.warn(BL, OwnWarning::CountOverflow,
             "'%0' has 2^64 iterations or more, from %1 to %2 by %3: the program will stop "
             "with an error when it runs")
          << spellingOf(C.Kind) << From << To << Step;
    return;
  }
  for (unsigned I = 0; I < 2; ++I) {
    const Expr *B = C.Bounds[I]->IgnoreParens(); // the token pass's too
    if (B->getBeginLoc().isMacroID() || B->getEndLoc().isMacroID())
      return;
  }
  S.warn(BL, OwnWarning::EmptyRange,
         "'%0' runs no activity: FROM %1 is %select{below|above}4 TO %2, and STEP %3 counts "
         "%select{down|up}4")
      << spellingOf(C.Kind) << From << To << Step << Up;
  if (Up && C.Index->getType()->isUnsignedIntegerOrEnumerationType())
    S.note(C.Index->getLocation(), "a signed index type counts down with a negative STEP");
  else if (Up)
    S.note(BL, "a negative STEP counts down: write '-%0'") << Step;
  else
    S.note(BL, "a positive STEP counts up: write '%0'") << Step.substr(1);
}

/// The comma operator at the top of a header part as the user wrote it:
/// `0, 9` for `0; 9` (parcc's C puts each part in parentheses of its own,
/// so a comma the user put in parentheses is one level further in).
static const BinaryOperator *headerComma(const Expr *B) {
  const Expr *E = B ? B->IgnoreImpCasts() : nullptr;
  if (const auto *PE = dyn_cast_if_present<ParenExpr>(E))
    E = PE->getSubExpr()->IgnoreImpCasts();
  const auto *BO = dyn_cast_if_present<BinaryOperator>(E);
  return BO && BO->getOpcode() == BO_Comma && !BO->getOperatorLoc().isMacroID() ? BO : nullptr;
}

/// FROM or TO written with ',' for the ';' after it (`0, 9; 1;`), the
/// body then taken for STEP: a note at the ',' if so.
static bool commaForSemiNote(Session &S, const Construct &C) {
  for (unsigned I = 0; I < 2; ++I)
    if (const BinaryOperator *BO = headerComma(C.Bounds[I])) {
      S.note(BO->getOperatorLoc(), "is this ',' meant to be ';'? the header is 'TYPE VAR; "
                                   "FROM; TO; STEP;', and the body follows it");
      return true;
    }
  return false;
}

void checkConstructs(Session &S) {
  for (const Stmt *St : S.M.InMacro)
    S.error(St->getBeginLoc(), "a parallel construct cannot be written inside a macro argument");

  for (const auto &CP : S.M.Constructs) {
    const Construct &C = *CP;
    if (!C.Index)
      continue;
    const char *Kw = spellingOf(C.Kind);
    // Nothing between the header and epar: most likely a header missing
    // its STEP, whose body was taken for the STEP (`parfor int i; 0; 3;
    // work(); epar` calls work() once, as STEP, and runs nothing).  A body
    // of `;` or `{}` is written on purpose.
    bool NoBody = !C.Acts.empty() && C.Acts[0]->Body && C.Acts[0]->Body->body_empty() &&
                  C.Bounds[2] && !C.Bounds[2]->getBeginLoc().isMacroID();
    // `parfor int i; 0; 9; a[i] = 0; epar`: the STEP's error below says
    // so, and a warning about the body first would only confuse.
    RefFinder InStep(C.Index);
    if (NoBody)
      InStep.TraverseStmt(const_cast<Expr *>(C.Bounds[2]));
    if (NoBody && !InStep.Found) {
      S.warn(C.Bounds[2]->getBeginLoc(), OwnWarning::EmptyBody,
             "'%0' has no body: nothing runs for each value of '%1'")
          << Kw << C.Index->getName();
      if (!commaForSemiNote(S, C))
        S.note(C.Bounds[2]->getBeginLoc(), "the header is 'TYPE VAR; FROM; TO; STEP;' and the "
                                           "body follows it: is STEP missing? (write ';' as "
                                           "the body for none)");
    }
    QualType T = C.Index->getType();
    bool PointerIndex = T->isPointerType();
    if (!T->isIntegerType()) {
      S.error(C.Index->getLocation(), "index '%0' of '%1' has non-integer type %2")
          << C.Index->getName() << Kw << T;
      if (PointerIndex)
        S.note(C.Index->getLocation(), "the index of a parallel loop must have an integer "
                                       "type: loop over the element numbers and write a[i]");
      else
        S.note(C.Index->getLocation(), "the index of a parallel loop must have an integer type");
    }
    static const char *const Part[] = {"FROM", "TO", "STEP"};
    // The bounds' constant values in the index type, for checkConstantRange:
    // set for those that are constant and drew no message.
    std::optional<llvm::APSInt> Value[3];
    for (unsigned I = 0; I < 3; ++I) {
      const Expr *B = C.Bounds[I];
      if (!B)
        continue;
      QualType BT = B->getType();
      const auto *PE = dyn_cast<ParenExpr>(B);
      SourceLocation BL = PE ? PE->getSubExpr()->getBeginLoc() : B->getBeginLoc();
      if (!BT->isArithmeticType() || BT->isAnyComplexType()) {
        // Bounds that are pointers to go with a pointer index: one mistake,
        // already reported.
        if (PointerIndex && (BT->isPointerType() || BT->isArrayType()))
          continue;
        S.error(BL, "%0 of '%1' has non-arithmetic type %2") << Part[I] << Kw << BT;
        continue;
      }
      RefFinder F(C.Index);
      F.TraverseStmt(const_cast<Expr *>(B));
      if (F.Found) {
        S.error(F.Found->getLocation(), "%0 of '%1' refers to the index '%2'")
            << Part[I] << Kw << C.Index->getName();
        // Most often a header written like C's for: say what to write.
        const Expr *Core = B->IgnoreParenImpCasts();
        const auto *BO = dyn_cast<BinaryOperator>(Core);
        const auto *UO = dyn_cast<UnaryOperator>(Core);
        if (I == 2 && commaForSemiNote(S, C))
          continue;
        // `i++` or `i += 2` updates the index: a for's step.  Anything
        // else, with nothing after it, was the body.
        bool UpdatesIndex = writtenVar(Core) == C.Index;
        if (I == 2 && NoBody && !UpdatesIndex)
          S.note(F.Found->getLocation(), "the header is 'TYPE VAR; FROM; TO; STEP;' and the "
                                         "body follows it: is STEP missing? This was read "
                                         "as STEP, and nothing as the body");
        else if (I == 1 && BO && BO->isComparisonOp())
          S.note(F.Found->getLocation(), "TO is the last value of the index, not a condition: "
                                         "for '%0 < N' write 'N - 1', for '%0 <= N' write 'N'")
              << C.Index->getName();
        else if (I == 2 && ((UO && UO->isIncrementDecrementOp()) ||
                            (BO && BO->isAssignmentOp())))
          S.note(F.Found->getLocation(), "STEP is the amount added to the index, not an "
                                         "update: for '%0++' write '1', for '%0 += K' write 'K'")
              << C.Index->getName();
        else if (const VarDecl *H = hiddenByIndex(S, C))
          // The user meant that variable: the index's name hides it in
          // the header as a for's would (`for (int i = i; ...)`).
          S.note(H->getLocation(), "the index hides this '%0' in FROM, TO and STEP too; copy "
                                   "its value to a variable of another name before the "
                                   "construct, or rename the index")
              << C.Index->getName();
        else
          S.note(F.Found->getLocation(),
                 "FROM, TO and STEP are evaluated by the parent, before any index exists");
        continue;
      }
      // A constant STEP that cannot mean what it says: zero stops the
      // program at run time; a negative one becomes a huge positive step
      // when the index is unsigned, so a countdown runs once or not at all.
      // STEP is converted to the index type first: 0.5 or 256 for an
      // unsigned char index is zero too, 40000 for a short counts down.
      Expr::EvalResult R;
      if (!T->isIntegerType() || B->isValueDependent())
        continue;
      if (!B->EvaluateAsRValue(R, S.Ctx)) {
        implicitConversion(S, BL, BT, T);
        continue;
      }
      if (!(R.Val.isInt() || R.Val.isFloat()))
        continue;
      unsigned Width = S.Ctx.getIntWidth(T);
      bool Unsigned = T->isUnsignedIntegerOrEnumerationType();
      llvm::APSInt Conv(Width, Unsigned);
      bool Negative, Zero, Changed;
      if (R.Val.isInt()) {
        const llvm::APSInt &V = R.Val.getInt();
        Negative = V.isNegative();
        Zero = V.isZero();
        Conv = llvm::APSInt(V.extOrTrunc(Width), Unsigned);
        // As C's -Wconstant-conversion: -1 for an unsigned index is the
        // type's maximum on purpose, 300 for an unsigned char is not.  But
        // FROM -1 for an unsigned index starts at the maximum, and the range
        // is empty or one value: not what a user writing -1 means.
        Changed = !llvm::APSInt::isSameValue(V, Conv) &&
                  !(Negative && Unsigned && V.getSignificantBits() <= Width && I != 0);
        if (T->isBooleanType())
          Changed = !V.isZero() && !V.isOne();
      } else {
        const llvm::APFloat &F = R.Val.getFloat();
        if (F.isNaN() || F.isInfinity())
          continue;
        Negative = F.isNegative() && !F.isZero();
        Zero = F.isZero();
        bool Exact;
        if (!T->isBooleanType() &&
            F.convertToInteger(Conv, llvm::APFloat::rmTowardZero, &Exact) &
                llvm::APFloat::opInvalidOp) {
          // Out of the type's range: the conversion is undefined (gcc
          // makes 1e30 INT_MAX, two billion activities).
          S.warn(BL, OwnWarning::IndexConversion,
                 "%0 of '%1' is outside the range of index '%2' of type %3: the conversion "
                 "is undefined")
              << Part[I] << Kw << C.Index->getName() << T;
          continue;
        }
        Changed = !Exact;
        if (T->isBooleanType())
          Changed = !Zero && !(F.compare(llvm::APFloat(F.getSemantics(), 1)) ==
                               llvm::APFloat::cmpEqual);
      }
      if (T->isBooleanType())
        Conv = llvm::APSInt(llvm::APInt(Width, !Zero), Unsigned);
      llvm::SmallString<24> ConvText;
      Conv.toString(ConvText);
      if (I != 2) {
        // FROM and TO are converted to the index type as well: 300 for an
        // unsigned char index ends the range at 44.
        if (Changed)
          S.warn(BL, OwnWarning::IndexConversion,
                 "%0 of '%1' is converted to %2 for index '%3' of type %4")
              << Part[I] << Kw << ConvText << C.Index->getName() << T;
        else
          Value[I] = Conv;
        continue;
      }
      if (!Zero && !Conv.isZero() && !(Negative && Unsigned) && !(!Negative && Conv.isNegative()))
        Value[2] = Conv;
      if (Zero) {
        S.warn(BL, OwnWarning::ZeroStep,
               "STEP of '%0' is zero: the program will stop with an error when it runs")
            << Kw;
      } else if (Conv.isZero()) {
        S.warn(BL, OwnWarning::ZeroStep,
               "STEP of '%0' is converted to 0 for index '%1' of type %2: the program will "
               "stop with an error when it runs")
            << Kw << C.Index->getName() << T;
      } else if (Negative && Unsigned && !T->isBooleanType()) {
        S.warn(BL, OwnWarning::IndexConversion,
               "negative STEP of '%0' with unsigned index '%1' is converted to %2 and "
               "counts up")
            << Kw << C.Index->getName() << ConvText;
        S.note(C.Index->getLocation(), "a signed index type counts down with a negative STEP");
      } else if (!Negative && Conv.isNegative()) {
        S.warn(BL, OwnWarning::IndexConversion,
               "STEP of '%0' is converted to %1 for index '%2' of type %3 and counts down")
            << Kw << ConvText << C.Index->getName() << T;
      } else if (Changed) {
        // 1.5 for an int index steps by 1.
        S.warn(BL, OwnWarning::IndexConversion,
               "STEP of '%0' is converted to %1 for index '%2' of type %3")
            << Kw << ConvText << C.Index->getName() << T;
      }
    }
    checkConstantRange(S, C, Value);
  }

  for (const PreturnUse &P : S.M.Preturns)
    if (P.Ret->getReturnLoc().isMacroID())
      S.error(P.Ret->getReturnLoc(), "'preturn' cannot be used inside a macro argument");
}

/// Finds references to the loop index, or to a variable declared in the
/// loop body (which may hold a value computed from the index).
class DependenceFinder : public RecursiveASTVisitor<DependenceFinder> {
public:
  DependenceFinder(const VarDecl *Index, const llvm::SmallPtrSetImpl<const VarDecl *> &Locals)
      : Index(Index), Locals(Locals) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    Found = V && (V == Index || Locals.count(V));
    return !Found;
  }
  const VarDecl *Index;
  const llvm::SmallPtrSetImpl<const VarDecl *> &Locals;
  bool Found = false;
};

/// Can running a statement end it early, or the activity around it: a
/// return (preturn), goto, pbreak, a break or continue of no loop or switch
/// inside it, or a call that may not return (anything but a marker or a
/// library function that is not noreturn)?
class LeaveFinder : public RecursiveASTVisitor<LeaveFinder> {
  using Base = RecursiveASTVisitor<LeaveFinder>;

public:
  explicit LeaveFinder(const SourceManager &SM) : SM(SM) {}
  // A break or continue inside these ends one of them, not the statement.
#define PARCC_NESTED(KIND, COUNT)                                                                  \
  bool Traverse##KIND(KIND *St) {                                                                  \
    ++COUNT;                                                                                       \
    bool R = Base::Traverse##KIND(St);                                                             \
    --COUNT;                                                                                       \
    return R;                                                                                      \
  }
  PARCC_NESTED(WhileStmt, Loops)
  PARCC_NESTED(ForStmt, Loops)
  PARCC_NESTED(DoStmt, Loops)
  PARCC_NESTED(SwitchStmt, Switches)
#undef PARCC_NESTED
  bool VisitStmt(Stmt *St) {
    if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt>(St) ||
        (isa<BreakStmt>(St) && !Loops && !Switches) || (isa<ContinueStmt>(St) && !Loops))
      Found = true;
    if (const auto *CE = dyn_cast<CallExpr>(St)) {
      Marker M = markerOf(CE);
      const FunctionDecl *FD = CE->getDirectCallee();
      bool Returns = M != Marker::None ||
                     (FD && !FD->isNoReturn() &&
                      (FD->getBuiltinID() || SM.isInSystemHeader(FD->getLocation())));
      if (M == Marker::Pbreak || !Returns)
        Found = true;
    }
    return !Found;
  }
  const SourceManager &SM;
  unsigned Loops = 0, Switches = 0;
  bool Found = false;
};

/// The past-the-end value P of a parfor's index (TO counting up, FROM
/// counting down) and what the body does with it: the subscripts `a[i]` by
/// the plain index of an array of P elements (a constant array, a parameter
/// declared as one, or a variable length one whose size is written as P),
/// and the conditions on the index that may keep one from running when the
/// index is P.  When in doubt, a subscript counts as guarded.
class PastEndFinder : public RecursiveASTVisitor<PastEndFinder> {
public:
  PastEndFinder(Session &S, const VarDecl *Index, const Expr *P, const llvm::APSInt *PValue)
      : S(S), Ctx(S.Ctx), Index(Index), P(P), PValue(PValue) {}
  bool isIndex(const Expr *E) const {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == Index;
  }
  /// Does E's value depend on the index (or on a variable of the body)?
  bool dependent(const Expr *E) const {
    DependenceFinder F(Index, Locals);
    F.TraverseStmt(const_cast<Expr *>(E));
    return F.Found;
  }
  /// A comparison that may keep the index from P through a variable it is
  /// stored in (`ok = i < n`): one that depends on the index or the body's
  /// variables other than through subscripts by the index of arrays of P
  /// elements (`x = a[i] > 0` reads a[P] itself, whatever it keeps).
  bool guardLike(const BinaryOperator *B) const {
    class Finder : public RecursiveASTVisitor<Finder> {
    public:
      explicit Finder(const PastEndFinder &F) : F(F) {}
      bool TraverseArraySubscriptExpr(ArraySubscriptExpr *E) {
        if (F.isIndex(E->getIdx()) && F.sizeOf(E) != ~uint64_t(0))
          return TraverseStmt(E->getBase()); // the subscript reads at P, guards nothing
        return RecursiveASTVisitor<Finder>::TraverseArraySubscriptExpr(E);
      }
      bool VisitDeclRefExpr(DeclRefExpr *E) {
        const auto *V = dyn_cast<VarDecl>(E->getDecl());
        Found = V && (V == F.Index || F.Locals.count(V));
        return !Found;
      }
      const PastEndFinder &F;
      bool Found = false;
    } Fi(*this);
    Fi.TraverseStmt(const_cast<BinaryOperator *>(B));
    return Fi.Found;
  }
  bool mayLeave(const Stmt *St) const {
    LeaveFinder F(S.SM);
    F.TraverseStmt(const_cast<Stmt *>(St));
    return F.Found;
  }
  /// The same expression, written alike (casts and parentheses aside).
  bool sameExpr(const Expr *A, const Expr *B) const {
    llvm::FoldingSetNodeID IA, IB;
    A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
    B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
    return IA == IB;
  }

  bool VisitVarDecl(VarDecl *D) {
    Locals.insert(D);
    return true;
  }
  bool VisitStmt(Stmt *St) {
    if (const auto *U = dyn_cast<UnaryOperator>(St)) {
      if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && isIndex(U->getSubExpr()))
        Escapes = true; // the index changes, or may
    } else if (const auto *B = dyn_cast<BinaryOperator>(St)) {
      if (B->isAssignmentOp() && isIndex(B->getLHS()))
        Escapes = true;
      if (B->isComparisonOp())
        Comparisons.push_back(B);
      if (B->isLogicalOp())
        Controls.push_back(B);
    } else if (isa<IfStmt, AbstractConditionalOperator, WhileStmt, ForStmt, SwitchStmt>(St)) {
      Controls.push_back(St);
    } else if (const auto *E = dyn_cast<ArraySubscriptExpr>(St)) {
      if (uint64_t N = isIndex(E->getIdx()) ? sizeOf(E) : ~uint64_t(0); N != ~uint64_t(0))
        Candidates.push_back({E, N});
    }
    return true;
  }

  /// The number of elements of the array E subscripts when it is P (0 for a
  /// variable length array of P elements), or ~0.
  uint64_t sizeOf(const ArraySubscriptExpr *E) const {
    const Expr *Base = E->getBase()->IgnoreParens();
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(Base))
      if (IC->getCastKind() == CK_ArrayToPointerDecay)
        Base = IC->getSubExpr()->IgnoreParens();
    QualType T = Base->getType();
    // A parameter declared `double p[N]` is a pointer in C, but the size
    // written is the one the program means.
    if (const auto *DT = T->getAs<DecayedType>())
      T = DT->getOriginalType();
    if (const auto *CA = dyn_cast<ConstantArrayType>(T.getCanonicalType().getTypePtr())) {
      if (!PValue || !llvm::APSInt::isSameValue(llvm::APSInt(CA->getSize(), true), *PValue) ||
          CA->getSize().ule(1))
        return ~uint64_t(0); // 0 and 1 are also the sizes of flexible array members
      return CA->getSize().getZExtValue();
    }
    if (const auto *VA = dyn_cast_or_null<VariableArrayType>(T->getAsArrayTypeUnsafe()))
      if (!PValue && VA->getSizeExpr() && sameExpr(VA->getSizeExpr(), P))
        return 0;
    return ~uint64_t(0);
  }

  /// A value of the body when the index is P: a constant, or P plus a
  /// constant when P is the size of a variable length array (P >= 1 then).
  struct Val {
    bool Sym;
    llvm::APInt V;
  };
  static constexpr unsigned Bits = 200; // any two 128-bit values and their product
  std::optional<Val> konst(const llvm::APInt &V) const { return Val{false, V}; }
  std::optional<Val> eval(const Expr *E) const {
    E = E->IgnoreParens();
    QualType T = E->getType();
    if (!T->isIntegerType() || Depth >= 64) // deeper: unknown, and a bounded stack
      return std::nullopt;
    ++Depth;
    std::optional<Val> R = evalRaw(E);
    --Depth;
    if (!R || R->Sym)
      return R;
    // In the range of its type, a C value is the mathematical one.
    unsigned W = Ctx.getIntWidth(T);
    bool Fits = T->isSignedIntegerOrEnumerationType()
                    ? R->V.isSignedIntN(W)
                    : !R->V.isNegative() && R->V.getActiveBits() <= W;
    return Fits ? R : std::nullopt;
  }
  std::optional<bool> truth(const Expr *E) const {
    std::optional<Val> R = eval(E);
    if (!R || (R->Sym && R->V.isNegative()))
      return std::nullopt;
    return R->Sym || !R->V.isZero();
  }
  std::optional<Val> evalRaw(const Expr *E) const {
    if (isa<DeclRefExpr>(E) && isIndex(E))
      return PValue ? konst(PValue->extend(Bits)) : Val{true, llvm::APInt(Bits, 0)};
    if (!PValue && sameExpr(E, P))
      return Val{true, llvm::APInt(Bits, 0)};
    if (!dependent(E)) {
      Expr::EvalResult R;
      if (E->HasSideEffects(Ctx) || !E->EvaluateAsInt(R, Ctx))
        return std::nullopt;
      return konst(R.Val.getInt().extend(Bits));
    }
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      std::optional<Val> V = eval(C->getSubExpr());
      if (!V)
        return V;
      switch (C->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp:
        return V;
      case CK_IntegralCast: // P + k keeps its value in a signed type as wide
        if (!V->Sym || (E->getType()->isSignedIntegerType() &&
                        Ctx.getIntWidth(E->getType()) >=
                            Ctx.getIntWidth(C->getSubExpr()->getType())))
          return V;
        return std::nullopt;
      case CK_IntegralToBoolean:
        if (std::optional<bool> B = truth(C->getSubExpr()))
          return konst(llvm::APInt(Bits, *B));
        return std::nullopt;
      default:
        return std::nullopt;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_LNot) {
        if (std::optional<bool> B = truth(U->getSubExpr()))
          return konst(llvm::APInt(Bits, !*B));
        return std::nullopt;
      }
      std::optional<Val> V = eval(U->getSubExpr());
      if (!V || (V->Sym && U->getOpcode() != UO_Plus))
        return std::nullopt;
      if (U->getOpcode() == UO_Plus)
        return V;
      if (U->getOpcode() == UO_Minus)
        return konst(-V->V);
      if (U->getOpcode() == UO_Not && E->getType()->isSignedIntegerType())
        return konst(~V->V);
      return std::nullopt;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      if (std::optional<bool> B = truth(CO->getCond()))
        return eval(*B ? CO->getTrueExpr() : CO->getFalseExpr());
      return std::nullopt;
    }
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B)
      return std::nullopt;
    BinaryOperatorKind Op = B->getOpcode();
    if (B->isLogicalOp()) {
      bool And = Op == BO_LAnd;
      std::optional<bool> L = truth(B->getLHS());
      if (L && *L != And)
        return konst(llvm::APInt(Bits, *L)); // false && ..., true || ...
      std::optional<bool> R = truth(B->getRHS());
      if (R && (L || *R != And))
        return konst(llvm::APInt(Bits, *R));
      return std::nullopt;
    }
    if (Op == BO_Comma)
      return eval(B->getRHS());
    std::optional<Val> L = eval(B->getLHS()), R = eval(B->getRHS());
    if (!L || !R)
      return std::nullopt;
    if (B->isComparisonOp()) {
      // The sign of L - R: both constant, both P plus a constant, or
      // P + k against c with c - k < 1 <= P.
      int Cmp;
      if (L->Sym == R->Sym)
        Cmp = L->V.slt(R->V) ? -1 : L->V == R->V ? 0 : 1;
      else if (L->Sym && (R->V - L->V).slt(1))
        Cmp = 1;
      else if (R->Sym && (L->V - R->V).slt(1))
        Cmp = -1;
      else
        return std::nullopt;
      bool Res = Op == BO_LT   ? Cmp < 0
                 : Op == BO_GT ? Cmp > 0
                 : Op == BO_LE ? Cmp <= 0
                 : Op == BO_GE ? Cmp >= 0
                 : Op == BO_EQ ? Cmp == 0
                               : Cmp != 0;
      return konst(llvm::APInt(Bits, Res));
    }
    if (Op == BO_Add && !(L->Sym && R->Sym))
      return Val{L->Sym || R->Sym, L->V + R->V};
    if (Op == BO_Sub && !(R->Sym && !L->Sym))
      return Val{L->Sym && !R->Sym, L->V - R->V};
    if (L->Sym || R->Sym)
      return std::nullopt;
    const llvm::APInt &X = L->V, &Y = R->V;
    switch (Op) {
    case BO_Mul:
      return konst(X * Y);
    case BO_Div:
    case BO_Rem:
      if (Y.isZero())
        return std::nullopt;
      return konst(Op == BO_Div ? X.sdiv(Y) : X.srem(Y)); // C truncates too
    case BO_And:
    case BO_Or:
    case BO_Xor:
      if (X.isNegative() || Y.isNegative())
        return std::nullopt;
      return konst(Op == BO_And ? (X & Y) : Op == BO_Or ? (X | Y) : (X ^ Y));
    case BO_Shl:
    case BO_Shr:
      if (X.isNegative() || Y.isNegative() || Y.uge(Ctx.getIntWidth(B->getType())))
        return std::nullopt;
      return konst(Op == BO_Shl ? X.shl(Y.getZExtValue()) : X.lshr(Y.getZExtValue()));
    default:
      return std::nullopt;
    }
  }

  /// May Cond, which must be true (T) or false for something to run, be so
  /// when the index is P?  Not if its value then is known otherwise; if
  /// unknown and it depends on the index, the answer is Unknown (false when
  /// a guard keeps a subscript from P, true when one ends the activity).
  bool allows(const Expr *Cond, bool T, bool Unknown = false) const {
    if (!Cond)
      return true;
    Cond = Cond->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Cond);
        U && U->getOpcode() == UO_LNot && Depth < 64) {
      ++Depth;
      bool R = allows(U->getSubExpr(), !T, Unknown);
      --Depth;
      return R;
    }
    // `A && B` true, `A || B` false: each operand so.
    if (const auto *B = dyn_cast<BinaryOperator>(Cond);
        B && B->getOpcode() == (T ? BO_LAnd : BO_LOr) && Depth < 64) {
      ++Depth;
      bool R = allows(B->getLHS(), T, Unknown) && allows(B->getRHS(), T, Unknown);
      --Depth;
      return R;
    }
    if (std::optional<bool> V = truth(Cond))
      return *V == T;
    return dependent(Cond) ? Unknown : true;
  }
  /// May the for loop F's condition hold on its first test when the index
  /// is P, so that its body runs?  A counter that the loop's head sets from
  /// something other than the index or the body's variables (`for (int j =
  /// 0; j < M; j++)`) is not the index's: its first value is the one set,
  /// and a condition on it and on such things alone is worked out as `if`'s
  /// is (a row loop over a matrix `c[i][j]` runs at P; `j < i` may not).
  bool firstTest(const ForStmt *F) const {
    const Expr *Cond = F->getCond();
    const VarDecl *V = nullptr;
    const Expr *Init = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl()) {
      V = dyn_cast<VarDecl>(DS->getSingleDecl());
      Init = V ? V->getInit() : nullptr;
    } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit());
               B && B->getOpcode() == BO_Assign) {
      const auto *R = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
      V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      Init = B->getRHS();
    }
    if (!Cond || !V || V == Index || !Init || dependent(Init))
      return allows(Cond, true);
    llvm::SmallPtrSet<const VarDecl *, 8> Others(Locals.begin(), Locals.end());
    Others.erase(V);
    DependenceFinder D(Index, Others);
    D.TraverseStmt(const_cast<Expr *>(Cond));
    if (D.Found)
      return allows(Cond, true);
    // `V OP E` with V's first value and E constants: that test's value.
    const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
    Expr::EvalResult IR, ER;
    if (B && B->isComparisonOp() && Init->EvaluateAsInt(IR, Ctx)) {
      auto isV = [&](const Expr *E) {
        const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
        return R && R->getDecl() == V;
      };
      const Expr *Other = isV(B->getLHS()) ? B->getRHS() : isV(B->getRHS()) ? B->getLHS() : nullptr;
      bool Unsigned = B->getLHS()->getType()->isUnsignedIntegerOrEnumerationType();
      if (Other && Other->EvaluateAsInt(ER, Ctx) &&
          !(Unsigned && (IR.Val.getInt().isNegative() || ER.Val.getInt().isNegative()))) {
        int C = llvm::APSInt::compareValues(IR.Val.getInt(), ER.Val.getInt());
        if (!isV(B->getLHS()))
          C = -C;
        switch (B->getOpcode()) {
        case BO_LT: return C < 0;
        case BO_GT: return C > 0;
        case BO_LE: return C <= 0;
        case BO_GE: return C >= 0;
        case BO_EQ: return C == 0;
        default: return C != 0;
        }
      }
    }
    return true; // unknown, and not the index's: as `if (x)`
  }
  /// Is the comparison B's value kept or passed on (`ok = i < N`, `f(i < N)`)
  /// rather than only tested by an if, a loop or an operator `?:`?
  bool stored(const BinaryOperator *B) const {
    DynTypedNode N = DynTypedNode::create(*static_cast<const Stmt *>(B));
    for (;;) {
      auto Ps = Ctx.getParents(N);
      const Stmt *Ch = N.get<Stmt>();
      const Stmt *Pa = Ps.empty() ? nullptr : Ps[0].get<Stmt>();
      if (!Pa)
        return true;
      if (const auto *If = dyn_cast<IfStmt>(Pa))
        return If->getCond() != Ch;
      if (const auto *W = dyn_cast<WhileStmt>(Pa))
        return W->getCond() != Ch;
      if (const auto *F = dyn_cast<ForStmt>(Pa))
        return F->getCond() != Ch;
      if (const auto *D = dyn_cast<DoStmt>(Pa))
        return D->getCond() != Ch;
      if (const auto *Sw = dyn_cast<SwitchStmt>(Pa))
        return Sw->getCond() != Ch;
      if (const auto *CO = dyn_cast<ConditionalOperator>(Pa); CO && CO->getCond() == Ch)
        return false;
      const auto *PB = dyn_cast<BinaryOperator>(Pa);
      if (!isa<Expr>(Pa) || (PB && PB->isAssignmentOp()))
        return true;
      N = Ps[0];
    }
  }
  /// Does the subscript E run when the index is P, whatever the conditions
  /// on its way from the body: on the ones around it, and on those that may
  /// end the activity before it (`if (i == N) pbreak;`)?
  /// Exits: the controls that may end the activity when the index is P.
  bool runsAtP(const ArraySubscriptExpr *E, const Stmt *Body,
               llvm::ArrayRef<const Stmt *> Exits) const {
    llvm::SmallPtrSet<const Stmt *, 16> Path;
    DynTypedNode N = DynTypedNode::create(*static_cast<const Stmt *>(E));
    bool Bare = true; // E as written, parentheses aside
    while (N.get<Stmt>() != Body) {
      auto Ps = Ctx.getParents(N);
      if (Ps.empty())
        return false;
      const Stmt *Ch = N.get<Stmt>(), *Pa = Ps[0].get<Stmt>();
      N = Ps[0];
      if (!Pa || !Ch)
        continue; // a declaration: its initializer runs
      Path.insert(Pa);
      if (isa<UnaryExprOrTypeTraitExpr>(Pa))
        return false; // sizeof a[i] reads nothing
      if (const auto *U = dyn_cast<UnaryOperator>(Pa); Bare && U && U->getOpcode() == UO_AddrOf)
        return false; // &a[N] is a pointer, not past the end yet
      Bare = Bare && isa<ParenExpr>(Pa);
      bool Ok = true;
      if (const auto *If = dyn_cast<IfStmt>(Pa))
        Ok = Ch == If->getCond() || allows(If->getCond(), Ch == If->getThen());
      else if (const auto *CO = dyn_cast<ConditionalOperator>(Pa))
        Ok = Ch == CO->getCond() || allows(CO->getCond(), Ch == CO->getTrueExpr());
      else if (const auto *BC = dyn_cast<BinaryConditionalOperator>(Pa))
        Ok = Ch == BC->getCommon() || !dependent(BC->getCommon());
      else if (const auto *B = dyn_cast<BinaryOperator>(Pa); B && B->isLogicalOp())
        Ok = Ch == B->getLHS() || allows(B->getLHS(), B->getOpcode() == BO_LAnd);
      else if (const auto *W = dyn_cast<WhileStmt>(Pa); W && markerOf(W->getCond()) != Marker::Act)
        Ok = Ch != W->getBody() || allows(W->getCond(), true);
      else if (const auto *F = dyn_cast<ForStmt>(Pa))
        Ok = (Ch != F->getBody() && Ch != F->getInc()) || firstTest(F);
      else if (const auto *Sw = dyn_cast<SwitchStmt>(Pa))
        Ok = Ch != Sw->getBody() || !dependent(Sw->getCond());
      else if (const auto *D = dyn_cast<WhileStmt>(Pa); D && markerOf(D->getCond()) == Marker::Act) {
        // The body of a nested parfor or lparfor, whose bounds may leave
        // out P: its block declares the index, then gives the bounds.
        auto Qs = Ctx.getParents(*D);
        const auto *Block = Qs.empty() ? nullptr : Qs[0].get<CompoundStmt>();
        if (Block && Block->size() == 7 && isa<DeclStmt>(Block->body_front()))
          for (unsigned I = 2; I < 5; ++I) {
            const auto *BE = dyn_cast<Expr>(Block->body_begin()[I]);
            const auto *M = BE ? dyn_cast<CallExpr>(BE->IgnoreImplicit()) : nullptr;
            if (M && markerOf(M) == Marker::Bounds && M->getNumArgs() == 3 &&
                dependent(M->getArg(2)))
              Ok = false;
          }
      }
      if (!Ok)
        return false;
    }
    return llvm::none_of(Exits, [&](const Stmt *K) { return !Path.count(K); });
  }
  /// May the control statement or expression K, which depends on the
  /// index, end the activity when the index is P (`if (i == N) pbreak;`)?
  bool mayEndAtP(const Stmt *K) const {
    if (const auto *If = dyn_cast<IfStmt>(K))
      return dependent(If->getCond()) &&
             ((mayLeave(If->getThen()) && allows(If->getCond(), true, true)) ||
              (If->getElse() && mayLeave(If->getElse()) && allows(If->getCond(), false, true)));
    if (const auto *CO = dyn_cast<ConditionalOperator>(K))
      return dependent(CO->getCond()) &&
             ((mayLeave(CO->getTrueExpr()) && allows(CO->getCond(), true, true)) ||
              (mayLeave(CO->getFalseExpr()) && allows(CO->getCond(), false, true)));
    if (const auto *B = dyn_cast<BinaryOperator>(K))
      return dependent(B->getLHS()) && mayLeave(B->getRHS()) &&
             allows(B->getLHS(), B->getOpcode() == BO_LAnd, true);
    // A loop, a switch, `x ?: y`: a condition on the index and a way out.
    const Expr *Cond = nullptr;
    if (const auto *W = dyn_cast<WhileStmt>(K))
      Cond = W->getCond();
    else if (const auto *F = dyn_cast<ForStmt>(K))
      Cond = F->getCond();
    else if (const auto *Sw = dyn_cast<SwitchStmt>(K))
      Cond = Sw->getCond();
    else if (const auto *BC = dyn_cast<BinaryConditionalOperator>(K))
      Cond = BC->getCommon();
    return Cond && dependent(Cond) && mayLeave(K);
  }
  /// The first subscript of an array of P elements by the index that runs
  /// when the index is P, with the array's size (0: variable length).
  std::pair<const ArraySubscriptExpr *, uint64_t> unguarded(const Stmt *Body) const {
    if (Escapes || llvm::any_of(Comparisons, [&](const BinaryOperator *B) {
          return guardLike(B) && stored(B);
        }))
      return {nullptr, 0};
    // Worked out once, not for each subscript: a long body stays fast.
    llvm::SmallVector<const Stmt *, 4> Exits;
    if (!Candidates.empty())
      llvm::copy_if(Controls, std::back_inserter(Exits),
                    [&](const Stmt *K) { return mayEndAtP(K); });
    for (const auto &[E, Size] : Candidates)
      if (runsAtP(E, Body, Exits))
        return {E, Size};
    return {nullptr, 0};
  }

  const Session &S;
  ASTContext &Ctx;
  const VarDecl *Index;
  const Expr *P;
  const llvm::APSInt *PValue;
  llvm::SmallPtrSet<const VarDecl *, 8> Locals;
  std::vector<std::pair<const ArraySubscriptExpr *, uint64_t>> Candidates;
  std::vector<const BinaryOperator *> Comparisons;
  std::vector<const Stmt *> Controls;
  bool Escapes = false;
  mutable unsigned Depth = 0;
};

/// TO is inclusive (contract, parfor): `parfor int i; 0; N; 1; a[i] ...`
/// with `double a[N]`, written as C's `i < N`, runs one activity past the
/// end of a; so does `parfor int i; N; 0; -1; a[i] ...`, from C's
/// `i = N - 1`.  Warned when the body indexes such an array with the plain
/// index where nothing may keep it from running with the index at N, and
/// the index takes N: STEP > 0 and, for a constant FROM, TO - FROM a
/// multiple of STEP; or STEP < 0 and FROM N.
void checkPastEnd(Session &S, const Construct &C) {
  const Expr *From = C.Bounds[0], *To = C.Bounds[1], *Step = C.Bounds[2];
  if (!C.Index || !From || !To || !Step || C.Acts.empty() || !C.Acts[0]->Body ||
      !C.Index->getType()->isIntegerType() || To->isValueDependent() ||
      From->isValueDependent())
    return;
  QualType IT = C.Index->getType();
  unsigned W = S.Ctx.getIntWidth(IT);
  bool Signed = IT->isSignedIntegerOrEnumerationType();
  auto fits = [&](const llvm::APSInt &V) { // unchanged in the index's type
    return llvm::APSInt::isSameValue(V, llvm::APSInt(V.extOrTrunc(W), !Signed));
  };
  Expr::EvalResult SR, FR, TR;
  if (!Step->EvaluateAsInt(SR, S.Ctx))
    return;
  llvm::APSInt StepV = SR.Val.getInt();
  bool Down = StepV.isNegative();
  if (StepV.isZero() || !fits(StepV))
    return;
  bool FromConst = From->EvaluateAsInt(FR, S.Ctx), ToConst = To->EvaluateAsInt(TR, S.Ctx);
  if (FromConst && ToConst) {
    // The index takes TO only if TO - FROM is a multiple of STEP, and FROM
    // if the range is not empty.  130 bits hold the difference of any two
    // 64-bit values, either sign.
    llvm::APInt D = llvm::APInt(TR.Val.getInt().extend(130)) -
                    llvm::APInt(FR.Val.getInt().extend(130));
    if (Down ? D.isStrictlyPositive()
             : D.isNegative() || !D.urem(llvm::APInt(StepV.extend(130))).isZero())
      return;
  } else if (!Down && !StepV.isOne()) {
    return;
  }
  const Expr *Bound = Down ? From : To; // the index's largest value
  bool PConst = Down ? FromConst : ToConst;
  llvm::APSInt PV = PConst ? (Down ? FR : TR).Val.getInt() : llvm::APSInt();
  if (PConst && !fits(PV))
    return; // 256 for an unsigned char index is 0
  PastEndFinder F(S, C.Index, Bound->IgnoreParens(), PConst ? &PV : nullptr);
  const CompoundStmt *Body = C.Acts[0]->Body;
  F.TraverseStmt(const_cast<CompoundStmt *>(Body));
  auto [Found, Size] = F.unguarded(Body);
  if (!Found)
    return;
  const Expr *Arr = Found->getBase()->IgnoreParenImpCasts();
  std::string Name = "the array";
  if (const auto *R = dyn_cast<DeclRefExpr>(Arr))
    Name = "'" + R->getDecl()->getName().str() + "'";
  const auto *PE = dyn_cast<ParenExpr>(Bound);
  SourceLocation BL = PE ? PE->getSubExpr()->getBeginLoc() : Bound->getBeginLoc();
  const Expr *Core = PE ? PE->getSubExpr() : Bound;
  StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Core->getSourceRange()),
                                        S.SM, S.Ctx.getLangOpts());
  if (Size && !Down)
    S.warn(BL, OwnWarning::InclusiveTo,
           "TO of '%0' is inclusive: index '%1' reaches %2, one past the end of %3 "
           "(%2 elements)")
        << spellingOf(C.Kind) << C.Index->getName() << std::to_string(Size) << Name;
  else if (!Down)
    S.warn(BL, OwnWarning::InclusiveTo,
           "TO of '%0' is inclusive: index '%1' reaches the size of %2, one past its end")
        << spellingOf(C.Kind) << C.Index->getName() << Name;
  else if (Size)
    S.warn(BL, OwnWarning::InclusiveTo,
           "FROM of '%0' is the first value of index '%1': %2 is one past the end of %3 "
           "(%2 elements)")
        << spellingOf(C.Kind) << C.Index->getName() << std::to_string(Size) << Name;
  else
    S.warn(BL, OwnWarning::InclusiveTo,
           "FROM of '%0' is the first value of index '%1': the size of %2 is one past its end")
        << spellingOf(C.Kind) << C.Index->getName() << Name;
  S.note(Found->getBeginLoc(), "%0 is indexed with '%1' here")
      << Name << C.Index->getName();
  const char *Part = Down ? "FROM is the first" : "TO is the last";
  if (Text.empty() || Core->getBeginLoc().isMacroID() != Core->getEndLoc().isMacroID()) {
    if (Down)
      S.note(BL, "%0 value of the index: for an array of N elements write 'N - 1'") << Part;
    else
      S.note(BL, "%0 value of the index: for C's '%1 < N' write 'N - 1'")
          << Part << C.Index->getName();
    return;
  }
  std::string Fix;
  if (const auto *L = dyn_cast<IntegerLiteral>(Core->IgnoreImpCasts());
      L && PConst && !L->getBeginLoc().isMacroID())
    Fix = std::to_string(L->getValue().getZExtValue() - 1); // the literal is a size > 1 here
  else if (llvm::all_of(Text, [](char Ch) { return isAsciiIdentifierContinue(Ch); }))
    Fix = Text.str() + " - 1"; // N, n, a macro's name
  else
    Fix = "(" + Text.str() + ") - 1";
  S.note(BL, "%0 value of the index: write '%1'")
      << Part << Fix << FixItHint::CreateReplacement(Core->getSourceRange(), Fix);
}

/// A preturn's value must match its function, as a return's does.  Clang
/// only warns of `return;` in a non-void function and `return EXPR;` in a
/// void one (parcc keeps those warnings, as GCC 12 does, for old C), and
/// the function then returned an indeterminate value; preturn is no old C,
/// so the mistakes are errors, as clang 19 and gcc 14 make them for return.
/// Clang's warning at the same place is not shown (DiagPrinter).
void checkPreturnValues(Session &S) {
  for (const PreturnSite &P : S.M.AllPreturns) {
    const FunctionDecl *FD = P.Func;
    SourceLocation L = P.Ret->getReturnLoc();
    if (!FD || FD->isInvalidDecl() || L.isMacroID())
      continue;
    QualType RT = FD->getReturnType();
    const Expr *V = P.Ret->getRetValue();
    // Sema casts the value of a void function's return to void.
    if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(V))
      if (IC->getCastKind() == CK_ToVoid)
        V = IC->getSubExpr();
    if (!V && !RT->isVoidType() && !RT->isDependentType()) {
      S.error(L, "'preturn' without a value in non-void function '%0'") << FD->getName();
      S.note(FD->getLocation(), "'%0' returns %1: write 'preturn EXPR;' with the value to "
                                "return")
          << FD->getName() << RT;
    } else if (V && RT->isVoidType() && !V->getType()->isVoidType()) {
      S.error(L, "'preturn' with a value in void function '%0'") << FD->getName();
      S.note(FD->getLocation(), "'%0' returns void: write 'preturn;'") << FD->getName();
    }
  }
}

/// A prototype parameter written without any type (`void f(int a, b)`):
/// Clang accepts it as implicit int (parcc keeps Clang's implicit-int a
/// warning, for K&R code), but GCC rejects it, so parcc does too.
void checkPrototypes(Session &S) {
  for (Decl *D : S.checkedDecls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->hasWrittenPrototype() || !S.inMainFile(FD->getLocation()))
      continue;
    for (const ParmVarDecl *P : FD->parameters()) {
      if (!P->getTypeSourceInfo() || P->getStorageClass() != SC_None || !P->getIdentifier())
        continue;
      TypeLoc TL = P->getTypeSourceInfo()->getTypeLoc();
      bool Qualified = false;
      while (true) {
        if (auto Q = TL.getAs<QualifiedTypeLoc>()) {
          Qualified = true;
          TL = Q.getUnqualifiedLoc();
        } else if (auto Ptr = TL.getAs<PointerTypeLoc>()) {
          Qualified = false;
          TL = Ptr.getPointeeLoc();
        } else if (auto Par = TL.getAs<ParenTypeLoc>()) {
          TL = Par.getInnerLoc();
        } else if (auto Arr = TL.getAs<ArrayTypeLoc>()) {
          TL = Arr.getElementLoc();
        } else if (auto Dec = TL.getAs<DecayedTypeLoc>()) {
          TL = Dec.getOriginalLoc();
        } else if (auto Adj = TL.getAs<AdjustedTypeLoc>()) {
          TL = Adj.getOriginalLoc();
        } else {
          break;
        }
      }
      auto B = TL.getAs<BuiltinTypeLoc>();
      if (B && B.getBuiltinLoc().isInvalid() && !Qualified)
        S.error(P->getBeginLoc(), "type specifier missing for parameter '%0'") << P->getName();
    }
  }
}

void reportAbiName(Session &S, SourceLocation L, StringRef Name) {
  S.error(L, "'%0' is a name of parc_abi.h, which the C that parcc emits includes") << Name;
  S.note(L, "parc_abi.h reserves the names of its entries in every file parcc compiles; "
            "rename this one");
}

class AbiNameFinder : public RecursiveASTVisitor<AbiNameFinder> {
public:
  explicit AbiNameFinder(Session &S) : S(S) {}
  bool VisitNamedDecl(NamedDecl *D) {
    // Members and labels have name spaces of their own, but for macros.
    if (isa<LabelDecl>(D) || !D->getIdentifier() || !S.inMainFile(D->getLocation()) ||
        !isAbiName(D->getName()) || (isa<FieldDecl>(D) && !isAbiMacro(D->getName())))
      return true;
    reportAbiName(S, D->getLocation(), D->getName());
    return true;
  }
  bool VisitLabelStmt(LabelStmt *L) {
    if (S.inMainFile(L->getIdentLoc()) && isAbiMacro(L->getName()))
      reportAbiName(S, L->getIdentLoc(), L->getName());
    return true;
  }
  Session &S;
};

void checkAbiNames(Session &S) {
  S.traverseChecked(AbiNameFinder(S));
  // #define and #undef lines of the main file: `# define NAME`.
  SourceLocation Start = S.SM.getLocForStartOfFile(S.SM.getMainFileID());
  for (const auto &L : S.MacroLines) {
    std::vector<Session::RawToken> T = S.lexRange(L.first, L.second);
    if (T.size() < 3 || T[2].Kind != tok::raw_identifier)
      continue;
    StringRef Name = StringRef(S.TP.Text).substr(T[2].Off, T[2].Len);
    if (isAbiName(Name))
      reportAbiName(S, Start.getLocWithOffset(T[2].Off), Name);
  }
}

/// faa on an object that is not an integer: Clang takes a float or a
/// pointer (a pointer goes up by bytes, not elements) and GCC refuses them in
/// the emitted C; say so at the user's faa, the same for either back end.
/// Two integer types the builtin cannot take become parc_abi.h's own code,
/// where the user wrote the faa (a macro or a header cannot be changed):
/// a 128-bit integer (libatomic's add, which no PARC link has) becomes
/// parc_faa_wide_, an add under a lock of libparc's; a _Bool (GCC refuses
/// the builtin, Clang adds to the byte) becomes parc_faa_bool_, a
/// compare-and-swap loop.
class FaaChecker : public RecursiveASTVisitor<FaaChecker> {
public:
  explicit FaaChecker(Session &S) : S(S) {}
  bool VisitAtomicExpr(AtomicExpr *E) {
    if (E->getOp() != AtomicExpr::AO__atomic_fetch_add)
      return true;
    SourceLocation L = E->getBuiltinLoc();
    if (!L.isMacroID() ||
        Lexer::getImmediateMacroName(L, S.SM, S.Ctx.getLangOpts()) != "faa")
      return true;
    QualType T = E->getPtr()->getType();
    if (!T->isPointerType())
      return true; // Clang has said so already
    QualType P = T->getPointeeType();
    SourceLocation At = S.SM.getExpansionLoc(L);
    // An enum whose fixed type is bool (C23 `enum flag : bool`) is a bool
    // in all but name: adding made it 4, not a bool's value.
    const auto *ET = P->getAs<EnumType>();
    bool Bool = P->isBooleanType() ||
                (ET && ET->getDecl()->getIntegerType()->isBooleanType());
    // A 128-bit integer: the back ends call libatomic's
    // __atomic_fetch_add_16, which no PARC link has, so the program failed
    // at the link with a message naming neither faa nor the user's line.
    // Where the user wrote the faa it becomes parc_abi.h's parc_faa_wide_
    // (an add under a lock of libparc's); in a macro or a header, an error.
    SourceLocation Name = S.SM.getImmediateExpansionRange(L).getBegin();
    bool InPlace = Name.isFileID() && S.inMainFile(Name);
    auto RewriteFaa = [&](const char *To) {
      unsigned Off = S.offset(Name);
      S.Edits.replace(Off, Off + strlen("faa"), To);
    };
    const Expr *V = E->getVal1() ? E->getVal1()->IgnoreParenImpCasts() : nullptr;
    bool PointerValue = V && (V->getType()->isPointerType() || V->getType()->isArrayType());
    if (P->isIntegerType() && !Bool && !P->isDependentType() && S.Ctx.getTypeSize(P) > 64 &&
        !PointerValue) {
      if (InPlace && S.Ctx.getTypeSize(P) == 128 && !P->isEnumeralType() &&
          !P->isBitIntType()) {
        RewriteFaa("parc_faa_wide_");
        return true;
      }
      std::string TypeName = P.getUnqualifiedType().getAsString(),
                  Canon = P.getCanonicalType().getUnqualifiedType().getAsString();
      TypeName = "'" + TypeName + "'";
      if (Canon != P.getUnqualifiedType().getAsString())
        TypeName += " (aka '" + Canon + "')";
      S.error(At, "'faa' on %0 (%1 bits) is not supported here: faa adds atomically to "
                  "integers of at most 64 bits, and to a 128-bit one where 'faa' itself is "
                  "written in the .pc file, not in a macro or a header")
          << TypeName << unsigned(S.Ctx.getTypeSize(P));
      S.note(At, "guard such an integer with a semaphore");
      return true;
    }
    // A _Bool (not an enum on bool, which is not one by name): faa where
    // the user wrote it, in this file, becomes parc_faa_bool_.
    bool BoolInPlace = P->isBooleanType() && InPlace;
    if (P->isIntegerType() && (!Bool || BoolInPlace) && misaligned(E, P, At))
      return true;
    if (P->isIntegerType() && (!Bool || BoolInPlace)) {
      // The value added: Clang only warns of a pointer made an integer
      // (`faa(&n, "a")`, `faa(&n, p)`), and the sum is an address.
      if (PointerValue) {
        S.error(S.SM.getExpansionLoc(L), "'faa' adds an integer, not '%0'")
            << V->getType().getAsString();
        S.note(S.SM.getExpansionLoc(L), "faa(p, v) adds the integer v to *p and returns "
                                        "what *p held");
      } else if (BoolInPlace) {
        RewriteFaa("parc_faa_bool_");
      } else if (V && V->getType()->isRealFloatingType()) {
        floatValue(V, P.getUnqualifiedType());
      } else if (V && V->getType()->isIntegerType()) {
        integerValue(V, P.getUnqualifiedType());
      }
      return true;
    }
    S.error(At, "'faa' needs a pointer to an integer object, not '%0'") << T.getAsString();
    if (P->isBooleanType())
      S.note(At, "faa on a _Bool is written by parcc as a loop of its own, which it can "
                 "write only where 'faa' itself is written in the .pc file, not in a macro "
                 "or a header");
    else
      S.note(At, "faa atomically adds to an integer (int, unsigned, long, size_t, ...); "
                 "guard other objects with a semaphore");
    return true;
  }
  /// A floating value converts to *p's type, as in C, but parc.h is a
  /// system header, so Clang's conversion warnings, which C's own
  /// __atomic_fetch_add gets, were silent inside faa's expansion: 2.5
  /// added 2 without a word.  Clang's own warnings, at the value: a
  /// literal whose value changes always (-Wliteral-conversion), any other
  /// under -Wfloat-conversion (and -Wconversion).
  void floatValue(const Expr *V, QualType To) {
    SourceLocation L = S.SM.getFileLoc(V->getBeginLoc());
    const Expr *Lit = V;
    if (const auto *U = dyn_cast<UnaryOperator>(Lit); U && U->getOpcode() == UO_Minus)
      Lit = U->getSubExpr()->IgnoreParens();
    Expr::EvalResult R;
    if (isa<FloatingLiteral>(Lit) && V->EvaluateAsRValue(R, S.Ctx) && R.Val.isFloat()) {
      llvm::APSInt I(S.Ctx.getIntWidth(To), To->isUnsignedIntegerOrEnumerationType());
      bool Exact = false;
      R.Val.getFloat().convertToInteger(I, llvm::APFloat::rmTowardZero, &Exact);
      if (Exact)
        return;
      llvm::SmallString<24> From, ToText;
      R.Val.getFloat().toString(From);
      I.toString(ToText);
      S.Diags.Report(L, diag::warn_impcast_literal_float_to_integer)
          << V->getType() << To << From << ToText;
      return;
    }
    implicitConversion(S, L, V->getType(), To);
  }

  /// faa on a member of a packed struct that is not aligned to its size
  /// (`struct __attribute__((packed)) { char tag; long count; }`): gcc's
  /// locked add straddled two words, where a CPU may refuse it or split
  /// the lock, and clang's back end called libatomic, which no PARC link
  /// has, and the program failed at the link (tester F, s45).  The object's
  /// alignment is what its type guarantees: the least of the record's
  /// alignment and its offset's, along the chain of members.
  bool misaligned(const AtomicExpr *E, QualType P, SourceLocation At) {
    const Expr *Ptr = E->getPtr()->IgnoreParenImpCasts();
    const auto *UO = dyn_cast<UnaryOperator>(Ptr);
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return false;
    uint64_t Need = S.Ctx.getTypeAlignInChars(P).getQuantity(), Have = Need;
    const MemberExpr *Packed = nullptr;
    for (const Expr *Obj = UO->getSubExpr()->IgnoreParens();;) {
      const auto *ME = dyn_cast<MemberExpr>(Obj);
      if (!ME) {
        const auto *ASE = dyn_cast<ArraySubscriptExpr>(Obj);
        if (!ASE || !ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
          break;
        Obj = ASE->getBase()->IgnoreParenImpCasts(); // an element is as aligned as its array
        continue;
      }
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD || FD->isBitField())
        return false;
      const RecordDecl *RD = FD->getParent();
      const ASTRecordLayout &RL = S.Ctx.getASTRecordLayout(RD);
      uint64_t Off = RL.getFieldOffset(FD->getFieldIndex()) / S.Ctx.getCharWidth();
      uint64_t A = RL.getAlignment().getQuantity();
      if (Off)
        A = std::min<uint64_t>(A, Off & -Off);
      if (A < Have) {
        Have = A;
        Packed = ME;
      }
      if (ME->isArrow())
        break;
      Obj = ME->getBase()->IgnoreParens();
    }
    if (Have >= Need || !Packed)
      return false;
    const auto *FD = cast<FieldDecl>(Packed->getMemberDecl());
    S.error(At, "'faa' on '%0', which its packed '%1' aligns to %2 byte%s2, where '%3' needs "
                "%4: an atomic add needs its object aligned to its size")
        << FD->getName() << S.printType(S.Ctx.getRecordType(FD->getParent()), "")
        << unsigned(Have) << P.getUnqualifiedType().getAsString() << unsigned(Need);
    S.note(FD->getLocation(), "drop the struct's packing (__attribute__((packed)) or "
                              "#pragma pack), or align the member (__attribute__((aligned(%0))))")
        << unsigned(Need);
    return true;
  }

  /// An integer value converts to *p's type too, and was as silent:
  /// `faa(&c, 300)` on a char added 44, `faa(&n, 1L << 40)` on an int
  /// added 0 (tester F, s45).  Clang's own warnings: a constant that the
  /// conversion changes beyond the sign (-Wconstant-conversion, on by
  /// default; `faa(&u, -1)` on an unsigned is the decrement it means), any
  /// other value as C's conversion warnings have it (-Wshorten-64-to-32,
  /// -Wsign-conversion, ...).
  void integerValue(const Expr *V, QualType To) {
    SourceLocation L = S.SM.getFileLoc(V->getBeginLoc());
    QualType From = V->getType();
    if (std::optional<llvm::APSInt> C = V->getIntegerConstantExpr(S.Ctx)) {
      unsigned W = S.Ctx.getIntWidth(To);
      llvm::APSInt Val = *C;
      // Fits when W bits hold it as a signed or as an unsigned number.
      bool Negative = Val.isSigned() && Val.isNegative();
      bool Fits = Negative ? Val.getSignificantBits() <= W : Val.getActiveBits() <= W;
      if (Fits) {
        // Only its sign may change: -Wsign-conversion's, as Clang has it.
        bool ToSigned = To->isSignedIntegerOrEnumerationType();
        if (ToSigned ? !Negative && Val.getActiveBits() == W : Negative)
          S.Diags.Report(L, diag::warn_impcast_integer_sign) << From << To;
        return;
      }
      llvm::APSInt New = Val.extOrTrunc(W);
      New.setIsUnsigned(To->isUnsignedIntegerOrEnumerationType());
      llvm::SmallString<24> OldText, NewText;
      Val.toString(OldText);
      New.toString(NewText);
      S.Diags.Report(L, diag::warn_impcast_integer_precision_constant)
          << OldText << NewText << From << To;
      return;
    }
    implicitConversion(S, L, From, To);
  }

  Session &S;
};

void checkFaa(Session &S) { S.traverseChecked(FaaChecker(S)); }

/// A statement that is only the name of the C library's sync, as in
/// `#define B sync` then `B;`, or `DO(sync)`, or `sync SEMI`: after the
/// preprocessor it reads `sync;`, but the token pass sees the barrier only
/// where the user wrote `sync` and `;` side by side, so the statement named
/// the function, did nothing, and the barrier was silently lost.
class SyncNameChecker : public RecursiveASTVisitor<SyncNameChecker> {
public:
  explicit SyncNameChecker(Session &S) : S(S) {}
  bool VisitCompoundStmt(CompoundStmt *CS) {
    for (Stmt *C : CS->body())
      check(C);
    return true;
  }
  bool VisitIfStmt(IfStmt *IS) {
    check(IS->getThen());
    check(IS->getElse());
    return true;
  }
  bool VisitWhileStmt(WhileStmt *W) { return check(W->getBody()); }
  bool VisitDoStmt(DoStmt *D) { return check(D->getBody()); }
  bool VisitForStmt(ForStmt *F) { return check(F->getBody()); }
  bool VisitSwitchCase(SwitchCase *SC) { return check(SC->getSubStmt()); }
  bool VisitLabelStmt(LabelStmt *LS) { return check(LS->getSubStmt()); }

  bool check(const Stmt *St) {
    const auto *E = dyn_cast_or_null<Expr>(St);
    if (!E)
      return true;
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    if (!Ref || !isa<FunctionDecl>(Ref->getDecl()) || !Ref->getDecl()->getIdentifier() ||
        Ref->getDecl()->getName() != "sync")
      return true;
    SourceLocation At = S.SM.getFileLoc(Ref->getLocation());
    if (!S.inMainFile(At))
      return true;
    S.error(At, "this statement names the function 'sync' and is not the barrier");
    S.note(At, "the barrier is the statement 'sync;', written out in the activity as "
               "'sync' and ';', not through a macro");
    return true;
  }
  Session &S;
};

/// The innermost activity whose braces hold B1 offset Off, or null; with
/// the offsets of its braces.
const Activity *activityAt(Session &S, unsigned Off, unsigned &B, unsigned &E) {
  const Activity *In = nullptr;
  B = 0, E = ~0u;
  for (const auto &CP : S.M.Constructs)
    for (const auto &A : CP->Acts) {
      unsigned AB = S.offset(A->Body->getLBracLoc()), AE = S.offset(A->Body->getRBracLoc());
      if (AB <= Off && Off < AE && AE - AB < E - B)
        In = A.get(), B = AB, E = AE;
    }
  return In;
}

/// A macro that a file included inside a function defines, used by an
/// activity of that function: the #include stays in the function, and the
/// activity's outlined function, emitted before it, does not see the
/// macro (the back end then failed on an undeclared name).  An #include
/// inside the activity itself moves with the activity's text and is fine.
void checkIncludedMacros(Session &S) {
  // The bodies of the functions with constructs: only an #include there
  // and a use in the same body matter.  Most recorded expansions are of
  // macros from headers included at file scope, and are passed over here
  // without a look at every activity.
  std::vector<std::pair<unsigned, unsigned>> Bodies;
  for (const auto &F : S.M.Functions)
    if (const Stmt *B = F->FD->getBody())
      Bodies.push_back({S.offset(B->getBeginLoc()), S.offset(B->getEndLoc())});
  std::set<std::pair<unsigned, const IdentifierInfo *>> Said;
  SourceLocation Start = S.SM.getLocForStartOfFile(S.SM.getMainFileID());
  for (const MacroUses::Included &U : S.Macros.FromIncludes) {
    auto Within = [&](unsigned Off, const std::pair<unsigned, unsigned> &R) {
      return R.first <= Off && Off < R.second;
    };
    if (std::none_of(Bodies.begin(), Bodies.end(),
                     [&](const auto &R) { return Within(U.Include, R) && Within(U.Use, R); }))
      continue;
    unsigned InB, InE;
    const Activity *In = activityAt(S, U.Use, InB, InE);
    if (!In || (InB <= U.Include && U.Include < InE))
      continue;
    if (!Said.insert({U.Include, U.Name}).second)
      continue;
    S.error(Start.getLocWithOffset(U.Use), "macro '%0' comes from a file included inside "
                                           "function '%1', where a parallel activity "
                                           "cannot see it")
        << U.Name->getName() << In->Owner->Func->getName();
    S.note(Start.getLocWithOffset(U.Include),
           "include the file at file scope, before the function, or inside the activity");
  }
}

/// `#pragma omp parallel for reduction(+:sum)` in an activity, sum shared
/// from outside it: the activity's outlined function reaches sum through a
/// pointer, (*parc_p_sum_), and the directive, which names variables and
/// is passed on as written, would name one the function does not have
/// (the back end failed on it).  Only directives the back end honours
/// (-fopenmp, -fopenmp-simd, -fopenacc) are checked: it ignores the others.
void checkDirectiveNames(Session &S) {
  std::set<std::pair<unsigned, const VarDecl *>> Said;
  for (const MacroUses::DirectiveName &N : S.Macros.DirectiveNames) {
    unsigned AB, AE;
    const Activity *A = activityAt(S, N.Hash, AB, AE);
    const Activity *Owner = S.M.declActivity(N.Var);
    if (!A || (Owner && within(Owner, A)) || !N.Var->isLocalVarDeclOrParm() ||
        !Said.insert({N.Hash, N.Var}).second)
      continue;
    S.error(N.At, "'#pragma %0' in a parallel activity names '%1', a variable that the "
                  "activity shares with the code around it")
        << N.Kind << N.Var->getName();
    S.note(N.Var->getLocation(),
           "an activity reaches its shared variables through pointers, which the directive "
           "cannot name: copy '%0' into a variable declared in the activity, name that, and "
           "copy it back after the directive's statement")
        << N.Var->getName();
  }
}

void checkSyncNames(Session &S) {
  S.traverseChecked(SyncNameChecker(S));
}

/// A `#pragma omp` that the back end ignores, the program being compiled
/// without -fopenmp: gcc -Wall says so (-Wunknown-pragmas), Clang does
/// not, and parcc's back end never sees the user's warnings options.  A
/// port from OpenMP that keeps `#pragma omp atomic` in a parfor's body
/// races without a word.  With PARC's way to do what the directive did.
void checkIgnoredOpenMP(Session &S) {
  for (const MacroUses::IgnoredDirective &D : S.Macros.IgnoredDirectives) {
    StringRef First = StringRef(D.Name).split(' ').first;
    const char *Hint = "";
    if (First == "atomic")
      Hint = "; for an atomic update in an activity, use faa(&x, v)";
    else if (First == "critical")
      Hint = "; for mutual exclusion between activities, use a semaphore of one unit "
             "(parc_sem_init, parc_P, parc_V)";
    else if (First == "barrier")
      Hint = "; in a parfor, 'sync' waits for all the activities of the construct";
    else if (First == "taskwait" || First == "taskgroup")
      Hint = "; a construct's activities have all ended at its 'epar'";
    else if (First == "parallel" || First == "for" || First == "sections" ||
             First == "section" || First == "single" || First == "master" ||
             First == "masked" || First == "task" || First == "taskloop" ||
             First == "teams" || First == "distribute" || First == "loop")
      Hint = "; PARC's parfor, lparfor and parblock create the activities";
    else if (First == "simd" || StringRef(D.Name).ends_with("simd"))
      Hint = "; -fopenmp-simd honours simd directives";
    S.warn(D.At, OwnWarning::IgnoredOpenMP,
           "'#pragma omp %0' is ignored: the program is compiled without -fopenmp%1")
        << D.Name << Hint;
  }
}

/// Is Text nothing but white space and comments?
bool blankOrComments(StringRef Text) {
  for (;;) {
    Text = Text.ltrim();
    if (Text.consume_front("//"))
      Text = Text.drop_until([](char C) { return C == '\n'; });
    else if (Text.consume_front("/*"))
      Text = Text.contains("*/") ? Text.split("*/").second : StringRef();
    else
      return Text.empty();
  }
}

/// An OpenMP loop directive that the back end honours (-fopenmp) written
/// right before a construct (`#pragma omp parallel for` kept over the
/// parfor that replaced the loop): the lowered construct is no `for`
/// statement, and gcc stopped on the emitted C ("for statement expected").
///
/// And a directive whose meaning is about OpenMP's team, honoured in an
/// activity: the activity is no thread of a team (an orphaned barrier
/// binds to a team of one), so `barrier` waits for no one and `single` and
/// `master` run in every activity that reaches them.
void checkOpenMPOnConstructs(Session &S) {
  for (const MacroUses::HonouredDirective &D : S.Macros.OpenMPDirectives) {
    SmallVector<StringRef, 4> Words;
    StringRef(D.Name).split(Words, ' ');
    unsigned AB, AE;
    if ((Words[0] == "barrier" || Words[0] == "single" || Words[0] == "master" ||
         Words[0] == "masked") &&
        activityAt(S, D.End, AB, AE)) {
      if (Words[0] == "barrier")
        S.warn(D.At, OwnWarning::OpenMPInActivity,
               "'#pragma omp barrier' in an activity waits for no one: activities are not "
               "the threads of an OpenMP team; 'sync' waits for the activities of a parfor "
               "or parblock");
      else
        S.warn(D.At, OwnWarning::OpenMPInActivity,
               "'#pragma omp %0' in an activity runs in every activity that reaches it: "
               "activities are not the threads of an OpenMP team")
            << D.Name;
      continue;
    }
    if (llvm::none_of(Words, [](StringRef W) {
          return W == "for" || W == "simd" || W == "taskloop" || W == "distribute" ||
                 W == "loop" || W == "tile" || W == "unroll";
        }))
      continue;
    for (const auto &CP : S.M.Constructs) {
      unsigned At = S.offset(CP->Block->getBeginLoc());
      if (At < D.End || !blankOrComments(StringRef(S.TP.Text).slice(D.End, At)))
        continue;
      S.error(D.At, "'#pragma omp %0' needs a C 'for' loop after it, not '%1': the "
                    "construct creates its activities itself; remove the directive")
          << D.Name << spellingOf(CP->Kind);
      break;
    }
  }
}

/// A local semaphore that is named only as `&s` in parc_P and parc_V calls
/// never got a value: its bytes are the stack's garbage, and the program
/// crashed, hung or reported a deadlock depending on them.  Any other use
/// (parc_sem_init, an initializer, the address going elsewhere) may give it
/// one, so only this case is certain.
class SemInitChecker : public RecursiveASTVisitor<SemInitChecker> {
public:
  explicit SemInitChecker(Session &S) : S(S) {}
  /// A semaphore, or an array of them (`parc_sem_t fork[N]`, the usual
  /// case of one that nothing initialised).
  bool isSem(const VarDecl *V) const {
    QualType T = V->getType();
    return isSemaphoreType(T) ||
           (T->isArrayType() && isSemaphoreType(S.Ctx.getBaseElementType(T)));
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !FD->getIdentifier() || CE->getNumArgs() == 0)
      return true;
    StringRef Fn = FD->getName();
    bool Wait = Fn == "parc_P" || Fn == "parc_V", Init = Fn == "parc_sem_init";
    if (Wait || Init)
      checkArg(Fn, CE->getArg(0));
    if (!(Wait && CE->getNumArgs() == 1) && !(Init && CE->getNumArgs() == 2))
      return true;
    const auto *UO = dyn_cast<UnaryOperator>(CE->getArg(0)->IgnoreParenImpCasts());
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return true;
    const Expr *Sem = UO->getSubExpr()->IgnoreParens();
    while (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sem)) // &fork[i]
      Sem = ASE->getBase()->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Sem); Ref && Init) {
      InitRefs.insert(Ref);
    } else if (Ref) {
      WaitRefs.insert(Ref);
      (Fn == "parc_P" ? PRefs : VRefs).insert(Ref);
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        if (!FirstWait.count(V))
          FirstWait[V] = CE;
    }
    return true;
  }
  /// parc_P(&lock) with `int lock` is only Clang's warning about
  /// incompatible pointers in C, and the runtime then took the int and
  /// what lies after it for a semaphore's lock word and queue: the program
  /// hung.  No C that cc compiles has a parc_P to keep compiling, so it is
  /// an error, as preturn's mismatches are (DiagPrinter drops Clang's
  /// warning about the same argument).  A void pointer is valid C.
  void checkArg(StringRef Fn, const Expr *A) {
    while (const auto *IC = dyn_cast<ImplicitCastExpr>(A)) {
      CastKind K = IC->getCastKind();
      if (K != CK_BitCast && K != CK_IntegralToPointer && K != CK_NoOp)
        break;
      A = IC->getSubExpr();
    }
    QualType T = A->getType();
    if (T->isPointerType()) {
      QualType P = T->getPointeeType();
      if (P->isVoidType() || isSemaphoreType(P))
        return;
    } else if (!T->isIntegerType() ||
               A->isNullPointerConstant(S.Ctx, Expr::NPC_ValueDependentIsNotNull)) {
      return; // not a conversion Clang lets through
    }
    S.error(A->getBeginLoc(), "'%0' needs a pointer to a semaphore ('parc_sem_t *'), not '%1'")
        << Fn << T.getAsString();
    S.note(A->getBeginLoc(), "a semaphore is a 'parc_sem_t' that 'parc_sem_init' gave its "
                             "value before its first 'parc_P' or 'parc_V'");
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && isSem(V))
        Refs[V].push_back(E);
    return true;
  }
  void report() {
    for (const auto &R : Refs) {
      const VarDecl *V = R.first;
      privateSemaphore(V, R.second);
      if (V->hasInit() || !S.inMainFile(V->getLocation()) ||
          llvm::any_of(R.second, [&](const DeclRefExpr *E) { return !WaitRefs.count(E); }))
        continue;
      SourceLocation L = FirstWait[V]->getBeginLoc();
      if (V->getType()->isArrayType()) {
        S.warn(L, OwnWarning::UninitializedSemaphore,
               "the semaphores of array '%0' are used, but never initialised with "
               "'parc_sem_init'")
            << V->getName();
        S.note(V->getLocation(), "give each a value with 'parc_sem_init(&%0[k], N)', in a loop "
                                 "over k, before their first 'parc_P' or 'parc_V'")
            << V->getName();
        continue;
      }
      S.warn(L, OwnWarning::UninitializedSemaphore,
             "semaphore '%0' is used, but never initialised with 'parc_sem_init'")
          << V->getName();
      S.note(V->getLocation(), "give it a value with 'parc_sem_init(&%0, N)' before its first "
                               "'parc_P' or 'parc_V'")
          << V->getName();
    }
  }
  /// A semaphore declared in an activity and used only there as a lock,
  /// by parc_P and parc_V (and parc_sem_init) on its address and nothing
  /// else (no nested construct, no pointer kept or passed on): each
  /// activity has its own, so it orders nothing between them.  A student's
  /// lock declared inside the parfor (tester E, s44): a lost update in
  /// every run at P >= 2, and no word from parcc.  One that is only taken
  /// (parc_P on a semaphore of value 0) blocks its activity on purpose.
  void privateSemaphore(const VarDecl *V, llvm::ArrayRef<const DeclRefExpr *> Uses) {
    auto Any = [&](const llvm::SmallPtrSetImpl<const DeclRefExpr *> &Set) {
      return llvm::any_of(Uses, [&](const DeclRefExpr *E) { return Set.count(E); });
    };
    if (!S.M.declActivity(V) || !S.inMainFile(V->getLocation()) || V->isStaticLocal() ||
        !Any(PRefs) || !Any(VRefs) ||
        llvm::any_of(Uses, [&](const DeclRefExpr *E) {
          return !WaitRefs.count(E) && !InitRefs.count(E);
        }) ||
        llvm::any_of(S.M.Uses, [&](const VarUse &U) { return U.Var == V; }))
      return;
    S.warn(V->getLocation(), OwnWarning::PrivateSemaphore,
           "%select{semaphore|semaphores of array}0 '%1' %select{is|are}0 declared in the "
           "activity, so each activity has its own: %select{it orders|they order}0 nothing "
           "between activities")
        << V->getType()->isArrayType() << V->getName();
    S.note(V->getLocation(), "declare and initialise a semaphore that activities share before "
                             "the construct, as a variable they all see");
  }
  Session &S;
  llvm::SmallPtrSet<const DeclRefExpr *, 16> WaitRefs, InitRefs, PRefs, VRefs;
  llvm::DenseMap<const VarDecl *, const CallExpr *> FirstWait;
  llvm::MapVector<const VarDecl *, std::vector<const DeclRefExpr *>> Refs;
};

void checkSemInits(Session &S) {
  S.traverseChecked(SemInitChecker(S)).report();
}

/// The one statement of St's braces (`{ break; }`), or St.
static const Stmt *onlyStatement(const Stmt *St) {
  const auto *CS = dyn_cast<CompoundStmt>(St);
  return CS && CS->size() == 1 ? CS->body_front() : St;
}

/// A loop in an activity that does nothing but test memory another
/// activity may change: `while (!flag) ;`, `while (turn != me) {}`,
/// `for (;;) if (done) break;`.  An activity is never preempted (contract,
/// section 4), so with one processor, or as many waiting as processors,
/// the activity that would change it never runs, and the program hangs
/// without a word (a course's first try at a barrier or a turn, tester E
/// s44).  Only a loop that does nothing else: a test without side effects
/// (reads, atomic loads, `faa(p, 0)`), a body of empty statements, `asm`
/// (a pause) and calls that only give the CPU away (sched_yield, usleep),
/// which at P = 1 run no activity either.  Not a wait for a `sig_atomic_t`
/// that a signal handler sets.
class BusyWaitChecker {
public:
  BusyWaitChecker(Session &S, const Activity *Act) : S(S), Act(Act) {}

  /// The lvalue the loop L waits on, or null if L is no such loop.
  const Expr *waitsOn(const Stmt *L) {
    const Expr *Cond = nullptr, *Exit = nullptr;
    const Stmt *Body = nullptr;
    if (const auto *W = dyn_cast<WhileStmt>(L))
      Cond = W->getCond(), Body = W->getBody();
    else if (const auto *D = dyn_cast<DoStmt>(L))
      Cond = D->getCond(), Body = D->getBody();
    else if (const auto *F = dyn_cast<ForStmt>(L); F && !F->getInc())
      Cond = F->getCond(), Body = F->getBody();
    Counters.clear();
    if (!Body || !idle(Body, Exit))
      return nullptr;
    bool Forever = !Cond;
    if (Cond && !Cond->isValueDependent())
      if (std::optional<llvm::APSInt> V = Cond->getIntegerConstantExpr(S.Ctx)) {
        if (V->isZero())
          return nullptr; // `do { } while (0)`
        Forever = true;
      }
    // The test that ends the loop: its condition, or the one `if (C)
    // break;` of a loop that runs for ever; both where it has both
    // (`while (!flag) { if (flag) break; }`).
    const Expr *Test = Forever ? Exit : Cond;
    Watch = nullptr;
    Signal = false;
    if (!Test || !pure(Test) || (Exit && !pure(Exit)) || Signal || readsCounter(Test) ||
        readsCounter(Exit))
      return nullptr;
    return Watch;
  }

  /// The lvalue that `L: if (C) goto L;` waits on (a loop written with a
  /// goto: tester H, s45), or null.
  const Expr *waitsOn(const GotoStmt *G) {
    const LabelStmt *LS = G->getLabel()->getStmt();
    const auto *If = LS ? dyn_cast<IfStmt>(LS->getSubStmt()) : nullptr;
    if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
      return nullptr;
    const Stmt *Then = onlyStatement(If->getThen());
    Watch = nullptr;
    Signal = false;
    if (Then != G || !pure(If->getCond()) || Signal)
      return nullptr;
    return Watch;
  }

  /// The variable or lvalue named in the warning.
  std::string name(const Expr *E) const {
    if (const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return R->getDecl()->getName().str();
    StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()),
                                          S.SM, S.Ctx.getLangOpts());
    return Text.empty() || Text.size() > 40 ? "memory" : Text.str();
  }

private:
  /// A body that does nothing: empty statements, asm, calls that give the
  /// CPU away; and at most one `if (C) break;`, whose C is then Exit.
  bool idle(const Stmt *St, const Expr *&Exit) {
    if (isa<NullStmt>(St) || isa<AsmStmt>(St) || isa<ContinueStmt>(St))
      return true;
    // A declaration whose initializers do nothing else (`struct timespec
    // ts = {0, 1000};` for the nanosleep after it).
    if (const auto *DS = dyn_cast<DeclStmt>(St))
      return llvm::all_of(DS->decls(), [&](const Decl *D) {
        const auto *V = dyn_cast<VarDecl>(D);
        return V && !isVariablyModified(V->getType()) &&
               (!V->getInit() || !V->getInit()->HasSideEffects(S.Ctx));
      });
    if (const auto *CS = dyn_cast<CompoundStmt>(St))
      return llvm::all_of(CS->body(), [&](const Stmt *C) { return idle(C, Exit); });
    if (const auto *CE = dyn_cast<CallExpr>(St)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      if (!FD || !FD->getIdentifier())
        return false;
      StringRef N = FD->getName();
      return N == "sched_yield" || N == "pthread_yield" || N == "thrd_yield" ||
             N == "usleep" || N == "nanosleep" || N == "sleep" || N == "thrd_sleep" ||
             N == "__builtin_ia32_pause" || N == "_mm_pause";
    }
    if (const auto *E = dyn_cast<Expr>(St)) // `(void)0;`, `spins++;`
      return !E->HasSideEffects(S.Ctx) || counts(E);
    if (const auto *If = dyn_cast<IfStmt>(St)) {
      const Stmt *Then = onlyStatement(If->getThen());
      if (Exit || If->getElse() || If->getInit() || If->getConditionVariable() ||
          !isa<BreakStmt>(Then))
        return false;
      Exit = If->getCond();
      return true;
    }
    return false;
  }

  /// `spins++;`, `n += 2;`: a count of the activity's own (tester H, s45:
  /// a body that counted its spins went unwarned).  The test may not read
  /// it (`while (!flag && spins < 1000)` ends by itself).
  bool counts(const Expr *E) {
    E = E->IgnoreParens();
    const Expr *Target = nullptr;
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->isIncrementDecrementOp())
      Target = UO->getSubExpr();
    else if (const auto *CA = dyn_cast<CompoundAssignOperator>(E);
             CA && (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign) &&
             CA->getRHS()->isIntegerConstantExpr(S.Ctx))
      Target = CA->getLHS();
    const auto *R = Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParens()) : nullptr;
    const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage() || V->getType().isVolatileQualified() || shared(V))
      return false;
    Counters.insert(V);
    return true;
  }

  /// Does E read one of the loop's counters?
  bool readsCounter(const Expr *E) const {
    return E && llvm::any_of(Counters, [&](const VarDecl *V) {
             RefFinder F(V);
             F.TraverseStmt(const_cast<Expr *>(E));
             return F.Found != nullptr;
           });
  }

  /// May another activity write V while this one runs?  A variable
  /// declared outside the activity (shared by reference) or of static
  /// storage, unless it is const.  Thread-local storage is each worker's.
  bool shared(const VarDecl *V) {
    if (V->getType().isConstQualified() && !V->getType().isVolatileQualified())
      return false;
    if (V->getTLSKind() != VarDecl::TLS_None)
      return false;
    if (V->hasGlobalStorage())
      return true;
    if (!Act || InCallee) // a function that activities call: its locals are its own
      return false;
    const Activity *DA = S.M.declActivity(V);
    return !(DA && within(DA, Act));
  }

  static bool sigAtomic(QualType T) {
    while (const auto *TT = T->getAs<TypedefType>()) {
      if (TT->getDecl()->getName() == "sig_atomic_t")
        return true;
      T = TT->desugar();
    }
    return false;
  }

  void watch(const Expr *E) {
    if (sigAtomic(E->getType()))
      Signal = true;
    if (!Watch)
      Watch = E;
  }

  /// Is E free of side effects (all it does is read)?  Records the first
  /// read of memory another activity may write.
  bool pure(const Stmt *St) {
    if (!St)
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(St); BO && BO->isAssignmentOp())
      return false;
    if (const auto *UO = dyn_cast<UnaryOperator>(St); UO && UO->isIncrementDecrementOp())
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(St)) {
      // `__sync_fetch_and_add(&x, 0)`: a read of x, as faa(&x, 0) is.
      const FunctionDecl *FD = CE->getDirectCallee();
      if (FD && FD->getBuiltinID() && FD->getIdentifier() && CE->getNumArgs() == 2) {
        StringRef N = FD->getName();
        std::optional<llvm::APSInt> V = CE->getArg(1)->getIntegerConstantExpr(S.Ctx);
        if (V && V->isZero() &&
            (N.starts_with("__sync_fetch_and_add") || N.starts_with("__sync_add_and_fetch") ||
             N.starts_with("__sync_fetch_and_sub") || N.starts_with("__sync_sub_and_fetch") ||
             N.starts_with("__sync_fetch_and_or") || N.starts_with("__sync_or_and_fetch"))) {
          return pureTarget(CE->getArg(0));
        }
      }
      return pureCall(CE);
    }
    if (isa<StmtExpr>(St) || isa<BlockExpr>(St))
      return false;
    if (isa<UnaryExprOrTypeTraitExpr>(St))
      return true; // sizeof reads nothing
    if (const auto *AE = dyn_cast<AtomicExpr>(St)) {
      AtomicExpr::AtomicOp Op = AE->getOp();
      bool Load = Op == AtomicExpr::AO__atomic_load_n || Op == AtomicExpr::AO__c11_atomic_load;
      if (Op == AtomicExpr::AO__atomic_fetch_add) { // faa(p, 0)
        std::optional<llvm::APSInt> V = AE->getVal1()->getIntegerConstantExpr(S.Ctx);
        Load = V && V->isZero();
      }
      if (!Load)
        return false;
      return pureTarget(AE->getPtr());
    }
    if (const auto *R = dyn_cast<DeclRefExpr>(St)) {
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()); V && shared(V))
        watch(R);
      return true;
    }
    // What the loop waits on is the object read, named as the test names
    // it: `flag[j]` of a shared array, `*p`, `p[j]` or `p->ready` of any
    // pointer (memory through a pointer may be any activity's), `s.ready`
    // of a shared struct.
    if (const auto *UO = dyn_cast<UnaryOperator>(St); UO && UO->getOpcode() == UO_Deref)
      return object(UO, UO->getSubExpr(), true);
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(St)) {
      const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
      return object(ASE, Base, Base->getType()->isPointerType()) && pure(ASE->getIdx());
    }
    if (const auto *ME = dyn_cast<MemberExpr>(St))
      return object(ME, ME->getBase(), ME->isArrow());
    for (const Stmt *C : St->children())
      if (!pure(C))
        return false;
    return true;
  }

  /// The atomic read of what Ptr points to (`&x` reads x).
  bool pureTarget(const Expr *Ptr) {
    const Expr *P = Ptr->IgnoreParenImpCasts();
    const auto *UO = dyn_cast<UnaryOperator>(P);
    return pure(UO && UO->getOpcode() == UO_AddrOf ? UO->getSubExpr() : P);
  }

  /// A call of a function of the file that only returns what a test
  /// without side effects computes (`static int ready(void) { return
  /// flag; }`, in `while (!ready()) ;`), with arguments that have none
  /// either; not one that calls another.
  bool pureCall(const CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    const auto *Body = Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
    if (InCallee || !Body || Body->size() != 1 || !S.inMainFile(Def->getLocation()))
      return false;
    const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
    if (!Ret || !Ret->getRetValue())
      return false;
    for (const Expr *A : CE->arguments())
      if (!pure(A))
        return false;
    InCallee = true;
    bool R = pure(Ret->getRetValue());
    InCallee = false;
    return R;
  }

  /// The object E read through Base: watched if Base is a pointer
  /// (Through) or shared itself, under E's name.
  bool object(const Expr *E, const Expr *Base, bool Through) {
    const Expr *Was = Watch;
    if (!pure(Base))
      return false;
    if (Through || Watch != Was) {
      Watch = Was;
      watch(E);
    }
    return true;
  }

  Session &S;
  const Activity *Act;
  const Expr *Watch = nullptr;
  bool Signal = false;
  bool InCallee = false; // in pureCall's function
  llvm::SmallPtrSet<const VarDecl *, 4> Counters; // counted in the body
};

/// Finds the direct calls of functions defined in the file.
class CallFinder : public RecursiveASTVisitor<CallFinder> {
public:
  explicit CallFinder(Session &S) : S(S) {}
  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (const FunctionDecl *Def = FD->getDefinition(); Def && Def->hasBody() &&
                                                         S.inMainFile(Def->getLocation()))
        Calls.push_back({Def, CE});
    return true;
  }
  Session &S;
  std::vector<std::pair<const FunctionDecl *, const CallExpr *>> Calls;
};

/// The functions of the file that activities call, directly or through
/// other functions of the file, each with a call in an activity that leads
/// to it.
static llvm::DenseMap<const FunctionDecl *, const CallExpr *> calledByActivities(Session &S) {
  llvm::DenseMap<const FunctionDecl *, const CallExpr *> Called;
  std::vector<std::pair<const FunctionDecl *, const CallExpr *>> Work;
  for (const auto &CP : S.M.Constructs) {
    if (CP->Parent)
      continue; // inside an outer activity's body, which is searched
    for (const auto &A : CP->Acts) {
      CallFinder F(S);
      F.TraverseStmt(const_cast<CompoundStmt *>(A->Body));
      Work.insert(Work.end(), F.Calls.begin(), F.Calls.end());
    }
  }
  while (!Work.empty()) {
    auto [FD, Via] = Work.back();
    Work.pop_back();
    if (!Called.insert({FD->getCanonicalDecl(), Via}).second)
      continue;
    CallFinder F(S);
    F.TraverseStmt(FD->getBody());
    for (const auto &C : F.Calls)
      Work.push_back({C.first, Via});
  }
  return Called;
}

/// The innermost activity whose body holds St, or null.
static const Activity *activityOf(Session &S, const Stmt *St) {
  const Activity *In = nullptr;
  SourceLocation L = St->getBeginLoc();
  for (const auto &CP : S.M.Constructs)
    for (const auto &A : CP->Acts) {
      SourceRange R = A->Body->getSourceRange();
      if (encloses(S.SM, R, L) &&
          (!In || S.SM.isBeforeInTranslationUnit(In->Body->getBeginLoc(), R.getBegin())))
        In = A.get();
    }
  return In;
}

/// A write to a parfor's or lparfor's index in its body (`i++`, `i += 2`,
/// `i = next[i]`, `for (i = 0; ...)`) changes one activity's copy of it:
/// the iterations were fixed when the construct started, so none is
/// skipped or repeated, as the same write in a C `for` would do.  A loop
/// turned into a parfor with its `i++` that skips an element kept is the
/// mistake.  Writes through a pointer (`&i` given to scanf) are not seen.
void checkIndexWrites(Session &S) {
  struct Writes : RecursiveASTVisitor<Writes> {
    const VarDecl *Index;
    std::vector<SourceLocation> Found; // the operators
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (writtenVar(B) == Index)
        Found.push_back(B->getOperatorLoc());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (writtenVar(U) == Index)
        Found.push_back(U->getOperatorLoc());
      return true;
    }
  };
  for (const auto &CP : S.M.Constructs) {
    const Construct &C = *CP;
    if (!C.Index || C.Acts.empty() || !C.Acts[0]->Body)
      continue;
    Writes W;
    W.Index = C.Index;
    W.TraverseStmt(const_cast<CompoundStmt *>(C.Acts[0]->Body));
    bool Noted = false;
    for (SourceLocation Op : W.Found) {
      SourceLocation At = S.SM.getExpansionLoc(Op);
      if (!S.inMainFile(At))
        continue;
      S.warn(At, OwnWarning::IndexWrite,
             "writing '%0', the index of '%1', changes one activity's copy only: no iteration "
             "is skipped or repeated as in a 'for' loop")
          << C.Index->getName() << spellingOf(C.Kind);
      if (!std::exchange(Noted, true))
        S.note(C.Index->getLocation(), "the iterations of '%0' are fixed when it starts; use "
                                       "another variable for a value the body computes")
            << spellingOf(C.Kind);
    }
  }
}

void checkBusyWaits(Session &S) {
  // A spin in a function that activities call (`void wait_turn(int me) {
  // while (turn != me) ; }`, the way a course often writes it: tester H,
  // s45) waits as one written in the activity does.
  llvm::DenseMap<const FunctionDecl *, const CallExpr *> Called;
  if (!S.M.Constructs.empty())
    Called = calledByActivities(S);
  for (const auto &F : S.M.Functions) {
    auto Report = [&](SourceLocation At, const std::string &Name, const CallExpr *Via) {
      S.warn(At, OwnWarning::BusyWait,
             "loop busy-waits for another activity to change '%0': an activity is never "
             "preempted, so with one processor the one that would change it never runs")
          << Name;
      S.note(At, "wait on a semaphore instead ('parc_P' here, 'parc_V' where '%0' is set), "
                 "or with 'sync' in a parfor: a blocked activity lets its processor run the "
                 "others")
          << Name;
      if (Via)
        S.note(S.SM.getExpansionLoc(Via->getBeginLoc()),
               "'%0' runs in an activity through this call")
            << F->FD->getName();
    };
    // A wait that starts at Begin, in activity Act, or in F when an
    // activity calls it (then Via is that call).
    auto Check = [&](const Activity *Act, SourceLocation Begin, auto WaitsOn) {
      const CallExpr *Via = nullptr;
      if (!Act) {
        auto C = Called.find(F->FD->getCanonicalDecl());
        if (C == Called.end())
          return;
        Via = C->second;
      }
      SourceLocation At = S.SM.getExpansionLoc(Begin);
      if (!S.inMainFile(At))
        return;
      BusyWaitChecker C(S, Act);
      if (const Expr *E = WaitsOn(C))
        Report(At, C.name(E), Via);
    };
    for (const Stmt *L : F->Loops) {
      auto It = S.M.LoopAct.find(L);
      Check(It == S.M.LoopAct.end() ? nullptr : It->second, L->getBeginLoc(),
            [&](BusyWaitChecker &C) { return C.waitsOn(L); });
    }
    for (const GotoStmt *G : F->Gotos)
      if (const LabelStmt *LS = G->getLabel()->getStmt())
        Check(activityOf(S, G), LS->getBeginLoc(),
              [&](BusyWaitChecker &C) { return C.waitsOn(G); });
  }
}

/// The static (or _Thread_local) variable declared in an activity whose
/// initializer evaluates E, or null.  sizeof, _Alignof and a _Generic's
/// controlling expression do not evaluate their operand.
static const VarDecl *staticInitOf(Session &S, const Expr *E) {
  DynTypedNode N = DynTypedNode::create(*E);
  for (;;) {
    auto Parents = S.Ctx.getParents(N);
    if (Parents.empty())
      return nullptr;
    const DynTypedNode &P = Parents[0];
    if (P.get<UnaryExprOrTypeTraitExpr>())
      return nullptr;
    if (const auto *G = P.get<GenericSelectionExpr>())
      if (G->isExprPredicate() && N.get<Expr>() == G->getControllingExpr())
        return nullptr;
    if (const auto *VD = P.get<VarDecl>())
      return VD->isLocalVarDecl() && VD->hasGlobalStorage() ? VD : nullptr;
    if (!P.get<Expr>() && !P.get<InitListExpr>())
      return nullptr;
    N = P;
  }
}

/// A static variable's initializer is a constant: the address of a static
/// or extern local of the enclosing function is one in C, but an activity
/// reaches that variable through its environment, at run time.
void checkStaticInits(Session &S) {
  for (const VarUse &U : S.M.Uses) {
    if (!U.Var->hasGlobalStorage())
      continue; // an automatic variable is no constant in C either
    const VarDecl *Owner = staticInitOf(S, U.Ref);
    if (!Owner)
      continue;
    S.error(U.Ref->getLocation(), "'%0' cannot be used in the initializer of static variable "
                                  "'%1' inside a parallel activity")
        << U.Var->getName() << Owner->getName();
    S.note(U.Var->getLocation(), "the activity reaches '%0' through its environment when it "
                                 "runs, so its address is no constant there; declare '%0' "
                                 "at file scope, or make '%1' automatic")
        << U.Var->getName() << Owner->getName();
  }
}

/// C forbids an inline definition (an `inline` function with external
/// linkage and no `extern` declaration in the file) to refer to anything of
/// internal linkage (C11 6.7.4p3), and a construct is lowered to calls of
/// static functions and a static site: gcc warns on the lowered C, and the
/// program is not C.
void checkInlineDefinitions(Session &S) {
  llvm::DenseSet<const FunctionDecl *> Told;
  for (const auto &CP : S.M.Constructs) {
    const FunctionDecl *FD = CP->Func;
    if (!FD || !FD->isInlineSpecified() || FD->getStorageClass() == SC_Static ||
        FD->isInlineDefinitionExternallyVisible() || !Told.insert(FD).second)
      continue;
    S.error(CP->Block->getLBracLoc(), "'%0' cannot be used in '%1', an inline definition "
                                      "with external linkage")
        << spellingOf(CP->Kind) << FD->getName();
    // GNU89 inline (-std=gnu89, -fgnu89-inline): `extern inline` is the
    // definition that never gets out of line, and plain `inline` one that
    // does; a declaration without inline changes nothing.
    if (S.Ctx.getLangOpts().GNUInline || FD->hasAttr<GNUInlineAttr>())
      S.note(FD->getLocation(), "C forbids such a function to refer to the static functions "
                                "that parcc lowers the construct to; declare '%0' 'static "
                                "inline', or (GNU89 inline semantics) drop 'extern' to make "
                                "this its external definition")
          << FD->getName();
    else
      S.note(FD->getLocation(), "C forbids such a function to refer to the static functions "
                                "that parcc lowers the construct to; declare '%0' 'static "
                                "inline', or declare it 'extern' in this file to make this its "
                                "external definition")
          << FD->getName();
  }
}

/// A construct, parc_P or parc_V in a function the file installs as a
/// signal handler: a handler may run in the middle of an activity or of the
/// runtime's own work on the same thread, which a construct cannot start
/// from, and where the semaphore's lock or the runtime's lists may be held
/// by the code it interrupted (the runtime is not async-signal-safe, as
/// malloc is not; a timer's parc_V hung every run at P = 2, tester).  A
/// warning, not an error: a handler that only raise() runs, synchronously,
/// is well defined.
void checkSignalHandlers(Session &S) {
  if (S.M.Constructs.empty() && S.M.SemCalls.empty())
    return;
  llvm::DenseMap<const FunctionDecl *, SourceLocation> Handlers = signalHandlers(S.Ctx);
  llvm::SmallPtrSet<const FunctionDecl *, 4> Warned; // once per handler: its first call
  for (const auto &[Call, Func] : S.M.SemCalls) {
    auto It = Handlers.find(Func->getCanonicalDecl());
    if (It == Handlers.end() || !Warned.insert(It->first).second)
      continue;
    S.warn(Call->getBeginLoc(), OwnWarning::SignalHandler,
           "'%0' in signal handler '%1': semaphores are not async-signal-safe; a signal "
           "that arrives while its thread is in the runtime may hang the program")
        << Call->getDirectCallee()->getName() << Func->getName();
    S.note(It->second, "installed here; block the signal and wait for it with 'sigwait' in "
                       "an activity or a thread of the program's own, which may call "
                       "'parc_V'");
  }
  for (const auto &CP : S.M.Constructs) {
    const Construct &C = *CP;
    if (C.Parent)
      continue;
    auto It = Handlers.find(C.Func->getCanonicalDecl());
    if (It == Handlers.end())
      continue;
    S.warn(C.Block->getBeginLoc(), OwnWarning::SignalHandler,
           "'%0' in signal handler '%1': a signal that arrives during a construct or an "
           "activity runs it where no construct can start (the program may crash or hang)")
        << spellingOf(C.Kind) << C.Func->getName();
    S.note(It->second, "installed here; a handler may set a 'volatile sig_atomic_t' flag "
                       "that the program tests, and run the construct there");
  }
}

} // namespace

/// The names that parc_abi.h declares or defines.  The emitted C includes
/// it at the top of every file, so a user's declaration of one of them
/// (even plain C that never uses PARC) would clash there, inside generated
/// code; it is reported at the user's declaration instead.  The list is read
/// from runtime/include/parc_abi.h at build time (tool/parcc-abi-names.cpp),
/// sorted; docs/reference.md ("Reserved names") lists the same names
/// (test/diag/abi_names_all.test checks both).
const char *const AbiNames[] = {
#include "parcc/AbiNames.inc"
};

/// Those of them that parc_abi.h #defines: a struct member or a label of
/// that name is replaced too (`int PARC_BLOCK;` became `int 4096;` in the
/// back end).
const char *const AbiMacros[] = {
#include "parcc/AbiMacros.inc"
};

template <size_t N> static bool listed(const char *const (&List)[N], StringRef Name) {
  return std::binary_search(std::begin(List), std::end(List), Name,
                            [](StringRef A, StringRef B) { return A < B; });
}

bool isAbiName(StringRef N) { return listed(AbiNames, N); }
bool isAbiMacro(StringRef N) { return listed(AbiMacros, N); }

bool runChecks(Session &S) {
  unsigned Before = S.Diags.getClient()->getNumErrors();
  checkAbiNames(S);
  checkConstructs(S);
  checkPreturnValues(S);
  for (const auto &CP : S.M.Constructs)
    checkPastEnd(S, *CP);
  checkMarks(S);
  checkJumps(S);
  checkVaStarts(S);
  checkSyncCalls(S);
  checkStaticInits(S);
  checkInlineDefinitions(S);
  checkPrototypes(S);
  checkFaa(S);
  checkSyncNames(S);
  checkIncludedMacros(S);
  checkDirectiveNames(S);
  checkIgnoredOpenMP(S);
  checkOpenMPOnConstructs(S);
  checkSemInits(S);
  checkBusyWaits(S);
  checkIndexWrites(S);
  checkSignalHandlers(S);
  return S.Diags.getClient()->getNumErrors() == Before && !S.hasErrors();
}

} // namespace parcc
