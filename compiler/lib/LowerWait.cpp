//===- LowerWait.cpp - semaphore calls and waits that name their place ----===//
//
//   parc_P(&s[1]);   =>   parc_P_at(&s[1], &parc_wsite_0_);
//   parc_V(&s[1]);   =>   parc_V_at(&s[1], &parc_wsite_2_);
//   sync;            =>   parc_sync(parc_self_, &parc_wsite_1_);   (LowerSync.cpp)
//
// and at the top of the file (parc_abi.h, "Semaphore calls"):
//
//   static const parc_wait_site parc_wsite_0_ =
//       PARC_WAIT_SITE_INIT("prog.pc", "main", 11, 5, "&s[1]");
//   static const parc_wait_site parc_wsite_1_ =
//       PARC_WAIT_SITE_INIT("prog.pc", "main", 14, 7, "");
//
// so that a deadlock report says where each blocked activity waits and on
// what, as the user wrote it (a sync's site has no argument), and a
// semaphore error (not initialised, a value past INT_MAX) names the call.
// Only a call whose `parc_P` or `parc_V` and `)` are written in the file
// itself is rewritten: a macro's call, or one in a macro's argument (which
// the macro might quote), stays as it is and is reported by the semaphore's
// address.
//
//===----------------------------------------------------------------------===//
#include "parcc/Analysis.h"
#include "parcc/Lowering.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace parcc {

namespace {

/// The argument as the user wrote it, for a C string literal: white space
/// runs made one space, cut at MaxArg characters, escaped.
std::string argText(StringRef Orig) {
  enum { MaxArg = 60 };
  std::string T;
  for (char C : Orig.trim()) {
    bool Space = C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' || C == '\v';
    if (Space && !T.empty() && T.back() == ' ')
      continue;
    T += Space ? ' ' : C;
  }
  if (T.size() > MaxArg)
    T = T.substr(0, MaxArg - 3) + "...";
  return Session::escaped(T);
}

/// The extents of the constant arrays around T, outermost first (at most
/// three, none zero), and the element under them; false for more, or an
/// array of unknown or variable length.
bool peelArrays(ASTContext &Ctx, QualType T, SmallVectorImpl<uint64_t> &Dims, QualType &Elem) {
  while (const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(T)) {
    uint64_t N = CAT->getSize().getZExtValue();
    if (Dims.size() == 3 || N == 0 || N > 0xffffffffu)
      return false;
    Dims.push_back(N);
    T = CAT->getElementType();
  }
  Elem = T;
  return !T->isArrayType();
}

std::string indexZero(size_t N) {
  std::string Out;
  for (size_t I = 0; I < N; ++I)
    Out += "[0]";
  return Out;
}

} // namespace

/// A row of a table of semaphore names (parc_abi.h, "Names of
/// semaphores"), as C expressions of the variable X: the first semaphore,
/// one of X's elements whose size is the stride, and the first one's offset
/// in X.
struct SemRow {
  std::string Name, Member, First, Stride, Offset;
  SmallVector<uint64_t, 3> Dims;
};

/// The rows for variable V of type T, written as X: a semaphore, an array
/// of them (`fork[5]`, `s[3][4]`), a struct's member that is one or an
/// array of them (`buf.mutex`, `buf.slot[4]`), a semaphore member of an
/// array of structs (`phil[5].left`).
static std::vector<SemRow> semaphoreRows(Session &S, const std::string &N, QualType T,
                                         const std::string &X) {
  std::vector<SemRow> Rows;
  SmallVector<uint64_t, 3> Dims;
  QualType Elem;
  if (!peelArrays(S.Ctx, T, Dims, Elem))
    return Rows;
  std::string Idx = indexZero(Dims.size());
  if (isSemaphoreType(Elem)) {
    Rows.push_back({N, "", X + Idx, X + Idx, "0", Dims});
    return Rows;
  }
  const auto *RT = Elem->getAs<RecordType>();
  const RecordDecl *RD = RT ? RT->getDecl()->getDefinition() : nullptr;
  if (!RD)
    return Rows;
  for (const FieldDecl *F : RD->fields()) {
    SmallVector<uint64_t, 3> FDims;
    QualType FElem;
    if (!F->getIdentifier() || F->isBitField() || !peelArrays(S.Ctx, F->getType(), FDims, FElem) ||
        !isSemaphoreType(FElem))
      continue;
    std::string M = F->getName().str(), FIdx = indexZero(FDims.size());
    std::string Off = "__builtin_offsetof(__typeof__(" + X + Idx + "), " + M + ")";
    if (Dims.empty()) // buf.mutex, buf.slot[4]
      Rows.push_back({N + "." + M, "", X + "." + M + FIdx, X + "." + M + FIdx, Off, FDims});
    else if (FDims.empty()) // phil[5].left
      Rows.push_back({N, "." + M, X + Idx + "." + M, X + Idx, Off, Dims});
  }
  return Rows;
}

