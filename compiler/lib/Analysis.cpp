//===- Analysis.cpp - find the constructs and what they use ---------------===//
//
// One RecursiveASTVisitor pass over each function of the main file.  The
// visitor keeps the stack of activities it is in (a construct's header, the
// bounds of a parfor, belongs to the parent; its activity bodies do not) and
// the stack of break/continue targets with a boundary entry per activity, and
// records facts into the Model.  Rules are judged later, in Checks.cpp.
//
//===----------------------------------------------------------------------===//
#include "parcc/Analysis.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace parcc {

const char *keywordOf(ConstructKind K) {
  switch (K) {
  case ConstructKind::Parblock:
    return "parblock";
  case ConstructKind::Parfor:
    return "parfor";
  case ConstructKind::Lparfor:
  case ConstructKind::MappedLparfor:
    return "lparfor";
  }
  return "";
}

const char *spellingOf(ConstructKind K) {
  return K == ConstructKind::MappedLparfor ? "mapped lparfor" : keywordOf(K);
}

const char *abiKindOf(ConstructKind K) {
  switch (K) {
  case ConstructKind::Parblock:
    return "PARC_KIND_PARBLOCK";
  case ConstructKind::Parfor:
    return "PARC_KIND_PARFOR";
  case ConstructKind::Lparfor:
    return "PARC_KIND_LPARFOR";
  case ConstructKind::MappedLparfor:
    return "PARC_KIND_MAPPED_LPARFOR";
  }
  return "";
}

bool isFileScopeFunction(const FunctionDecl *FD, StringRef Name) {
  return FD && FD->getIdentifier() && FD->getName() == Name &&
         FD->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

bool isAlloca(const FunctionDecl *FD) {
  switch (FD ? FD->getBuiltinID() : 0) {
  case Builtin::BIalloca:
  case Builtin::BI_alloca:
  case Builtin::BI__builtin_alloca:
  case Builtin::BI__builtin_alloca_uninitialized:
  case Builtin::BI__builtin_alloca_with_align:
  case Builtin::BI__builtin_alloca_with_align_uninitialized:
    return true;
  default:
    return false;
  }
}

namespace {
/// An alloca of the activity itself: the activities of a construct nested
/// in it are outlined into functions of their own, so their loops on
/// parc_mark_act() are not entered (and every activity is searched once
/// however deep the nesting, not once per construct around it).
class AllocaFinder : public RecursiveASTVisitor<AllocaFinder> {
public:
  bool TraverseDoStmt(DoStmt *S) {
    return markerOf(S->getCond()) == Marker::Act || RecursiveASTVisitor::TraverseDoStmt(S);
  }
  bool TraverseWhileStmt(WhileStmt *S) {
    return markerOf(S->getCond()) == Marker::Act || RecursiveASTVisitor::TraverseWhileStmt(S);
  }
  bool VisitCallExpr(CallExpr *CE) {
    Found = isAlloca(CE->getDirectCallee());
    return !Found;
  }
  bool Found = false;
};
} // namespace

bool callsAlloca(const Stmt *St) {
  AllocaFinder F;
  F.TraverseStmt(const_cast<Stmt *>(St));
  return F.Found;
}

Marker markerOf(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return Marker::None;
  const auto *CE = dyn_cast<CallExpr>(E->IgnoreImplicit());
  if (!CE)
    return Marker::None;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return Marker::None;
  StringRef N = FD->getName();
  if (!N.starts_with("parc_mark_"))
    return Marker::None;
  return llvm::StringSwitch<Marker>(N.drop_front(10))
      .Case("parblock", Marker::Parblock)
      .Case("parfor", Marker::Parfor)
      .Case("lparfor", Marker::Lparfor)
      .Case("bounds", Marker::Bounds)
      .Case("act", Marker::Act)
      .Case("end", Marker::End)
      .Case("pbreak", Marker::Pbreak)
      .Case("sync", Marker::Sync)
      .Case("sections", Marker::Sections)
      .Default(Marker::None);
}

namespace {
/// The locals whose address a function takes.
class AddressTaken : public RecursiveASTVisitor<AddressTaken> {
public:
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_AddrOf)
      if (const auto *R = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens()))
        Vars.insert(R->getDecl());
    return true;
  }
  llvm::DenseSet<const ValueDecl *> Vars;
};

