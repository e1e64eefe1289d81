//===- Polls.cpp - poll points: where a killed activity notices its kill --===//
//
//   int f(int n) {                    int f(int n) {
//     if (n < 2) return n;              if (n < 2) return n; parc_poll();
//     while (!flag) ;          =>       while ((parc_poll(), !flag)) ;
//     for (;;) { ... g(); }             for (;(parc_poll(), 1);) { ... g(); }
//     for (i = 0; i < n; i++)           for (i = 0; i < n; i++)   <- no poll in the
//       a[i] = a[i] * 3 + 1;              a[i] = a[i] * 3 + 1;      loop (one per
//                                                                  block: blockLoop)
//   }                                 }
//   static int sq(int x) { return x * x; }                               <- no poll
//
// The contract: a killed activity stops at its next poll point (loop
// back-edges, function entries, construct entry and exit, blocking
// operations); straight-line code between them is not interrupted.  The
// fast path of parc_poll() is one relaxed load and a predicted branch, but
// its out-of-line slow path is a call: in a loop condition it may clobber
// memory, so the back end reloads what the loop reads and vectorises
// nothing, and at the entry of a recursive function it runs once per call.
// So parcc puts polls where they can matter and leaves them out where they
// cannot.
//
// Why leaving a poll out is safe.  Polls exist so that a killed activity
// stops in bounded time.  Code that runs in bounded time and then reaches a
// poll point is, for the contract, straight-line code between poll points.
// A kill is posted by another processor and noticed asynchronously (the
// relaxed load may read the old value for a while in any case), so "the
// kill arrived just after this bounded stretch" is an execution the program
// could always have had; no race-free program can tell the difference,
// because a stretch that loses its polls performs no synchronisation (no
// call that could block or signal, no volatile or atomic access).  Every
// cycle of the control flow still crosses a poll: a loop that keeps none
// ends by itself, and recursion goes through a call, which is not brief.
// The stretches are:
//
//   * a *brief* statement: no call except to a brief function (of this
//     file, or a header's function without loops or calls), a const or pure
//     builtin (sqrt, fabs, __builtin_expect), or a function that does not
//     come back (pbreak; exit, abort, __assert_fail; a noreturn function of
//     this file, which polls itself); no volatile or _Atomic access, no
//     atomic builtin, no inline asm, no label, no goto; no loop except a
//     counted one (below) of at most 16 iterations with a brief body, or
//     one that never goes round (`do ... while (0)`, as macros write it);
//     no struct, union or array of more than 1 KiB copied or filled as a
//     value (`a = b` of a 4 MiB struct is a memcpy).  A brief statement
//     takes bounded time, and little of it.
//   * a *counted* for loop with a brief body:
//       for (INIT; i OP BOUND [&& brief]; i++ | i-- | i += c | i -= c
//            [, brief]...) BRIEF
//     where i is a local integer (at least int, so no promotion wraps it) or
//     object pointer, private to the activity running the loop, whose
//     address is never taken and which only the increment modifies; c is a
//     constant; OP goes the way of the step (< <= up, > >= down); BOUND is
//     built from constants and variables that are const; or local, never
//     address-taken and not written in the loop; or global or static, not
//     volatile or _Atomic, written neither in the loop nor in a function it
//     calls (whose body is at hand, or which is const or pure), in a loop
//     (and callees) that store through no pointer to a type that could be
//     the variable's (a character type, its own or its signed or unsigned
//     twin, a struct or union); or objects read through such addresses
//     (`p[e]`, `*p`, `p->m`), in a loop (and callees) that stores to no
//     object of a type that could be theirs but locals whose address is
//     never taken.  Signed overflow is undefined, so such a loop ends; an
//     unsigned (or -fwrapv) index needs a strict OP and a step of 1 (`u <=
//     UINT_MAX` and `u >= 0` never end).  A shared or global variable in
//     BOUND could only change under the loop through a data race.
//   * a *countdown* while loop with a brief body: `while (n--)`, `while
//     (n-- > 0)`, `while (n-- != 0)`, n as i above and written only there
//     (`while (n--) *d++ = *s++;`).  It ends within n + 1 iterations, or
//     at signed overflow, which is undefined.
//   * a *counted* while loop with a brief body: `while (i OP BOUND [&&
//     brief])` as the counted for loop's, whose body steps i once in straight-line
//     code (no branch, loop, jump, ?: && or ||), so every iteration does
//     (`while (x < end) *y++ += 2.0f * *x++;`).
//
// Placement:
//   * loops: every loop polls, `(parc_poll(), cond)`, except counted loops
//     and countdowns with a brief body; those of more than PARC_BLOCK
//     iterations (or of a bound not known) run in blocks of PARC_BLOCK
//     iterations with a poll between them, so that a kill waits for one
//     block, not for a loop of 3e9 iterations: each block a counted loop
//     of its own (blockLoop, blockCountedWhile, blockCountdown), or, where
//     those cannot cut it (a `break`, `&&` before the compare), a block of
//     rounds as blockUncounted counts them; one that none can rewrite (a
//     `#pragma` before it, a loop written in a macro) polls every round.
//     A loop around such a loop keeps its
//     poll, so a kill waits for one run of the innermost counted loop (or
//     block) at most, not for the whole nest.  A loop that is not counted
//     but whose condition, step and body are brief, and that reads or
//     writes memory at a fixed address, runs in blocks of PARC_BLOCK
//     rounds with a poll between them (blockUncounted): a block is
//     straight-line code for the same reason.  `for (;;)` on registers
//     only, loops that call, loops on volatile memory keep theirs on
//     every round.  A macro call in
//     a condition is wrapped whole (`while (!atomic_load(&f))`); a loop
//     whose condition is a constant false (`do ... while (0)`) is no loop.
//   * backward gotos: `goto L;` to a label written before it closes a loop
//     as much as a back-edge does (`again: ... goto again;`), so it becomes
//     `{ parc_poll(); goto L; }`.  A forward goto needs none: every cycle
//     has an edge that goes back in the text, a loop's, such a goto, or
//   * a computed goto, `goto *e;`, whose direction nobody knows (an
//     interpreter's dispatch jumps back every time): each polls,
//     `{ parc_poll(); goto *e; }`.
//   * function entries: a brief function gets no poll (it is straight-line
//     code of its caller, which polls), nor does one that would be brief
//     but for counted loops with brief bodies (briefButForCountedLoops): no
//     recursion passes through it, it synchronises with nothing, and its
//     loops poll per block.  Otherwise the poll goes before the
//     first statement that is not brief: leading guards such as
//     `if (n < 2) return n;` run before it, so the leaves of a recursion poll
//     nowhere and every call still follows a poll.  The same guard written
//     as one statement, `return n < 2 ? n : fib(n - 1) + fib(n - 2);` (a
//     brief condition and one brief arm), gets its poll in the other arm:
//     `n < 2 ? n : (parc_poll(), fib(n - 1) + fib(n - 2))`.  None is needed
//     when that statement polls first thing anyway: a while or for loop that
//     polls, a parblock (at least one activity, and epar polls).  A leading parfor or
//     lparfor with brief bounds gets it in its spawn code (it may have no
//     activities).  A declaration keeps it at the entry (no statement put
//     before a declaration that had none).
//   * lparfor chunks with a brief body poll once per block of PARC_BLOCK
//     (4096) iterations (LowerParfor.cpp): the chunk is one activity
//     running its iterations serially, so a block is straight-line code
//     like a counted loop.  A parfor whose brief body neither pbreaks nor
//     preturns runs its batch in blocks of PARC_BLOCK activities with one
//     poll per block (parc_next_block; parc_abi.h argues why no program
//     can tell).  Both write the body twice (a full block of constant trip
//     count, which the back end vectorises, and the rest), so only a body
//     for which two copies mean one (twiceSafe) gets that form.
//
// Loops written by macros: the macro's text is every expansion's, so no
// edit there can add a poll to one.  A loop whose body the user wrote
// (`FOREVER { ... }` with `#define FOREVER for (;;)`) polls at the start of
// that body.  A loop the macro writes whole polls through a keyword macro
// defined around that one expansion (pollMacroLoops):
//     #pragma push_macro("while")
//     #undef while
//     #define while(...) while ((parc_poll(), __VA_ARGS__))
//     SPIN(flag)
//     #undef while
//     #pragma pop_macro("while")
// and for `for`, whose condition no macro can pick out of its head, a poll
// at the start of the body: `for (__VA_ARGS__) if (parc_poll(), 0) {} else`
// (the `else` keeps any `else` after the loop with the `if` it belonged
// to).  Every loop of that expansion polls then, counted ones too: the
// price of a loop the user left to a macro.
//
// Signal handlers keep no poll: a function that the file installs with
// signal() (sigset, bsd_signal, sysv_signal) or stores in the sa_handler or
// sa_sigaction of a struct sigaction runs whenever the signal arrives,
// inside whatever its thread was doing, the runtime's scheduler and
// context switches included; a poll there could park that thread's context
// or unwind it for a kill in the middle of them (a 1 ms SIGALRM handler that
// counted into a volatile crashed random schedules of sync within a second).
// The handler is no step of an activity, so no kill waits for it.
//
// C99 inline functions with external linkage (which may not call the
// static parc_poll) keep no poll.  -fno-parc-polls leaves out every poll, to
// measure what they cost.
//
//===----------------------------------------------------------------------===//
#include "parcc/Analysis.h"
#include "parcc/Lowering.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>
#include <set>

using namespace clang;

namespace parcc {

static bool externInline(const FunctionDecl *FD) {
  return FD->isInlineSpecified() && FD->getStorageClass() != SC_Static;
}

namespace {

/// Most iterations of a loop that a brief statement may contain.
constexpr int64_t SmallTrips = 16;

/// Iterations between two polls of a loop cut into blocks (PARC_BLOCK of
/// parc_abi.h): a counted loop of at most so many is one block already.
constexpr int64_t BlockTrips = 4096;

/// Most bytes a brief statement may copy or fill as one struct, union or
/// array value.  A larger copy is a memcpy in disguise: a loop of brief
/// bodies copying a 4 MiB struct ran 4096 of them (2 s) between polls
/// (tester B, s52).  At 1 KiB a block of PARC_BLOCK copies stays well
/// under a millisecond, and a larger copy dwarfs a poll per round.
constexpr uint64_t BriefCopyBytes = 1024;

/// `V` itself, read: an lvalue-to-rvalue conversion of a reference to V, no
/// other conversion (an index promoted for the comparison could wrap).
const VarDecl *readOf(const Expr *E) {
  const auto *IC = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
  if (!IC || IC->getCastKind() != CK_LValueToRValue)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(IC->getSubExpr()->IgnoreParens());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

const VarDecl *refOf(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Is E a reference to V, by any of its declarations?  A global may be
/// declared more than once (`extern int n;` in a header, or a block-scope
/// one, and `int n = 5000;` in the file), and a function that names it by
/// one wrote what a loop reads by another: the loop was cut into blocks
/// with the bound read once per block, and ran 4,096 iterations where C
/// stops at 10 (tester).
static bool refersTo(const Expr *E, const VarDecl *V) {
  const VarDecl *R = refOf(E);
  return R && R->getCanonicalDecl() == V->getCanonicalDecl();
}

/// Does St assign V (=, op=, ++, --)?  The address of V is never taken when
/// this is asked, so these are the only ways.
class Writes : public RecursiveASTVisitor<Writes> {
public:
  explicit Writes(const VarDecl *V) : V(V) {}
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp() && refersTo(B->getLHS(), V))
      Found = true;
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp() && refersTo(U->getSubExpr(), V))
      Found = true;
    return !Found;
  }
  const VarDecl *V;
  bool Found = false;
};

bool writes(const Stmt *St, const VarDecl *V) {
  if (!St)
    return false;
  Writes W(V);
  W.TraverseStmt(const_cast<Stmt *>(St));
  return W.Found;
}

/// A const or pure builtin (fabs, strlen), or one that writes errno only
/// (sqrt under -fmath-errno): it changes no variable of the program.  ID 0
/// is no builtin.
static bool readsOnlyBuiltin(const Builtin::Context &BI, unsigned ID) {
  return ID && (BI.isConst(ID) || BI.isPure(ID) || BI.isConstWithoutErrnoAndExceptions(ID) ||
                BI.isConstWithoutExceptions(ID));
}

/// Could St change global variable V without a data race?  It assigns V;
/// or it stores through an lvalue that may be V without naming it: `*p =
/// ...`, `p[i] = ...`, `p->m = ...` (++ and -- too) of a type that C lets
/// alias V's (a character type, V's own or its signed or unsigned twin, a
/// struct or union, which may hold one); or it calls a function that
/// could, as a brief function of the file may (`static void grow(void) {
/// n++; }`): a callee whose body is at hand is looked into (mix64 in a
/// header), others must be const or pure (sqrt, fabs), and an indirect
/// call could be anything.  A named variable, a member of one (`s.m`) or
/// an element of a declared array (`a[i]`) is an object of its own, unless
/// it or V is declared an alias of another (`__attribute__((alias))`).
///
/// Without V, for an object of type T in memory (`rowptr[i + 1]`,
/// `m->n`): the same, except that only the named variables that Private
/// says no pointer reaches are objects of their own (a local scalar whose
/// address is never taken); an array's element or a global may be the
/// object.
class GlobalStores : public RecursiveASTVisitor<GlobalStores> {
public:
  GlobalStores(ASTContext &Ctx, const VarDecl *V)
      : Ctx(Ctx), V(V), T(V->getType().getUnqualifiedType()) {}
  GlobalStores(ASTContext &Ctx, QualType T, std::function<bool(const VarDecl *)> Private)
      : Ctx(Ctx), V(nullptr), T(T.getUnqualifiedType()), Private(std::move(Private)) {}
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      store(B->getLHS());
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      store(U->getSubExpr());
    return !Found;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (markerOf(CE) == Marker::Pbreak || (FD && FD->isNoReturn()))
      return true; // no call that comes back
    if (!FD) {
      Found = true;
      return false;
    }
    const FunctionDecl *Def = nullptr;
    if (FD->hasBody(Def)) {
      if (Seen.insert(Def->getCanonicalDecl()).second)
        TraverseStmt(Def->getBody());
      return !Found;
    }
    if (!(FD->hasAttr<ConstAttr>() || FD->hasAttr<PureAttr>() ||
          readsOnlyBuiltin(Ctx.BuiltinInfo, FD->getBuiltinID())))
      Found = true;
    return !Found;
  }
  bool Found = false;

private:
  void store(const Expr *L) {
    L = L->IgnoreParens();
    if (V && refersTo(L, V)) {
      Found = true;
      return;
    }
    if (V ? ownObject(L) : privateObject(L))
      return;
    QualType LT = L->getType().getUnqualifiedType();
    Found |= LT->isCharType() || LT->isRecordType() || Ctx.hasSameType(LT, T) ||
             (LT->isIntegerType() && T->isIntegerType() && !LT->isBooleanType() &&
              Ctx.getIntWidth(LT) == Ctx.getIntWidth(T) &&
              Ctx.hasSameType(Ctx.getCorrespondingUnsignedType(LT),
                              Ctx.getCorrespondingUnsignedType(T)));
  }
  bool ownObject(const Expr *L) const {
    L = L->IgnoreParens();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(L))
      return !V->getMostRecentDecl()->hasAttr<AliasAttr>() &&
             !DRE->getDecl()->getMostRecentDecl()->hasAttr<AliasAttr>();
    if (const auto *M = dyn_cast<MemberExpr>(L))
      return !M->isArrow() && ownObject(M->getBase());
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(L)) {
      const Expr *Base = A->getBase()->IgnoreParenImpCasts();
      return Base->getType()->isArrayType() && ownObject(Base);
    }
    return false;
  }
  bool privateObject(const Expr *L) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(L);
    const auto *W = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return W && Private(W);
  }
  ASTContext &Ctx;
  const VarDecl *V;
  QualType T;
  std::function<bool(const VarDecl *)> Private;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
};

