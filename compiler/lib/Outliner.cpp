//===- Outliner.cpp - body functions, environments, spawn sites -----------===//
//
// Drives the lowering of a file (see Lowering.h) and owns what every
// construct family shares: names, the environment struct, the head of a body
// function, the text of an activity under #line, and the block of outlined
// code inserted before each function:
//
//   int f(int n);                               <- only if an activity calls f
//   struct parc_env_f_L12 { int *n; unsigned long long parc_from_, parc_step_; };
//   static const parc_act_names parc_names_f_L12_ = PARC_INDEX_NAMES_INIT("i", 4, 1,
//       __builtin_offsetof(struct parc_env_f_L12, parc_from_), ...);
//   static parc_site parc_site_f_L12_ = PARC_SITE_INIT_NAMES("prog.pc", "f", 12, 5,
//       PARC_KIND_PARFOR, 0, 0, 0, &parc_names_f_L12_);
//   static void f_parfor_L12(parc_act *parc_self_, void *parc_envp_) { ... }
//   #line 10 "prog.pc"
//   int f(int n) { ...spawn code in place of the construct... }
//
//===----------------------------------------------------------------------===//
#include "parcc/Analysis.h"
#include "parcc/Lowering.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;

namespace parcc {

/// Is C written where FENV_ACCESS is on (`#pragma STDC FENV_ACCESS ON`
/// around it, or -frounding-math for the file)?  C says that only such
/// code may run under floating-point control modes other than the
/// default, so its activities start with those their parent has at the
/// construct (PARC_KIND_FENV); they started with another processor's.
bool Outliner::fenvAccess(const Construct &C) const {
  // Each compound statement keeps the pragma's changes from the one
  // around it: the innermost that says, says.
  const Stmt *St = C.Block;
  while (St) {
    if (const auto *CS = dyn_cast<CompoundStmt>(St); CS && CS->hasStoredFPFeatures()) {
      FPOptionsOverride O = CS->getStoredFPFeatures();
      if (O.hasAllowFEnvAccessOverride())
        return O.getAllowFEnvAccessOverride();
    }
    DynTypedNodeList Ps = S.Ctx.getParents(*St);
    St = Ps.empty() ? nullptr : Ps[0].get<Stmt>();
  }
  return S.Opts.FenvAccess || FPOptions(S.Ctx.getLangOpts()).getAllowFEnvAccess();
}

bool Outliner::hasEnv(const Construct &C) const {
  return !C.Captures.empty() || C.CapturesRV || isLoop(C.Kind);
}

std::string Outliner::suffix(const Construct &C) const {
  // Tag is <func>_<suffix>; the suffix alone names the parent's locals.
  return C.Tag.substr(C.Func->getName().size() + 1);
}

std::string Outliner::bodyName(const Construct &C) const {
  return C.Func->getName().str() + "_" + keywordOf(C.Kind) + "_" + suffix(C);
}

void Outliner::nameConstructs() {
  for (auto &F : S.M.Functions) {
    std::map<unsigned, unsigned> PerLine;
    for (Construct *C : F->PostOrder)
      ++PerLine[C->Line];
    for (Construct *C : F->PostOrder) {
      C->Tag = F->FD->getName().str() + "_L" + std::to_string(C->Line);
      if (PerLine[C->Line] > 1)
        C->Tag += "_c" + std::to_string(C->Col);
    }
  }
}

std::string Outliner::render(const Stmt *St) const {
  unsigned B = S.offset(St->getBeginLoc());
  unsigned E = S.endOffset(St->getEndLoc());
  return S.Edits.render(B, E);
}

// Markers around an activity's text in an outlined function's (placeLines).
// A user's text could hold any byte in a string literal (raw control
// characters included), so each marker is a sequence that no program holds
// by accident; placeLines takes every marker out.
static const char BodyBegin[] = "\x01<parcc activity body>\x02";
static const char BodyEnd[] = "\x02</parcc activity body>\x01";

std::string Outliner::activityText(const Activity &A) const {
  unsigned B = S.offset(A.Body->getLBracLoc());
  unsigned E = S.endOffset(A.Body->getRBracLoc());
  std::string Text = S.lineDirective(S.lineOf(B)) + S.Edits.render(B, E) + "\n";
  auto It = S.M.MacroFuncNames.find(&A);
  if (It != S.M.MacroFuncNames.end()) {
    // A macro's __func__ (assert's, a logging macro's) names the function
    // the user wrote the activity in, as the direct ones do (Captures.cpp).
    std::string Name = "\"" + It->second->getName().str() + "\"\n";
    Text = "#define __func__ " + Name + "#define __FUNCTION__ " + Name +
           "#define __PRETTY_FUNCTION__ " + prettyMacro(It->second) + "\n" + Text +
           "#undef __func__\n#undef __FUNCTION__\n#undef __PRETTY_FUNCTION__\n";
  }
  Text = BodyBegin + Text + BodyEnd;
  if (!callsAlloca(A.Body))
    return Text;
  // alloca's memory lives until its function returns, and one body
  // function runs a whole batch of activities: a parfor of 100,000
  // activities that each took 1 KiB with alloca overflowed its envelope's
  // stack, at P = 1, 2 and 4, or only at P = 2 for 5,000 (the batches'
  // sizes depend on P; tester).  Each activity's allocas are freed at its
  // end, as if it were a function of its own.  gcc restores the stack
  // pointer that __builtin_stack_save saved; clang has no such builtin, but
  // leaving the scope of a variable-length array restores it, allocas
  // after the array's included (gcc does not free those; a size gcc could
  // fold, `1 + 0 * x`, makes no such array in either).  Under gcc an
  // activity that ends early (pbreak, preturn, a kill) skips the restore:
  // its allocas last until the body function returns, as before.
  return "#if defined(__clang__)\n"
         "{ char parc_alloca_[1 + (parc_self_ == 0)]; (void)parc_alloca_;\n"
         "#else\n"
         "{ void *parc_alloca_ = __builtin_stack_save();\n"
         "#endif\n" +
         Text +
         "#if !defined(__clang__)\n"
         "__builtin_stack_restore(parc_alloca_);\n"
         "#endif\n"
         "}\n";
}

std::string Outliner::placeLines(const std::string &Fn, unsigned Line) const {
  std::string Out, Code;
  auto Flush = [&] {
    if (!Code.empty())
      Out += S.lineDirective(Line) + Code + "\n";
    Code.clear();
  };
  // parcc's lines: its #line directives go (each run gets its own), any
  // other directive stays on a line of its own, and the code joins.
  auto Generated = [&](StringRef Run) {
    while (!Run.empty()) {
      auto [L, Rest] = Run.split('\n');
      Run = Rest;
      L = L.trim();
      if (L.empty() || L.starts_with("#line"))
        continue;
      if (L.starts_with("#")) {
        Flush();
        Out += L.str() + "\n";
        continue;
      }
      Code += (Code.empty() ? "" : " ") + L.str();
    }
    Flush();
  };
  size_t I = 0;
  for (;;) {
    size_t B = Fn.find(BodyBegin, I);
    Generated(StringRef(Fn).slice(I, B));
    if (B == std::string::npos)
      break;
    size_t Start = B + sizeof BodyBegin - 1;
    size_t E = Fn.find(BodyEnd, Start);
    assert(E != std::string::npos && "activity text without its end marker");
    Out += Fn.substr(Start, E - Start);
    I = E + sizeof BodyEnd - 1;
  }
  return Out;
}

/// The attributes of the enclosing function that say how its code is to be
/// compiled, which its activities' code, outlined, must keep: target
/// ("avx2": an lparfor of AVX2 intrinsics in such a function did not
/// compile, the intrinsics being for AVX2 code only), no_sanitize
/// (ThreadSanitizer reported the races that the function exempts),
/// no_instrument_function, no_stack_protector, cold and hot.
static std::string inheritedAttrs(const FunctionDecl *FD) {
  // In GNU spelling whatever the user's ([[gnu::target(...)]] is C23's,
  // and placed before `static` it did not compile with clang).
  std::string Out;
  if (!FD)
    return Out;
  auto Add = [&Out](const Twine &A) { Out += ("__attribute__((" + A + ")) ").str(); };
  for (const Attr *A : FD->attrs()) {
    if (A->isImplicit())
      continue;
    if (const auto *T = dyn_cast<TargetAttr>(A))
      Add("target(\"" + Session::escaped(T->getFeaturesStr()) + "\")");
    else if (const auto *N = dyn_cast<NoSanitizeAttr>(A))
      for (StringRef K : N->sanitizers())
        Add("no_sanitize(\"" + Session::escaped(K) + "\")");
    else if (isa<NoInstrumentFunctionAttr>(A))
      Add("no_instrument_function");
    else if (isa<NoStackProtectorAttr>(A))
      Add("no_stack_protector");
    else if (isa<ColdAttr>(A))
      Add("cold");
    else if (isa<HotAttr>(A))
      Add("hot");
  }
  return Out;
}

std::string Outliner::bodyHead(const Construct &C, StringRef Name, const Activity *Only) const {
  // The function's own lines are the construct's: a breakpoint on it or a
  // profiler's line for its entry names the keyword.
  std::string Out = S.lineDirective(C.Line) + inheritedAttrs(C.Func) + "static void " +
                    Name.str() +
                    "(parc_act *parc_self_, void *parc_envp_) {\n" + S.lineDirective(C.Line);
  if (hasEnv(C)) {
    std::string T = envType(C);
    Out += "  " + T + " *parc_env_ = (" + T + " *)parc_envp_;\n";
    Out += bodyPrologue(C, Only);
    Out += "  (void)parc_env_;\n";
  } else {
    // A construct that captures nothing may still use the parent's
    // constants (`static const unsigned k = 43u;` in main, read in a
    // parblock's section): the back end failed on an undeclared k.
    Out += constantDecls(C);
    Out += "  (void)parc_envp_;\n";
  }
  Out += "  (void)parc_self_;\n";
  return Out;
}

/// A prototype of the enclosing function, for activities that call it.
static std::string prototype(const Outliner &O, const FunctionDecl *FD) {
  const Session &S = O.S;
  std::string Out;
  if (FD->getStorageClass() == SC_Static)
    Out += "static ";
  if (FD->isInlineSpecified())
    Out += "inline ";
  // The parameters as declared, named: the size of a VLA parameter names
  // an earlier one (`int a[][n]` was `int (*)[n]`, with no n in scope),
  // and an array parameter spelled as a pointer draws -Warray-parameter.
  // A K&R definition's parameters take their promoted types (char as int,
  // float as double), the only prototype compatible with it (C17
  // 6.7.6.3p15); `int f();` made clang warn at every call and at itself.
  bool KR = !FD->hasWrittenPrototype();
  std::string Params;
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = KR ? P->getType() : P->getOriginalType();
    if (KR && S.Ctx.isPromotableIntegerType(T))
      T = S.Ctx.getPromotedIntegerType(T);
    else if (KR && T->isSpecificBuiltinType(BuiltinType::Float))
      T = S.Ctx.DoubleTy;
    std::string Name = P->getName().str();
    Params += (Params.empty() ? "" : ", ") +
              (isVariablyModified(T) ? S.printType(T, Name) : O.declare(T, Name));
  }
  if (FD->isVariadic())
    Params += ", ...";
  std::string Decl = FD->getName().str() + "(" + (Params.empty() ? "void" : Params) + ")";
  // A result of an unnamed tag that parcc named (hoistReturnTag,
  // nameFileTags), which Clang's printer cannot spell.
  QualType R = FD->getReturnType();
  return Out + (O.needsDeclarator(R) ? O.declare(R, Decl) : S.printType(R, Decl)) + ";\n";
}

