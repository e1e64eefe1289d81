//===- Captures.cpp - shared variables, by reference, into activities -----===//
//
// A variable declared outside a construct but inside its function is shared
// by reference: the construct's environment holds its address and every use
// inside an activity goes through it.
//
//   void f(int n) { int a[10];            struct parc_env_f_L3 { int *n; int (*a)[10]; };
//     parfor int i; 0; n-1; 1;     =>     in f_parfor_L3, once:
//       a[i] = n;                           int *const parc_p_n_ = parc_env_->n;
//     epar }                                int (*const parc_p_a_)[10] = parc_env_->a;
//                                         and in the body: (*parc_p_a_)[i] = (*parc_p_n_);
//
// Arrays are never copied (the field points to the whole array).  A
// variably modified variable (a VLA, or a parameter int m[r][c]) travels as
// a void * plus the dimensions its parent measures with sizeof, and the body
// function rebuilds the typed pointer:
//
//   int m[r][c];      field: void *m; __UINT64_TYPE__ parc_dim_m_0_, parc_dim_m_1_;
//                     init:  &m, sizeof(m) / sizeof((m)[0]), sizeof((m)[0]) / sizeof(((m)[0])[0])
//                            (each division guarded against an element of size 0)
//                     body:  int (*parc_p_m_)[parc_env_->parc_dim_m_0_][parc_env_->parc_dim_m_1_]
//                                = parc_env_->m;           uses: (*parc_p_m_)[i][j]
//
// A variable captured by a nested construct is captured by every construct
// between its declaration and the use, each passing its own pointer down.
//
//===----------------------------------------------------------------------===//
#include "parcc/Analysis.h"
#include "parcc/Lowering.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

#include <cassert>
#include <functional>
#include <set>

using namespace clang;

namespace parcc {

void computeCaptures(Session &S) {
  Model &M = S.M;
  for (const VarUse &U : M.Uses) {
    Activity *DA = M.declActivity(U.Var);
    for (Activity *A = U.Act; A && A != DA; A = A->Owner->Parent) {
      A->Owner->Captures.insert(U.Var);
      A->Uses.insert(U.Var);
    }
  }
  for (const PreturnUse &P : M.Preturns) {
    const FunctionDecl *FD = P.Act->Owner->Func;
    bool NonVoid = !FD->getReturnType()->isVoidType();
    Construct *Top = nullptr;
    for (Activity *A = P.Act; A; A = A->Owner->Parent) {
      if (NonVoid)
        A->Owner->CapturesRV = true;
      Top = A->Owner;
    }
    Top->ContainsPreturn = true;
    if (NonVoid)
      for (auto &F : M.Functions)
        if (F->FD == FD)
          F->NeedsRV = true;
  }
}

//===--- Representation ------------------------------------------------===//

bool Outliner::isVM(const VarDecl *V) const { return isVariablyModified(V->getType()); }

static std::string nameOf(const VarDecl *V) { return V->getName().str(); }

/// The declared type, minus sugar that cannot be repeated elsewhere
/// (__auto_type, typeof) at any level of pointers and arrays: `typeof(a)
/// *p` names a local `a` that the code outside its scope cannot see.
/// Typedef names are kept.
static QualType printable(const ASTContext &Ctx, QualType T) {
  Qualifiers Q = T.getLocalQualifiers();
  const Type *P = T.getTypePtr();
  if (isa<AutoType>(P) || isa<TypeOfExprType>(P) || isa<TypeOfType>(P) || isa<ParenType>(P))
    return printable(Ctx, Ctx.getQualifiedType(
                              P->getLocallyUnqualifiedSingleStepDesugaredType(), Q));
  if (const auto *PT = dyn_cast<PointerType>(P))
    return Ctx.getQualifiedType(Ctx.getPointerType(printable(Ctx, PT->getPointeeType())), Q);
  if (const auto *AT = dyn_cast<ConstantArrayType>(P))
    return Ctx.getQualifiedType(
        Ctx.getConstantArrayType(printable(Ctx, AT->getElementType()), AT->getSize(), nullptr,
                                 AT->getSizeModifier(), AT->getIndexTypeCVRQualifiers()),
        Q);
  if (const auto *AT = dyn_cast<IncompleteArrayType>(P))
    return Ctx.getQualifiedType(
        Ctx.getIncompleteArrayType(printable(Ctx, AT->getElementType()), AT->getSizeModifier(),
                                   AT->getIndexTypeCVRQualifiers()),
        Q);
  return T;
}

/// Walks a type outside in through arrays and pointers, calling Dim(k) for
/// the k-th variable dimension, and returns the declarator of Inner with
/// that type, e.g. `int (*p)[D0][5]` for Inner `*p`.  Used where Clang's
/// printer cannot be: variably modified types (their sizes are the
/// parent's expressions) and anonymous local tags moved to file scope under
/// a name of parcc's.
std::string Outliner::declarator(QualType T, std::string Inner,
                                 const std::function<std::string(unsigned)> &Dim,
                                 unsigned &K) const {
  auto Suffix = [](std::string In, const std::string &Sfx) {
    if (!In.empty() && In[0] == '*')
      In = "(" + In + ")";
    return In + Sfx;
  };
  while (true) {
    if (const ArrayType *AT = S.Ctx.getAsArrayType(T)) {
      if (isa<VariableArrayType>(AT))
        Inner = Suffix(Inner, "[" + Dim(K++) + "]");
      else if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
        Inner = Suffix(Inner, "[" + std::to_string(CAT->getSize().getZExtValue()) + "]");
      else
        Inner = Suffix(Inner, "[]");
      T = AT->getElementType();
      continue;
    }
    if (const auto *PT = T->getAs<PointerType>()) {
      std::string Q = T.getLocalQualifiers().getAsString();
      Inner = "*" + (Q.empty() ? "" : Q + " ") + Inner;
      T = PT->getPointeeType();
      continue;
    }
    break;
  }
  if (const auto *TT = T->getAs<TagType>()) {
    auto It = AnonNames.find(TT->getDecl());
    if (It != AnonNames.end()) {
      std::string Q = T.getQualifiers().getAsString();
      return (Q.empty() ? "" : Q + " ") + TT->getDecl()->getKindName().str() + " " +
             It->second + (Inner.empty() ? "" : " " + Inner);
    }
  }
  if (T->isFunctionType() && !Inner.empty() && Inner[0] == '*')
    Inner = "(" + Inner + ")";
  return S.printType(printable(S.Ctx, T), Inner);
}

QualType innermost(const ASTContext &Ctx, QualType T) {
  while (true) {
    if (const ArrayType *AT = Ctx.getAsArrayType(T))
      T = AT->getElementType();
    else if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    else
      return T;
  }
}

/// Does printing T need declarator() rather than Clang's printer?
bool Outliner::needsDeclarator(QualType T) const {
  if (isVariablyModified(T))
    return true;
  const auto *TT = innermost(S.Ctx, T)->getAs<TagType>();
  return TT && AnonNames.count(TT->getDecl());
}

std::string Outliner::typeName(QualType T) const { return declare(T, ""); }

std::string Outliner::declare(QualType T, std::string Name) const {
  unsigned K = 0;
  return needsDeclarator(T) ? declarator(T, Name, [](unsigned) { return std::string("0"); }, K)
                            : S.printType(printable(S.Ctx, T), Name);
}

const TagDecl *Outliner::unnamedTag(QualType T) const {
  const auto *TT = innermost(S.Ctx, T)->getAs<TagType>();
  if (!TT)
    return nullptr;
  const TagDecl *TD = TT->getDecl();
  return !TD->getIdentifier() && !TD->getTypedefNameForAnonDecl() && !AnonNames.count(TD) ? TD
                                                                                          : nullptr;
}

/// The dimension measurements of a VM type, for an lvalue Path of that type.
static void measureDims(const Session &S, QualType T, std::string Path,
                        std::vector<std::string> &Out) {
  while (isVariablyModified(T)) {
    if (const ArrayType *AT = S.Ctx.getAsArrayType(T)) {
      // An element of size 0 (`int a[n][m]` with m == 0, which gcc and
      // clang allow) leaves the dimension unknowable, and dividing by it
      // stopped the program (SIGFPE): 0 then, the array's size either way.
      if (isa<VariableArrayType>(AT))
        Out.push_back("(sizeof((" + Path + ")[0]) ? sizeof(" + Path + ") / sizeof((" + Path +
                      ")[0]) : 0)");
      Path = "(" + Path + ")[0]";
      T = AT->getElementType();
      continue;
    }
    if (const auto *PT = T->getAs<PointerType>()) {
      Path = "(*" + Path + ")";
      T = PT->getPointeeType();
      continue;
    }
    break;
  }
}

std::string Outliner::lvalue(const VarDecl *V, const Activity *Ctx) const {
  if (S.M.declActivity(V) == Ctx)
    return nameOf(V);
  return "(*parc_p_" + nameOf(V) + "_)";
}

std::string Outliner::rvLValue(const Activity *Ctx) const {
  return Ctx ? "(*parc_env_->parc_rv_)" : "parc_rv_";
}

std::string Outliner::envFields(const Construct &C) const {
  std::string Out;
  for (const VarDecl *V : C.Captures) {
    std::string N = nameOf(V);
    if (isVM(V)) {
      Out += " void *" + N + ";";
      std::vector<std::string> Dims;
      measureDims(S, V->getType(), N, Dims);
      for (unsigned K = 0; K < Dims.size(); ++K)
        Out += " __UINT64_TYPE__ parc_dim_" + N + "_" + std::to_string(K) + "_;";
    } else {
      Out += " " + declare(S.Ctx.getPointerType(printable(S.Ctx, V->getType())), N) + ";";
    }
  }
  if (C.CapturesRV)
    Out += " " +
           declare(S.Ctx.getPointerType(C.Func->getReturnType().getUnqualifiedType()),
                   "parc_rv_") +
           ";";
  return Out;
}

std::string Outliner::envInits(const Construct &C) const {
  std::vector<std::string> Inits;
  const Activity *P = C.Parent;
  for (const VarDecl *V : C.Captures) {
    bool Here = S.M.declActivity(V) == P;
    std::string N = nameOf(V);
    if (isVM(V)) {
      Inits.push_back(Here ? "(void *)&" + N : "(void *)parc_p_" + N + "_");
      std::vector<std::string> Dims;
      measureDims(S, V->getType(), lvalue(V, P), Dims);
      for (std::string &D : Dims)
        Inits.push_back(D);
    } else {
      auto F = FrameFields.find(V);
      if (Here && F != FrameFields.end())
        Inits.push_back("&parc_fr_->" + F->second); // moved into the frame (LowerSync.cpp)
      else
        Inits.push_back(Here ? "&" + N : "parc_p_" + N + "_");
    }
  }
  if (C.CapturesRV)
    Inits.push_back(P ? "parc_env_->parc_rv_" : "&parc_rv_");
  std::string Out;
  for (size_t I = 0; I < Inits.size(); ++I)
    Out += (I ? ", " : "") + Inits[I];
  return Out;
}

std::string Outliner::frameDecl(const Construct &C, const FramePlan &P) const {
  std::string Out = "  struct parc_fr_" + C.Tag + " { unsigned parc_st_;";
  for (const auto &[V, F] : P.Fields) {
    QualType T = printable(S.Ctx, V->getType());
    T.removeLocalConst();
    // An alignment of the declaration's own (_Alignas, aligned), which
    // the member's type does not carry; LowerSync.cpp keeps it <= 16.
    if (V->hasAttr<AlignedAttr>())
      Out += " _Alignas(" + std::to_string(S.Ctx.getDeclAlign(V).getQuantity()) + ")";
    Out += " " + declare(T, F) + ";";
  }
  return Out + " } *parc_fr_;\n";
}

namespace {
/// How a function's locals and parameters are used other than read, found
/// in one walk of its body (every construct of the function asks): those
/// that something other than their name may reach (address taken, an asm
/// operand, a use outside the main file), and where each of the others is
/// written (offsets in the main file, sorted).
class LocalWrites : public RecursiveASTVisitor<LocalWrites> {
public:
  LocalWrites(const Session &S, Outliner::FunctionWrites &W) : S(S), W(W) {}
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    const auto *V = dyn_cast<VarDecl>(R->getDecl());
    if (!V || !V->hasLocalStorage())
      return true;
    DynTypedNodeList Ps = S.Ctx.getParents(*R);
    const Stmt *P = Ps.empty() ? nullptr : Ps[0].get<Stmt>();
    if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P);
        IC && IC->getCastKind() == CK_LValueToRValue)
      return true; // a read
    SourceLocation L = S.SM.getExpansionLoc(R->getLocation());
    const auto *U = dyn_cast_or_null<UnaryOperator>(P);
    if (!S.SM.isWrittenInMainFile(L) || (U && U->getOpcode() == UO_AddrOf) || !P ||
        isa<GCCAsmStmt>(P))
      W.Escaped.insert(V);
    else
      W.Writes[V].push_back(S.SM.getFileOffset(L));
    return true;
  }