/// Variables whose address the function takes (`&x`).  The address the
/// token pass takes of a parfor index, for its bounds marker, is not one.
class AddressTaken : public RecursiveASTVisitor<AddressTaken> {
public:
  bool TraverseCallExpr(CallExpr *CE) {
    if (markerOf(CE) == Marker::Bounds)
      return true;
    return RecursiveASTVisitor::TraverseCallExpr(CE);
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = refOf(U->getSubExpr()))
        Vars.insert(V);
    return true;
  }
  llvm::DenseSet<const VarDecl *> Vars;
};

/// The function that E names (`h`, `&h`, `(void (*)(int))h`), or null.
static const FunctionDecl *functionNamed(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenCasts();
  const auto *R = dyn_cast<DeclRefExpr>(E);
  const auto *FD = R ? dyn_cast<FunctionDecl>(R->getDecl()) : nullptr;
  return FD ? FD->getCanonicalDecl() : nullptr;
}

static bool handlerField(const FieldDecl *F) {
  return F && F->getIdentifier() &&
         (F->getName() == "sa_handler" || F->getName() == "sa_sigaction");
}

/// The functions that the file installs as signal handlers: passed to
/// signal() and its kin, or stored in a sa_handler or sa_sigaction field
/// (by assignment or in an initializer); each with the first place.
class SignalHandlers : public RecursiveASTVisitor<SignalHandlers> {
public:
  bool shouldVisitImplicitCode() const { return true; } // initializers' semantic forms
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (FD && FD->getIdentifier() && CE->getNumArgs() == 2 &&
        llvm::StringSwitch<bool>(FD->getName())
            .Cases("signal", "sigset", "bsd_signal", "sysv_signal", "__sysv_signal", true)
            .Default(false))
      add(CE->getArg(1), CE->getBeginLoc());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign)
      if (const auto *M = dyn_cast<MemberExpr>(B->getLHS()->IgnoreParenImpCasts()))
        if (handlerField(dyn_cast<FieldDecl>(M->getMemberDecl())))
          add(B->getRHS(), B->getBeginLoc());
    return true;
  }
  bool VisitInitListExpr(InitListExpr *IL) {
    if (!IL->isSemanticForm())
      return true;
    const RecordDecl *RD = IL->getType()->getAsRecordDecl();
    if (!RD)
      return true;
    if (RD->isUnion()) {
      if (IL->getNumInits() == 1 && handlerField(IL->getInitializedFieldInUnion()))
        add(IL->getInit(0), IL->getBeginLoc());
      return true;
    }
    unsigned I = 0;
    for (const FieldDecl *F : RD->fields()) {
      if (I >= IL->getNumInits())
        break;
      if (handlerField(F))
        add(IL->getInit(I), IL->getInit(I)->getBeginLoc());
      ++I;
    }
    return true;
  }
  llvm::DenseMap<const FunctionDecl *, SourceLocation> Fns;

private:
  /// E, or each branch of a `c ? h : SIG_DFL` that E is.
  void add(const Expr *E, SourceLocation At) {
    E = E->IgnoreParenCasts();
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      add(CO->getTrueExpr(), At);
      add(CO->getFalseExpr(), At);
    } else if (const FunctionDecl *FD = functionNamed(E)) {
      Fns.try_emplace(FD, At);
    }
  }
};

/// `do ... while (0)` (as macros write it), `while (0)`: no back-edge.
bool neverRepeats(const Stmt *L, const ASTContext &Ctx) {
  const Expr *Cond = nullptr;
  if (const auto *D = dyn_cast<DoStmt>(L))
    Cond = D->getCond();
  else if (const auto *W = dyn_cast<WhileStmt>(L))
    Cond = W->getCond();
  else if (const auto *F = dyn_cast<ForStmt>(L))
    Cond = F->getCond();
  bool Value;
  return Cond && !Cond->isValueDependent() && Cond->EvaluateAsBooleanCondition(Value, Ctx) &&
         !Value;
}

/// The steps of a while loop's body to variable V, for a counted while
/// loop: straight-line code (no branch, loop, jump or conditional
/// evaluation) that writes V once, by ++, --, += c or -= c.
class StraightSteps : public RecursiveASTVisitor<StraightSteps> {
public:
  StraightSteps(const VarDecl *V, const ASTContext &Ctx) : V(V), Ctx(Ctx) {}
  bool VisitStmt(Stmt *St) {
    if (isa<IfStmt>(St) || isa<SwitchStmt>(St) || isa<ForStmt>(St) || isa<WhileStmt>(St) ||
        isa<DoStmt>(St) || isa<ContinueStmt>(St) || isa<BreakStmt>(St) || isa<GotoStmt>(St) ||
        isa<IndirectGotoStmt>(St) || isa<ReturnStmt>(St) || isa<LabelStmt>(St) ||
        isa<StmtExpr>(St) || isa<AbstractConditionalOperator>(St) || isa<ChooseExpr>(St))
      Ok = false;
    if (const auto *B = dyn_cast<BinaryOperator>(St)) {
      if (B->isLogicalOp())
        Ok = false;
      if (B->isAssignmentOp() && refOf(B->getLHS()) == V) {
        const auto *CA = dyn_cast<CompoundAssignOperator>(B);
        Expr::EvalResult R;
        if (!CA || (CA->getOpcode() != BO_AddAssign && CA->getOpcode() != BO_SubAssign) ||
            !CA->getRHS()->EvaluateAsInt(R, Ctx) || R.Val.getInt().getSignificantBits() > 32) {
          Ok = false;
        } else {
          int64_t K = R.Val.getInt().getExtValue();
          step(CA->getOpcode() == BO_AddAssign ? K : -K);
        }
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(St))
      if (U->isIncrementDecrementOp() && refOf(U->getSubExpr()) == V)
        step(U->isIncrementOp() ? 1 : -1);
    return Ok;
  }
  bool Ok = true;
  unsigned Count = 0;
  int64_t Step = 0;

private:
  void step(int64_t K) {
    ++Count;
    Step = K;
  }
  const VarDecl *V;
  const ASTContext &Ctx;
};

/// The operands of a chain of Op (`a && b && c`, `i++, p++`), in order,
/// each without its parentheses; E itself when it is no Op.
static void operands(const Expr *E, BinaryOperatorKind Op, SmallVectorImpl<const Expr *> &Out) {
  SmallVector<const Expr *, 4> Work{E}; // no recursion: a chain may be long
  while (!Work.empty()) {
    E = Work.pop_back_val()->IgnoreParens();
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (B && B->getOpcode() == Op) {
      Work.push_back(B->getRHS());
      Work.push_back(B->getLHS());
    } else {
      Out.push_back(E);
    }
  }
}

/// The header of a counted for loop: `i OP bound` with `i += Step`.
struct Counted {
  const VarDecl *Var = nullptr;
  int64_t Step = 0;
  BinaryOperatorKind Op = BO_LT; // with i on the left
  const Expr *Bound = nullptr;
};

class Planner {
public:
  explicit Planner(Session &S) : S(S) {
    for (auto &F : S.M.Functions) {
      Fns[F->FD->getCanonicalDecl()] = F.get();
      AddressTaken AT;
      AT.TraverseStmt(F->FD->getBody());
      Taken[F.get()] = std::move(AT.Vars);
    }
    Handlers = signalHandlers(S.Ctx);
  }

  /// A signal handler of this file: it keeps no poll (see the top).
  bool handler(const FunctionModel &F) const {
    return Handlers.count(F.FD->getCanonicalDecl());
  }

  ASTContext &ctx() const { return S.Ctx; }
  /// Brief statement of function F (see the top of the file).
  bool brief(const Stmt *St, const FunctionModel &F);
  /// A counted for loop whose body is brief: it needs no poll.
  bool pollFree(const Stmt *Loop, const FunctionModel &F);
  /// `while (i OP BOUND [&& brief]) BODY`, BODY stepping i once in
  /// straight-line code; C says how (Out, if given).
  bool countedWhile(const WhileStmt *L, const FunctionModel &F, Counted *Out = nullptr);
  /// `while (n--)`, `while (n-- > 0)`, `while (n-- != 0)` (see below);
  /// Dec, if given, is the `n--`.
  bool countdown(const WhileStmt *L, const FunctionModel &F,
                 const UnaryOperator **Dec = nullptr);
  /// A pollFree for loop that blockLoop may cut into blocks: `i OP BOUND`
  /// as the whole condition, an integer index and bound of at most 64
  /// bits or a pointer index, no `break` of its own.  (insertPolls has
  /// left those of at most BlockTrips iterations alone already.)
  bool blockable(const ForStmt *L, const FunctionModel &F, Counted &C);
  /// A counted while loop that blockCountedWhile may cut: its first
  /// conjunct `i OP BOUND` (Cmp), an index as blockable's, no `break`.
  bool whileBlockable(const WhileStmt *L, const FunctionModel &F, Counted &C,
                      const BinaryOperator *&Cmp);
  /// The index and step of a compare Cond that a block may be cut for.
  bool blockIndex(const BinaryOperator *Cond, const Counted &C, const Stmt *Body);
  /// A brief function: its entry needs no poll, and calls to it are brief.
  bool briefFunction(const FunctionModel &F);
  /// A function that would be brief but for counted loops with a brief
  /// body, of any length: no recursion passes through it, it synchronises
  /// with nothing, and its loops poll per block.
  bool briefButForCountedLoops(const FunctionModel &F);