class Collector : public RecursiveASTVisitor<Collector> {
  using Base = RecursiveASTVisitor<Collector>;

public:
  explicit Collector(Session &S) : S(S), M(S.M) {}

  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseFunctionDecl(FunctionDecl *FD);
  bool TraverseCompoundStmt(CompoundStmt *CS);
  bool TraverseForStmt(ForStmt *St) { return loop(St, [&] { return Base::TraverseForStmt(St); }); }
  bool TraverseWhileStmt(WhileStmt *St) {
    return loop(St, [&] { return Base::TraverseWhileStmt(St); });
  }
  bool TraverseDoStmt(DoStmt *St) { return loop(St, [&] { return Base::TraverseDoStmt(St); }); }
  bool TraverseSwitchStmt(SwitchStmt *St) {
    Targets.push_back({St, Target::Switch});
    bool R = Base::TraverseSwitchStmt(St);
    Targets.pop_back();
    return R;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (!Acts.empty())
      M.DeclAct[VD] = Acts.back();
    return true;
  }
  bool VisitTagDecl(TagDecl *TD) {
    if (!Acts.empty())
      M.DeclAct[TD] = Acts.back();
    return true;
  }
  bool VisitTypedefNameDecl(TypedefNameDecl *TD) {
    if (!Acts.empty())
      M.DeclAct[TD] = Acts.back();
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
    noteLocalType(TL.getTypedefNameDecl());
    return true;
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) {
    // A tag defined in a type that is not a declaration of its own
    // (`(struct { int a; }){1}`, `sizeof(struct s { ... })`) belongs to the
    // activity where it is written, like one a DeclStmt declares there.
    if (TL.isDefinition() && !Acts.empty())
      M.DeclAct.try_emplace(TL.getDecl(), Acts.back());
    noteLocalType(TL.getDecl());
    return true;
  }
  bool VisitLabelStmt(LabelStmt *LS) {
    M.LabelAct[LS->getDecl()] = Acts.empty() ? nullptr : Acts.back();
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE);
  bool VisitPredefinedExpr(PredefinedExpr *E) {
    if (cur()) {
      M.FuncNames.push_back({E, CurFn->FD});
      if (E->getLocation().isMacroID())
        M.MacroFuncNames[cur()] = CurFn->FD;
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *CE);
  bool VisitReturnStmt(ReturnStmt *RS);
  bool VisitBreakStmt(BreakStmt *BS);
  bool VisitContinueStmt(ContinueStmt *CS);
  bool VisitSwitchCase(SwitchCase *SC);
  bool VisitGotoStmt(GotoStmt *GS) {
    M.Jumps.push_back({JumpUse::Goto, GS, cur(), GS->getLabel()});
    if (CurFn)
      CurFn->Gotos.push_back(GS);
    return true;
  }
  bool VisitAddrLabelExpr(AddrLabelExpr *E) {
    M.Jumps.push_back({JumpUse::AddrLabel, E, cur(), E->getLabel()});
    return true;
  }
  /// `asm goto` jumps to its labels as goto does: the same rules apply.
  bool VisitGCCAsmStmt(GCCAsmStmt *AS) {
    for (unsigned I = 0, N = AS->getNumLabels(); I < N; ++I)
      M.Jumps.push_back({JumpUse::Goto, AS->getLabelExpr(I), cur(), AS->getLabelExpr(I)->getLabel()});
    return true;
  }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *GS) {
    if (cur())
      M.Jumps.push_back({JumpUse::IndirectGoto, GS, cur()});
    if (CurFn)
      CurFn->IndirectGotos.push_back(GS);
    return true;
  }

  bool Ok = true;

private:
  struct Target {
    const Stmt *S;
    enum { Loop, Switch, Boundary } K;
  };

  Activity *cur() const { return Acts.empty() ? nullptr : Acts.back(); }

  template <typename F> bool loop(Stmt *St, F Traverse) {
    Targets.push_back({St, Target::Loop});
    bool R = Traverse();
    Targets.pop_back();
    if (CurFn) {
      CurFn->Loops.push_back(St);
      M.LoopAct[St] = cur();
    }
    return R;
  }

  void noteLocalType(const Decl *D) {
    if (!CurFn || Acts.empty() || !D || !D->getParentFunctionOrMethod())
      return;
    if (M.declActivity(D) == Acts.back())
      return;
    CurFn->Hoist.insert(D);
  }

  bool handleConstruct(CompoundStmt *CS, Marker K);
  bool isConstant(const VarDecl *V);
  /// The current function's locals whose address it takes (isConstant).
  std::optional<llvm::DenseSet<const ValueDecl *>> AddrTaken;
  void shapeError(const Stmt *At, const char *Kw) {
    S.error(At->getBeginLoc(), "malformed '%0' construct") << Kw;
    Ok = false;
  }