private:
  const Session &S;
  Outliner::FunctionWrites &W;
};
} // namespace

const Outliner::FunctionWrites &Outliner::functionWrites(const FunctionDecl *F) const {
  auto [It, New] = WritesOf.try_emplace(F);
  if (New) {
    LocalWrites(S, It->second).TraverseStmt(F->getBody());
    for (auto &[V, Offsets] : It->second.Writes)
      llvm::sort(Offsets);
  }
  return It->second;
}

/// The scalars that a construct's activities only read, and that nothing
/// else can change while it runs, so that each body function may read
/// them once (bodyPrologue).  That holds for a construct written at the
/// top of its function (no sibling activity of its own runs beside it),
/// for a local or parameter of that function whose address is never taken
/// (nothing but its name reaches it) and that the construct's text only
/// reads (the parent, which may also write it, waits at epar meanwhile).
/// Not for a static or an `extern` declared in the function: any function
/// may write those (a global declared `extern int n;` in main, which an
/// activity read after a call that changed it, read as it was at the
/// construct's start).
const llvm::SmallPtrSet<const VarDecl *, 8> &
Outliner::readOnlyCaptures(const Construct &C) const {
  auto [It, New] = ReadOnly.try_emplace(&C);
  if (!New || C.Parent || !C.Func->getBody())
    return It->second;
  const FunctionWrites *W = nullptr;
  unsigned B = S.offset(C.Block->getBeginLoc()), E = S.endOffset(C.Block->getEndLoc());
  for (const VarDecl *V : C.Captures) {
    QualType T = V->getType();
    if (!V->hasLocalStorage() || T.isVolatileQualified() ||
        !(T->isIntegerType() || T->isRealFloatingType() || T->isPointerType()) ||
        T->isAtomicType() || isVariablyModified(T))
      continue;
    if (!W)
      W = &functionWrites(C.Func);
    if (W->Escaped.count(V))
      continue;
    auto Found = W->Writes.find(V);
    if (Found != W->Writes.end()) {
      const llvm::SmallVector<unsigned, 2> &At = Found->second;
      auto First = llvm::lower_bound(At, B);
      if (First != At.end() && *First < E)
        continue; // written by an activity
    }
    It->second.insert(V);
  }
  return It->second;
}

std::string Outliner::constantDecls(const Construct &C) const {
  std::string Out;
  for (const VarDecl *V : C.Constants) {
    // Its own copy, with the value: still a constant expression.
    QualType T = printable(S.Ctx, V->getType());
    if (V->isConstexpr())
      T = T.getUnqualifiedType();
    std::string N = nameOf(V);
    Out += "  " + std::string(V->isConstexpr() ? "constexpr " : "") + declare(T, N) + " = " +
           S.M.ConstantValues.lookup(V) + "; (void)" + N + ";\n";
  }
  return Out;
}