  bool briefCall(const CallExpr *CE);
  /// Does loop L read or write memory at an address that does not change
  /// in it (a global, `g->off[u + 1]`, a shared variable's `*parc_p_x_`)?
  bool fixedAccess(const Stmt *L, const FunctionModel &F);
  bool invariant(const Expr *E, const Stmt *Loop, const FunctionModel &F);
  /// A counted for loop of at most Trips iterations (a constant first
  /// value and bound) with a brief condition, step and body.
  bool smallLoop(const Stmt *Loop, const FunctionModel &F, int64_t Trips = SmallTrips);
  /// A loop statement that never goes round (`do ... while (0)`).
  bool once(const Stmt *L) const { return neverRepeats(L, S.Ctx); }

private:
  bool counted(const ForStmt *L, const FunctionModel &F, Counted &C);
  bool privateIndex(const Stmt *L, const FunctionModel &F, const clang::VarDecl *V,
                    bool &Integer);
  bool ends(const Stmt *L, const FunctionModel &F, const Counted &C, bool Integer);
  bool countedCond(const Expr *Cond, Counted &C);
  bool briefElsewhere(const FunctionDecl *FD);
  bool taken(const FunctionModel &F, const VarDecl *V) const {
    auto It = Taken.find(&F);
    return It == Taken.end() || It->second.count(V);
  }

  Session &S;
  /// The functions of this file, by canonical declaration.
  llvm::DenseMap<const FunctionDecl *, const FunctionModel *> Fns;
  llvm::DenseMap<const FunctionModel *, llvm::DenseSet<const VarDecl *>> Taken;
  llvm::DenseMap<const FunctionDecl *, SourceLocation> Handlers;
  enum class State { Busy, Yes, No };
  llvm::DenseMap<const FunctionModel *, State> FnState;
  /// Functions defined in headers, judged on their own.
  llvm::DenseMap<const FunctionDecl *, State> OtherState;
};

/// Stops at the first thing a brief statement may not contain.
class BriefCheck : public RecursiveASTVisitor<BriefCheck> {
public:
  BriefCheck(Planner &P, const FunctionModel &F) : P(P), F(F) {}

  bool fail() {
    Ok = false;
    return false;
  }
  bool TraverseForStmt(ForStmt *L) {
    return P.smallLoop(L, F) || (Counted && P.pollFree(L, F)) ||
           (P.once(L) && RecursiveASTVisitor::TraverseForStmt(L)) || fail();
  }
  bool TraverseWhileStmt(WhileStmt *L) {
    return (Counted && P.pollFree(L, F)) ||
           (P.once(L) && RecursiveASTVisitor::TraverseWhileStmt(L)) || fail();
  }
  bool TraverseDoStmt(DoStmt *L) {
    return (P.once(L) && RecursiveASTVisitor::TraverseDoStmt(L)) || fail();
  }
  bool VisitCallExpr(CallExpr *CE) { return P.briefCall(CE) || fail(); }
  bool VisitAtomicExpr(AtomicExpr *) { return fail(); }
  bool VisitAsmStmt(AsmStmt *) { return fail(); }
  bool VisitGotoStmt(GotoStmt *) { return fail(); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return fail(); }
  bool VisitLabelStmt(LabelStmt *) { return fail(); }
  bool VisitAddrLabelExpr(AddrLabelExpr *) { return fail(); }
  bool VisitBlockExpr(BlockExpr *) { return fail(); }
  // A static assertion runs nothing; its message is a string Clang gives no
  // type (an unevaluated string).
  bool TraverseStaticAssertDecl(StaticAssertDecl *) { return true; }
  bool VisitExpr(Expr *E) {
    QualType T = E->getType();
    return T.isNull() || !(T.isVolatileQualified() || T->isAtomicType()) || fail();
  }
  // A struct, union or array value copied (`a = b`, an argument, a
  // return, an initializer) or built (`{0}`, a compound literal).
  bool VisitImplicitCastExpr(ImplicitCastExpr *E) {
    return E->getCastKind() != CK_LValueToRValue || small(E->getType()) || fail();
  }
  bool VisitInitListExpr(InitListExpr *E) { return small(E->getType()) || fail(); }
  bool small(QualType T) {
    if (T.isNull() || !(T->isRecordType() || T->isArrayType()))
      return true;
    if (T->isIncompleteType() || !T->isConstantSizeType())
      return false;
    return uint64_t(P.ctx().getTypeSizeInChars(T).getQuantity()) <= BriefCopyBytes;
  }
  bool VisitVarDecl(VarDecl *V) {
    QualType T = V->getType();
    return !(T.isVolatileQualified() || T->isAtomicType()) || fail();
  }

  Planner &P;
  const FunctionModel &F;
  bool Ok = true;
  /// Also take counted loops with a brief body of any length
  /// (briefButForCountedLoops).
  bool Counted = false;
};

bool Planner::brief(const Stmt *St, const FunctionModel &F) {
  if (!St)
    return true;
  BriefCheck B(*this, F);
  B.TraverseStmt(const_cast<Stmt *>(St));
  return B.Ok;
}

bool Planner::briefFunction(const FunctionModel &F) {
  auto [It, New] = FnState.try_emplace(&F, State::Busy);
  if (!New)
    return It->second == State::Yes; // Busy: recursion is never brief
  bool B = !externInline(F.FD) && !F.FD->isWeak() && brief(F.FD->getBody(), F);
  FnState[&F] = B ? State::Yes : State::No;
  return B;
}

/// Functions that end the process and never return to the caller.
static bool endsProcess(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("exit", "_Exit", "quick_exit", "abort", true)
      .Cases("__assert_fail", "__assert_perror_fail", "__assert_rtn", "__assert", true)
      .Default(false);
}

/// An access in a loop to memory at a fixed address: what a call in the
/// loop makes the back end load and store again on each round.
class FixedAccess : public RecursiveASTVisitor<FixedAccess> {
public:
  FixedAccess(Planner &P, const Stmt *L, const FunctionModel &F, const Model &M)
      : P(P), L(L), F(F), M(M) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (!V || V->getType().isConstQualified() || !V->getType()->isScalarType())
      return true;
    if (!V->hasLocalStorage())
      Found = true;
    // A local that an activity shares with the function around it, which
    // the loop writes: reached through the activity's pointer to it.
    else if (outside(V) && writes(L, V))
      Found = true;
    return !Found;
  }
  /// V declared outside the activity that runs the loop.
  bool outside(const VarDecl *V) const {
    auto It = M.LoopAct.find(L);
    const Activity *Act = It == M.LoopAct.end() ? nullptr : It->second;
    return Act && !within(M.declActivity(V), Act);
  }
  bool VisitExpr(Expr *E) {
    const Expr *Base = nullptr, *Index = nullptr;
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      Base = A->getBase(), Index = A->getIdx();
    else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
      Base = U->getSubExpr();
    else if (const auto *ME = dyn_cast<MemberExpr>(E); ME && ME->isArrow())
      Base = ME->getBase();
    if (Base && E->getType()->isScalarType() && fixed(Base) && (!Index || fixed(Index)))
      Found = true;
    return !Found;
  }
  /// E does not change in the loop: invariant, and no local declared in
  /// the loop (one round's `mid`) in it.
  bool fixed(const Expr *E) {
    struct Inner : RecursiveASTVisitor<Inner> {
      const Stmt *L;
      bool Found = false;
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        const auto *V = dyn_cast<VarDecl>(R->getDecl());
        if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
            L->getSourceRange().fullyContains(V->getSourceRange()))
          Found = true;
        return !Found;
      }
    } I;
    I.L = L;
    I.TraverseStmt(const_cast<Expr *>(E));
    return !I.Found && P.invariant(E, L, F);
  }
  Planner &P;
  const Stmt *L;
  const FunctionModel &F;
  const Model &M;
  bool Found = false;
};

bool Planner::fixedAccess(const Stmt *L, const FunctionModel &F) {
  FixedAccess A(*this, L, F, S.M);
  A.TraverseStmt(const_cast<Stmt *>(L));
  return A.Found;
}

/// A function defined outside this file but visible to it (a static inline
/// function of a header): plain C without polls of its own, so only a body
/// without loops will do (its loops are not in the model, so the brief check
/// refuses them).
bool Planner::briefElsewhere(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || externInline(Def) || Def->isWeak())
    return false;
  auto [It, New] = OtherState.try_emplace(Def->getCanonicalDecl(), State::Busy);
  if (!New)
    return It->second == State::Yes;
  FunctionModel Outside;
  Outside.FD = Def;
  bool B = brief(Def->getBody(), Outside);
  OtherState[Def->getCanonicalDecl()] = B ? State::Yes : State::No;
  return B;
}

bool Planner::briefButForCountedLoops(const FunctionModel &F) {
  BriefCheck B(*this, F);
  B.Counted = true;
  B.TraverseStmt(F.FD->getBody());
  return B.Ok;
}

bool Planner::briefCall(const CallExpr *CE) {
  if (markerOf(CE) == Marker::Pbreak)
    return true; // ends the activity
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  auto It = Fns.find(FD->getCanonicalDecl());
  if (It != Fns.end())
    // Compiled here: brief, or it polls itself; a noreturn one that is
    // not brief polls at its entry before doing anything that could jump
    // back (longjmp).
    return briefFunction(*It->second) || FD->isNoReturn();
  if (briefElsewhere(FD))
    return true;
  // The runtime's answers that never block or take long.
  if (isFileScopeFunction(FD, "parc_procid") || isFileScopeFunction(FD, "parc_nprocs"))
    return true;
  if (unsigned ID = FD->getBuiltinID()) {
    if (readsOnlyBuiltin(S.Ctx.BuiltinInfo, ID))
      return true;
    if (ID == Builtin::BI__builtin_trap || ID == Builtin::BI__builtin_unreachable)
      return true;
  }
  return FD->isNoReturn() && FD->getIdentifier() && endsProcess(FD->getName());
}

bool Planner::countedCond(const Expr *Cond, Counted &C) {
  Cond = Cond->IgnoreParens();
  const auto *B = dyn_cast<BinaryOperator>(Cond);
  if (!B)
    return false;
  if (B->getOpcode() == BO_LAnd)
    return countedCond(B->getLHS(), C) || countedCond(B->getRHS(), C);
  if (!B->isRelationalOp())
    return false;
  BinaryOperatorKind Op = B->getOpcode();
  if (readOf(B->getLHS()) == C.Var) {
    C.Op = Op;
    C.Bound = B->getRHS();
  } else if (readOf(B->getRHS()) == C.Var) {
    C.Op = BinaryOperator::reverseComparisonOp(Op);
    C.Bound = B->getLHS();
  } else {
    return false;
  }
  bool Up = C.Step > 0;
  return Up ? (C.Op == BO_LT || C.Op == BO_LE) : (C.Op == BO_GT || C.Op == BO_GE);
}

bool Planner::counted(const ForStmt *L, const FunctionModel &F, Counted &C) {
  if (!L->getInc() || !L->getCond())
    return false;
  // The increment, or one of several joined by commas (`v++, c++`, a CSR
  // row walked by two pointers, which polled at every nonzero): the one
  // that steps a variable the condition compares.
  SmallVector<const Expr *, 4> Incs;
  operands(L->getInc(), BO_Comma, Incs);
  auto step = [&](const Expr *Inc, Counted &Out) {
    if (const auto *U = dyn_cast<UnaryOperator>(Inc)) {
      if (!U->isIncrementDecrementOp())
        return false;
      Out.Var = refOf(U->getSubExpr());
      Out.Step = U->isIncrementOp() ? 1 : -1;
    } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc)) {
      if (CA->getOpcode() != BO_AddAssign && CA->getOpcode() != BO_SubAssign)
        return false;
      Out.Var = refOf(CA->getLHS());
      Expr::EvalResult R;
      if (!CA->getRHS()->EvaluateAsInt(R, S.Ctx) || R.Val.getInt().getSignificantBits() > 32)
        return false;
      Out.Step = R.Val.getInt().getExtValue();
      if (CA->getOpcode() == BO_SubAssign)
        Out.Step = -Out.Step;
    } else {
      return false;
    }
    return Out.Var && Out.Step != 0;
  };
  for (const Expr *Inc : Incs) {
    Counted Try;
    if (!step(Inc, Try))
      continue;
    // Written only by the step.
    bool Integer, Other = false;
    for (const Expr *E : Incs)
      Other |= E != Inc && writes(E, Try.Var);
    if (Other || !privateIndex(L, F, Try.Var, Integer) || writes(L->getCond(), Try.Var) ||
        writes(L->getBody(), Try.Var) || !countedCond(L->getCond(), Try))
      continue;
    if (ends(L, F, Try, Integer)) {
      C = Try;
      return true;
    }
  }
  return false;
}