static std::string dimsText(ArrayRef<uint64_t> Dims) {
  std::string Out;
  for (size_t I = 0; I < 3; ++I)
    Out += ", " + std::to_string(I < Dims.size() ? Dims[I] : 0);
  return Out;
}

std::string semaphoreNames(Session &S) {
  std::string Rows;
  llvm::SmallPtrSet<const VarDecl *, 16> Done;
  for (const Decl *D : S.Ctx.getTranslationUnitDecl()->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    // A thread-local one has no address that is a constant.
    if (!V || !V->getIdentifier() || S.SM.isInSystemHeader(V->getLocation()) ||
        V->getTLSKind() != VarDecl::TLS_None ||
        V->hasDefinition(S.Ctx) == VarDecl::DeclarationOnly ||
        !Done.insert(V->getCanonicalDecl()).second)
      continue;
    V = V->getMostRecentDecl();
    std::string N = V->getName().str();
    for (const SemRow &R : semaphoreRows(S, N, V->getType(), N))
      Rows += "    PARC_SEM_NAME_INIT(\"" + Session::escaped(R.Name) + "\", \"" +
              Session::escaped(R.Member) + "\", (const void *)&" + R.First + ", sizeof(" +
              R.Stride + ")" + dimsText(R.Dims) + "),\n";
  }
  if (Rows.empty())
    return "";
  return "static const parc_sem_name parc_sem_name_v_[] = {\n" + Rows +
         "};\n"
         "static parc_sem_names parc_sem_names_ = PARC_SEM_NAMES_INIT(parc_sem_name_v_);\n"
         "__attribute__((__constructor__)) static void parc_sem_names_in_(void) {\n"
         "  parc_sem_names_add_(&parc_sem_names_);\n"
         "}\n"
         "__attribute__((__destructor__)) static void parc_sem_names_out_(void) {\n"
         "  parc_sem_names_remove_(&parc_sem_names_);\n"
         "}\n";
}

std::string Outliner::captureSemaphoreNames(const Construct &C, unsigned &Count) const {
  std::string Rows, Env = envType(C);
  Count = 0;
  for (const VarDecl *V : C.Captures) {
    if (isVM(V))
      continue;
    std::string N = V->getName().str();
    for (const SemRow &R : semaphoreRows(S, N, V->getType(), "(*((" + Env + " *)0)->" + N + ")")) {
      Rows += "    PARC_SEM_ENV_NAME_INIT(\"" + Session::escaped(R.Name) + "\", \"" +
              Session::escaped(R.Member) + "\", __builtin_offsetof(" + Env + ", " + N + "), " +
              R.Offset + ", sizeof(" + R.Stride + ")" + dimsText(R.Dims) + "),\n";
      ++Count;
    }
  }
  return Rows;
}

std::string Outliner::waitSite(unsigned At, const FunctionDecl *Fn, const std::string &Arg) {
  unsigned Line, Col;
  S.userPosition(At, Line, Col);
  std::string File;
  unsigned PLine;
  S.presumedLine(Line, File, PLine);
  std::string Name = "parc_wsite_" + std::to_string(NextWaitSite++) + "_";
  WaitSites += "static const parc_wait_site " + Name + " = PARC_WAIT_SITE_INIT(\"" + File +
               "\", \"" + Session::escaped(Fn->getName()) + "\", " + std::to_string(PLine) +
               ", " + std::to_string(Col) + ", \"" + Arg + "\");\n";
  return Name;
}

void lowerSemCalls(Outliner &O) {
  Session &S = O.S;
  StringRef User = S.Orig.sm().getBufferData(S.Orig.fid());
  for (const auto &W : S.M.SemCalls) {
    const CallExpr *CE = W.first;
    SourceLocation Callee = CE->getCallee()->IgnoreParenImpCasts()->getBeginLoc();
    SourceLocation RParen = CE->getRParenLoc();
    if (CE->getNumArgs() != 1 || !Callee.isFileID() || !RParen.isFileID() ||
        !S.inMainFile(Callee) || !S.inMainFile(RParen))
      continue;
    SourceLocation Arg = S.SM.getExpansionLoc(CE->getArg(0)->getBeginLoc());
    unsigned At = S.offset(Callee), End = S.offset(RParen);
    StringRef Op = StringRef(S.TP.Text).substr(At, 6);
    if (!S.inMainFile(Arg) || S.offset(Arg) > End || (Op != "parc_P" && Op != "parc_V"))
      continue;
    unsigned ArgB = S.TP.Map.toOrig(S.offset(Arg)), ArgE = S.TP.Map.toOrig(End);
    if (ArgB > ArgE || ArgE > User.size())
      continue;
    std::string Name = O.waitSite(At, W.second, argText(User.slice(ArgB, ArgE)));
    S.Edits.replace(At, At + 6, (Op + "_at").str());
    S.Edits.insert(End, ", &" + Name);
  }
}

} // namespace parcc
