//===- LowerSync.cpp - sync -----------------------------------------------===//
//
// Two forms (parc_abi.h, "sync" and "Stackless sync").  The stackless one,
// for a parfor body whose activities can wait at a barrier in a frame:
//
//   parfor int i; 0; n-1; 1;              ... in f_parfor_L3, whose loop is
//     for (int t = 0; t < T; t++) {         while ((parc_fr_ = ...parc_next_frame(...))) {
//       a[i] = g(i, t);                       int i = ...;
//       sync;                                 switch (parc_fr_->parc_st_) { case 0:;
//     }                            =>           for (parc_fr_->t = 0; ...; parc_fr_->t++) {
//   epar                                          a[i] = g(i, parc_fr_->t);
//                                                 { parc_fr_->parc_st_ = 1;
//                                                   if (parc_sync_frame(parc_self_))
//                                                     goto parc_susp_L3_;
//                                                   __attribute__((fallthrough)); case 1:; }
//                                               } }
//                                           parc_susp_L3_:; }
//
// The places of the syncs, by state (1, 2, ...), are the construct's site's
// table parc_syncs_L3_ (parc_abi.h, "Construct sites"), for the deadlock
// report.
//
// A local of the body moves into the frame (struct parc_fr_<tag>, the
// member named as the variable) when it is live across a sync of the body
// (lowerStackless, Moves): only those are needed when the activity
// resumes.  Its declaration becomes assignments of its initializers; an
// array's is a copy from a compound literal.  The switch jumps past the
// declarations of the others, which nothing reads after the jump.
//
// The form is used only where it means what the stack form means: the
// syncs are the body's own (a nested construct's are its own), none is in
// a switch or a statement expression of the body (the case label would
// belong to them), the index is never assigned (nor an asm's output) or
// has its address taken (the resumed activity recomputes it), and every
// local to move has a type that can be declared at the top of the body
// function and assigned (and no sync is in the scope of a variably
// modified typedef, and no storage that only the stack holds outlives a
// sync: no compound literal before a sync in its block, no alloca):
// no variably modified type, no type declared in the body or without a
// name (a file-scope `struct { } x` seen through typeof), no const
// member or element, no flexible array member, alignment at most 16
// (the runtime's frames), no cleanup attribute.  Any
// other body, and every parblock, calls parc_sync:
//
//   sync;                        =>       parc_sync(parc_self_, &parc_wsite_0_);
//
// parc_self_ is the batch of the innermost construct, which is the body
// function the sync lands in: the barrier binds to the innermost construct.
// parc_wsite_N_ is the sync's place, for the deadlock report (LowerWait.cpp).
// sync outside a construct or directly in an lparfor body has been rejected
// by the checks.
//
//===----------------------------------------------------------------------===//
#include "parcc/Lowering.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace clang;

namespace parcc {

namespace {

/// What the stackless form needs to know about one activity body.
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  BodyScan(const Session &S, const Activity &A, const llvm::DenseSet<const CallExpr *> &Syncs,
           const llvm::DenseSet<const DeclRefExpr *> &Captured)
      : S(S), A(A), Syncs(Syncs), Captured(Captured) {}