/// `#pragma NS diagnostic WHAT ...`: NS and WHAT.
static void diagPragma(StringRef Line, StringRef &NS, StringRef &What) {
  auto Word = [&Line]() {
    Line = Line.ltrim(" \t");
    StringRef W = Line.take_while([](char C) { return isAsciiIdentifierContinue(C); });
    Line = Line.drop_front(W.size());
    return W;
  };
  Line = Line.ltrim(" \t").drop_front(1); // '#'
  Word();                                   // pragma
  NS = Word();
  Word(); // diagnostic
  What = Word();
}

void Outliner::replayMacros(unsigned UpTo, std::string &Out) {
  std::vector<std::pair<unsigned, unsigned>> Lines;
  for (const auto *List : {&S.MacroLines, &S.DiagPragmaLines})
    for (const auto &L : *List)
      if (L.first >= Replayed && L.first < UpTo)
        Lines.push_back(L);
  std::sort(Lines.begin(), Lines.end());
  for (const auto &L : Lines) {
    StringRef Line = StringRef(S.TP.Text).slice(L.first, L.second);
    if (std::binary_search(S.DiagPragmaLines.begin(), S.DiagPragmaLines.end(), L)) {
      StringRef NS, What;
      diagPragma(Line, NS, What);
      if (What == "push") {
        DiagPushes.push_back(NS.str());
      } else if (What == "pop") {
        if (DiagPushes.empty())
          continue; // the function's code pops a push made before it
        DiagPushes.pop_back();
      }
    }
    Out += Line.str();
    if (Out.back() != '\n')
      Out += '\n';
  }
  Replayed = std::max(Replayed, UpTo);
}