/// An index a counted loop may have: a local integer (at least int, so no
/// promotion wraps it) or object pointer, neither volatile nor atomic,
/// private to the activity running loop L and never address-taken.
bool Planner::privateIndex(const Stmt *L, const FunctionModel &F, const VarDecl *V,
                           bool &Integer) {
  QualType T = V->getType();
  bool Pointer = T->isPointerType() && T->getPointeeType()->isObjectType();
  Integer = T->isIntegerType() && !T->isBooleanType() && !T->isEnumeralType() &&
            S.Ctx.getTypeSize(T) >= S.Ctx.getTypeSize(S.Ctx.IntTy);
  if (!V->hasLocalStorage() || T.isVolatileQualified() || T->isAtomicType() ||
      !(Pointer || Integer))
    return false;
  auto LA = S.M.LoopAct.find(L);
  return LA != S.M.LoopAct.end() && S.M.declActivity(V) == LA->second && !taken(F, V);
}

/// Does counted loop L end?  An index that wraps (unsigned, or -fwrapv)
/// needs a strict compare and a unit step; the bound must not change.
bool Planner::ends(const Stmt *L, const FunctionModel &F, const Counted &C, bool Integer) {
  QualType T = C.Var->getType();
  bool Wraps = Integer && (T->isUnsignedIntegerType() ||
                           S.Ctx.getLangOpts().isSignedOverflowDefined());
  if (Wraps && ((C.Op != BO_LT && C.Op != BO_GT) || (C.Step != 1 && C.Step != -1)))
    return false;
  return invariant(C.Bound, L, F);
}

bool Planner::invariant(const Expr *E, const Stmt *Loop, const FunctionModel &F) {
  E = E->IgnoreParens();
  if (isa<IntegerLiteral>(E) || isa<CharacterLiteral>(E) || isa<UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    if (CE->getCastKind() == CK_ArrayToPointerDecay)
      if (const VarDecl *V = refOf(CE->getSubExpr()))
        return V->getType()->isArrayType(); // the array's address
    if (!isa<ImplicitCastExpr>(CE) && !isa<CStyleCastExpr>(CE))
      return false;
    return invariant(CE->getSubExpr(), Loop, F);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    switch (U->getOpcode()) {
    case UO_Plus:
    case UO_Minus:
    case UO_Not:
    case UO_LNot:
      return invariant(U->getSubExpr(), Loop, F);
    case UO_Deref:
      break; // below
    default:
      return false;
    }
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && B->getOpcode() != BO_Comma &&
           invariant(B->getLHS(), Loop, F) && invariant(B->getRHS(), Loop, F);
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return invariant(C->getCond(), Loop, F) && invariant(C->getTrueExpr(), Loop, F) &&
           invariant(C->getFalseExpr(), Loop, F);
  // An object in memory read through an invariant address: `rowptr[i +
  // 1]` (a CSR matrix's row), `*end`, `m->n`.  The loop may not store
  // where it may be (GlobalStores without a variable).  Such a row loop of
  // a sparse product polled at every element, which kept the back end
  // from keeping anything in registers: 0.32 s against 0.22 s serial
  // (tester A, s43).
  const Expr *Base = nullptr, *Index = nullptr;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    Base = A->getBase(), Index = A->getIdx();
  else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    Base = U->getSubExpr();
  else if (const auto *M = dyn_cast<MemberExpr>(E); M && M->isArrow() && isa<FieldDecl>(M->getMemberDecl()) &&
                                                   !cast<FieldDecl>(M->getMemberDecl())->isBitField())
    Base = M->getBase();
  if (Base) {
    QualType T = E->getType();
    if (T.isVolatileQualified() || T->isAtomicType() || !T->isScalarType() ||
        !Base->getType()->isPointerType() || !invariant(Base, Loop, F) ||
        (Index && !invariant(Index, Loop, F)))
      return false;
    GlobalStores G(S.Ctx, T, [&](const VarDecl *W) {
      if (!W->hasLocalStorage() || W->getType()->isArrayType() || W->getType()->isRecordType())
        return false;
      const auto *Fn = dyn_cast_or_null<FunctionDecl>(W->getParentFunctionOrMethod());
      auto It = Fn ? Fns.find(Fn->getCanonicalDecl()) : Fns.end();
      return It != Fns.end() && !taken(*It->second, W);
    });
    G.TraverseStmt(const_cast<Stmt *>(Loop));
    return !G.Found;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return false;
    QualType T = V->getType();
    if (T.isVolatileQualified() || T->isAtomicType())
      return false;
    if (T.isConstQualified())
      return true;
    if (V->hasLocalStorage())
      return !taken(F, V) && !writes(Loop, V);
    // A global or static one (`int n;` set from argv, the classic bound):
    // the loop may not assign it, nor store where it may be.  A brief loop
    // calls nothing that could, and another thread could only through a
    // data race.  Before, such a loop polled at every iteration, which
    // kept the back end from vectorising it: a tester's blocked LU ran 2.5
    // times as long as its OpenMP twin at P = 1.
    if (!V->hasGlobalStorage())
      return false;
    GlobalStores G(S.Ctx, V);
    G.TraverseStmt(const_cast<Stmt *>(Loop));
    return !G.Found;
  }
  return false;
}

bool Planner::smallLoop(const Stmt *Loop, const FunctionModel &F, int64_t Most) {
  const auto *L = dyn_cast<ForStmt>(Loop);
  Counted C;
  if (!L || !counted(L, F, C) || !brief(L->getCond(), F) || !brief(L->getInc(), F))
    return false;
  // The first value: `T i = K` or `i = K`.
  const Expr *Init = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(L->getInit())) {
    if (DS->isSingleDecl() && DS->getSingleDecl() == C.Var)
      Init = C.Var->getInit();
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(L->getInit())) {
    if (B->getOpcode() == BO_Assign && refOf(B->getLHS()) == C.Var)
      Init = B->getRHS();
  }
  Expr::EvalResult From, To;
  if (!Init || !Init->EvaluateAsInt(From, S.Ctx) || !C.Bound->EvaluateAsInt(To, S.Ctx) ||
      From.Val.getInt().getSignificantBits() > 32 || To.Val.getInt().getSignificantBits() > 32)
    return false;
  int64_t A = From.Val.getInt().getExtValue(), B = To.Val.getInt().getExtValue();
  int64_t Span = C.Step > 0 ? B - A : A - B, Step = C.Step > 0 ? C.Step : -C.Step;
  if (C.Op == BO_LE || C.Op == BO_GE)
    ++Span;
  int64_t Trips = Span <= 0 ? 0 : (Span + Step - 1) / Step;
  return Trips <= Most && brief(L->getBody(), F);
}

/// `while (n--)`, `while (n-- > 0)`, `while (n-- != 0)`: a countdown of a
/// local integer (at least int) private to the activity running the loop,
/// never address-taken and written only there.  It ends as a counted loop
/// does: within n + 1 iterations, or at signed overflow, which is undefined.
bool Planner::countdown(const WhileStmt *L, const FunctionModel &F, const UnaryOperator **Dec) {
  const Expr *C = L->getCond()->IgnoreParens();
  bool Positive = false; // `n-- > 0`: ends for any n
  if (const auto *B = dyn_cast<BinaryOperator>(C)) {
    Positive = B->getOpcode() == BO_GT;
    Expr::EvalResult Zero;
    if ((B->getOpcode() != BO_GT && B->getOpcode() != BO_NE) ||
        !B->getRHS()->EvaluateAsInt(Zero, S.Ctx) || !Zero.Val.getInt().isZero())
      return false;
    C = B->getLHS();
  }
  const auto *U = dyn_cast<UnaryOperator>(C->IgnoreParenImpCasts());
  if (!U || U->getOpcode() != UO_PostDec)
    return false;
  const VarDecl *V = refOf(U->getSubExpr());
  bool Integer;
  // `while (n--)` and `while (n-- != 0)` with a signed n that starts
  // negative run until n overflows, some 2^63 times: "no limit" written as
  // -1 (`while (budget-- != 0)`) was never killed (tester).  Those poll.
  if (V && !Positive && !V->getType()->isUnsignedIntegerType())
    return false;
  if (!V || !privateIndex(L, F, V, Integer) || !Integer || writes(L->getBody(), V))
    return false;
  if (Dec)
    *Dec = U;
  return true;
}

/// `while (i OP bound) { ... i++; ... }`: as a counted for loop, with the
/// step written once in straight-line code of the body
/// (`while (x < end) *y++ += 2.0f * *x++;`), so that every iteration
/// makes it.  The condition may be such a compare joined with others by
/// `&&`, as a counted for loop's may: the compare alone bounds the rounds
/// (`while (k < m && s[i + k] == p[k]) k++;`, a string search's inner
/// loop, which polled at every character: 1.75 times the time of the loop
/// without the poll at P = 1, tester A, s50).
bool Planner::countedWhile(const WhileStmt *L, const FunctionModel &F, Counted *Out) {
  Counted C;
  const Expr *Cond = L->getCond()->IgnoreParens();
  SmallVector<const Expr *, 4> Conjuncts;
  operands(Cond, BO_LAnd, Conjuncts);
  for (const Expr *E : Conjuncts) {
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B || !B->isRelationalOp())
      continue;
    for (const Expr *Side : {B->getLHS(), B->getRHS()}) {
      const VarDecl *V = readOf(Side);
      if (!V)
        continue;
      StraightSteps Steps(V, S.Ctx);
      Steps.TraverseStmt(const_cast<Stmt *>(L->getBody()));
      if (!Steps.Ok)
        return false;
      if (Steps.Count != 1 || Steps.Step == 0)
        continue;
      C.Var = V;
      C.Step = Steps.Step;
      break;
    }
    if (C.Var)
      break;
  }
  bool Integer;
  if (!C.Var || !privateIndex(L, F, C.Var, Integer) || writes(L->getCond(), C.Var) ||
      !countedCond(Cond, C) || !ends(L, F, C, Integer))
    return false;
  if (Out)
    *Out = C;
  return true;
}

bool Planner::pollFree(const Stmt *Loop, const FunctionModel &F) {
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return (countdown(W, F) || countedWhile(W, F)) && brief(W->getCond(), F) &&
           brief(W->getBody(), F);
  const auto *L = dyn_cast<ForStmt>(Loop);
  Counted C;
  return L && counted(L, F, C) && brief(L->getCond(), F) && brief(L->getInc(), F) &&
         brief(L->getBody(), F);
}

/// Does St (a loop's body) hold a `break` that leaves that loop: one not
/// inside a loop or switch of its own?
/// Does a visitor of kind V (OwnBreak, StrayCase) find what it looks for
/// in St?
template <class V> bool finds(const Stmt *St) {
  V Visitor;
  Visitor.TraverseStmt(const_cast<Stmt *>(St));
  return Visitor.Found;
}

class OwnBreak : public RecursiveASTVisitor<OwnBreak> {
public:
  bool Found = false;
  bool VisitBreakStmt(BreakStmt *) { return !(Found = true); }
  bool TraverseForStmt(ForStmt *) { return true; }
  bool TraverseWhileStmt(WhileStmt *) { return true; }
  bool TraverseDoStmt(DoStmt *) { return true; }
  bool TraverseSwitchStmt(SwitchStmt *) { return true; }
};

bool Planner::blockable(const ForStmt *L, const FunctionModel &F, Counted &C) {
  if (!pollFree(L, F) || !counted(L, F, C))
    return false;
  const auto *Cond = dyn_cast<BinaryOperator>(L->getCond()->IgnoreParens());
  if (!Cond || readOf(Cond->getLHS()) != C.Var || Cond->getRHS() != C.Bound)
    return false;
  return blockIndex(Cond, C, L->getBody());
}

bool Planner::blockIndex(const BinaryOperator *Cond, const Counted &C, const Stmt *Body) {
  QualType CT = Cond->getLHS()->getType().getCanonicalType();
  // A pointer index steps through an array of complete objects (`for (p =
  // a; p < a + n; p++)`): no void or function pointer arithmetic, and no
  // variably modified type to write twice, nor one around a struct, union
  // or enum without a name (`struct { int x; } *p, *e;`), which the block's
  // declarations could not spell.
  const auto *Tag = innermost(S.Ctx, CT)->getAs<TagType>();
  bool Pointer = CT->isPointerType() && C.Var->getType()->isPointerType() &&
                 CT->getPointeeType()->isObjectType() &&
                 !CT->getPointeeType()->isIncompleteType() && !CT->isVariablyModifiedType() &&
                 !(Tag && !Tag->getDecl()->getIdentifier() &&
                   !Tag->getDecl()->getTypedefNameForAnonDecl());
  if (!Pointer && (!CT->isIntegerType() || !CT->isBuiltinType() || S.Ctx.getTypeSize(CT) > 64 ||
                   !C.Var->getType()->isIntegerType()))
    return false;
  int64_t Step = C.Step > 0 ? C.Step : -C.Step;
  if (Step > (int64_t(1) << 18))
    return false; // a block of PARC_BLOCK steps would not fit in an int
  return !finds<OwnBreak>(Body);
}