  bool TraverseSwitchStmt(SwitchStmt *St) {
    ++Guarded;
    bool R = RecursiveASTVisitor::TraverseSwitchStmt(St);
    --Guarded;
    return R;
  }
  bool TraverseStmtExpr(StmtExpr *E) {
    ++Guarded;
    bool R = RecursiveASTVisitor::TraverseStmtExpr(E);
    --Guarded;
    return R;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (Syncs.count(CE) && Guarded)
      Ok = false;
    // alloca's memory lives until the body function returns, which it
    // does at a suspending sync: the resumed activity would read a stack
    // the next activity of the batch has reused.
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      // setjmp's buffer holds the body function's stack pointer: a
      // longjmp after a suspending sync would return into a frame that
      // is gone (the stack form keeps the activity's stack).
      unsigned ID = FD->getBuiltinID();
      if (FD->hasAttr<ReturnsTwiceAttr>() || (ID && S.Ctx.BuiltinInfo.isReturnsTwice(ID)) ||
          isAlloca(FD))
        Ok = false;
    }
    return true;
  }
  bool VisitCompoundLiteralExpr(CompoundLiteralExpr *E) {
    if (!E->isFileScope())
      Literals.push_back(E);
    return true;
  }
  bool VisitDeclStmt(DeclStmt *DS) {
    for (const Decl *D : DS->decls()) {
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (S.M.declActivity(V) == &A && V != A.Owner->Index)
          Decls.push_back(DS);
      if (const auto *TD = dyn_cast<TypedefNameDecl>(D))
        if (isVariablyModified(TD->getUnderlyingType()))
          VMTypedefs.push_back(DS);
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (!Captured.count(E))
      Refs.push_back(E);
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      Uses[V].push_back(S.offset(E->getLocation()));
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && isIndex(U->getSubExpr()))
      Ok = false;
    if (U->getOpcode() == UO_AddrOf) {
      // &v, &v.f, &v.a[i]: a pointer that may be used after a sync.
      const Expr *E = U->getSubExpr()->IgnoreParens();
      while (true) {
        if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow())
          E = M->getBase()->IgnoreParens();
        else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
          E = AS->getBase()->IgnoreParenImpCasts();
        else
          break;
      }
      if (const auto *R = dyn_cast<DeclRefExpr>(E))
        if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
          AddrTaken.insert(V);
    }
    return true;
  }
  bool VisitForStmt(ForStmt *L) {
    if (L->getBody())
      Loops.push_back({L, L->getBody()});
    return true;
  }
  bool VisitWhileStmt(WhileStmt *L) {
    if (L->getBody())
      Loops.push_back({L, L->getBody()});
    return true;
  }
  bool VisitDoStmt(DoStmt *L) {
    if (L->getBody())
      Loops.push_back({L, L->getBody()});
    return true;
  }
  bool VisitLabelStmt(LabelStmt *) {
    Jumps = true;
    return true;
  }
  bool VisitAddrLabelExpr(AddrLabelExpr *) {
    Jumps = true;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp() && isIndex(B->getLHS()))
      Ok = false;
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *G) {
    // An output operand writes it too ("+r"(i): the index after a sync
    // was recomputed, and the asm's change lost).
    for (const Expr *Out : G->outputs())
      if (isIndex(Out))
        Ok = false;
    return true;
  }

  bool Ok = true;
  std::vector<const DeclStmt *> Decls, VMTypedefs;
  std::vector<const DeclRefExpr *> Refs;
  std::vector<const CompoundLiteralExpr *> Literals;
  /// Where each variable is named, nested constructs included (their
  /// environments take its address there); whose address the body takes.
  llvm::DenseMap<const VarDecl *, std::vector<unsigned>> Uses;
  llvm::DenseSet<const VarDecl *> AddrTaken;
  /// The loops of the body, with their bodies.
  std::vector<std::pair<const Stmt *, const Stmt *>> Loops;
  /// A label: a goto may make a loop of any stretch of the body.
  bool Jumps = false;

private:
  bool isIndex(const Expr *E) const {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    return R && R->getDecl() == A.Owner->Index;
  }

  const Session &S;
  const Activity &A;
  const llvm::DenseSet<const CallExpr *> &Syncs;
  const llvm::DenseSet<const DeclRefExpr *> &Captured;
  unsigned Guarded = 0;
};

/// Does a record (or array of records) have a const member anywhere, so
/// that a whole-object assignment is refused?
bool hasConstPart(const ASTContext &Ctx, QualType T) {
  while (const ArrayType *AT = Ctx.getAsArrayType(T)) {
    if (AT->getElementType().isConstQualified())
      return true;
    T = AT->getElementType();
  }
  if (T.isConstQualified())
    return true;
  if (const auto *RT = T->getAs<RecordType>())
    for (const FieldDecl *F : RT->getDecl()->fields())
      if (hasConstPart(Ctx, F->getType()))
        return true;
  return false;
}