/// Only blanks from B1 offset Off to the end of its line.
static bool restOfLineBlank(StringRef Text, unsigned Off) {
  StringRef Rest = Text.substr(Off);
  return Rest.take_until([](char C) { return C == '\n'; }).trim(" \t\r\f\v").empty();
}

bool Outliner::lowerFunction(FunctionModel &F) {
  const FunctionDecl *FD = F.FD;
  SourceLocation Begin = S.SM.getExpansionLoc(FD->getBeginLoc());
  unsigned At = S.SM.getFileOffset(Begin);
  // A C23 attribute before the declaration (`[[gnu::target("avx2")]]
  // static void f(void)`) is outside its range: the outlined code went in
  // between, and the attribute fell on parcc's first declaration.
  for (const Attr *A : FD->attrs()) {
    if (A->isImplicit() || A->isInherited() || !A->isStandardAttributeSyntax())
      continue;
    SourceLocation L = S.SM.getExpansionLoc(A->getRange().getBegin());
    if (!S.inMainFile(L) || S.SM.getFileOffset(L) >= At)
      continue;
    unsigned Off = S.SM.getFileOffset(L);
    size_t Open = S.TP.Text.rfind("[[", Off);
    if (Open != std::string::npos && StringRef(S.TP.Text).slice(Open + 2, Off).trim().empty())
      At = std::min<unsigned>(At, Open);
  }
  Replayed = At;
  DiagPushes.clear();
  std::string Tag = hoistReturnTag(FD), Block;
  bool Ok = hoistLocalDecls(F, Block);
  if (F.Recursive)
    Block = prototype(*this, FD) + Block;
  Block = Tag + Block;

  for (Construct *C : F.PostOrder) {
    replayMacros(S.offset(C->Block->getLBracLoc()), Block);
    // The site names the construct as the user's #line has it, like the
    // #line directives and Clang's messages.
    std::string File;
    unsigned Line;
    S.presumedLine(C->Line, File, Line);
    std::string Syncs;
    for (const auto &A : C->Acts)
      if (auto It = Frames.find(A.get()); It != Frames.end())
        Syncs = It->second.SyncTable;
    std::string Env;
    if (hasEnv(*C)) {
      std::string Fields = envFields(*C);
      if (isLoop(C->Kind))
        Fields += " " + loopWordType(S, *C) + " parc_from_, parc_step_;";
      if (C->Kind == ConstructKind::Lparfor || C->Kind == ConstructKind::MappedLparfor)
        Fields += " __UINT64_TYPE__ parc_niter_;";
      Env = envType(*C) + " {" + Fields + " };\n";
    }
    // Captured semaphores named for the runtime's reports, and what they
    // say of each activity: the tables follow the environment's struct
    // they measure, and the site them.
    Block += Env;
    unsigned NSems = 0;
    std::string Sems = Env.empty() ? "" : captureSemaphoreNames(*C, NSems);
    std::string Table = "0";
    if (NSems) {
      Table = "parc_semn_" + C->Tag + "_";
      Block += "static const parc_sem_name " + Table + "[] = {\n" + Sems + "};\n";
    }
    std::string Names = "parc_names_" + C->Tag + "_";
    std::string NamesInit = isLoop(C->Kind) ? loopNames(*this, *C) : sectionNames(*this, *C, Block);
    Block += "static const parc_act_names " + Names + " = " + NamesInit + ";\n";
    Block += "static parc_site " + siteName(*C) + " = PARC_SITE_INIT_NAMES(\"" + File + "\", \"" +
             FD->getName().str() + "\", " + std::to_string(Line) + ", " +
             std::to_string(C->Col) + ", " + abiKindOf(C->Kind) +
             (fenvAccess(*C) ? " | PARC_KIND_FENV" : "") + ", " +
             (Syncs.empty() ? "0" : Syncs) + ", " + Table + ", " + std::to_string(NSems) + ", &" +
             Names + ");\n";
    std::string Defs, Spawn;
    if (C->Kind == ConstructKind::Parblock)
      lowerParblock(*this, *C, Defs, Spawn);
    else
      lowerParfor(*this, *C, Defs, Spawn);
    Block += Defs;
    // A constant that the activities have their own copies of
    // (bodyPrologue) may have no use left where it is declared: `const int
    // K = 5; parblock { r = K; } epar` drew -Wunused-variable for K.
    for (const VarDecl *V : C->Constants)
      if (S.M.declActivity(V) == C->Parent) {
        assert(Spawn.back() == '}');
        Spawn.insert(Spawn.size() - 1, "(void)" + V->getName().str() + "; ");
      }

    unsigned B = S.offset(C->Block->getLBracLoc());
    unsigned E = S.endOffset(C->Block->getRBracLoc());
    // The #define and #undef lines of the construct's text go with it into
    // the outlined functions; the code after epar still sees them, in C.
    std::string Directives;
    for (const auto &L : S.MacroLines)
      if (L.first >= B && L.first < E) {
        Directives += S.TP.Text.substr(L.first, L.second - L.first);
        if (Directives.back() != '\n')
          Directives += '\n';
      }
    // What follows epar stays on its line and column. A few blank lines keep
    // it there; past that, a #line does, or every construct around this one
    // would repeat the blank lines in its own function, quadratic in the
    // nesting depth. A #line of the user's inside the construct is gone with
    // its text: then a #line tells the next line as the user's are.
    unsigned Lines = S.lineOf(E) - S.lineOf(B);
    unsigned Have = std::count(Spawn.begin(), Spawn.end(), '\n');
    const unsigned MaxBlankLines = 8;
    if (!Directives.empty() || (S.Orig.hasLineNotes() && Lines > 0) ||
        Lines > Have + MaxBlankLines)
      Spawn += "\n" + Directives + S.lineDirective(S.lineOf(E)) +
               (restOfLineBlank(S.TP.Text, E) ? "" : S.columnPad(E));
    else if (Have < Lines)
      Spawn += std::string(Lines - Have, '\n');
    if (!S.Edits.collapse(B, E, Spawn)) {
      S.error(C->Block->getLBracLoc(), "internal error: cannot lower this '%0'")
          << spellingOf(C->Kind);
      Ok = false;
    }
  }

  if (Block.empty())
    return Ok;
  // The #define and #undef lines replayed for the constructs' functions
  // (replayMacros), and those in the constructs' text, must not reach the
  // function itself, which starts with the macros as they were there
  // (`#define n n2` after a parfor would rename its declaration of n): each
  // name that the function's lines touch is kept around the block.
  std::set<std::string> Names;
  unsigned End = S.endOffset(FD->getEndLoc());
  for (const auto &L : S.MacroLines)
    if (L.first >= At && L.first < End) {
      StringRef Line = StringRef(S.TP.Text).slice(L.first, L.second).ltrim(" \t");
      Line = Line.drop_front(Line.starts_with("#")).ltrim(" \t");
      Line = Line.drop_while([](char C) { return isAsciiIdentifierContinue(C); }).ltrim(" \t");
      StringRef Name = Line.take_while([](char C) { return isAsciiIdentifierContinue(C, true); });
      if (!Name.empty())
        Names.insert(Name.str());
    }
  std::string Push, Pop;
  for (const std::string &N : Names) {
    Push += "#pragma push_macro(\"" + N + "\")\n";
    Pop += "#pragma pop_macro(\"" + N + "\")\n";
  }
  // Likewise the diagnostic pragmas of the function (replayMacros): the
  // outlined code has the state its construct had, `#pragma GCC diagnostic
  // ignored "-Wunused-but-set-variable"` before a parfor included, and the
  // function starts with the state it had.
  if (std::any_of(S.DiagPragmaLines.begin(), S.DiagPragmaLines.end(),
                  [&](const auto &L) { return L.first >= At && L.first < End; })) {
    Push += "#pragma GCC diagnostic push\n";
    std::string Close;
    for (const std::string &NS : DiagPushes)
      Close = "#pragma " + NS + " diagnostic pop\n" + Close;
    Pop = Close + "#pragma GCC diagnostic pop\n" + Pop;
  }
  Block = Push + Block;
  if (!Block.empty() && Block.back() != '\n')
    Block += '\n';
  Block += Pop;
  bool LineStart = At == 0 || S.TP.Text[At - 1] == '\n';
  S.Edits.insert(At, (LineStart ? "" : "\n") + Block + S.lineDirective(S.lineOf(At)));
  return Ok;
}