  Session &S;
  Model &M;
  FunctionModel *CurFn = nullptr;
  std::vector<Activity *> Acts;
  std::vector<Target> Targets;
};

bool Collector::TraverseFunctionDecl(FunctionDecl *FD) {
  if (!FD->doesThisDeclarationHaveABody())
    return true;
  auto FM = std::make_unique<FunctionModel>();
  FM->FD = FD;
  FunctionModel *SavedFn = CurFn;
  std::vector<Activity *> SavedActs;
  std::vector<Target> SavedTargets;
  SavedActs.swap(Acts);
  SavedTargets.swap(Targets);
  CurFn = FM.get();
  std::optional<llvm::DenseSet<const ValueDecl *>> SavedAddrTaken;
  SavedAddrTaken.swap(AddrTaken);
  bool R = Base::TraverseFunctionDecl(FD);
  AddrTaken.swap(SavedAddrTaken);
  CurFn = SavedFn;
  Acts.swap(SavedActs);
  Targets.swap(SavedTargets);
  M.Functions.push_back(std::move(FM));
  return R;
}

bool Collector::TraverseCompoundStmt(CompoundStmt *CS) {
  if (CS->size() > 0 && CurFn) {
    // parblock: { parc_mark_parblock(); ... }
    // parfor:   { int i; parc_mark_parfor(); ... } (the index comes first)
    if (markerOf(CS->body_front()) == Marker::Parblock)
      return handleConstruct(CS, Marker::Parblock);
    if (CS->size() > 1) {
      Marker K = markerOf(CS->body_begin()[1]);
      if (K == Marker::Parfor || K == Marker::Lparfor)
        return handleConstruct(CS, K);
    }
  }
  return Base::TraverseCompoundStmt(CS);
}

bool Collector::handleConstruct(CompoundStmt *CS, Marker K) {
  auto C = std::make_unique<Construct>();
  C->Block = CS;
  C->Func = CurFn->FD;
  C->Parent = cur();
  C->Depth = Acts.size() + 1;
  if (K == Marker::Parblock) {
    C->Kind = ConstructKind::Parblock;
  } else if (K == Marker::Parfor) {
    C->Kind = ConstructKind::Parfor;
  } else {
    C->Kind = ConstructKind::Lparfor;
    const auto *Call = cast<CallExpr>(cast<Expr>(CS->body_begin()[1])->IgnoreImplicit());
    Expr::EvalResult R;
    if (Call->getNumArgs() == 1 && Call->getArg(0)->EvaluateAsInt(R, S.Ctx) &&
        R.Val.getInt() != 0)
      C->Kind = ConstructKind::MappedLparfor;
  }
  const char *Kw = spellingOf(C->Kind);

  if (CS->getLBracLoc().isMacroID() || CS->getRBracLoc().isMacroID()) {
    M.InMacro.push_back(CS);
    return true;
  }
  S.userPosition(S.offset(CS->getLBracLoc()), C->Line, C->Col);

  std::vector<Stmt *> Body(CS->body_begin(), CS->body_end());
  std::vector<std::pair<Stmt *, CompoundStmt *>> Wrappers; // a loop, its body
  if (C->Kind == ConstructKind::Parblock) {
    if (Body.size() < 3 || markerOf(Body.back()) != Marker::End) {
      shapeError(CS, Kw);
      return true;
    }
    for (size_t I = 1; I + 1 < Body.size(); ++I) {
      auto *Do = dyn_cast<DoStmt>(Body[I]);
      if (!Do || markerOf(Do->getCond()) != Marker::Act || !isa<CompoundStmt>(Do->getBody())) {
        shapeError(Body[I], Kw);
        return true;
      }
      Wrappers.push_back({Do, cast<CompoundStmt>(Do->getBody())});
    }
  } else {
    if (Body.size() != 7 || markerOf(Body[2]) != Marker::Bounds ||
        markerOf(Body[3]) != Marker::Bounds || markerOf(Body[4]) != Marker::Bounds ||
        markerOf(Body[6]) != Marker::End || !isa<WhileStmt>(Body[5])) {
      shapeError(CS, Kw);
      return true;
    }
    auto *DS = dyn_cast<DeclStmt>(Body[0]);
    VarDecl *Index = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (!Index) {
      S.error(Body[0]->getBeginLoc(), "expected the declaration of the index in '%0' header")
          << Kw;
      S.note(CS->getLBracLoc(), "the header of '%0' is 'TYPE VAR; FROM; TO; STEP;'") << Kw;
      Ok = false;
      return true;
    }
    const CallExpr *Bounds[3];
    for (unsigned I = 0; I < 3; ++I) {
      Bounds[I] = cast<CallExpr>(cast<Expr>(Body[2 + I])->IgnoreImplicit());
      if (Bounds[I]->getNumArgs() != 3) {
        shapeError(Body[2 + I], Kw);
        return true;
      }
    }
    auto *Loop = cast<WhileStmt>(Body[5]);
    if (markerOf(Loop->getCond()) != Marker::Act || !isa<CompoundStmt>(Loop->getBody())) {
      shapeError(Loop, Kw);
      return true;
    }
    C->Index = Index;
    for (unsigned I = 0; I < 3; ++I)
      C->Bounds[I] = Bounds[I]->getArg(2)->IgnoreImpCasts();
    Wrappers.push_back({Loop, cast<CompoundStmt>(Loop->getBody())});
    // The header belongs to the parent: it declares the index and evaluates
    // the bounds before any activity exists.
    TraverseDecl(Index);
    for (unsigned I = 0; I < 3; ++I)
      TraverseStmt(const_cast<Expr *>(Bounds[I]->getArg(2)));
  }

  Construct *CP = C.get();
  M.Constructs.push_back(std::move(C));
  for (auto [Loop, Body] : Wrappers) {
    auto A = std::make_unique<Activity>();
    A->Owner = CP;
    A->Index = CP->Acts.size();
    A->Wrapper = Loop;
    A->Body = Body;
    CP->Acts.push_back(std::move(A));
  }
  if (CP->Index)
    M.DeclAct[CP->Index] = CP->Acts[0].get();

  for (auto &A : CP->Acts) {
    Acts.push_back(A.get());
    Targets.push_back({A->Wrapper, Target::Boundary});
    TraverseStmt(const_cast<CompoundStmt *>(A->Body));
    Targets.pop_back();
    Acts.pop_back();
  }

  CurFn->PostOrder.push_back(CP);
  if (CP->Parent)
    CP->Parent->Owner->Children.push_back(CP);
  else
    CurFn->TopLevel.push_back(CP);
  return true;
}


} // namespace