bool Planner::whileBlockable(const WhileStmt *L, const FunctionModel &F, Counted &C,
                             const BinaryOperator *&Cmp) {
  if (!pollFree(L, F) || !countedWhile(L, F, &C))
    return false;
  // The compare first (`k < m && s[i + k] == p[k]`), index on the left:
  // the block's end replaces BOUND, and REST keeps its evaluations.
  SmallVector<const Expr *, 4> Conjuncts;
  operands(L->getCond()->IgnoreParens(), BO_LAnd, Conjuncts);
  Cmp = dyn_cast<BinaryOperator>(Conjuncts.front()->IgnoreParens());
  if (!Cmp || readOf(Cmp->getLHS()) != C.Var || Cmp->getRHS() != C.Bound)
    return false;
  return blockIndex(Cmp, C, L->getBody());
}

} // namespace

llvm::DenseMap<const FunctionDecl *, SourceLocation> signalHandlers(ASTContext &Ctx) {
  SignalHandlers SH;
  SH.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(SH.Fns);
}

/// for (init; ; inc): the poll becomes the condition.
static bool pollEmptyFor(Session &S, const ForStmt *F, bool Insert) {
  if (F->getLParenLoc().isMacroID() || F->getRParenLoc().isMacroID())
    return false;
  int Depth = 0;
  for (const Session::RawToken &T :
       S.lexRange(S.endOffset(F->getLParenLoc()), S.offset(F->getRParenLoc()))) {
    if (T.Kind == tok::l_paren || T.Kind == tok::l_brace || T.Kind == tok::l_square)
      ++Depth;
    else if (T.Kind == tok::r_paren || T.Kind == tok::r_brace || T.Kind == tok::r_square)
      --Depth;
    else if (T.Kind == tok::semi && Depth == 0) {
      if (Insert)
        S.Edits.insert(T.Off + T.Len, "(parc_poll(), 1)");
      return true;
    }
  }
  return false;
}

/// Wraps a loop condition as (parc_poll(), COND).  A macro call in the
/// condition (`while (!atomic_load(&f))`, `while (faa(&n, 0) < k)`) is taken
/// whole; only a condition that is not between the loop's own parentheses
/// as written in the file (the loop or its head written by a macro) stays
/// without a poll.
static bool wrapCond(Session &S, const Expr *Cond, SourceLocation Open, SourceLocation Close,
                     bool Insert = true) {
  if (!Cond || Open.isMacroID() || Close.isMacroID())
    return false;
  CharSourceRange R = S.SM.getExpansionRange(Cond->getSourceRange());
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID() ||
      !S.SM.isWrittenInMainFile(R.getBegin()))
    return false;
  unsigned B = S.SM.getFileOffset(R.getBegin());
  unsigned E = S.SM.getFileOffset(R.getEnd());
  if (R.isTokenRange())
    E += Lexer::MeasureTokenLength(R.getEnd(), S.SM, S.Ctx.getLangOpts());
  if (B <= S.offset(Open) || E > S.offset(Close))
    return false;
  if (Insert) {
    S.Edits.insert(B, "(parc_poll(), ");
    S.Edits.insert(E, ")");
  }
  return true;
}

/// Puts a poll at the head of loop L; with Insert false, only says whether
/// it would.
static bool pollHead(Session &S, const Stmt *L, bool Insert = true) {
  if (const auto *W = dyn_cast<WhileStmt>(L))
    return wrapCond(S, W->getCond(), W->getLParenLoc(), W->getRParenLoc(), Insert);
  if (const auto *D = dyn_cast<DoStmt>(L))
    return wrapCond(S, D->getCond(), D->getWhileLoc(), D->getRParenLoc(), Insert);
  const auto *F = cast<ForStmt>(L);
  if (F->getCond())
    return wrapCond(S, F->getCond(), F->getLParenLoc(), F->getRParenLoc(), Insert);
  return pollEmptyFor(S, F, Insert);
}

/// Where the line that holds offset Off of T begins: just after the '\n'
/// before Off, or 0.
static size_t lineStart(StringRef T, size_t Off) {
  size_t NL = Off == 0 ? StringRef::npos : T.rfind('\n', Off - 1);
  return NL == StringRef::npos ? 0 : NL + 1;
}

/// The `#pragma` line (continuation lines joined) that comes right before
/// B1 offset Off, which starts a statement, with only blank lines, `//`
/// comment lines and conditional directives between; "" if none.  Such a pragma governs the statement:
/// gcc takes nothing between them (`#pragma GCC unroll 4` or `#pragma omp
/// parallel for`, then `parc_poll(); for ...`: "for statement expected").
static std::string pragmaBefore(Session &S, unsigned Off) {
  StringRef T(S.TP.Text);
  if (Off > T.size())
    return "";
  size_t LineStart = lineStart(T, Off);
  if (!T.slice(LineStart, Off).trim().empty())
    return ""; // something else comes first on the statement's line
  while (LineStart > 0) {
    // The logical line that ends at LineStart - 1, continuations joined.
    size_t End = LineStart - 1, Begin = End;
    while (true) {
      Begin = lineStart(T, Begin);
      if (Begin < 2 || T[Begin - 2] != '\\')
        break;
      Begin -= 1; // the line before ends with a backslash
    }
    StringRef Line = T.slice(Begin, End).trim();
    LineStart = Begin;
    if (Line.empty() || Line.starts_with("//"))
      continue;
    if (!Line.consume_front("#"))
      return "";
    Line = Line.ltrim();
    // `#ifdef _OPENMP` / `#pragma omp parallel for` / `#endif`: the front
    // end, which does not define _OPENMP, skips the pragma, and the loop
    // polled; the back end, under -fopenmp, then stopped at the poll
    // ("invalid controlling predicate").
    StringRef Word = Line.take_while([](char C) { return isalpha((unsigned char)C); });
    if (Word == "if" || Word == "ifdef" || Word == "ifndef" || Word == "elif" ||
        Word == "elifdef" || Word == "elifndef" || Word == "else" || Word == "endif")
      continue;
    if (!Line.consume_front("pragma") || Line.empty() || !isspace((unsigned char)Line[0]))
      return "";
    return Line.trim().str();
  }
  return "";
}

/// An OpenMP or OpenACC loop directive right before loop L: the loop must
/// keep its canonical form (`for (i = 0; i < n; i++)`, no poll in it), and
/// so must the loops that collapse(N) joins to it.
static bool directiveLoop(Session &S, const Stmt *L) {
  if (L->getBeginLoc().isMacroID())
    return false;
  std::string P = pragmaBefore(S, S.offset(L->getBeginLoc()));
  return StringRef(P).starts_with("omp") || StringRef(P).starts_with("acc");
}

/// Does the statement at B1 offset Off stand on its own: after the end of
/// another statement, a `{`, a label's colon, a directive line, `else`,
/// `do`, or an if, while, for or switch head (lexed from From, the
/// function body's `{`)?  Not after a macro that it may continue (`PFOR
/// for (...)` with `#define PFOR _Pragma("omp parallel for")`), where
/// nothing may be put in between.
static bool plainStatementStart(Session &S, unsigned From, unsigned Off) {
  std::vector<Session::RawToken> T = S.lexRange(From, Off);
  if (T.empty())
    return false;
  StringRef Src(S.TP.Text);
  auto Word = [&](const Session::RawToken &R) { return Src.substr(R.Off, R.Len); };
  const Session::RawToken &P = T.back();
  if (Src.slice(lineStart(Src, P.Off), P.Off).ltrim().starts_with("#"))
    return true; // a directive that is no pragma (pragmaBefore tells those)
  if (P.Kind == tok::semi || P.Kind == tok::l_brace || P.Kind == tok::r_brace ||
      P.Kind == tok::colon)
    return true;
  if (P.Kind == tok::raw_identifier)
    return Word(P) == "else" || Word(P) == "do";
  if (P.Kind != tok::r_paren)
    return false;
  int Depth = 0;
  for (size_t I = T.size(); I-- > 0;) {
    Depth += (T[I].Kind == tok::r_paren) - (T[I].Kind == tok::l_paren);
    if (Depth == 0)
      return I > 0 && T[I - 1].Kind == tok::raw_identifier &&
             (Word(T[I - 1]) == "if" || Word(T[I - 1]) == "while" ||
              Word(T[I - 1]) == "for" || Word(T[I - 1]) == "switch");
  }
  return false;
}

/// B and E written in the main file, neither in a macro's expansion: text
/// that parcc may rewrite around.
static bool writtenHere(Session &S, SourceLocation B, SourceLocation E) {
  return !B.isMacroID() && !E.isMacroID() && S.inMainFile(B) && S.inMainFile(E);
}

/// The main file's text [Lo, Hi) (B1 offsets) that R's tokens come from:
/// R written in the file, or beginning and ending with whole macro calls
/// written there (`_PB_N`, `x = MAX(x, 7)`), not in a macro's body.
static bool fileSpan(Session &S, SourceRange R, unsigned &Lo, unsigned &Hi) {
  CharSourceRange C = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), S.SM,
                                               S.Ctx.getLangOpts());
  if (C.isInvalid() || !S.SM.isWrittenInMainFile(C.getBegin()) ||
      !S.SM.isWrittenInMainFile(C.getEnd()))
    return false;
  Lo = S.SM.getFileOffset(C.getBegin());
  Hi = S.SM.getFileOffset(C.getEnd());
  return true;
}

/// Off, or just past a `;` that follows it: an expression statement's `;`
/// is not in its range, and a stray one after a statement that ends in `}`
/// is an empty statement, as good inside.
static unsigned pastSemi(Session &S, unsigned Off) {
  unsigned Semi;
  tok::TokenKind Kind;
  return S.tokenAt(Off, Semi, Kind) && Kind == tok::semi ? Semi + 1 : Off;
}

/// Does St declare a static or extern object (in a statement expression),
/// or make a compound literal?  Such text may not be written twice: each
/// copy would be an object, and a literal of the do loop's copy of the
/// condition ended with its block, where a pointer to it lived on into the
/// next (ASan's stack-use-after-scope, tester K, s46).
class StaticDecl : public RecursiveASTVisitor<StaticDecl> {
public:
  bool Found = false;
  bool VisitVarDecl(VarDecl *V) { return !(Found = !V->hasLocalStorage()); }
  bool VisitCompoundLiteralExpr(CompoundLiteralExpr *) { return !(Found = true); }
};

/// A `case` or `default` label in St of a switch around it (Duff's device):
/// a jump into a loop run in blocks skipped its counter's initialisation,
/// and a kill waited seconds for a counter that started at garbage (tester
/// J, s46).
class StrayCase : public RecursiveASTVisitor<StrayCase> {
public:
  bool Found = false;
  bool TraverseSwitchStmt(SwitchStmt *) { return true; } // its labels are its own
  bool VisitSwitchCase(SwitchCase *) { return !(Found = true); }
};

/// Does E expand __COUNTER__ (through any macro)?  Written twice, it
/// counts twice.
class CounterUse : public RecursiveASTVisitor<CounterUse> {
public:
  explicit CounterUse(Session &S) : S(S) {}
  bool VisitIntegerLiteral(IntegerLiteral *I) {
    SourceLocation L = I->getLocation();
    if (L.isMacroID() &&
        Lexer::getImmediateMacroName(L, S.SM, S.Ctx.getLangOpts()) == "__COUNTER__")
      Found = true;
    return !Found;
  }
  Session &S;
  bool Found = false;
};

/// The parts of a loop that blockUncounted rewrites, at B1 offsets: the
/// keyword, the body's end (after an expression statement's `;`), and the
/// condition and increment (null where the loop has none).
struct Uncounted {
  unsigned Keyword = 0, BodyEnd = 0;
  const Expr *Cond = nullptr, *Inc = nullptr;
  const Stmt *Body = nullptr;
};