/// Is a type (through pointers, arrays and typedefs) one declared inside
/// activity A, which the frame at the top of the body function cannot see?
/// Seen holds the records already walked: a record may point to itself
/// (`struct node { struct node *next; }`).
bool declaredIn(const Session &S, const Activity &A, QualType T,
                llvm::DenseSet<const RecordDecl *> &Seen) {
  unsigned B = S.offset(A.Body->getLBracLoc()), E = S.endOffset(A.Body->getRBracLoc());
  auto Inside = [&](const Decl *D) {
    if (!D || D->getDeclContext()->isFileContext())
      return false;
    unsigned O = S.offset(D->getLocation());
    return B <= O && O < E;
  };
  for (int Depth = 0; Depth < 64 && !T.isNull(); ++Depth) {
    if (const auto *TT = T->getAs<TypedefType>())
      if (Inside(TT->getDecl()))
        return true;
    if (const auto *Tag = T->getAs<TagType>()) {
      if (Inside(Tag->getDecl()))
        return true;
      if (const auto *RT = dyn_cast<RecordType>(Tag))
        if (Seen.insert(RT->getDecl()).second)
          for (const FieldDecl *F : RT->getDecl()->fields())
            if (declaredIn(S, A, F->getType(), Seen))
              return true;
      return false;
    }
    if (const ArrayType *AT = S.Ctx.getAsArrayType(T))
      T = AT->getElementType();
    else if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    else
      return false;
  }
  return false;
}

/// The offset just past the innermost block around N, or (ForInit) the
/// for statement N is the init of, if that comes first; Default if none.
unsigned enclosingEnd(const Session &S, DynTypedNode N, bool ForInit, unsigned Default) {
  for (int Depth = 0; Depth < 256; ++Depth) {
    auto Parents = S.Ctx.getParents(N);
    if (Parents.empty())
      break;
    N = Parents[0];
    if (const auto *CS = N.get<CompoundStmt>())
      return S.endOffset(CS->getRBracLoc());
    if (const auto *FS = N.get<ForStmt>(); FS && ForInit)
      return S.endOffset(FS->getEndLoc());
  }
  return Default;
}

/// The offset just past the enclosing block of a compound literal, which
/// its storage lives as long as (C17 6.5.2.5p5).
unsigned blockEnd(const Session &S, const Expr *E) {
  return enclosingEnd(S, DynTypedNode::create(*E), /*ForInit=*/false, ~0u);
}

/// The offset just past the scope of the variables DS declares: its
/// enclosing block (or the for statement whose init it is).
unsigned scopeEnd(const Session &S, const DeclStmt *DS) {
  return enclosingEnd(S, DynTypedNode::create(*DS), /*ForInit=*/true, 0);
}

/// Is DS a for statement's declaration (where only declarations and
/// expressions, not statements, can take its place)?
bool isForInit(const Session &S, const DeclStmt *DS) {
  return llvm::any_of(S.Ctx.getParents(*DS),
                      [](const DynTypedNode &P) { return P.get<ForStmt>() != nullptr; });
}

} // namespace