/// The user's names that look generated went through the passes as
/// placeholders (TokenPassResult::Renamed), so every such name left in the
/// emitted C is parcc's own: those get a suffix that no identifier of the
/// translation unit ends with, then the placeholders become the user's
/// names again (in a site's function name too).
static std::string restoreUserNames(const Session &S, const std::string &C) {
  std::map<std::string, std::string, std::less<>> Back;
  for (const auto &R : S.TP.Renamed)
    Back[R.first] = R.second;
  std::set<std::string, std::less<>> Users;
  for (const auto &R : S.TP.Renamed)
    Users.insert(R.second);
  auto Taken = [&](StringRef Name) {
    return S.Ctx.Idents.find(Name) != S.Ctx.Idents.end() || Users.count(Name) ||
           Back.count(Name);
  };
  std::string Sfx;
  for (unsigned K = 0;; ++K) {
    Sfx = "g" + std::to_string(K) + "_";
    bool Free = true;
    for (const std::string &U : Users)
      Free &= !Taken(U + Sfx);
    if (Free)
      break;
  }
  std::string Out;
  Out.reserve(C.size() + 64);
  Lexer L(SourceLocation::getFromRawEncoding(1), S.Ctx.getLangOpts(), C.data(), C.data(),
          C.data() + C.size());
  Token T;
  size_t Cur = 0;
  for (bool Done = false; !Done;) {
    Done = L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    size_t Off = T.getLocation().getRawEncoding() - 1;
    StringRef Text(C.data() + Off, T.getLength());
    std::string New;
    if (T.is(tok::raw_identifier)) {
      auto It = Back.find(Text);
      if (It != Back.end())
        New = It->second;
      else if (Users.count(Text))
        New = Text.str() + Sfx;
    } else if (T.is(tok::string_literal) && Text.size() > 2) {
      auto It = Back.find(Text.drop_front().drop_back());
      if (It != Back.end())
        New = "\"" + It->second + "\"";
    }
    if (New.empty())
      continue;
    Out.append(C, Cur, Off - Cur);
    Out += New;
    Cur = Off + T.getLength();
  }
  Out.append(C, Cur, std::string::npos);
  return Out;
}