bool isSemaphoreType(QualType T) {
  const auto *RT = T.getCanonicalType()->getAs<RecordType>();
  return RT && RT->getDecl()->getName() == "parc_sem";
}

std::string integerLiteral(const llvm::APSInt &I) {
  if (I.isSigned() && I.isNegative()) {
    if (I.getSignificantBits() > 64)
      return "";
    int64_t X = I.getSExtValue();
    // -2147483648 would be the negation of a long: (-2147483647 - 1).
    return X == INT64_MIN  ? "(-9223372036854775807LL - 1)"
           : X < INT32_MIN ? "(" + std::to_string(X) + "LL)"
           : X == INT32_MIN ? "(-2147483647 - 1)"
                            : "(" + std::to_string(X) + ")";
  }
  unsigned Bits = I.getActiveBits();
  if (Bits > 64)
    return "";
  std::string D = std::to_string(I.getZExtValue());
  return Bits <= 31 ? D : Bits <= 63 ? D + "LL" : D + "ULL";
}

namespace {

/// V's value as C text that a declaration of V's type takes exactly, if V
/// is a constant an activity may have its own copy of (Model::ConstantValues).
static std::string constantText(const VarDecl *V, ASTContext &Ctx) {
  QualType T = V->getType();
  if (isa<ParmVarDecl>(V) || !V->hasInit() || T.isVolatileQualified() ||
      !(V->isConstexpr() || T.isConstQualified()) ||
      !(T->isIntegralOrEnumerationType() || T->isRealFloatingType()) ||
      V->hasAttr<AlignedAttr>() || V->hasAttr<CleanupAttr>())
    return "";
  const APValue *Val = V->evaluateValue();
  if (!Val)
    return "";
  if (Val->isInt()) {
    const llvm::APSInt &I = Val->getInt();
    if (T->isBooleanType())
      return I.isZero() ? "0" : "1";
    return integerLiteral(I);
  }
  if (Val->isFloat()) {
    const llvm::APFloat &F = Val->getFloat();
    const llvm::fltSemantics &Sem = F.getSemantics();
    const char *Suffix = &Sem == &llvm::APFloat::IEEEsingle()           ? "F"
                         : &Sem == &llvm::APFloat::IEEEdouble()         ? ""
                         : &Sem == &llvm::APFloat::x87DoubleExtended()  ? "L"
                                                                        : nullptr;
    if (!Suffix || !F.isFinite())
      return "";
    char Buf[64];
    unsigned N = F.convertToHexString(Buf, 0, /*UpperCase=*/false,
                                      llvm::RoundingMode::NearestTiesToEven);
    return "(" + std::string(Buf, N) + Suffix + ")";
  }
  return "";
}

bool Collector::isConstant(const VarDecl *V) {
  auto [It, New] = M.ConstantValues.try_emplace(V);
  if (New) {
    if (!AddrTaken) {
      AddressTaken Walk;
      Walk.TraverseDecl(const_cast<FunctionDecl *>(CurFn->FD));
      AddrTaken = std::move(Walk.Vars);
    }
    if (!AddrTaken->count(V))
      It->second = constantText(V, S.Ctx);
  }
  return !It->second.empty();
}

bool Collector::VisitDeclRefExpr(DeclRefExpr *DRE) {
  Activity *A = cur();
  if (!A)
    return true;
  const ValueDecl *D = DRE->getDecl();
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    if (!VD->isLocalVarDeclOrParm())
      return true;
    Activity *DA = M.declActivity(VD);
    if (DA == A)
      return true;
    if (isConstant(VD)) {
      for (Activity *X = A; X && X != DA; X = X->Owner->Parent)
        X->Owner->Constants.insert(VD);
      return true;
    }
    M.Uses.push_back({DRE, VD, A});
    return true;
  }
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    if (FD->getCanonicalDecl() == CurFn->FD->getCanonicalDecl()) {
      CurFn->Recursive = true; // declared by prototype() (Outliner.cpp)
      return true;
    }
    // A builtin that is not a library function (__builtin_constant_p,
    // __builtin_popcount) is known to every C compiler without a declaration,
    // and some of them cannot be redeclared.
    if (unsigned ID = FD->getBuiltinID())
      if (!S.Ctx.BuiltinInfo.isPredefinedLibFunction(ID))
        return true;
    // Declared only inside a function: the outlined code at file scope
    // needs a declaration of its own.
    bool FileScope = false;
    for (const FunctionDecl *R : FD->redecls())
      if (!R->getLexicalDeclContext()->isFunctionOrMethod() &&
          S.SM.isBeforeInTranslationUnit(R->getLocation(), CurFn->FD->getBeginLoc()))
        FileScope = true;
    if (!FileScope)
      CurFn->LocalFunctions.insert(FD);
    return true;
  }
  if (const auto *EC = dyn_cast<EnumConstantDecl>(D))
    noteLocalType(cast<Decl>(EC->getDeclContext()));
  return true;
}