std::string Outliner::bodyPrologue(const Construct &C, const Activity *Only) const {
  std::string Out = constantDecls(C);
  const llvm::SmallPtrSet<const VarDecl *, 8> &RO = readOnlyCaptures(C);
  for (const VarDecl *V : C.Captures) {
    // A parblock section's function: only what that section uses (a
    // generated parblock of 2,000 sections over 2,000 variables made 262 MB
    // of C, every section unpacking every variable).
    if (Only && !Only->Uses.count(V))
      continue;
    std::string N = nameOf(V), Decl;
    unsigned K = 0;
    QualType T = printable(S.Ctx, V->getType());
    if (RO.count(V))
      T = T.getUnqualifiedType();
    // Declarations of T and of a const pointer to it; for a variable of an
    // alignment of its own (`_Alignas(64) int x`), through a typedef that
    // has it: the activity's `x` is *parc_p_x_, whose type is the
    // pointee's, and `__alignof__(x)` said 4 (the object is where it was).
    std::string Aligned = "parc_al_" + N + "_";
    bool OwnAlign = !isVM(V) && V->hasAttr<AlignedAttr>() &&
                    S.Ctx.getDeclAlign(V) > S.Ctx.getTypeAlignInChars(V->getType());
    if (OwnAlign)
      Out += "  typedef " + declare(T, Aligned) + " __attribute__((aligned(" +
             std::to_string(S.Ctx.getDeclAlign(V).getQuantity()) + ")));\n";
    auto Of = [&](const std::string &Name) {
      return OwnAlign ? Aligned + " " + Name : declare(T, Name);
    };
    auto PtrTo = [&](const std::string &Name) {
      return OwnAlign ? Aligned + " *const " + Name
                      : declare(S.Ctx.getPointerType(T).withConst(), Name);
    };
    if (RO.count(V)) {
      // Read once into a local whose address does not escape: a store in
      // the body (a char, or of the variable's type) cannot change it, so
      // the back end keeps it in a register instead of reloading it after
      // every such store (`out[y * w + x] = in[y * w + x] / 3` reloaded
      // out, in and w: 1.9x the serial loop).
      Out += "  " + Of("parc_c_" + N + "_") + " = *parc_env_->" + N + "; " +
             PtrTo("parc_p_" + N + "_") + " = &parc_c_" + N + "_; (void)parc_p_" + N + "_;\n";
      continue;
    }
    if (isVM(V)) {
      Decl = declarator(
          V->getType(), "*const parc_p_" + N + "_",
          [&](unsigned I) { return "parc_env_->parc_dim_" + N + "_" + std::to_string(I) + "_"; },
          K);
    } else {
      // The address in a local that nothing takes the address of: no
      // store in the body can change it, so it stays in a register across
      // loops.  Read as parc_env_->x at each use, it would be reloaded
      // after every store the back end cannot prove unrelated (any char
      // store, any store of the field's type).
      Decl = PtrTo("parc_p_" + N + "_");
    }
    Out += "  " + Decl + " = parc_env_->" + N + "; (void)parc_p_" + N + "_;\n";
  }
  return Out;
}

//===--- Leaf edits -------------------------------------------------------===//

/// Offset of the raw identifier Word in B1[B, E), or -1.
static long findWord(const Session &S, unsigned B, unsigned E, StringRef Word) {
  for (const Session::RawToken &T : S.lexRange(B, E))
    if (T.Kind == tok::raw_identifier && S.TP.Text.compare(T.Off, T.Len, Word.str()) == 0)
      return T.Off;
  return -1;
}

/// B1 offset of the outermost macro expansion a use is part of (of the use
/// itself when it is not in one).
static unsigned expansionOffset(const Session &S, const VarUse &U) {
  return S.SM.getFileOffset(S.SM.getExpansionLoc(U.Ref->getLocation()));
}