/// A loop that polls in its head today but whose condition, increment and
/// body are brief, written whole in the file (no part in a macro, no pragma
/// before it): blockUncounted cuts it into blocks of PARC_BLOCK iterations.
/// With Ends, a loop that ends by itself instead (pollFree) and that
/// blockLoop cannot cut: `while (k < n) { ...; k++; }`, `for (...; i < n
/// && x != 5; ...)`, a `break` in the body.  Such a loop kept no poll at
/// all, and a kill waited for all of its rounds (4e9 of them, tester B,
/// s52); it may touch no fixed memory (its rounds are long anyway).
static bool uncountedBlockable(Session &S, Planner &P, const Stmt *L, const FunctionModel &F,
                               Uncounted &U, bool Ends = false) {
  if (!S.Opts.Polls || P.once(L) || P.pollFree(L, F) != Ends || directiveLoop(S, L))
    return false;
  const Stmt *Body;
  SourceLocation Kw, Close;
  if (const auto *W = dyn_cast<WhileStmt>(L)) {
    U.Cond = W->getCond();
    Body = W->getBody();
    Kw = W->getWhileLoc();
    Close = W->getRParenLoc();
  } else if (const auto *D = dyn_cast<DoStmt>(L)) {
    U.Cond = D->getCond();
    Body = D->getBody();
    Kw = D->getDoLoc();
    Close = D->getRParenLoc();
  } else {
    const auto *Fo = cast<ForStmt>(L);
    U.Cond = Fo->getCond();
    U.Inc = Fo->getInc();
    Body = Fo->getBody();
    Kw = Fo->getForLoc();
    Close = Fo->getRParenLoc();
  }
  U.Body = Body;
  auto Written = [&](SourceLocation B, SourceLocation E) { return writtenHere(S, B, E); };
  auto Once = [&](const Expr *E) {
    if (!E)
      return true;
    StaticDecl SD;
    SD.TraverseStmt(const_cast<Expr *>(E));
    CounterUse CU(S);
    CU.TraverseStmt(const_cast<Expr *>(E));
    return !SD.Found && !CU.Found && Written(E->getBeginLoc(), E->getEndLoc()) &&
           !S.hasDirective(S.offset(E->getBeginLoc()), S.expansionEnd(E->getEndLoc()));
  };
  const auto *FnBody = dyn_cast_or_null<CompoundStmt>(F.FD->getBody());
  if (!FnBody || FnBody->getLBracLoc().isMacroID() || !Written(Kw, Close) ||
      !Written(Body->getBeginLoc(), Body->getEndLoc()) || !Once(U.Cond) || !Once(U.Inc) ||
      !P.brief(U.Cond, F) || !P.brief(U.Inc, F) || !P.brief(Body, F) ||
      (!Ends && !P.fixedAccess(L, F)))
    return false;
  if (finds<StrayCase>(Body))
    return false;
  // The copy of C goes after BODY: a directive there (`#define LIM 5000`)
  // would change what the copy means.
  if (S.hasDirective(S.offset(Body->getBeginLoc()), S.endOffset(Body->getEndLoc())))
    return false;
  U.Keyword = S.offset(Kw);
  StringRef Word = isa<WhileStmt>(L) ? "while" : isa<DoStmt>(L) ? "do" : "for";
  if (!StringRef(S.TP.Text).substr(U.Keyword).starts_with(Word))
    return false; // a keyword split by a line splice
  if (!pragmaBefore(S, U.Keyword).empty() ||
      !plainStatementStart(S, S.offset(FnBody->getLBracLoc()), U.Keyword))
    return false;
  unsigned Semi;
  tok::TokenKind Kind;
  if (isa<DoStmt>(L)) {
    // The `;` after `while (C)`.
    if (!S.tokenAt(S.endOffset(Close), Semi, Kind) || Kind != tok::semi)
      return false;
    U.BodyEnd = Semi + 1;
    return true;
  }
  U.BodyEnd = pastSemi(S, S.endOffset(Body->getEndLoc()));
  return true;
}

/// Does the head of loop L poll, before its first iteration too?
static bool headPolls(Session &S, Planner &P, const Stmt *L, const FunctionModel &F) {
  if (!isa<WhileStmt>(L) && !isa<ForStmt>(L))
    return false; // a do loop runs its body first
  Uncounted U;
  if (uncountedBlockable(S, P, L, F, U))
    return false; // its first block runs before its first poll
  if (directiveLoop(S, L))
    return false;
  if (L->getBeginLoc().isMacroID() || P.pollFree(L, F) || P.once(L))
    return false;
  if (const auto *Fo = dyn_cast<ForStmt>(L))
    if (!P.brief(Fo->getInit(), F))
      return false;
  return pollHead(S, L, /*Insert=*/false);
}

/// Where the entry poll of a function that is not brief goes: before its
/// first statement that is not brief.  Returns the B1 offset, or sets the
/// construct's PollFirst, or neither when that statement polls first thing
/// anyway (a parblock, whose epar polls; a while or for loop).
static bool entryPollAt(Session &S, Planner &P, FunctionModel &F, const CompoundStmt *Body,
                        unsigned &At) {
  At = S.endOffset(Body->getLBracLoc());
  const Stmt *First = nullptr;
  bool Skipped = false;
  for (const Stmt *St : Body->body()) {
    if (!P.brief(St, F)) {
      First = St;
      break;
    }
    Skipped = true;
  }
  if (!First)
    return true; // a brief body in a function that may not skip its poll
  if (headPolls(S, P, First, F))
    return false;
  // Brief but for counted loops (a search loop that returns early): no
  // recursion passes through the function and it synchronises with
  // nothing, so what runs before its first block's poll is a bounded
  // stretch of its caller's.
  if (P.briefButForCountedLoops(F))
    return false;
  // `return C ? A : B;` (Cilk's fib, `return n < 2 ? n : fib(n - 1) +
  // fib(n - 2);`) with C and one arm brief is the guard `if (C) return A;`
  // written as one statement: the poll goes into the other arm,
  // `C ? A : (parc_poll(), B)`, so that the leaves of the recursion poll
  // nowhere here either (an entry poll cost fib 1.43 times its time).
  if (const auto *R = dyn_cast<ReturnStmt>(First))
    if (const Expr *V = R->getRetValue())
      if (const auto *CO = dyn_cast<ConditionalOperator>(V->IgnoreParenImpCasts())) {
        const Expr *T = CO->getTrueExpr(), *E = CO->getFalseExpr();
        bool BT = P.brief(T, F), BE = P.brief(E, F);
        const Expr *Arm = BT ? E : T;
        if (BT != BE && P.brief(CO->getCond(), F) && !Arm->getBeginLoc().isMacroID() &&
            !Arm->getEndLoc().isMacroID()) {
          S.Edits.insert(S.offset(Arm->getBeginLoc()), "(parc_poll(), ");
          S.Edits.insert(S.endOffset(Arm->getEndLoc()), ")");
          return false;
        }
      }
  for (Construct *C : F.TopLevel)
    if (C->Block == First) {
      if (C->Kind == ConstructKind::Parblock)
        return false;
      for (const Expr *B : C->Bounds)
        if (!P.brief(B, F))
          return true;
      C->PollFirst = true;
      return false;
    }
  // Not between a pragma and the statement it governs: at the entry then.
  // (A loop under `#pragma GCC unroll` or `#pragma clang loop` is an
  // AttributedStmt that starts at the pragma itself.)
  // Nor after a macro that the statement continues (`PFOR for (...)` with
  // `#define PFOR _Pragma("omp parallel for")`): only after a `;`, a brace,
  // a label's colon or a directive that is no pragma.
  if (Skipped && !isa<DeclStmt>(First) && !First->getBeginLoc().isMacroID()) {
    unsigned Off = S.offset(First->getBeginLoc());
    StringRef Text = StringRef(S.TP.Text).substr(Off);
    if (plainStatementStart(S, S.offset(Body->getLBracLoc()), Off) && !Text.starts_with("#") &&
        !Text.starts_with("pragma") && !Text.starts_with("_Pragma") &&
        pragmaBefore(S, Off).empty())
      At = Off;
  }
  return true;
}

namespace {

/// Most tokens of a body that parcc writes twice (LowerParfor.cpp: the full
/// blocks and the last one): bounds the growth of the emitted code.
constexpr size_t TwiceTokens = 300;

/// What keeps a brief body from being written twice, and whether it ends
/// its activity (pbreak, preturn).
class TwiceCheck : public RecursiveASTVisitor<TwiceCheck> {
public:
  bool fail() {
    Ok = false;
    return false;
  }
  bool VisitLabelStmt(LabelStmt *) { return fail(); } // one label, two definitions
  bool VisitAddrLabelExpr(AddrLabelExpr *) { return fail(); }
  bool VisitVarDecl(VarDecl *V) {
    // Two copies of a static or thread-local object would be two objects.
    if (V->isStaticLocal() || V->getTLSKind() != VarDecl::TLS_None ||
        isVariablyModified(V->getType()))
      return fail();
    return true;
  }
  bool VisitTypedefNameDecl(TypedefNameDecl *T) {
    return !isVariablyModified(T->getUnderlyingType()) || fail();
  }
  bool VisitReturnStmt(ReturnStmt *) {
    Ends = true; // preturn (any other return in an activity is an error)
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (markerOf(CE) == Marker::Pbreak)
      Ends = true;
    return true;
  }
  bool Ok = true, Ends = false;
};

} // namespace

/// Whether the brief activity body A may be written twice with the meaning
/// of once; sets A.Ends.
static bool twiceSafe(Session &S, Activity &A) {
  TwiceCheck T;
  T.TraverseStmt(const_cast<CompoundStmt *>(A.Body));
  A.Ends = T.Ends;
  if (!T.Ok || A.Body->getLBracLoc().isMacroID() || A.Body->getRBracLoc().isMacroID())
    return false;
  unsigned B = S.offset(A.Body->getLBracLoc()), E = S.endOffset(A.Body->getRBracLoc());
  // A directive may not be read twice: an include guard (`#ifndef G`,
  // `#define G`, in the body or in a header it includes) kept the second
  // copy's statements out, and a parfor of 1,000 activities set 0 of its
  // elements (tester I, s46).
  return !S.hasDirective(B, E) && S.lexRange(B, E).size() <= TwiceTokens;
}

/// `goto L;` with L written before it: `{ parc_poll(); goto L; }`.
static void pollBackGoto(Session &S, const GotoStmt *G) {
  const LabelStmt *LS = G->getLabel()->getStmt();
  if (!LS || G->getGotoLoc().isMacroID() || G->getLabelLoc().isMacroID() ||
      LS->getIdentLoc().isMacroID() || !S.inMainFile(G->getGotoLoc()) ||
      !S.inMainFile(LS->getIdentLoc()))
    return;
  unsigned At = S.offset(G->getGotoLoc());
  if (S.offset(LS->getIdentLoc()) > At)
    return;
  unsigned Semi;
  tok::TokenKind Kind;
  if (!S.tokenAt(S.endOffset(G->getLabelLoc()), Semi, Kind) || Kind != tok::semi)
    return;
  S.Edits.insert(At, "{ parc_poll(); ");
  S.Edits.insert(Semi + 1, " }");
}

/// `goto *e;` may jump back (an interpreter's dispatch does, always):
/// `{ parc_poll(); goto *e; }`.
static void pollIndirectGoto(Session &S, const IndirectGotoStmt *G) {
  if (G->getBeginLoc().isMacroID() || G->getEndLoc().isMacroID() ||
      !S.inMainFile(G->getGotoLoc()))
    return;
  unsigned Semi;
  tok::TokenKind Kind;
  if (!S.tokenAt(S.endOffset(G->getEndLoc()), Semi, Kind) || Kind != tok::semi)
    return;
  S.Edits.insert(S.offset(G->getGotoLoc()), "{ parc_poll(); ");
  S.Edits.insert(Semi + 1, " }");
}

/// Where a macro-written loop L can get its poll: its body, and the
/// keyword a macro must replace (its `for`, or the `while` that carries its
/// condition) with the `)` that closes that keyword's head.
struct LoopParts {
  const Stmt *Body;
  SourceLocation Keyword, Close;
};

static LoopParts partsOf(const Stmt *L) {
  if (const auto *W = dyn_cast<WhileStmt>(L))
    return {W->getBody(), W->getWhileLoc(), W->getRParenLoc()};
  if (const auto *D = dyn_cast<DoStmt>(L))
    return {D->getBody(), D->getWhileLoc(), D->getRParenLoc()};
  const auto *F = cast<ForStmt>(L);
  return {F->getBody(), F->getForLoc(), F->getRParenLoc()};
}

/// A poll at the start of loop L's body, when the user wrote the body
/// (`FOREVER { ... }` with `#define FOREVER for (;;)`): `{ parc_poll();
/// ... }`, `parc_poll();` for an empty `;`, and braces around any other
/// statement.
static bool pollBody(Session &S, const Stmt *L) {
  const Stmt *B = partsOf(L).Body;
  if (!B || B->getBeginLoc().isMacroID() || !S.inMainFile(B->getBeginLoc()))
    return false;
  if (const auto *CS = dyn_cast<CompoundStmt>(B)) {
    if (CS->getRBracLoc().isMacroID())
      return false;
    S.Edits.insert(S.endOffset(CS->getLBracLoc()), " parc_poll();");
    return true;
  }
  unsigned At = S.offset(B->getBeginLoc());
  if (isa<NullStmt>(B))
    return S.Edits.replace(At, At + 1, " parc_poll();");
  SourceLocation E = B->getEndLoc();
  if (E.isMacroID() && !S.SM.isWrittenInMainFile(S.SM.getExpansionLoc(E)))
    return false;
  unsigned End = pastSemi(S, S.expansionEnd(E));
  S.Edits.insert(At, "{ parc_poll(); ");
  S.Edits.insert(End, " }");
  return true;
}