bool Collector::VisitCallExpr(CallExpr *CE) {
  Marker K = markerOf(CE);
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (CurFn && (isFileScopeFunction(Callee, "parc_P") || isFileScopeFunction(Callee, "parc_V")))
    M.SemCalls.push_back({CE, CurFn->FD});
  if (cur() && cur()->Owner->Kind == ConstructKind::MappedLparfor && CE->getNumArgs() == 0 &&
      isFileScopeFunction(Callee, "parc_procid"))
    M.ChunkProcIds.push_back(CE);
  if (K == Marker::Pbreak || K == Marker::Sync)
    M.Marks.push_back({CE, K == Marker::Pbreak ? MarkKind::Pbreak : MarkKind::Sync, cur()});
  switch (CE->getBuiltinCallee()) {
  case Builtin::BI__builtin_va_start:
  case Builtin::BI__builtin_ms_va_start:
  case Builtin::BIva_start:
    if (cur())
      M.VaStarts.push_back(CE);
    break;
  default:
    break;
  }
  // `sync();` as the user wrote it, in an activity: likely meant as the
  // barrier.  `(sync)()` and a macro's call are deliberate.
  if (cur() && CE->getNumArgs() == 0 && CE->getBeginLoc().isFileID())
    if (const auto *Ref = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreImpCasts()))
      if (isFileScopeFunction(dyn_cast<FunctionDecl>(Ref->getDecl()), "sync"))
        M.SyncCalls.push_back(CE);
  return true;
}