bool Outliner::rewriteCaptures() {
  bool Ok = true;
  // An activity reaches a local of its parent through a pointer that parcc
  // writes in where the name is; it can write it only in the file it
  // compiles, not in a header or an included fragment.
  auto outsideNote = [&](const VarUse &U) {
    S.note(U.Var->getLocation(),
           "parcc shares the local '%0' with the activity by rewriting its name where it "
           "is written, and only in this file: name it in this file, or make it a global")
        << U.Var->getName();
  };
  const LangOptions &LO = S.Ctx.getLangOpts();
  // A use is rewritten where the user wrote the name: in the activity's text
  // or in a macro argument written there.  Two kinds cannot be:
  // - one in an argument that the macro also turns into a string
  //   (`#define SHOW(x) printf(#x " = %d\n", x)`, SHOW(n)): rewritten, it
  //   would print "(*parc_p_n_) = 5"; or that it also pastes
  //   (`#define P(a) a##_v + a`, P(x)): the paste would not be a token;
  // - one that a macro's body names (`#define BUMP() (count++)`), or that
  //   token pasting makes (`CAT(n, 2)`): its text is the definition, which
  //   every expansion shares, in activities and out.
  // Their expansion keeps its text instead, between `#define n
  // (*parc_p_n_)` and `#undef n` (defineAround).
  // Where the text cannot be kept exactly and every use of the variable in
  // that expansion is written in the file, the uses are rewritten in place
  // after all: the program means what it says, and only the string shows
  // the new spelling.  That is the case when the string is made through a
  // second macro (`#define CHECK(c) assert(c)`, CHECK(n > 0): CHECK expands
  // `n` before assert quotes it) or when the name also stands for a member
  // in the call (`assert(p->n < n)`), or when a macro quotes a name that
  // another macro's body wrote (`CHECK(AT(i) > 0)` with `#define AT(i)
  // a[i]`: the #define around it renames `a` in the string too).  A use
  // that a macro pastes (##) after another one expanded it can be neither
  // and is refused.
  std::set<std::pair<unsigned, const VarDecl *>> Defined;
  std::map<unsigned, std::vector<const VarUse *>> Around;
  std::set<const VarDecl *> Refused;
  // Each variable's uses in each expansion: how many, and whether every
  // one is written in the file (a macro argument), so that each can be
  // rewritten where it stands.
  struct InExpansion {
    unsigned Uses = 0;
    bool AllInPlace = true;
  };
  std::map<std::pair<unsigned, const VarDecl *>, InExpansion> Expansions;
  for (const VarUse &U : S.M.Uses) {
    SourceLocation L = U.Ref->getLocation();
    if (!L.isMacroID() || !S.SM.isWrittenInMainFile(S.SM.getExpansionLoc(L)))
      continue;
    InExpansion &In = Expansions[{expansionOffset(S, U), U.Var}];
    In.Uses++;
    In.AllInPlace &= S.writtenInPlace(L);
  }
  for (const VarUse &U : S.M.Uses) {
    SourceLocation L = U.Ref->getLocation();
    if (!L.isMacroID() || !S.SM.isWrittenInMainFile(S.SM.getExpansionLoc(L)))
      continue;
    unsigned X = expansionOffset(S, U);
    bool InPlace = S.writtenInPlace(L);
    unsigned Sp = InPlace ? S.offset(S.SM.getSpellingLoc(L)) : 0;
    if (InPlace && S.Macros.StringizedDeep.count(Sp)) {
      // Rewritten in place below (the string shows the new spelling).
    } else if (InPlace && inSet(S.Macros.PastedDeep, X, S.expansionEnd(L), U.Var)) {
      if (Refused.insert(U.Var).second)
        Ok &= refuseRenamed(U, "a macro there pastes (##) that name after another macro "
                               "expanded it");
    } else if ((!InPlace || S.Macros.Stringized.count(Sp) || S.Macros.Pasted.count(Sp)) &&
               !Defined.count({X, U.Var})) {
      const InExpansion &In = Expansions[{X, U.Var}];
      const char *Why = whyNotRenamable(X, U, In.Uses);
      if (!Why) {
        Defined.insert({X, U.Var});
        Around[X].push_back(&U);
      } else if (!InPlace || !In.AllInPlace) {
        Defined.insert({X, U.Var});
        Ok &= InPlace ? refuseQuoted(U, Why) : refuseRenamed(U, Why);
      }
      // Otherwise rewritten in place below, with every other use there.
    }
  }
  for (const auto &[X, Us] : Around)
    defineAround(Us);
  for (const VarUse &U : S.M.Uses) {
    SourceLocation L = U.Ref->getLocation();
    if (L.isMacroID() && Defined.count({expansionOffset(S, U), U.Var}))
      continue;
    if (L.isMacroID()) {
      if (!S.SM.isWrittenInMainFile(S.SM.getExpansionLoc(L))) {
        S.error(L, "variable '%0' is used inside a parallel activity through text outside "
                   "this file")
            << U.Var->getName();
        outsideNote(U);
        Ok = false;
        continue;
      }
      L = S.SM.getSpellingLoc(L); // in place: every other use is in Defined
    }
    // What is left outside this file is body text that a `#include` brings
    // into the middle of a construct.
    if (!S.SM.isWrittenInMainFile(L)) {
      S.error(U.Ref->getLocation(),
              "variable '%0' is used inside a parallel activity through text outside this file")
          << U.Var->getName();
      outsideNote(U);
      Ok = false;
      continue;
    }
    unsigned B = S.SM.getFileOffset(L);
    unsigned E = B + Lexer::MeasureTokenLength(L, S.SM, LO);
    if (S.Edits.isReplaced(B, E))
      continue; // a macro argument expanded twice
    if (!S.Edits.replace(B, E, lvalue(U.Var, U.Act))) {
      S.error(U.Ref->getLocation(), "cannot share variable '%0' with this parallel activity")
          << U.Var->getName();
      Ok = false;
    }
  }

  // __func__ in an activity names the function the user wrote it in.
  for (const auto &[E, FD] : S.M.FuncNames) {
    SourceLocation L = E->getLocation();
    if (L.isMacroID() || !S.inMainFile(L))
      continue;
    bool Pretty = E->getIdentKind() == PredefinedIdentKind::PrettyFunction;
    if (Pretty)
      PrettyFns.insert(FD);
    S.Edits.replace(S.offset(L), S.endOffset(L),
                    Pretty ? prettyMacro(FD) : "\"" + FD->getName().str() + "\"");
  }
  for (const auto &[A, FD] : S.M.MacroFuncNames)
    PrettyFns.insert(FD); // activityText defines __PRETTY_FUNCTION__ as it

  // `register` variables cannot have their address taken; sharing needs it.
  std::set<const VarDecl *> Done;
  for (const auto &C : S.M.Constructs)
    for (const VarDecl *V : C->Captures) {
      if (V->getStorageClass() != SC_Register || !Done.insert(V).second)
        continue;
      if (const auto *Reg = V->getAttr<AsmLabelAttr>()) {
        // `register long r __asm__("r12")`: without its `register` the
        // label is ignored (gcc and clang warned), and an activity may
        // run on another thread, whose r12 is not this one's.
        S.error(V->getLocation(), "cannot share variable '%0', bound to register '%1', with a "
                                  "parallel activity")
            << V->getName() << Reg->getLabel();
        S.note(V->getLocation(), "an activity may run on another thread: copy the value into "
                                 "an ordinary variable before the construct and share that");
        Ok = false;
        continue;
      }
      SourceLocation B = V->getBeginLoc(), E = V->getLocation();
      long Off = -1;
      unsigned BO = 0, EO = 0;
      if (!B.isMacroID() && !E.isMacroID()) {
        BO = S.offset(B), EO = S.offset(E);
        Off = findWord(S, BO, EO, "register");
      }
      if (Off < 0) {
        // `#define REG register` then `REG int n`: the word is in the
        // macro, which parcc cannot edit for this one use (the back end
        // failed with "address of register variable requested").
        S.error(V->getLocation(), "cannot share 'register' variable '%0' with a parallel "
                                  "activity: its 'register' is not written out here")
            << V->getName();
        S.note(V->getLocation(), "a shared variable needs an address: declare it without "
                                 "'register', or write 'register' itself so that parcc can "
                                 "drop it");
        Ok = false;
        continue;
      }
      // `register x = 1;` declares an int: keep a specifier in its place.
      // With another word (`int register x`) blanks do: `int auto x` is
      // an error in C23, where auto before the name infers the type.
      unsigned Words = 0;
      for (const Session::RawToken &T : S.lexRange(BO, EO))
        Words += T.Kind == tok::raw_identifier;
      const char *Instead = Words > 1 ? "        " : isa<ParmVarDecl>(V) ? "int     " : "auto    ";
      S.Edits.replace(Off, Off + 8, Instead);
    }
  return Ok;
}

/// The name of parcc's for the unnamed tag TD, whose definition (with its
/// brace) is text of the main file: given once, written before the brace.
std::string Outliner::nameTag(const TagDecl *TD) {
  auto It = AnonNames.find(TD);
  if (It != AnonNames.end())
    return It->second;
  std::string N = "parc_anon_g" + std::to_string(AnonNames.size()) + "_";
  AnonNames[TD] = N;
  S.Edits.insert(S.offset(TD->getBraceRange().getBegin()), N + " ");
  return N;
}

/// `struct { ... } g;` at file scope has no name, and an activity that shares
/// `__typeof__(g) loc` needs one for its environment's `struct (unnamed) *loc`.
/// The definition gets one of parcc's, written before its brace (`struct
/// parc_anon_g0_ { ... } g;`), which changes nothing else: in C a tag's
/// scope is the file even inside a struct.  Not for an anonymous member
/// (`struct { int a; };` inside a struct), which a tag would turn into a
/// declaration of nothing, nor for a definition written by a macro or in
/// another file: those are refused.  Local tags are hoistLocalDecls' job.
bool Outliner::nameFileTags() {
  bool Ok = true;
  llvm::DenseSet<const Decl *> Refused; // once per variable or function
  auto Name = [&](QualType T, const NamedDecl *D, StringRef Who) {
    const TagDecl *TD = unnamedTag(T);
    if (!TD || TD->getParentFunctionOrMethod() || Refused.count(D))
      return;
    SourceLocation LB = TD->getBraceRange().getBegin();
    const auto *RD = dyn_cast<RecordDecl>(TD);
    if (LB.isValid() && !LB.isMacroID() && S.inMainFile(LB) &&
        !(RD && RD->isAnonymousStructOrUnion())) {
      nameTag(TD);
      return;
    }
    Refused.insert(D);
    S.error(D->getLocation(), "cannot share %0 with a parallel activity: its type is an unnamed %1 that "
                 "parcc cannot name")
        << Who << TD->getKindName();
    S.note(TD->getLocation(), "give the %0 a tag or a typedef name") << TD->getKindName();
    Ok = false;
  };
  for (const auto &C : S.M.Constructs) {
    for (const VarDecl *V : C->Captures)
      Name(V->getType(), V, "'" + V->getName().str() + "'");
    if (C->CapturesRV)
      Name(C->Func->getReturnType(), C->Func, "the function's result");
  }
  return Ok;
}