void pollMacroLoops(Outliner &O) {
  Session &S = O.S;
  if (!S.Opts.Polls)
    return;
  Planner P(S);
  enum : unsigned { For = 1, While = 2 };
  // By the B1 offset of the outermost expansion: a location in it, and the
  // keywords to replace there.
  std::map<unsigned, std::pair<SourceLocation, unsigned>> Keywords;
  // `for (...) BODY` becomes `for (...) if (parc_poll(), 0) {} else BODY`,
  // which keeps an `else` after it where it belongs; but an empty BODY
  // would then draw gcc's -Wempty-body (-Wextra) on a `;` of the user's, so
  // where every for loop of the expansion has one, the poll is the body.
  // NonEmpty: the expansions with a for loop whose body is not empty.
  std::set<unsigned> NonEmpty;
  for (auto &F : S.M.Functions) {
    if (!F->FD->getBody() || externInline(F->FD) || P.handler(*F))
      continue;
    for (const Stmt *L : F->Loops) {
      if (const auto *Fo = dyn_cast<ForStmt>(L))
        if (Fo->getForLoc().isMacroID() && !isa<NullStmt>(Fo->getBody()))
          NonEmpty.insert(S.SM.getFileOffset(S.SM.getExpansionLoc(Fo->getForLoc())));
      // A counted loop of more than a few rounds polls too: a macro's
      // loop cannot be cut into blocks, so it polls every round.
      if (P.smallLoop(L, *F, BlockTrips) || P.once(L) || pollHead(S, L, /*Insert=*/false) ||
          pollBody(S, L))
        continue;
      // The keyword and its parenthesized head must come from one
      // expansion: with `#define END_LOOP } while` and `END_LOOP (c);` the
      // `(` would come after the wrap's #undef.  Such a loop keeps no poll.
      LoopParts LP = partsOf(L);
      SourceLocation Kw = LP.Keyword, Close = LP.Close;
      SourceLocation X = S.SM.getExpansionLoc(Kw);
      if (!Kw.isMacroID() || !Close.isMacroID() || S.SM.getExpansionLoc(Close) != X ||
          !S.SM.isWrittenInMainFile(X))
        continue;
      auto &K = Keywords[S.SM.getFileOffset(X)];
      K.first = Kw;
      K.second |= isa<ForStmt>(L) ? For : While;
    }
  }
  // Clang's -Wkeyword-macro (in -pedantic) would blame the user for the
  // #define of a keyword (not for its #undef); gcc has no such warning.
  const std::string Quiet = "\n#ifdef __clang__\n#pragma clang diagnostic push"
                            "\n#pragma clang diagnostic ignored \"-Wkeyword-macro\"\n#endif";
  const std::string Loud = "\n#ifdef __clang__\n#pragma clang diagnostic pop\n#endif";
  for (const auto &[X, K] : Keywords) {
    std::string Push, Pop;
    if (K.second & For) {
      Push += "\n#pragma push_macro(\"for\")\n#undef for\n#define for(...) for (__VA_ARGS__) ";
      Push += NonEmpty.count(X) ? "if (parc_poll(), 0) {} else" : "parc_poll()";
      Pop += "\n#undef for\n#pragma pop_macro(\"for\")";
    }
    if (K.second & While) {
      Push += "\n#pragma push_macro(\"while\")\n#undef while"
              "\n#define while(...) while ((parc_poll(), __VA_ARGS__))";
      Pop += "\n#undef while\n#pragma pop_macro(\"while\")";
    }
    Push = Quiet + Push + Loud;
    O.wrapExpansion(K.first, Push, Pop);
  }
}

/// The names and text of a block cut for the compare Cond (`i OP BOUND`,
/// C): parc_b_K holds the bound, parc_e_K the end of the block from i,
/// PARC_BLOCK steps on or the bound, whichever comes first (SetEnd).
struct BlockEnd {
  BlockEnd(Session &S, const BinaryOperator *Cond, const Counted &C, const std::string &K)
      : B("parc_b_" + K), E("parc_e_" + K), I(C.Var->getName().str()),
        Op(BinaryOperator::getOpcodeStr(C.Op).str()) {
    QualType CT = Cond->getLHS()->getType().getCanonicalType();
    bool Up = C.Step > 0, Strict = C.Op == BO_LT || C.Op == BO_GT;
    int64_t Step = Up ? C.Step : -C.Step, Span = BlockTrips * Step;
    std::string T, U, Dist, Far;
    if (CT->isPointerType()) {
      // The distance in elements, a ptrdiff_t (the loop runs only while i
      // is on the near side of the bound); i + Span stays in the array.
      QualType PT = Cond->getLHS()->getType().getUnqualifiedType();
      Decl = S.printType(PT, B) + "; " + S.printType(PT, E) + ";";
      T = S.printType(PT);
      U = "long long";
      Dist = Up ? B + " - " + I : I + " - " + B;
      Far = std::string(Up ? " + " : " - ") + std::to_string(Strict ? Span : Span - 1);
    } else {
      T = CT.getAsString();
      U = S.Ctx.getCorrespondingUnsignedType(CT).getAsString();
      Decl = T + " " + B + ", " + E + ";";
      Dist = Up ? "(" + U + ")" + B + " - (" + U + ")" + I : "(" + U + ")" + I + " - (" + U + ")" + B;
      Far = std::string(Up ? " + " : " - ") + "(" + T + ")" +
            std::to_string(Strict ? Span : Span - 1);
    }
    SetEnd = E + " = " + Dist + (Strict ? " > " : " >= ") + "(" + U + ")" +
             std::to_string(Span) + " ? (" + T + ")(" + I + Far + ") : " + B;
  }
  std::string B, E, I, Op, Decl, SetEnd;
};

/// A counted loop keeps no poll (it ends by itself, and a poll in its
/// condition would keep the back end from vectorising it), but a kill then
/// waited for the whole loop: 3e9 iterations, seconds after a pbreak
/// (tester).  So a counted for loop that may run more than PARC_BLOCK
/// iterations (BlockTrips) is cut into blocks of PARC_BLOCK iterations
/// with a poll between them, as lparfor chunks are; each block is a counted
/// loop of its own, which the back end vectorises as before.  Its bound and
/// body may be or end in whole macro calls (`i < N`, `a[i] = MAX(a[i], 0);`:
/// the edits go around the calls).  A counted loop that cannot be cut so
/// (a `break`, a condition with `&&`, a `#pragma` before it) runs in blocks
/// as blockUncounted cuts them, or else polls every round:
///
///   for (INIT; i < n; i++) BODY
///   =>
///   { T parc_b_K, parc_e_K;
///     for (INIT; i < (parc_b_K = (n)); i < parc_b_K ? parc_poll() : (void)0)
///       for (parc_e_K = (U)parc_b_K - (U)i > 4096 ? i + 4096 : parc_b_K;
///            i < parc_e_K; i++) BODY }
///
/// The poll goes between blocks, not after the last: a run of fewer than
/// PARC_BLOCK iterations is straight-line code, as a brief statement is,
/// and the code around the loop polls as it would around one (a loop
/// holding this loop is not brief and polls on its back-edge, an lparfor
/// chunk before each iteration, a parfor at each activity).  A poll after
/// every run cost a row loop of sparse matrix-vector product, about 15
/// nonzeros a row, 6% (tester A, s43).
///
/// T is the type the comparison converts both sides to, U its unsigned
/// twin: U's difference is the distance to the bound whatever the signs
/// (the outer condition holds, so it is positive and below 2^N), and i +
/// 4096 steps is within the bound where it is taken.  The bound is
/// evaluated once per block instead of once per iteration: a counted loop's
/// bound does not change in the loop.  The index keeps its final value;
/// `continue` goes to the inner step.  A loop with a `break` of its own, a
/// `case` of a switch around it in its body, a pragma before it or its head
/// in a macro is not cut so (insertPolls finds it another way to poll).
static bool blockLoop(Session &S, const FunctionDecl *FD, const ForStmt *L, const Counted &C) {
  auto Written = [&](SourceLocation B, SourceLocation E) { return writtenHere(S, B, E); };
  const Expr *Inc = L->getInc(), *Bound = C.Bound;
  const Stmt *Body = L->getBody();
  const auto *FnBody = cast<CompoundStmt>(FD->getBody());
  // The bound and the body may be or end in whole macro calls (`i <
  // _PB_N`, `x = MAX(x, 7);`): the edits go around the calls.
  unsigned BoundLo, BoundHi, BodyLo, End;
  if (FnBody->getLBracLoc().isMacroID() || !Written(L->getForLoc(), L->getRParenLoc()) ||
      !fileSpan(S, Bound->getSourceRange(), BoundLo, BoundHi) ||
      !Written(Inc->getBeginLoc(), Inc->getEndLoc()) ||
      !fileSpan(S, Body->getSourceRange(), BodyLo, End) ||
      !pragmaBefore(S, S.offset(L->getForLoc())).empty() ||
      !plainStatementStart(S, S.offset(FnBody->getLBracLoc()), S.offset(L->getForLoc())))
    return false;
  // A `case` of a switch around the loop, in its body: the jump in would
  // skip parc_b_K's and parc_e_K's setting (tester A, s52).
  if (finds<StrayCase>(Body))
    return false;
  if (!isa<CompoundStmt>(Body))
    End = pastSemi(S, End);
  const auto *Cond = cast<BinaryOperator>(L->getCond()->IgnoreParens());
  std::string K = std::to_string(S.offset(L->getForLoc()));
  BlockEnd BE(S, Cond, C, K);
  const std::string &B = BE.B, &E = BE.E, &I = BE.I, &Op = BE.Op;
  // The user's step moves to the inner loop (all of it: `v++, c++`, a
  // CSR row walked by two pointers); the outer one polls.
  unsigned IncLo = S.offset(Inc->getBeginLoc()), IncHi = S.endOffset(Inc->getEndLoc());
  if (S.lineOf(IncLo) != S.lineOf(IncHi))
    return false;
  std::string Step = S.Edits.render(IncLo, IncHi);
  if (!S.Edits.replace(IncLo, IncHi, I + " " + Op + " " + B + " ? parc_poll() : (void)0"))
    return false;
  S.Edits.insert(S.offset(L->getForLoc()), "{ " + BE.Decl + " ");
  S.Edits.insert(BoundLo, "(" + B + " = (");
  S.Edits.insert(BoundHi, "))");
  S.Edits.insert(S.endOffset(L->getRParenLoc()),
                 " for (" + BE.SetEnd + "; " + I + " " + Op + " " + E + "; " + Step + ")");
  S.Edits.insert(End, " }");
  return true;
}

/// The checks and places that blockCountedWhile and blockCountdown share:
/// the loop written whole in the file (its body may end in a macro call),
/// no pragma or macro before it, no `case` of a switch around it in its
/// body; BodyLo and End bound the body (past an expression statement's
/// `;`), and Close is what closes it, with the braces a body that is one
/// statement gets: code after such a body on its line drew clang's
/// -Wmisleading-indentation.
static bool cuttableWhile(Session &S, const FunctionDecl *FD, const WhileStmt *W,
                          unsigned &BodyLo, unsigned &End, std::string &Close) {
  const Stmt *Body = W->getBody();
  const auto *FnBody = cast<CompoundStmt>(FD->getBody());
  unsigned Kw = S.offset(W->getWhileLoc());
  if (FnBody->getLBracLoc().isMacroID() || !writtenHere(S, W->getWhileLoc(), W->getRParenLoc()) ||
      !fileSpan(S, Body->getSourceRange(), BodyLo, End) || !pragmaBefore(S, Kw).empty() ||
      !plainStatementStart(S, S.offset(FnBody->getLBracLoc()), Kw) ||
      !StringRef(S.TP.Text).substr(Kw).starts_with("while"))
    return false;
  if (finds<StrayCase>(Body))
    return false;
  Close = " ";
  if (!isa<CompoundStmt>(Body)) {
    End = pastSemi(S, End);
    Close = " } ";
  }
  return true;
}