std::string Outliner::prettyNames() const {
  std::string Out;
  for (const FunctionDecl *FD : PrettyFns) {
    std::string M = "#define " + prettyMacro(FD) + " \"";
    Out += "#ifdef __clang__\n" + M +
           Session::escaped(
               PredefinedExpr::ComputeName(PredefinedIdentKind::PrettyFunction, FD)) +
           "\"\n#else\n" + M + Session::escaped(FD->getName()) + "\"\n#endif\n";
  }
  return Out;
}

bool Outliner::run(std::string &Out) {
  computeCaptures(S);
  renameClashingLocalTypes();
  nameConstructs();
  bool Ok = nameFileTags();
  Ok &= rewriteCaptures();
  lowerSemCalls(*this);
  lowerChunkProcIds(*this);
  pollMacroLoops(*this);
  emitWraps();
  Ok &= lowerKills(*this);
  Ok &= lowerSyncs(*this);
  insertPolls(*this);
  for (auto &F : S.M.Functions)
    Ok &= lowerFunction(*F);
  if (!Ok || S.hasErrors())
    return false;
  if (S.TP.PreludeEnd > S.TP.PreludeBegin)
    S.Edits.replace(S.TP.PreludeBegin, S.TP.PreludeEnd, "");
  Out = "#include <parc_abi.h>\n"
        "__extension__ _Static_assert(PARC_ABI_VERSION == 9, \"parcc emits PARC ABI version 9; "
        "parc_abi.h is another version\");\n";
  if (S.Opts.DefinesParcc)
    Out += "#define __PARCC__ 1\n";
  if (S.Opts.UndefFaa)
    Out += "#undef faa\n";
  Out += prettyNames();
  Out += WaitSites;
  Out += S.lineDirective(1);
  // A byte-order mark is only skipped at the start of a file: the text
  // goes after the prologue, so it must not keep the user's mark.
  unsigned Start = StringRef(S.TP.Text).starts_with("\xEF\xBB\xBF") ? 3 : 0;
  Out += S.Edits.render(Start, S.TP.Text.size());
  if (Out.empty() || Out.back() != '\n')
    Out += '\n';
  Out += semaphoreNames(S);
  if (!S.TP.Renamed.empty())
    Out = restoreUserNames(S, Out);
  return true;
}

} // namespace parcc