bool Collector::VisitReturnStmt(ReturnStmt *RS) {
  SourceLocation L = S.SM.getFileLoc(RS->getReturnLoc());
  bool IsPreturn = false;
  if (S.inMainFile(L)) {
    unsigned Off = S.offset(L);
    IsPreturn = std::binary_search(S.TP.PreturnOffsets.begin(), S.TP.PreturnOffsets.end(), Off);
  }
  if (IsPreturn && CurFn)
    M.AllPreturns.push_back({RS, CurFn->FD});
  Activity *A = cur();
  if (!A)
    return true; // preturn outside a construct is return
  if (IsPreturn)
    M.Preturns.push_back({RS, A, (unsigned)Acts.size()});
  else
    M.Jumps.push_back({JumpUse::Return, RS, A});
  return true;
}

bool Collector::VisitBreakStmt(BreakStmt *BS) {
  if (!Targets.empty() && Targets.back().K == Target::Boundary)
    M.Jumps.push_back({JumpUse::Break, BS, cur(), nullptr, true});
  return true;
}

bool Collector::VisitContinueStmt(ContinueStmt *CS) {
  for (auto It = Targets.rbegin(); It != Targets.rend(); ++It) {
    if (It->K == Target::Loop)
      return true;
    if (It->K == Target::Boundary) {
      M.Jumps.push_back({JumpUse::Continue, CS, cur(), nullptr, true});
      return true;
    }
  }
  return true;
}

bool Collector::VisitSwitchCase(SwitchCase *SC) {
  for (auto It = Targets.rbegin(); It != Targets.rend(); ++It) {
    if (It->K == Target::Switch)
      return true;
    if (It->K == Target::Boundary) {
      M.Jumps.push_back({JumpUse::Case, SC, cur(), nullptr, true});
      return true;
    }
  }
  return true;
}

} // namespace

/// A statement of a parblock's dispatch (TokenPass.cpp, sectionOrder):
/// `if (parc_mark_sections()) { goto L; }`, labelled or not.
static const IfStmt *dispatch(const Stmt *St) {
  if (const auto *L = dyn_cast<LabelStmt>(St))
    St = L->getSubStmt();
  const auto *If = dyn_cast<IfStmt>(St);
  return If && markerOf(If->getCond()) == Marker::Sections ? If : nullptr;
}

std::vector<std::pair<unsigned, unsigned>> unwrapSectionDispatch(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<std::pair<unsigned, unsigned>> Cuts;
  auto Cut = [&](SourceLocation B, SourceLocation E) {
    if (B.isFileID() && E.isFileID() && SM.isWrittenInMainFile(B))
      Cuts.push_back({SM.getFileOffset(B), SM.getFileOffset(E)});
  };
  std::vector<Stmt *> Work;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->doesThisDeclarationHaveABody())
      Work.push_back(FD->getBody());
  while (!Work.empty()) { // a stack: 5,000 nested constructs are 15,000 levels
    Stmt *St = Work.back();
    Work.pop_back();
    for (Stmt *&Child : St->children()) {
      auto *CS = dyn_cast_or_null<CompoundStmt>(Child);
      if (CS && CS->size() > 2 && markerOf(CS->body_front()) == Marker::Parblock &&
          llvm::any_of(CS->body(), [](const Stmt *X) { return dispatch(X); })) {
        std::vector<Stmt *> Kept;
        for (Stmt *X : CS->body()) {
          if (const IfStmt *If = dispatch(X)) {
            Cut(X->getBeginLoc(), If->getThen()->getEndLoc().getLocWithOffset(1));
            continue;
          }
          auto *L = dyn_cast<LabelStmt>(X);
          if (L && L->getName() && StringRef(L->getName()).starts_with("__parcc_ps_")) {
            Cut(L->getBeginLoc(), L->getSubStmt()->getBeginLoc());
            X = L->getSubStmt();
          }
          Kept.push_back(X);
        }
        Child = CompoundStmt::Create(Ctx, Kept, CS->getStoredFPFeaturesOrDefault(),
                                     CS->getLBracLoc(), CS->getRBracLoc());
      }
      if (Child)
        Work.push_back(Child);
    }
  }
  return Cuts;
}

bool analyze(Session &S) {
  Collector V(S);
  for (Decl *D : S.checkedDecls()) {
    SourceLocation L = S.SM.getExpansionLoc(D->getBeginLoc());
    if (L.isInvalid() || !S.SM.isWrittenInMainFile(L))
      continue;
    V.TraverseDecl(D);
  }
  return V.Ok;
}

} // namespace parcc
