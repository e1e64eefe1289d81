//===- Model.h - the parallel constructs found in the AST --------*- C++ -*-===//
//
// Analysis (Analysis.cpp) walks the AST of B1 once and records everything the
// checks and the lowering need: each construct with its activities, nesting
// and captures, the uses of shared variables inside activities, the pbreak,
// preturn and sync statements, the jumps that the checks judge, and the loops
// and function bodies that get poll points.
//
//===----------------------------------------------------------------------===//
#ifndef PARCC_MODEL_H
#define PARCC_MODEL_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>
#include <string>
#include <vector>

namespace parcc {

enum class ConstructKind { Parblock, Parfor, Lparfor, MappedLparfor };

/// The keyword as the user wrote it ("parblock", "parfor", "lparfor").
const char *keywordOf(ConstructKind K);
/// The construct as messages name it: "mapped lparfor" for a mapped one.
const char *spellingOf(ConstructKind K);
/// The PARC_KIND_* enumerator of parc_abi.h.
const char *abiKindOf(ConstructKind K);
inline bool isLoop(ConstructKind K) { return K != ConstructKind::Parblock; }

/// Is T variably modified?  Asked of the canonical type: the sugar of a
/// deduced type (`__auto_type p = vla;`, C23's `auto`) does not carry the
/// property, and a shared pointer to a VLA declared so lost its row size
/// in activities (every row was row 0).
inline bool isVariablyModified(clang::QualType T) {
  return T.getCanonicalType()->isVariablyModifiedType();
}

struct Construct;

/// One activity body: a parblock section, or the body of a parfor/lparfor.
/// In B1 it is the body of a loop on parc_mark_act() (Wrapper).
struct Activity {
  Construct *Owner = nullptr;
  unsigned Index = 0;
  /// The loop around Body: `do { } while (parc_mark_act())` for a
  /// parblock section (it runs once), `while (parc_mark_act()) { }` for a
  /// parfor body (it may run for no index).
  const clang::Stmt *Wrapper = nullptr;
  const clang::CompoundStmt *Body = nullptr;
  /// The body is brief (Polls.cpp): an lparfor chunk polls once per block of
  /// iterations instead of once per iteration.
  bool Brief = false;
  /// The body may be written twice in the emitted C with the meaning of
  /// once (Polls.cpp, twiceSafe): a brief body of a few hundred tokens with
  /// no label, no static or _Thread_local declaration and no variably
  /// modified type.  The blocks of PARC_BLOCK iterations (parc_abi.h) then
  /// get a loop of constant trip count of their own.
  bool Twice = false;
  /// The body pbreaks or preturns (it ends its activity and reads
  /// parc_self_->cur): a parfor then keeps one activity per parc_next.
  bool Ends = false;
  /// The construct's captures that this activity (or a construct nested
  /// in it) uses: a parblock section's function unpacks only these.
  llvm::SmallPtrSet<const clang::VarDecl *, 8> Uses;
};

struct Construct {
  ConstructKind Kind = ConstructKind::Parblock;
  /// The B1 block `{ parc_mark_X(); ... parc_mark_end(); }`.
  const clang::CompoundStmt *Block = nullptr;
  const clang::FunctionDecl *Func = nullptr;
  /// The activity this construct is written in; null at function level.
  Activity *Parent = nullptr;
  /// 1 for a construct at function level, 2 inside one of its activities, ...
  unsigned Depth = 1;
  std::vector<std::unique_ptr<Activity>> Acts;
  std::vector<Construct *> Children;

  // parfor and lparfor.
  const clang::VarDecl *Index = nullptr;
  const clang::Expr *Bounds[3] = {nullptr, nullptr, nullptr}; // FROM, TO, STEP

  /// Where the keyword is in the user's source.
  unsigned Line = 0, Col = 0;
  /// "<func>_L<line>", unique in the file; names the body function
  /// (<func>_<kind>_L<line>), the env struct and the site.
  std::string Tag;