/// A counted while loop, `while (i OP BOUND [&& REST]) BODY` with BODY
/// stepping i, cut into blocks as blockLoop cuts a for loop: the user's
/// loop runs each block, with the block's end for BOUND.
///
///   { T parc_b_K, parc_e_K;
///     for (; i OP (parc_b_K = (BOUND)); i OP parc_b_K ? parc_poll() : (void)0) {
///       parc_e_K = (the end of the block from i, as blockLoop's);
///       while (i OP parc_e_K [&& REST]) BODY
///       if (i OP parc_e_K) break; } }
///
/// A block ends at the compare, before REST, and the next block's first
/// test evaluates REST: as often as before.  The `if` ends the loop when
/// REST did.  The inner loop is a counted loop as the user's was, which
/// the back end vectorises (`while (x < end) *y++ += 2.0f * *x++;` ran
/// 1.5 times as long cut as blockUncounted cuts, with a counter).
static bool blockCountedWhile(Session &S, const FunctionDecl *FD, const WhileStmt *W,
                              const Counted &C, const BinaryOperator *Cond) {
  unsigned Kw = S.offset(W->getWhileLoc()), BoundLo, BoundHi, BodyLo, End;
  std::string Close;
  if (!cuttableWhile(S, FD, W, BodyLo, End, Close) ||
      !fileSpan(S, C.Bound->getSourceRange(), BoundLo, BoundHi) ||
      S.lineOf(BoundLo) != S.lineOf(Kw) || S.lineOf(BoundHi) != S.lineOf(Kw))
    return false;
  BlockEnd BE(S, Cond, C, std::to_string(Kw));
  const std::string &B = BE.B, &E = BE.E, &I = BE.I, &Op = BE.Op;
  std::string Bound = S.Edits.render(BoundLo, BoundHi);
  if (!S.Edits.replace(BoundLo, BoundHi, E))
    return false;
  if (Close != " ")
    S.Edits.insert(BodyLo, "{ ");
  S.Edits.insert(Kw, "{ " + BE.Decl + " for (; " + I + " " + Op + " (" + B + " = (" + Bound +
                         ")); " + I + " " + Op + " " + B + " ? parc_poll() : (void)0) { " +
                         BE.SetEnd + "; ");
  S.Edits.insert(End, Close + "if (" + I + " " + Op + " " + E + ") break; } }");
  return true;
}

/// A countdown, `while (n--) BODY` (or `n-- != 0`, `n-- > 0`), cut into
/// blocks of PARC_BLOCK rounds, each a countdown to the block's end:
///
///   { T parc_e_K;
///     for (;;) { parc_e_K = n > PARC_BLOCK ? n - PARC_BLOCK : 0;
///       while (n-- != parc_e_K) BODY          (`> parc_e_K` for `n-- > 0`)
///       if (!parc_e_K) break; n++; parc_poll(); } }
///
/// BODY sees n as before, and n ends as it did (one below the last block's
/// end, 0); a block's last test takes n one below the block's end, which
/// `n++` gives back.  The inner loop is a countdown as the user's was,
/// which the back end vectorises (`while (n--) *d++ = *s++`); cut with a
/// counter (blockUncounted), a copy ran 1.3-1.7 times as long.
static bool blockCountdown(Session &S, const FunctionDecl *FD, const WhileStmt *W,
                           const UnaryOperator *Dec) {
  // The 0 of `n-- != 0` or `n-- > 0`, which the block's end replaces.
  const auto *Cmp = dyn_cast<BinaryOperator>(W->getCond()->IgnoreParens());
  const Expr *Zero = Cmp ? Cmp->getRHS() : nullptr;
  const VarDecl *V = refOf(Dec->getSubExpr());
  unsigned Kw = S.offset(W->getWhileLoc()), BodyLo, End;
  std::string Close;
  if (finds<OwnBreak>(W->getBody()) || !cuttableWhile(S, FD, W, BodyLo, End, Close))
    return false;
  std::string E = "parc_e_" + std::to_string(Kw), N = V->getName().str();
  std::string Decl = S.printType(V->getType().getUnqualifiedType(), E);
  if (Zero) {
    if (!S.Edits.replace(S.offset(Zero->getBeginLoc()), S.endOffset(Zero->getEndLoc()), E))
      return false;
  } else {
    S.Edits.insert(S.endOffset(Dec->getEndLoc()), " != " + E);
  }
  S.Edits.insert(Kw, "{ " + Decl + "; for (;;) { " + E + " = " + N +
                         " > PARC_BLOCK ? " + N + " - PARC_BLOCK : 0; ");
  if (Close != " ")
    S.Edits.insert(BodyLo, "{ ");
  S.Edits.insert(End, Close + "if (!" + E + ") break; " + N + "++; parc_poll(); } }");
  return true;
}

/// A loop that is not counted polls on every back-edge, and the poll's
/// call, cold as it is, costs the loop around it: the back end must assume
/// that it writes memory, so it reloads each round what the loop reads
/// (bounds, base pointers) and keeps fewer values in registers.  A merge
/// of two sorted lists (triangle counting) ran 1.35 times its time without
/// polls (tester F, s45).  Where the loop's condition, increment and body
/// are brief, a block of PARC_BLOCK rounds is straight-line code as a
/// counted loop's block is, so the loop runs in blocks with a poll between
/// them; each block is a loop without a call, whose reads the back end
/// hoists:
///
///   while (C) BODY
///   =>
///   { unsigned parc_left_K = PARC_BLOCK;
///     if (C) for (;; parc_poll_block(), parc_left_K = PARC_BLOCK) {
///       do { BODY } while ((C) && --parc_left_K);
///       if (parc_left_K) break; } }
///
///   for (INIT; C; INC) BODY
///   =>
///   { unsigned parc_left_K = PARC_BLOCK;
///     for (INIT; C; ) { for (;; parc_poll_block(), parc_left_K = PARC_BLOCK) {
///       do { BODY } while (((void)(INC), (C)) && --parc_left_K);
///       if (parc_left_K) break; } break; } }
///
///   do BODY while (C);
///   =>
///   { unsigned parc_left_K = PARC_BLOCK;
///     for (;; parc_poll_block(), parc_left_K = PARC_BLOCK) {
///       do BODY while ((C) && --parc_left_K);
///       if (parc_left_K) break; } }
///
/// The inner do loop ends with parc_left_K at 0 only when a block is done
/// and C held: the poll, then the next block, which starts with BODY as
/// the loop would have.  It ends with parc_left_K above 0 when C failed or
/// BODY broke out (`break`), and so does the loop.  `continue` in BODY
/// goes to the do loop's condition: INC, then C, as C says.  C and INC are
/// evaluated as often as before and in the same order; C is written twice
/// (the first test, then the do loop's), under a #line of its own, so
/// __LINE__ and diagnostics are the user's.  No poll before the first
/// block: a while or for loop so cut does not poll first thing, and the
/// function's entry poll goes before it (headPolls).
static void blockUncounted(Session &S, const Stmt *L, const Uncounted &U) {
  std::string N = "parc_left_" + std::to_string(U.Keyword);
  std::string Open = "{ unsigned " + N + " = PARC_BLOCK; ";
  std::string Block = "for (;; parc_poll_block(), " + N + " = PARC_BLOCK) { ";
  // A loop that only a `return` (or exit) leaves, `while (1)` or `for
  // (;;)` without a `break` of its own: its do loop ends only when a block
  // is done, so the blocks loop forever, as the user's did.  With `if
  // (parc_left_K) break;` the end of a non-void function looked reachable
  // to gcc and clang (-Wreturn-type, tester A, s52).
  std::optional<llvm::APSInt> C = U.Cond ? U.Cond->getIntegerConstantExpr(S.Ctx) : std::nullopt;
  bool Forever = (!U.Cond || (C && !C->isZero())) && !finds<OwnBreak>(U.Body);
  std::string Next = Forever ? " }" : " if (" + N + ") break; }";
  if (const auto *D = dyn_cast<DoStmt>(L)) {
    S.Edits.insert(U.Keyword, Open + Block);
    S.Edits.insert(S.offset(D->getCond()->getBeginLoc()), "(");
    S.Edits.insert(S.expansionEnd(D->getCond()->getEndLoc()), ") && --" + N);
    S.Edits.insert(U.BodyEnd, Next + " }");
    return;
  }
  // The copies go where BODY ends, on its last line: a copy from another
  // line gets a #line of its own, and the line after it is restored.
  unsigned Here = S.lineOf(U.BodyEnd), Line = Here;
  auto Copy = [&](const Expr *E) {
    unsigned B = S.offset(E->getBeginLoc()), End = S.expansionEnd(E->getEndLoc());
    std::string Text = S.Edits.render(B, End), Out;
    if (S.lineOf(B) != Line)
      Out = "\n" + S.lineDirective(S.lineOf(B));
    Line = S.lineOf(B) + std::count(Text.begin(), Text.end(), '\n');
    return Out + Text;
  };
  std::string Test = U.Inc ? "(void)(" + Copy(U.Inc) + "), " : "";
  Test += U.Cond ? "(" + Copy(U.Cond) + ") && --" + N : "--" + N;
  if (Line != Here)
    Test += "\n" + S.lineDirective(Here);
  std::string Tail = " } while (" + Test + ");" + Next;
  if (const auto *W = dyn_cast<WhileStmt>(L)) {
    // `while (C)` becomes `if (C)`: the first test, in the user's text.
    S.Edits.insert(U.Keyword, Open);
    S.Edits.replace(U.Keyword, U.Keyword + 5, "if");
    S.Edits.insert(S.endOffset(W->getRParenLoc()), " " + Block + "do {");
    S.Edits.insert(U.BodyEnd, Tail + " }");
    return;
  }
  const auto *Fo = cast<ForStmt>(L);
  if (U.Inc) // now in the do loop's condition
    S.Edits.collapse(S.offset(U.Inc->getBeginLoc()), S.expansionEnd(U.Inc->getEndLoc()), "");
  S.Edits.insert(U.Keyword, Open);
  S.Edits.insert(S.endOffset(Fo->getRParenLoc()), " { " + Block + "do {");
  S.Edits.insert(U.BodyEnd, Tail + (Forever ? " } }" : " break; } }"));
}

void insertPolls(Outliner &O) {
  Session &S = O.S;
  Planner P(S);
  for (auto &F : S.M.Functions)
    for (Construct *C : F->PostOrder)
      for (auto &A : C->Acts) {
        A->Brief = P.brief(A->Body, *F);
        A->Twice = A->Brief && isLoop(C->Kind) && twiceSafe(S, *A);
      }

  for (auto &F : S.M.Functions) {
    const FunctionDecl *FD = F->FD;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
    if (!Body || externInline(FD))
      continue;
    if (!Body->getLBracLoc().isMacroID()) {
      unsigned Entry = S.endOffset(Body->getLBracLoc());
      if (F->NeedsRV)
        S.Edits.insert(Entry,
                       " " + O.declare(FD->getReturnType().getUnqualifiedType(), "parc_rv_") +
                       ";");
      unsigned At;
      if (S.Opts.Polls && !P.handler(*F) && !P.briefFunction(*F) &&
          entryPollAt(S, P, *F, Body, At))
        S.Edits.insert(At, At == Entry ? " parc_poll();" : "parc_poll(); ");
    }
    if (!S.Opts.Polls || P.handler(*F))
      continue;
    // The loops of an OpenMP or OpenACC loop directive, and the loops in
    // them, keep their form: they run on the directive's threads, not in
    // activities, and collapse(N) joins nested loops to the first.
    std::vector<std::pair<unsigned, unsigned>> Directed;
    for (const Stmt *L : F->Loops)
      if (directiveLoop(S, L) && !L->getEndLoc().isMacroID())
        Directed.push_back({S.offset(L->getBeginLoc()), S.endOffset(L->getEndLoc())});
    auto InDirected = [&](const Stmt *L) {
      if (L->getBeginLoc().isMacroID())
        return false;
      unsigned B = S.offset(L->getBeginLoc());
      for (auto [Lo, Hi] : Directed)
        if (Lo <= B && B < Hi)
          return true;
      return false;
    };
    for (const Stmt *L : F->Loops) {
      Counted C;
      if (InDirected(L) || P.once(L))
        continue;
      Uncounted U;
      const auto *Fo = dyn_cast<ForStmt>(L);
      const BinaryOperator *Cmp = nullptr;
      const UnaryOperator *Dec = nullptr;
      if (uncountedBlockable(S, P, L, *F, U))
        blockUncounted(S, L, U);
      else if (!P.pollFree(L, *F))
        pollHead(S, L); // or none: pollMacroLoops has polled it
      else if (P.smallLoop(L, *F, BlockTrips))
        continue; // one block at most
      else if (Fo && P.blockable(Fo, *F, C) && blockLoop(S, F->FD, Fo, C))
        continue;
      else if (const auto *W = dyn_cast<WhileStmt>(L);
               W && P.whileBlockable(W, *F, C, Cmp) && blockCountedWhile(S, F->FD, W, C, Cmp))
        continue;
      else if (W && P.countdown(W, *F, &Dec) && blockCountdown(S, F->FD, W, Dec))
        continue;
      else if (uncountedBlockable(S, P, L, *F, U, /*Ends=*/true))
        blockUncounted(S, L, U);
      else if (L->getBeginLoc().isMacroID() ||
               plainStatementStart(S, S.offset(Body->getLBracLoc()), S.offset(L->getBeginLoc())))
        pollHead(S, L); // every round; or none: pollMacroLoops has polled it
      // else a macro before the loop may be an OpenMP directive's
      // _Pragma, whose loop must keep its form: it keeps none.
    }
    for (const GotoStmt *G : F->Gotos)
      pollBackGoto(S, G);
    for (const IndirectGotoStmt *G : F->IndirectGotos)
      pollIndirectGoto(S, G);
  }
}

} // namespace parcc