std::string Outliner::hoistReturnTag(const FunctionDecl *FD) {
  const auto *TT = innermost(S.Ctx, FD->getReturnType())->getAs<TagType>();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!TT || !Body)
    return "";
  const TagDecl *TD = TT->getDecl();
  SourceLocation TB = TD->getBeginLoc(), LB = TD->getBraceRange().getBegin(),
                 RB = TD->getBraceRange().getEnd();
  if (!TD->isThisDeclarationADefinition() || LB.isInvalid() || TB.isMacroID() ||
      RB.isMacroID() || Body->getLBracLoc().isMacroID() || !S.inMainFile(TB) ||
      S.offset(TB) < S.offset(S.SM.getExpansionLoc(FD->getBeginLoc())) ||
      S.offset(TB) > S.offset(Body->getLBracLoc()))
    return "";
  std::string Name = TD->getIdentifier() ? TD->getName().str() : nameTag(TD);
  unsigned B = S.offset(TB), E = S.endOffset(RB);
  std::string Text = S.Edits.render(B, E);
  unsigned NL = std::count(Text.begin(), Text.end(), '\n');
  S.Edits.collapse(B, E, TD->getKindName().str() + " " + Name + std::string(NL, '\n'));
  return S.lineDirective(S.lineOf(B)) + Text + ";\n";
}

/// Does any expansion recorded in Sets inside the outermost expansion
/// [X, E) hold V's name?  A macro called in an argument of another runs
/// while that argument is expanded, before it is put in the body: it is
/// recorded at its own offset inside [X, E) (`faa(&s, UPD(i))`).
bool Outliner::inSet(const std::map<unsigned, std::set<const IdentifierInfo *>> &Sets, unsigned X,
                     unsigned E, const NamedDecl *V) {
  for (auto It = Sets.lower_bound(X); It != Sets.end() && It->first < E; ++It)
    if (It->second.count(V->getIdentifier()))
      return true;
  return false;
}

/// A use that a macro turns into a string that cannot be renamed exactly.
bool Outliner::refuseQuoted(const VarUse &U, const char *Why) {
  S.error(U.Ref->getLocation(), "a macro turns shared variable '%0' into a string here, and "
                                "parcc cannot keep its name in that text: %1")
      << nameOf(U.Var) << Why;
  return noteCopyToLocal(U);
}

/// The way out of a refused macro argument: a copy of the variable.
bool Outliner::noteCopyToLocal(const VarUse &U) {
  S.note(U.Var->getLocation(), "'%0' is shared with the activity by reference; copy it to a "
                               "local of the activity and pass that to the macro")
      << nameOf(U.Var);
  return false;
}

/// A use through a macro's body, token pasting, or a macro argument, that
/// cannot be renamed exactly.
bool Outliner::refuseRenamed(const VarUse &U, const char *Why) {
  SourceLocation L = U.Ref->getLocation();
  if (S.SM.isWrittenInScratchSpace(S.SM.getSpellingLoc(L))) {
    S.error(L, "variable '%0' is named by token pasting (##) inside a parallel activity, and "
               "parcc cannot rename it there: %1")
        << nameOf(U.Var) << Why;
    S.note(U.Var->getLocation(), "'%0' is shared with the activity by reference; write '%0' "
                                 "there")
        << nameOf(U.Var);
    return false;
  }
  if (S.writtenInPlace(L)) {
    StringRef Macro = Lexer::getSourceText(
        CharSourceRange::getTokenRange(S.SM.getExpansionLoc(L)), S.SM, S.Ctx.getLangOpts());
    S.error(L, "shared variable '%0' in an argument of macro '%1' cannot be renamed there: %2")
        << nameOf(U.Var) << Macro << Why;
    return noteCopyToLocal(U);
  }
  S.error(L, "variable '%0' is used through macro '%1' inside a parallel activity, and parcc "
             "cannot rename it there: %2")
      << nameOf(U.Var) << Lexer::getImmediateMacroName(L, S.SM, S.Ctx.getLangOpts()) << Why;
  S.note(U.Var->getLocation(), "'%0' is shared with the activity by reference; pass it to "
                               "the macro as an argument")
      << nameOf(U.Var);
  return false;
}

/// The expansion at B1 offset X names shared variable U.Var where an edit
/// in place would change a string or cannot reach the name (rewriteCaptures).
/// Can `#define n (*parc_p_n_)` around the expansion rename the variable and
/// nothing else?  Only if every identifier of that name the expansion hands
/// the parser is a use of the variable (not a member, a declaration, another
/// variable), no macro of that name runs there, and no macro pastes the
/// name after another one expanded it (`(*parc_p_n_)` would reach the paste;
/// one that quotes it then spells its string with the new name).  Uses is
/// the number of uses of the variable in that expansion.  Returns why not,
/// or null.
const char *Outliner::whyNotRenamable(unsigned X, const VarUse &U, unsigned Uses) {
  std::string N = nameOf(U.Var);
  unsigned Emitted = 0;
  if (auto It = S.Macros.Emitted.find(X); It != S.Macros.Emitted.end())
    if (auto C = It->second.find(U.Var->getIdentifier()); C != It->second.end())
      Emitted = C->second;
  if (N == "defined" || StringRef(N).starts_with("__has_"))
    return "the preprocessor keeps that name for itself";
  unsigned E = S.expansionEnd(U.Ref->getLocation());
  if (inSet(S.Macros.Expanded, X, E, U.Var))
    return "a macro of that name runs there";
  if (inSet(S.Macros.PastedDeep, X, E, U.Var))
    return "a macro there pastes (##) that name after another macro expanded it";
  if (Emitted != Uses)
    return "the name also stands for something else in that macro call (a member, a "
           "declaration)";
  return nullptr;
}

/// Wraps the expansion of the uses Us in `#define n (*parc_p_n_)` for the
/// variable of each (whyNotRenamable).
void Outliner::defineAround(const std::vector<const VarUse *> &Us) {
  // The name may also be a macro of the user's (a function-like `max` next
  // to a variable `max`): push_macro/pop_macro keep it for the code after
  // the expansion, where a plain #undef would have removed it.
  std::string Push, Pop;
  for (const VarUse *U : Us) {
    std::string N = nameOf(U->Var), Q = "\"" + N + "\"";
    Push += "\n#pragma push_macro(" + Q + ")\n#undef " + N + "\n#define " + N + " " +
            lvalue(U->Var, U->Act);
    Pop += "\n#undef " + N + "\n#pragma pop_macro(" + Q + ")";
  }
  wrapExpansion(Us.front()->Ref->getLocation(), Push, Pop);
}

void Outliner::wrapExpansion(SourceLocation InIt, const std::string &Push,
                             const std::string &Pop) {
  unsigned X = S.SM.getFileOffset(S.SM.getExpansionLoc(InIt));
  Wrap &W = Wraps[X];
  W.Last = S.offset(S.SM.getExpansionRange(InIt).getEnd());
  W.End = S.expansionEnd(InIt);
  W.Push += Push;
  W.Pop += Pop;
}

/// The pops go with the expansion's last token, a replacement inside it:
/// an insertion at its end would lie outside any range that ends there,
/// and a declaration that LowerSync turns into a frame store renders its
/// initializer by itself.
void Outliner::emitWraps() {
  for (auto &[X, W] : Wraps) {
    S.Edits.insert(X, W.Push + "\n" + S.lineDirective(S.lineOf(X)) + S.columnPad(X));
    std::string Pop = W.Pop + "\n" + S.lineDirective(S.lineOf(W.End)) + S.columnPad(W.End);
    if (!S.Edits.replace(W.Last, W.End, S.TP.Text.substr(W.Last, W.End - W.Last) + Pop))
      S.Edits.insert(W.End, Pop);
  }
  Wraps.clear();
}

//===--- Local types --------------------------------------------------------===//