  /// Variables declared outside the construct that its activities (or
  /// constructs nested in them) use, in order of first use.
  llvm::SetVector<const clang::VarDecl *> Captures;
  /// Variables declared outside the construct that are constants
  /// (Model::ConstantValues): each body function declares its own, with
  /// the value, so that the name stays a constant expression there (`case
  /// K:`, `int buf[K] = {...}`); through the environment it was not.
  llvm::SetVector<const clang::VarDecl *> Constants;
  /// The function's preturn slot parc_rv_ is reached through the env.
  bool CapturesRV = false;
  /// Some activity of this construct or of a nested one preturns.
  bool ContainsPreturn = false;
  /// The function's entry poll moved here (Polls.cpp): the spawn code polls
  /// after evaluating the (brief) bounds, since a parfor of no activities
  /// polls nowhere.
  bool PollFirst = false;
};

struct VarUse {
  const clang::DeclRefExpr *Ref;
  const clang::VarDecl *Var;
  Activity *Act; // innermost activity around the use; Var is declared outside it
};

enum class MarkKind { Pbreak, Sync };
struct MarkUse {
  const clang::CallExpr *Call;
  MarkKind Kind;
  Activity *Act; // innermost activity, null outside every construct
};

struct PreturnUse {
  const clang::ReturnStmt *Ret;
  Activity *Act;  // innermost activity (non-null: outside, preturn is return)
  unsigned Depth; // activities between the preturn and the function
};

/// Every preturn, in a construct or not (where it is a return), with the
/// function it returns from: the checks match its value to that function.
struct PreturnSite {
  const clang::ReturnStmt *Ret;
  const clang::FunctionDecl *Func;
};

/// A jump whose legality the checks decide.
struct JumpUse {
  enum Kind { Break, Continue, Case, Return, Goto, AddrLabel, IndirectGoto } K;
  const clang::Stmt *S;
  Activity *Act;                       // innermost activity around the jump
  const clang::LabelDecl *Label = nullptr; // Goto, AddrLabel
  bool LeavesActivity = false;         // Break, Continue, Case
};

/// A local type declaration (struct/union/enum/typedef written inside a
/// function) that outlined code must see at file scope.
struct HoistedType {
  const clang::Decl *D;
};

struct FunctionModel {
  const clang::FunctionDecl *FD = nullptr;
  /// Constructs of the function, innermost first (post-order).
  std::vector<Construct *> PostOrder;
  std::vector<Construct *> TopLevel;
  /// Non-void and some activity preturns: the function gets a parc_rv_ local.
  bool NeedsRV = false;
  /// Loops (for, while, do) in the function, construct wrappers excluded.
  std::vector<const clang::Stmt *> Loops;
  /// goto statements in the function: a goto back to a label written before
  /// it closes a loop, which polls like a loop back-edge (Polls.cpp).
  std::vector<const clang::GotoStmt *> Gotos;
  /// `goto *e;` statements: each may jump back, so each polls (Polls.cpp).
  std::vector<const clang::IndirectGotoStmt *> IndirectGotos;
  /// Activities refer to the function itself (recursion through an activity).
  bool Recursive = false;
  /// Functions declared only at block scope and called from an activity.
  llvm::SetVector<const clang::FunctionDecl *> LocalFunctions;
  /// Local types used by outlined code.
  llvm::SetVector<const clang::Decl *> Hoist;
};

struct Model {
  std::vector<std::unique_ptr<Construct>> Constructs;
  std::vector<std::unique_ptr<FunctionModel>> Functions;
  /// The activity a variable (or local type) is declared in; absent means
  /// function level (or file scope).
  llvm::DenseMap<const clang::Decl *, Activity *> DeclAct;
  llvm::DenseMap<const clang::LabelDecl *, Activity *> LabelAct;
  /// The innermost activity around each loop of FunctionModel::Loops.
  llvm::DenseMap<const clang::Stmt *, Activity *> LoopAct;
  std::vector<VarUse> Uses;
  /// Locals that activities use as constants, with the value as C text: a
  /// constexpr object, or a const integer or floating one with a constant
  /// initializer, of a scalar type whose value can be written exactly,
  /// whose address the function never takes.  Absent: not yet asked;
  /// empty: not such a constant.
  llvm::DenseMap<const clang::VarDecl *, std::string> ConstantValues;
  std::vector<MarkUse> Marks;
  std::vector<PreturnUse> Preturns;
  std::vector<PreturnSite> AllPreturns;
  std::vector<JumpUse> Jumps;
  /// __func__ and friends inside activities (they would name the body
  /// function).
  std::vector<std::pair<const clang::PredefinedExpr *, const clang::FunctionDecl *>> FuncNames;
  /// The innermost activity of each __func__ that a macro wrote (assert,
  /// a user's logging macro), with its function: the text cannot be edited
  /// where the macro expands, so the body function defines the names.
  llvm::DenseMap<const Activity *, const clang::FunctionDecl *> MacroFuncNames;
  /// Constructs whose keyword came through a macro argument.
  std::vector<const clang::Stmt *> InMacro;
  /// va_start inside activities: the body function is not variadic.
  std::vector<const clang::CallExpr *> VaStarts;
  /// `sync()` written in an activity: the C library function, not the
  /// barrier (`sync;`).
  std::vector<const clang::CallExpr *> SyncCalls;
  /// Direct calls of parc_P and parc_V, with the function they are written
  /// in: each names its place to the runtime (LowerWait.cpp).
  std::vector<std::pair<const clang::CallExpr *, const clang::FunctionDecl *>> SemCalls;
  /// Direct calls of parc_procid() in a mapped lparfor's chunk, outside
  /// any construct nested in it: chunk k runs on processor k, so each is
  /// the chunk's number, which needs no call (LowerParfor.cpp).
  std::vector<const clang::CallExpr *> ChunkProcIds;

  Activity *declActivity(const clang::Decl *D) const {
    auto It = DeclAct.find(D);
    return It == DeclAct.end() ? nullptr : It->second;
  }
};

/// Calls to the marker functions of the token pass.
enum class Marker { None, Parblock, Parfor, Lparfor, Bounds, Act, End, Pbreak, Sync, Sections };
Marker markerOf(const clang::Stmt *S);

/// Is A inside B (B an ancestor of A, or A itself)?  Everything is inside
/// no activity (B null).
inline bool within(const Activity *A, const Activity *B) {
  for (; A; A = A->Owner->Parent)
    if (A == B)
      return true;
  return B == nullptr;
}

/// FD is the file-scope function Name (parc.h's, the C library's), not a
/// local or block-scope one of that name.
bool isFileScopeFunction(const clang::FunctionDecl *FD, llvm::StringRef Name);

/// FD is alloca or one of its builtins: memory that lives until the calling
/// function returns.
bool isAlloca(const clang::FunctionDecl *FD);

/// St calls alloca (directly; a function it calls has its own frame).
bool callsAlloca(const clang::Stmt *St);

} // namespace parcc

#endif