/// Plans and edits the stackless form of activity A (whose syncs are
/// Mine), or returns false, editing nothing, where it does not apply.
static bool lowerStackless(Outliner &O, const Activity &A, const std::vector<const MarkUse *> &Mine,
                           const llvm::DenseSet<const DeclRefExpr *> &Captured) {
  Session &S = O.S;
  const Construct &C = *A.Owner;
  if (C.Kind != ConstructKind::Parfor || !S.Opts.StacklessSync)
    return false;
  llvm::DenseSet<const CallExpr *> Syncs;
  std::vector<unsigned> SyncAt, SemiEnd;
  for (const MarkUse *M : Mine) {
    SourceLocation L = M->Call->getBeginLoc();
    if (L.isMacroID() || M->Call->getEndLoc().isMacroID())
      return false;
    unsigned After = S.endOffset(M->Call->getEndLoc()), Semi;
    tok::TokenKind K;
    if (!S.tokenAt(After, Semi, K) || K != tok::semi)
      return false;
    Syncs.insert(M->Call);
    SyncAt.push_back(S.offset(L));
    SemiEnd.push_back(Semi + 1);
  }
  BodyScan Scan(S, A, Syncs, Captured);
  Scan.TraverseStmt(const_cast<CompoundStmt *>(A.Body));
  if (!Scan.Ok)
    return false;

  // A sync in the scope of a variably modified typedef: the switch would
  // jump into it.
  auto LiveAcross = [&](const DeclStmt *DS) {
    unsigned From = S.endOffset(DS->getEndLoc()), To = scopeEnd(S, DS);
    bool Live = false;
    for (unsigned At : SyncAt)
      Live |= From <= At && At < To;
    return Live;
  };
  for (const DeclStmt *DS : Scan.VMTypedefs)
    if (LiveAcross(DS))
      return false;
  // A compound literal before a sync in its block: its object is on the
  // stack of the body function, which a suspending sync leaves (the
  // frame keeps the pointers to it, not the object).
  for (const CompoundLiteralExpr *E : Scan.Literals) {
    unsigned From = S.offset(E->getBeginLoc()), To = blockEnd(S, E);
    for (unsigned At : SyncAt)
      if (From <= At && At < To)
        return false;
  }

  // The locals to move: those live across a sync of the body.  A local is
  // when a sync follows its declaration in its scope and it is named
  // after that sync, or in a loop around the sync that does not declare
  // it anew each time round.  Its address taken, an array, or a label in
  // the body (a goto may make a loop of anything): a sync in its scope
  // suffices.  The others stay declared where they are, and stay in
  // registers: every local in the scope of a sync went to the frame, and
  // a Jacobi sweep whose running maximum went through parc_fr_ (the
  // grid's stores may alias it) took 1.33 times as long at P = 1.  The
  // switch jumps past their declarations, which C allows (none has a
  // variably modified type); nothing reads them after the jump.
  auto LiveVars = [&](const DeclStmt *DS) {
    llvm::SmallPtrSet<const VarDecl *, 4> Live;
    unsigned From = S.endOffset(DS->getEndLoc()), To = scopeEnd(S, DS);
    std::vector<unsigned> In;
    for (unsigned At : SyncAt)
      if (From <= At && At < To)
        In.push_back(At);
    if (In.empty())
      return Live;
    unsigned DeclAt = S.offset(DS->getBeginLoc());
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V)
        continue;
      if (Scan.Jumps || Scan.AddrTaken.count(V) || S.Ctx.getAsArrayType(V->getType())) {
        Live.insert(V);
        continue;
      }
      auto U = Scan.Uses.find(V);
      if (U == Scan.Uses.end())
        continue;
      for (unsigned Use : U->second)
        for (unsigned At : In)
          if (At < Use && Use < To)
            Live.insert(V);
      for (const auto &[Loop, Body] : Scan.Loops) {
        unsigned LB = S.offset(Loop->getBeginLoc()), LE = S.endOffset(Loop->getEndLoc());
        unsigned BB = S.offset(Body->getBeginLoc()), BE = S.endOffset(Body->getEndLoc());
        if (BB <= DeclAt && DeclAt < BE)
          continue; // declared anew each time round
        bool Around = false;
        for (unsigned At : In)
          Around |= BB <= At && At < BE;
        if (!Around)
          continue;
        for (unsigned Use : U->second)
          if (LB <= Use && Use < LE)
            Live.insert(V);
      }
    }
    return Live;
  };
  // A declaration of several locals of which only some are live across a
  // sync (`long lo = 0, hi = n, s = 0;`, s dead at the sync) moves only
  // those: the others stay in registers, where a running sum through
  // parc_fr_ (aliased by the stores of its loop) took 2.3 to 3.4 times as
  // long (tester F, s45).  Each one moved keeps its declarator as a local
  // nothing reads, `long parc_dead_lo_ __attribute__((__unused__)) =
  // (parc_fr_->lo = 0)`, so that every initializer still runs in its
  // turn.  Only where that can be written: not a for's declaration (its
  // locals are the loop's), and for each one moved, a scalar or struct
  // whose declarator is its name alone and whose initializer is no braced
  // list.
  auto Splittable = [&](const DeclStmt *DS, const llvm::SmallPtrSetImpl<const VarDecl *> &Live) {
    if (isForInit(S, DS))
      return false;
    for (const VarDecl *V : Live) {
      if (S.Ctx.getAsArrayType(V->getType()) || V->getLocation().isMacroID())
        return false;
      unsigned After = S.endOffset(V->getLocation()), Next;
      tok::TokenKind K;
      if (!S.tokenAt(After, Next, K) || (K != tok::equal && K != tok::comma && K != tok::semi))
        return false;
      if (const Expr *Init = V->getInit())
        if (isa<InitListExpr>(Init->IgnoreImplicit()))
          return false;
    }
    return true;
  };
  // A scalar live across a sync stays the local it is, in a register
  // where the compiler can keep it, and only passes through the frame at
  // each sync: stored before it, loaded back after it (the switch's case
  // lands between the two).  Through parc_fr_ at every use, a running sum
  // live across a sync (`s += x[i]; y[i] = s;`, then sync, then s read)
  // took 3.5 times as long at P = 1 (tester F, s45).  Only a local that is
  // set wherever a sync may store it, and that only its activity reaches
  // by name: an initialised, non-const, non-volatile scalar whose address
  // the body never takes, which no nested construct uses, in a body
  // without labels (a goto could enter its scope past its initializer).
  // The saves and loads name it, so no other local of the body may have
  // its name (an inner one would be the one they reached).
  llvm::StringMap<unsigned> NameCount;
  llvm::DenseSet<const DeclStmt *> Counted;
  for (const DeclStmt *DS : Scan.Decls)
    if (Counted.insert(DS).second)
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<NamedDecl>(D))
          NameCount[V->getName()]++;
  auto Promotable = [&](const VarDecl *V) {
    QualType T = V->getType();
    return NameCount.lookup(V->getName()) == 1 && V->getName() != A.Owner->Index->getName() &&
           !Scan.Jumps && !Scan.AddrTaken.count(V) && T->isScalarType() &&
           !T.isConstQualified() && !T.isVolatileQualified() && V->getInit() &&
           V->hasLocalStorage() && !V->getLocation().isMacroID() &&
           llvm::none_of(S.M.Uses, [&](const VarUse &U) { return U.Var == V; });
  };
  struct Promotion {
    const VarDecl *V;
    std::string Field;
    unsigned From, To; // its scope
  };
  std::vector<Promotion> Promoted;
  llvm::DenseSet<const VarDecl *> Moved;
  std::vector<const DeclStmt *> MovedStmts;
  Outliner::FramePlan Plan;
  std::set<std::string> Names;
  std::vector<const DeclStmt *> SplitStmts;
  llvm::DenseSet<const DeclStmt *> Seen;
  auto FieldName = [&](const VarDecl *V) {
    std::string F = V->getName().str();
    for (unsigned K = 1; Names.count(F); ++K)
      F = V->getName().str() + "_" + std::to_string(K);
    Names.insert(F);
    Plan.Fields.push_back({V, F});
    return F;
  };
  for (const DeclStmt *DS : Scan.Decls) {
    if (!Seen.insert(DS).second)
      continue;
    llvm::SmallPtrSet<const VarDecl *, 4> Live = LiveVars(DS);
    if (Live.empty())
      continue;
    unsigned NVars = llvm::count_if(DS->decls(), [](const Decl *D) { return isa<VarDecl>(D); });
    // The declaration stays as it is where all its live locals are
    // promoted; else it is rewritten, all of it or (Split) its live ones.
    bool Promote = llvm::all_of(Live, Promotable);
    bool Split = !Promote && Live.size() < NVars && Splittable(DS, Live);
    // A static or extern local keeps its storage: nothing to move.
    const auto *First = dyn_cast<VarDecl>(*DS->decl_begin());
    if (First && !First->hasLocalStorage())
      continue;
    // A declaration may start with a macro that names a type (`bool`),
    // whose expansion then starts where the user wrote the declaration.
    SourceLocation DB = DS->getBeginLoc();
    if (!Promote &&
        ((DB.isMacroID() && (S.SM.isMacroArgExpansion(DB) ||
                             !Lexer::isAtStartOfMacroExpansion(DB, S.SM, S.Ctx.getLangOpts()) ||
                             !S.inMainFile(S.SM.getExpansionLoc(DB)))) ||
         DS->getEndLoc().isMacroID()))
      return false;
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (V && (Split || Promote) && !Live.count(V))
        continue;
      if (!V || !V->hasLocalStorage() || V->getLocation().isMacroID())
        return false;
      QualType T = V->getType();
      T.removeLocalConst();
      llvm::DenseSet<const RecordDecl *> Seen;
      if (isVariablyModified(T) || T.isConstQualified() || declaredIn(S, A, T, Seen) ||
          S.Ctx.getTypeAlignInChars(T).getQuantity() > 16 || T->isIncompleteType())
        return false;
      // A struct ending in a flexible array must end the frame too.
      if (const auto *RT = T->getAs<RecordType>())
        if (RT->getDecl()->hasFlexibleArrayMember())
          return false;
      // What the declaration adds to its type: a cleanup runs at the end
      // of the scope, which the frame has no declaration for, and an
      // alignment the member keeps (frameDecl) only up to the frame's.
      if (V->hasAttr<CleanupAttr>() || V->hasAttr<AsmLabelAttr>() ||
          S.Ctx.getDeclAlign(V).getQuantity() > 16)
        return false;
      // An anonymous tag: the frame can name a local one (moved to file
      // scope later, with a name), but no initializer's compound literal
      // can yet, and nothing can name a file-scope one.
      if (const TagDecl *TD = O.unnamedTag(T))
        if (TD->getDeclContext()->isFileContext() ||
            (V->getInit() && (S.Ctx.getAsArrayType(T) ||
                              isa<InitListExpr>(V->getInit()->IgnoreImplicit()))))
          return false;
      if (V->getInit() && hasConstPart(S.Ctx, T))
        return false;
      if (Promote) {
        Promoted.push_back({V, FieldName(V), S.endOffset(DS->getEndLoc()), scopeEnd(S, DS)});
        continue;
      }
      FieldName(V);
      Moved.insert(V);
    }
    if (!Promote)
      (Split ? SplitStmts : MovedStmts).push_back(DS);
  }
  // A moved local named in a macro's argument is edited where the user
  // wrote it; one named in a macro's body cannot be, even when that macro
  // is itself an argument (`faa(&s, GV)`: the edit would replace `GV`),
  // nor one in an argument that the macro also turns into a string (`#v`
  // would read "parc_fr_->v").
  for (const DeclRefExpr *E : Scan.Refs)
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      if (Moved.count(V) && E->getLocation().isMacroID()) {
        SourceLocation L = E->getLocation();
        if (!S.writtenInPlace(L))
          return false;
        unsigned Sp = S.SM.getFileOffset(S.SM.getSpellingLoc(L));
        if (S.Macros.Stringized.count(Sp) || S.Macros.StringizedDeep.count(Sp))
          return false;
      }

  // Committed: from here on every edit is made.
  for (auto &[V, F] : Plan.Fields)
    if (Moved.count(V))
      O.FrameFields[V] = F;
  for (const DeclRefExpr *E : Scan.Refs)
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      if (Moved.count(V))
        S.Edits.replace(S.offset(E->getLocation()), S.endOffset(E->getLocation()),
                        "parc_fr_->" + O.FrameFields[V]);
  std::string Label = "parc_susp_" + O.suffix(C) + "_";
  // The syncs' places, by state less 1, for the construct's site.
  Plan.SyncTable = "parc_syncs_" + O.suffix(C) + "_";
  std::string Table = "static const parc_wait_site *const " + Plan.SyncTable + "[] = {";
  for (size_t I = 0; I < Mine.size(); ++I) {
    std::string N = std::to_string(I + 1);
    Table += " &" + O.waitSite(SyncAt[I], C.Func, "") + ",";
    std::string Save, Load;
    for (const Promotion &P : Promoted)
      if (P.From <= SyncAt[I] && SyncAt[I] < P.To) {
        std::string Name = P.V->getName().str();
        Save += "parc_fr_->" + P.Field + " = " + Name + "; ";
        Load += " " + Name + " = parc_fr_->" + P.Field + ";";
      }
    S.Edits.replace(SyncAt[I], SemiEnd[I],
                    "{ " + Save + "parc_fr_->parc_st_ = " + N +
                        "; if (parc_sync_frame(parc_self_)) goto " + Label +
                        "; __attribute__((fallthrough)); case " + N + ":;" + Load + " }");
  }
  O.WaitSites += Table + " 0 };\n";
  for (const DeclStmt *DS : MovedStmts) {
    std::vector<std::string> Sets;
    unsigned B = S.offset(DS->getBeginLoc()), E = S.endOffset(DS->getEndLoc());
    // Where the declaration is a statement (not a for's), each becomes a
    // statement, and an array's initializer a named array in a block of
    // its own: gcc 12's -Wall (-Wdangling-pointer) took the compound
    // literal that memcpy read from, whose life is the enclosing block,
    // for one that the resumed activities' case labels might use after
    // it ended (tester H, s45).
    bool Statements = S.TP.Text[E - 1] == ';' && !isForInit(S, DS);
    for (const Decl *D : DS->decls()) {
      const auto *V = cast<VarDecl>(D);
      const Expr *Init = V->getInit();
      if (!Init)
        continue;
      unsigned B = S.offset(Init->getBeginLoc());
      unsigned E = S.expansionEnd(Init->getEndLoc());
      std::string Text = S.Edits.render(B, E), Field = "parc_fr_->" + O.FrameFields[V];
      QualType T = V->getType();
      T.removeLocalConst();
      const Expr *Bare = Init->IgnoreImplicit();
      if (S.Ctx.getAsArrayType(T)) {
        if (isa<StringLiteral>(Bare->IgnoreParens()))
          Text = "{" + Text + "}";
        // A volatile array's field and literal are volatile, which
        // memcpy's parameters are not (gcc warns even without -Wall).
        bool Vol = S.Ctx.getBaseElementType(T).isVolatileQualified();
        std::string Copy = "__builtin_memcpy(" + std::string(Vol ? "(void *)" : "") + Field +
                           ", " + (Vol ? "(const void *)" : "");
        if (Statements)
          Sets.push_back("{ " + O.declare(T, "parc_init_") + " = " + Text + "; " + Copy +
                         "parc_init_, sizeof " + Field + "); }");
        else
          Sets.push_back(Copy + "(" + O.typeName(T) + ")" + Text + ", sizeof " + Field + ")");
      } else if (isa<InitListExpr>(Bare)) {
        Sets.push_back(Field + " = (" + O.typeName(T) + ")" + Text + (Statements ? ";" : ""));
      } else {
        Sets.push_back(Field + " = " + Text + (Statements ? ";" : ""));
      }
    }
    std::string Text;
    for (size_t I = 0; I < Sets.size(); ++I)
      Text += (I ? Statements ? " " : ", " : "") + Sets[I];
    if (!Statements && S.TP.Text[E - 1] == ';')
      Text += ";";
    if (Statements && Sets.empty())
      Text = ";";
    // Keep the declaration's lines (the initializers keep theirs).
    unsigned Lines = S.lineOf(E) - S.lineOf(B);
    unsigned Kept = std::count(Text.begin(), Text.end(), '\n');
    Text += std::string(Lines > Kept ? Lines - Kept : 0, '\n');
    S.Edits.collapse(B, E, Text);
  }
  for (const DeclStmt *DS : SplitStmts)
    for (const Decl *D : DS->decls()) {
      const auto *V = cast<VarDecl>(D);
      if (!Moved.count(V))
        continue;
      // Renamed, so that a debugger's `print lo` finds no stale copy.
      S.Edits.replace(S.offset(V->getLocation()), S.endOffset(V->getLocation()),
                      "parc_dead_" + V->getName().str() + "_ __attribute__((__unused__))");
      if (const Expr *Init = V->getInit()) {
        unsigned B = S.offset(Init->getBeginLoc());
        unsigned E = S.expansionEnd(Init->getEndLoc());
        S.Edits.collapse(B, E, "(parc_fr_->" + O.FrameFields[V] + " = " +
                                   S.Edits.render(B, E) + ")");
      }
    }
  O.Frames[&A] = std::move(Plan);
  return true;
}

bool lowerSyncs(Outliner &O) {
  Session &S = O.S;
  // The syncs of each activity, and the references to shared variables in
  // nested activities (Captures.cpp edits those).
  llvm::MapVector<const Activity *, std::vector<const MarkUse *>> ByAct;
  for (const MarkUse &M : S.M.Marks)
    if (M.Kind == MarkKind::Sync && M.Act)
      ByAct[M.Act].push_back(&M);
  llvm::DenseSet<const DeclRefExpr *> Captured;
  for (const VarUse &U : S.M.Uses)
    Captured.insert(U.Ref);
  for (auto &[A, Mine] : ByAct) {
    if (lowerStackless(O, *A, Mine, Captured))
      continue;
    for (const MarkUse *M : Mine) {
      if (M->Call->getBeginLoc().isMacroID())
        continue;
      unsigned At = S.offset(M->Call->getBeginLoc());
      S.Edits.replace(At, S.endOffset(M->Call->getEndLoc()),
                      "parc_sync(parc_self_, &" + O.waitSite(At, A->Owner->Func, "") + ")");
    }
  }
  return true;
}

} // namespace parcc