namespace {

/// Collects the function-local type declarations a type depends on.
class LocalTypes : public RecursiveASTVisitor<LocalTypes> {
public:
  explicit LocalTypes(llvm::SetVector<const Decl *> &Out) : Out(Out) {}
  bool VisitTypedefType(TypedefType *T) {
    add(T->getDecl());
    return true;
  }
  bool VisitTagType(TagType *T) {
    add(T->getDecl());
    return true;
  }
  // `typeof(an) an2`: the traversal sees the expression `an`, not its type.
  bool VisitTypeOfExprType(TypeOfExprType *T) {
    TraverseType(T->getUnderlyingExpr()->getType());
    return true;
  }
  // An enumerator named in a moved type's array size or bit width, or in
  // another enumerator's value: its enum moves too (`enum { N = 4 };
  // struct buf { int v[N]; }`: the back end failed on 'N' undeclared).
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(E->getDecl()))
      add(cast<Decl>(EC->getDeclContext()));
    return true;
  }
  void add(const Decl *D) {
    if (!D->getParentFunctionOrMethod() || !Out.insert(D))
      return;
    // The type as written (its TypeLoc) holds the size expressions, which
    // the type itself does not keep.
    if (const auto *TD = dyn_cast<TypedefNameDecl>(D)) {
      if (const TypeSourceInfo *TSI = TD->getTypeSourceInfo())
        TraverseTypeLoc(TSI->getTypeLoc());
      else
        TraverseType(TD->getUnderlyingType());
    }
    if (const auto *RD = dyn_cast<RecordDecl>(D))
      if (const RecordDecl *Def = RD->getDefinition())
        for (const FieldDecl *F : Def->fields()) {
          if (const TypeSourceInfo *TSI = F->getTypeSourceInfo())
            TraverseTypeLoc(TSI->getTypeLoc());
          else
            TraverseType(F->getType());
          if (Expr *W = F->getBitWidth())
            TraverseStmt(W);
        }
    if (const auto *ED = dyn_cast<EnumDecl>(D))
      for (const EnumConstantDecl *EC : ED->enumerators())
        if (const Expr *Init = EC->getInitExpr())
          TraverseStmt(const_cast<Expr *>(Init));
  }
  llvm::SetVector<const Decl *> &Out;
};

/// Does a declaration refer to local variables (array bounds, enumerator
/// values, typeof)?
class LocalRefs : public RecursiveASTVisitor<LocalRefs> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      if (V->isLocalVarDeclOrParm())
        Found = true;
    return true;
  }
  bool Found = false;
};

/// A local type that cannot be written at file scope (`typedef int
/// row_t[n]`, an enumerator's value from a local).
bool dependsOnLocals(const Decl *D) {
  LocalRefs Refs;
  Refs.TraverseDecl(const_cast<Decl *>(D));
  if (const auto *TD = dyn_cast<TypedefNameDecl>(D))
    Refs.Found |= isVariablyModified(TD->getUnderlyingType());
  return Refs.Found;
}

} // namespace

/// A local enum's enumerators as Clang computed them, `{ A = 1, B = 2 }`;
/// empty where a value has no literal of 64 bits.
static std::string enumerators(const EnumDecl *ED) {
  std::string Out = "{";
  for (const EnumConstantDecl *EC : ED->enumerators()) {
    std::string V = integerLiteral(EC->getInitVal());
    if (V.empty())
      return "";
    Out += (Out.size() > 1 ? ", " : " ") + EC->getName().str() + " = " + V;
  }
  return Out + " }";
}

/// Is ED a local enum that moves to file scope written from what Clang
/// computed (renderTypes) rather than as written?  Where its text names
/// locals (`enum { N = sizeof buf / sizeof buf[0] }`, plain C89), and
/// where it has a fixed type, which may be a local typedef that file scope
/// does not see or means otherwise by (`enum dir : count_t`).
static bool writableEnum(const EnumDecl *ED) {
  return ED->isThisDeclarationADefinition() && ED->getBraceRange().isValid() &&
         !ED->getBraceRange().getBegin().isMacroID() &&
         !ED->getBraceRange().getEnd().isMacroID() && !enumerators(ED).empty();
}
static bool rewrittenEnum(const EnumDecl *ED) {
  return (ED->isFixed() || dependsOnLocals(ED)) && writableEnum(ED);
}

/// A local type that cannot be moved to file scope at all: one whose
/// definition depends on local variables, but an enum written with its
/// values.
static bool stuckOnLocals(const Decl *D) {
  if (!dependsOnLocals(D))
    return false;
  const auto *ED = dyn_cast<EnumDecl>(D);
  return !ED || !writableEnum(ED);
}

/// The text of [B, E) as edited, with each rewrittenEnum among Decls
/// written with its values and its fixed type's integer type.
template <typename Range>
static std::string renderTypes(const Session &S, unsigned B, unsigned E, Range Decls) {
  std::vector<std::tuple<unsigned, unsigned, std::string>> Subst;
  for (const Decl *X : Decls) {
    const auto *ED = dyn_cast<EnumDecl>(X);
    if (!ED || !rewrittenEnum(ED))
      continue;
    SourceRange R = ED->getIntegerTypeRange();
    if (ED->isFixed() && R.isValid() && !R.getBegin().isMacroID() && !R.getEnd().isMacroID())
      Subst.emplace_back(S.offset(R.getBegin()), S.endOffset(R.getEnd()),
                         S.printType(ED->getIntegerType().getCanonicalType()));
    SourceRange BR = ED->getBraceRange();
    Subst.emplace_back(S.offset(BR.getBegin()), S.endOffset(BR.getEnd()), enumerators(ED));
  }
  llvm::sort(Subst);
  std::string Out;
  unsigned Cur = B;
  for (const auto &[SB, SE, Text] : Subst) {
    if (SB < Cur || SE > E)
      continue;
    Out += S.Edits.render(Cur, SB) + Text;
    Cur = SE;
  }
  return Out + S.Edits.render(Cur, E);
}

/// The `#pragma pack` in force where a local record was defined, which the
/// file-scope copy must be given again (0: none).
static unsigned packOf(const Decl *D) {
  const auto *RD = dyn_cast<RecordDecl>(D);
  if (!RD)
    return 0;
  if (const auto *A = RD->getAttr<MaxFieldAlignmentAttr>())
    return A->getAlignment() / 8;
  return 0;
}

static std::string withPack(unsigned Pack, std::string Text) {
  if (!Pack)
    return Text;
  return "#pragma pack(push, " + std::to_string(Pack) + ")\n" + Text + "#pragma pack(pop)\n";
}

/// The end of the `__attribute__((...))` specifiers written right after a
/// tag's closing brace at RB (they belong to the type), or RB.
static unsigned tagAttributesEnd(const Session &S, unsigned RB, unsigned Limit) {
  std::vector<Session::RawToken> Toks = S.lexRange(RB, Limit);
  unsigned End = RB;
  for (size_t I = 0; I < Toks.size();) {
    StringRef W = StringRef(S.TP.Text).substr(Toks[I].Off, Toks[I].Len);
    if (Toks[I].Kind != tok::raw_identifier || (W != "__attribute__" && W != "__attribute"))
      break;
    size_t J = I + 1;
    int Depth = 0;
    for (; J < Toks.size(); ++J) {
      if (Toks[J].Kind == tok::l_paren)
        ++Depth;
      else if (Toks[J].Kind == tok::r_paren && --Depth == 0)
        break;
      else if (Depth == 0)
        return End; // not `__attribute__ (` : leave it
    }
    if (J == Toks.size())
      return End;
    End = Toks[J].Off + Toks[J].Len;
    I = J + 1;
  }
  return End;
}

llvm::SetVector<const Decl *> Outliner::localTypesNeeded(const FunctionModel &F) const {
  llvm::SetVector<const Decl *> Need;
  LocalTypes Walk(Need);
  for (const Decl *D : F.Hoist)
    Walk.add(D);
  // A captured variable length array travels as its element type and
  // dimensions (outlined code rebuilds the array type from them), never by
  // its typedef's name, which could not be moved: `typedef int row_t[n];
  // row_t r;` with r shared.
  for (const Construct *C : F.PostOrder) {
    for (const VarDecl *V : C->Captures)
      Walk.TraverseType(isVariablyModified(V->getType()) ? V->getType().getCanonicalType()
                                                         : V->getType());
    for (const VarDecl *V : C->Constants)
      Walk.TraverseType(V->getType());
  }
  // A block-scope function declaration gets a file-scope prototype, whose
  // types must be there too (`L make(int);`, L a local typedef).
  for (const FunctionDecl *FD : F.LocalFunctions)
    Walk.TraverseType(FD->getType());
  return Need;
}

namespace {
/// Where a function's text spells the names of some local declarations:
/// their declarations, the types written with them, the enumerators used.
class SpelledNames : public RecursiveASTVisitor<SpelledNames> {
public:
  explicit SpelledNames(const llvm::DenseSet<const Decl *> &Of) : Of(Of) {}
  bool VisitNamedDecl(NamedDecl *D) {
    note(D, D->getLocation());
    return true;
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) {
    note(TL.getDecl(), TL.getNameLoc());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
    note(TL.getTypedefNameDecl(), TL.getNameLoc());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    note(E->getDecl(), E->getLocation());
    return true;
  }
  /// Each declaration's spellings (several redeclarations are one).
  std::map<const Decl *, std::vector<SourceLocation>> At;

private:
  void note(const Decl *D, SourceLocation L) {
    D = D->getCanonicalDecl();
    if (Of.count(D) && L.isValid())
      At[D].push_back(L);
  }
  const llvm::DenseSet<const Decl *> &Of;
};
} // namespace

bool Outliner::renamableInMacro(const NamedDecl *D, SourceLocation L) const {
  if (!S.writtenInPlace(L))
    return false;
  unsigned Sp = S.offset(L);
  const MacroUses &M = S.Macros;
  if (M.Stringized.count(Sp) || M.StringizedDeep.count(Sp) || M.Pasted.count(Sp))
    return false;
  unsigned X = S.SM.getFileOffset(S.SM.getExpansionLoc(L));
  return !inSet(M.PastedDeep, X, S.expansionEnd(L), D);
}

void Outliner::renameClashingLocalTypes() {
  // Every moved name, by name space (tags; typedefs and enumerators),
  // with the function it comes from, in the order of the file.
  struct Moved {
    const NamedDecl *D;
    const FunctionModel *F;
  };
  std::map<std::pair<bool, std::string>, std::vector<Moved>> ByName;
  std::set<const Decl *> Seen;
  for (const auto &F : S.M.Functions)
    for (const Decl *D : localTypesNeeded(*F)) {
      // One that cannot move at all keeps its name for the message.
      if (stuckOnLocals(D))
        continue;
      std::vector<const NamedDecl *> Names;
      if (const auto *ND = dyn_cast<NamedDecl>(D))
        Names.push_back(ND);
      if (const auto *ED = dyn_cast<EnumDecl>(D))
        for (const EnumConstantDecl *EC : ED->enumerators())
          Names.push_back(EC);
      for (const NamedDecl *ND : Names)
        if (ND->getIdentifier() && Seen.insert(ND->getCanonicalDecl()).second)
          ByName[{isa<TagDecl>(ND), ND->getName().str()}].push_back({ND, F.get()});
    }
  TranslationUnitDecl *TU = S.Ctx.getTranslationUnitDecl();
  std::map<const FunctionModel *, std::vector<const NamedDecl *>> Rename;
  for (auto &[Key, List] : ByName) {
    bool AtFileScope = false;
    for (const NamedDecl *R : TU->lookup(List.front().D->getDeclName()))
      AtFileScope |= isa<TagDecl>(R) == Key.first;
    if (!AtFileScope && List.size() < 2)
      continue;
    // The first keeps its name where nothing at file scope has it.
    for (size_t I = AtFileScope ? 0 : 1; I < List.size(); ++I)
      Rename[List[I].F].push_back(List[I].D);
  }
  std::set<std::string> Taken;
  for (const auto &FP : S.M.Functions) {
    const FunctionModel *F = FP.get();
    auto It = Rename.find(F);
    if (It == Rename.end())
      continue;
    const std::vector<const NamedDecl *> &Decls = It->second;
    llvm::DenseSet<const Decl *> Of;
    for (const NamedDecl *D : Decls)
      Of.insert(D->getCanonicalDecl());
    SpelledNames Spelled(Of);
    Spelled.TraverseDecl(const_cast<FunctionDecl *>(F->FD));
    for (const NamedDecl *D : Decls) {
      // Every spelling is an identifier of this file, outside macros or in
      // an argument of one, or the name stays (and hoistLocalDecls says
      // why it cannot move).
      std::vector<unsigned> Offs;
      bool Editable = true;
      for (SourceLocation L : Spelled.At[D->getCanonicalDecl()]) {
        if (L.isMacroID() ? !renamableInMacro(D, L) : !S.inMainFile(L)) {
          Editable = false;
          Unrenamed[D->getCanonicalDecl()] = L;
          break;
        }
        unsigned Off = S.offset(L);
        if (StringRef(S.TP.Text).substr(Off, D->getName().size()) != D->getName()) {
          Editable = false;
          break;
        }
        Offs.push_back(Off);
      }
      if (!Editable || Offs.empty())
        continue;
      std::string Base = "parc_" + D->getName().str() + "_" + F->FD->getName().str();
      std::string Name = Base + "_";
      for (unsigned K = 2; !Taken.insert(Name).second; ++K)
        Name = Base + std::to_string(K) + "_";
      llvm::sort(Offs);
      Offs.erase(std::unique(Offs.begin(), Offs.end()), Offs.end());
      unsigned Len = D->getName().size();
      for (unsigned Off : Offs)
        S.Edits.replace(Off, Off + Len, Name);
      // Types printed from now on (environment fields, casts, frames)
      // say the new name too.
      for (const Decl *R : D->redecls())
        const_cast<NamedDecl *>(cast<NamedDecl>(R))
            ->setDeclName(DeclarationName(&S.Ctx.Idents.get(Name)));
    }
  }
}

bool Outliner::hoistLocalDecls(FunctionModel &F, std::string &Out) {
  llvm::SetVector<const Decl *> Need = localTypesNeeded(F);
  // Declarations inside a hoisted one come with it.
  std::vector<const Decl *> Sorted;
  for (const Decl *D : Need) {
    bool Nested = false;
    for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
      if (isa<RecordDecl>(DC) && Need.count(cast<Decl>(DC)))
        Nested = true;
    if (!Nested)
      Sorted.push_back(D);
  }
  std::sort(Sorted.begin(), Sorted.end(), [&](const Decl *A, const Decl *B) {
    return S.SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });

  bool Ok = true;
  std::set<const DeclStmt *> MovedStmts;
  TranslationUnitDecl *TU = S.Ctx.getTranslationUnitDecl();
  // The name that clashed, and whether with another local declaration
  // moved to file scope (two functions' `struct pair`, or `enum { N = 3 }`)
  // rather than with a file-scope one.
  std::string ClashName;
  bool ClashMoved = false;
  auto Conflict = [&](const NamedDecl *ND, bool Tag) {
    if (!ND->getIdentifier())
      return false;
    for (const NamedDecl *R : TU->lookup(ND->getDeclName()))
      if (isa<TagDecl>(R) == Tag && R != ND) {
        ClashName = ND->getName().str(), ClashMoved = false;
        return true;
      }
    auto [It, New] =
        (Tag ? HoistedTags : HoistedNames).try_emplace(ND->getName().str(), ND->getCanonicalDecl());
    if (New || It->second == ND->getCanonicalDecl())
      return false;
    ClashName = ND->getName().str(), ClashMoved = true;
    return true;
  };
  auto Fail = [&](const Decl *D, const char *Why, bool Local = false) {
    const auto *ND = cast<NamedDecl>(D);
    S.error(D->getLocation(), "cannot move local type '%0' to file scope for a parallel "
                              "activity: %1")
        << (ND->getIdentifier() ? ND->getName() : StringRef("<anonymous>")) << Why;
    if (Local)
      // `typedef int row_t[n];` cannot be written at file scope at all.
      S.note(D->getLocation(), "write the type out where the activity's variables are "
                               "declared (for a variable length array, 'T name[n]') instead "
                               "of naming it");
    else if (!S.inMainFile(D->getLocation()))
      S.note(D->getLocation(), "include the file at file scope, before the function");
    else
      S.note(D->getLocation(), "declare the type at file scope");
    Ok = false;
  };
  auto FailClash = [&](const Decl *D) {
    // renameClashingLocalTypes could not rename it: why.
    auto Why = [&] {
      for (const auto &[X, L] : Unrenamed)
        if (X == D->getCanonicalDecl() ||
            cast<Decl>(X->getDeclContext())->getCanonicalDecl() == D->getCanonicalDecl()) {
          S.note(L, "parcc would give the type a name of its own, but %select{a macro "
                    "spells|another file spells|a macro stringizes (#) or pastes (##)}1 the "
                    "name '%0' here")
              << cast<NamedDecl>(X)->getName()
              << (!L.isMacroID() ? 1 : S.writtenInPlace(L) ? 2 : 0);
          return;
        }
    };
    if (!ClashMoved) {
      Fail(D, "a declaration with the same name exists at file scope");
      Why();
      return;
    }
    const auto *ND = cast<NamedDecl>(D);
    S.error(D->getLocation(), "cannot move local type '%0' to file scope for a parallel "
                              "activity: '%1' is also declared by another local type that "
                              "moves there")
        << (ND->getIdentifier() ? ND->getName() : StringRef("<anonymous>")) << ClashName;
    S.note(D->getLocation(), "parcc moves the local types that activities use to file "
                             "scope, where one name can mean one thing: rename one of them, "
                             "or declare a shared type once at file scope");
    Why();
    Ok = false;
  };

  // `struct node;` left in the function after `struct node { ... }` moved
  // would declare a new, incomplete local type there, which hides the
  // moved one: the statements that only declare a moved tag ahead (or
  // again) go with it.
  // The statement that declares D, or null.
  auto DeclStmtOf = [&](const Decl *D) -> const DeclStmt * {
    for (const DynTypedNode &P : S.Ctx.getParents(*D))
      if (const auto *DS = P.get<DeclStmt>())
        return DS;
    return nullptr;
  };
  auto DropRedeclarations = [&](const Decl *D) {
    const auto *TD = dyn_cast<TagDecl>(D);
    if (!TD)
      return;
    for (const TagDecl *R : TD->redecls()) {
      if (R == TD || R->isThisDeclarationADefinition())
        continue;
      const DeclStmt *DS = DeclStmtOf(R);
      if (!DS || !DS->isSingleDecl() || MovedStmts.count(DS))
        continue;
      if (DS->getBeginLoc().isMacroID() || DS->getEndLoc().isMacroID() ||
          !S.inMainFile(DS->getBeginLoc()) || !S.inMainFile(DS->getEndLoc())) {
        Fail(R, "it is declared ahead by a macro or in a file included inside the function");
        continue;
      }
      unsigned B = S.offset(DS->getBeginLoc()), E = S.endOffset(DS->getEndLoc());
      std::string Text = S.Edits.render(B, E);
      S.Edits.collapse(B, E, ";" + std::string(std::count(Text.begin(), Text.end(), '\n'), '\n'));
      MovedStmts.insert(DS);
    }
  };

  for (const Decl *D : Sorted) {
    const DeclStmt *DS = DeclStmtOf(D);
    if (!DS) {
      Fail(D, "it is not declared by a statement of its own");
      continue;
    }
    if (MovedStmts.count(DS))
      continue;
    if (DS->getBeginLoc().isMacroID() || DS->getEndLoc().isMacroID()) {
      Fail(D, "it is declared by a macro");
      continue;
    }
    if (!S.inMainFile(DS->getBeginLoc()) || !S.inMainFile(DS->getEndLoc())) {
      // `#include "t.h"` inside the function: the text to move is not in
      // this file (its offsets used to be taken as this file's).
      Fail(D, "it is declared in a file included inside the function");
      continue;
    }
    if (stuckOnLocals(D)) {
      Fail(D, "its definition depends on local variables", /*Local=*/true);
      continue;
    }
    bool OnlyTypes = true;
    for (const Decl *X : DS->decls())
      if (!isa<TagDecl>(X) && !isa<TypedefNameDecl>(X))
        OnlyTypes = false;
    bool Clash = false;
    auto CheckNames = [&](const Decl *X) {
      if (const auto *TD = dyn_cast<TagDecl>(X)) {
        Clash |= Conflict(TD, true);
        if (const auto *ED = dyn_cast<EnumDecl>(TD))
          for (const EnumConstantDecl *EC : ED->enumerators())
            Clash |= Conflict(EC, false);
      } else if (const auto *ND = dyn_cast<NamedDecl>(X)) {
        Clash |= Conflict(ND, false);
      }
    };
    unsigned B = S.offset(DS->getBeginLoc()), E = S.endOffset(DS->getEndLoc());
    unsigned Line = S.lineOf(B);
    replayMacros(B, Out);
    if (OnlyTypes) {
      for (const Decl *X : DS->decls())
        CheckNames(X);
      if (Clash) {
        FailClash(D);
        continue;
      }
      std::string Text = renderTypes(S, B, E, DS->decls());
      unsigned NL = std::count(Text.begin(), Text.end(), '\n');
      unsigned Pack = 0;
      for (const Decl *X : DS->decls())
        Pack = std::max(Pack, packOf(X));
      Out += withPack(Pack, S.lineDirective(Line) + Text + "\n");
      S.Edits.collapse(B, E, ";" + std::string(NL, '\n'));
      MovedStmts.insert(DS);
      for (const Decl *X : DS->decls())
        DropRedeclarations(X);
      continue;
    }
    // A tag defined in a declaration of variables: move the definition,
    // leave `struct NAME` behind.
    const auto *TD = dyn_cast<TagDecl>(D);
    if (!TD || !TD->isThisDeclarationADefinition() || TD->getBraceRange().isInvalid()) {
      Fail(D, "it is declared together with variables");
      continue;
    }
    CheckNames(TD);
    if (Clash) {
      FailClash(D);
      continue;
    }
    std::string Name = TD->getIdentifier()
                           ? TD->getName().str()
                           : "parc_anon_L" + std::to_string(Line) + "_" +
                                 std::to_string(AnonNames.size()) + "_";
    if (!TD->getIdentifier())
      AnonNames[TD] = Name;
    std::string Kw = TD->getKindName().str();
    unsigned TB = S.offset(TD->getBeginLoc());
    unsigned LB = S.offset(TD->getBraceRange().getBegin());
    unsigned RB = S.endOffset(TD->getBraceRange().getEnd());
    // The type's attributes go with it: those between the keyword and the
    // brace (`struct __attribute__((packed)) S {`) and those right after the
    // brace (`} __attribute__((aligned(32))) v;`).
    unsigned AE = tagAttributesEnd(S, RB, E);
    const Decl *TagD = TD;
    ArrayRef<const Decl *> Tag(TagD);
    std::string Head = renderTypes(S, TB, LB, Tag);
    if (!TD->getIdentifier())
      Head += Name + " ";
    std::string Body = renderTypes(S, LB, AE, Tag);
    std::string Moved = S.Edits.render(TB, AE);
    unsigned NL = std::count(Moved.begin(), Moved.end(), '\n');
    Out += withPack(packOf(TD), S.lineDirective(S.lineOf(TB)) + Head + Body + ";\n");
    S.Edits.collapse(TB, AE, Kw + " " + Name + std::string(NL, '\n'));
    DropRedeclarations(TD);
  }

  for (const FunctionDecl *FD : F.LocalFunctions)
    Out += S.printType(FD->getType(), FD->getName()) + ";\n";
  return Ok;
}

} // namespace parcc
