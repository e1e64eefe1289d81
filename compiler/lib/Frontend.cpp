//===- Frontend.cpp - one source file from PARC to C ----------------------===//
//
// Clang is configured through its own driver (createInvocation) so that the
// system include paths, the target and -std= handling are exactly clang's.
// The main file is replaced by B1 with a remapped buffer under the user's
// path, so #include "..." resolves from the source directory and -MD names
// the .pc file.  parc.h is force-included: PARC files may use faa and the
// semaphores without including it.
//
// Diagnostics: Clang's DefaultError warnings that GCC 12 (the usual `cc`)
// accepts as warnings are downgraded, so that K&R programs such as the
// paper's Figure 1 and plain C that compiles with cc compile with parcc.
//
//===----------------------------------------------------------------------===//
#include "parcc/Frontend.h"

#include "parcc/Analysis.h"
#include "parcc/Checks.h"
#include "parcc/Lowering.h"
#include "parcc/Warnings.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/SourceManagerInternals.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Sema.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace clang;

namespace parcc {

namespace {

/// Warnings that Clang makes errors by default but GCC 12 only warns about.
const char *const GccLenient[] = {
    "-Wno-error=implicit-int",
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-pointer-types",
    "-Wno-error=incompatible-function-pointer-types",
    "-Wno-error=return-type",
    "-Wno-error=return-mismatch",
};

/// GCC 12 warns about GccLenient's diagnostics, so its -Werror, and its
/// -pedantic-errors (they are pedantic warnings there), make them errors.
/// Clang's -Werror leaves alone a diagnostic that -Wno-error= named: each
/// one is raised again, after the user's options, unless the user switched
/// it off or exempted it.
void reraiseLenient(const std::vector<std::string> &User, std::vector<std::string> &Args) {
  bool Werror = false, PedanticErrors = false, NoW = false, NoEverything = false;
  for (const std::string &A : User) {
    if (A == "-Werror")
      Werror = true;
    else if (A == "-Wno-error")
      Werror = false;
    else if (A == "-pedantic-errors")
      PedanticErrors = true;
    else if (A == "-w")
      NoW = true;
    else if (A == "-Wno-everything" || A == "-Weverything")
      NoEverything = A == "-Wno-everything";
  }
  if ((!Werror && !PedanticErrors) || NoW || NoEverything)
    return;
  for (const char *W : GccLenient) {
    std::string Name = StringRef(W).drop_front(StringRef("-Wno-error=").size()).str();
    bool Exempt = false;
    for (const std::string &A : User)
      Exempt |= A == "-Wno-" + Name || A == "-Wno-error=" + Name;
    if (!Exempt)
      Args.push_back("-Werror=" + Name);
  }
}

/// Collects Clang's messages about unknown -W options.
class UnknownWarningCollector : public DiagnosticConsumer {
public:
  std::vector<UnknownWarningOption> Found;
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    // "unknown %select{warning|remark}0 option '%1'...": warnings only.
    if (Level < DiagnosticsEngine::Warning || Info.getID() != diag::warn_unknown_diag_option ||
        Info.getArgSInt(0) != 0)
      return;
    std::string Flag = Info.getArgStdStr(1);
    if (StringRef(Flag).starts_with("-Wno-"))
      return;
    SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    Found.push_back({Flag, Msg.str().str(), Level >= DiagnosticsEngine::Error});
  }
};

std::shared_ptr<CompilerInvocation> makeInvocation(const std::string &Path,
                                                   const FrontendOptions &O, bool ForceInclude,
                                                   IntrusiveRefCntPtr<DiagnosticsEngine> ArgDiags) {
  std::vector<std::string> Args = {O.ClangPath, "-fsyntax-only", "-resource-dir", O.ResourceDir,
                                   "-Wno-unknown-warning-option",
                                   // Deep nesting is what the large stack is for.
                                   "-Wno-stack-exhausted",
                                   // B1 adds two braces per construct level;
                                   // the front end runs on a large stack.
                                   "-fbracket-depth=16384"};
  for (const char *W : GccLenient)
    Args.push_back(W);
  // Before the user's -D and -U, which may change it.
  Args.push_back("-D__PARCC__=1");
  // parcc's own warnings' options are parcc's (Warnings.h): Clang would
  // call them unknown under -Weverything.
  for (const std::string &A : O.ClangArgs)
    if (!isOwnWarningOption(A))
      Args.push_back(A);
  reraiseLenient(O.ClangArgs, Args);
  Args.push_back("-isystem");
  Args.push_back(O.RuntimeIncludeDir);
  if (ForceInclude) {
    Args.push_back("-include");
    // By name, found through -isystem: a system header, so -pedantic and
    // friends do not flag the runtime's declarations in user builds.
    Args.push_back("parc.h");
  }
  Args.push_back("-x");
  Args.push_back("c");
  Args.push_back(Path);
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  CreateInvocationOptions CIO;
  CIO.Diags = ArgDiags;
  CIO.ProbePrecompiled = false;
  std::unique_ptr<CompilerInvocation> Inv = createInvocation(Argv, CIO);
  if (!Inv || ArgDiags->hasErrorOccurred())
    return nullptr;
  Inv->getFrontendOpts().DisableFree = false;
  return std::shared_ptr<CompilerInvocation>(std::move(Inv));
}

/// The name the input goes by in diagnostics, line markers and the lowered
/// C's #line directives: Path, or for standard input "<stdin>", as cc says.
/// The text of standard input, already read, reaches Clang as a remapped
/// file of that name (Clang would read the consumed stream again).
std::string nameInput(CompilerInvocation &Inv, const std::string &Path) {
  if (Path != "-")
    return Path;
  std::string Name = "<stdin>";
  auto &Inputs = Inv.getFrontendOpts().Inputs;
  for (FrontendInputFile &In : Inputs)
    if (In.getFile() == "-")
      In = FrontendInputFile(Name, In.getKind(), In.isSystem());
  return Name;
}

/// Records the regions of the main file that #if/#ifdef skip.
class SkipCollector : public PPCallbacks {
public:
  SkipCollector(SourceManager &SM, std::vector<SkippedRange> &Out) : SM(SM), Out(Out) {}
  void SourceRangeSkipped(SourceRange R, SourceLocation) override {
    SourceLocation B = R.getBegin(), E = R.getEnd();
    if (!SM.isWrittenInMainFile(B))
      return;
    Out.push_back({SM.getFileOffset(B), SM.getFileOffset(E)});
  }

private:
  SourceManager &SM;
  std::vector<SkippedRange> &Out;
};

/// A `#line` directive of the main file, as the preprocessor recorded it.
struct LineNote {
  unsigned Offset, LineNo;
  std::string Filename; // empty: the directive names none
  SrcMgr::CharacteristicKind Kind;
};

class SkipAction : public PreprocessOnlyAction {
public:
  SkipAction(std::vector<SkippedRange> &Out, std::vector<LineNote> &Lines)
      : Out(Out), Lines(Lines) {}

protected:
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<SkipCollector>(CI.getSourceManager(), Out));
    return PreprocessOnlyAction::BeginSourceFileAction(CI);
  }
  void EndSourceFileAction() override {
    SourceManager &SM = getCompilerInstance().getSourceManager();
    if (SM.hasLineTable()) {
      LineTableInfo &LT = SM.getLineTable();
      for (auto &[FID, Entries] : LT)
        if (FID == SM.getMainFileID())
          for (const LineEntry &E : Entries)
            Lines.push_back({E.FileOffset, E.LineNo,
                             E.FilenameID < 0 ? std::string() : LT.getFilename(E.FilenameID).str(),
                             E.FileKind});
    }
    PreprocessOnlyAction::EndSourceFileAction();
  }

private:
  std::vector<SkippedRange> &Out;
  std::vector<LineNote> &Lines;
};

/// The main file's line (with its continuation lines) that holds location
/// L, as B1 [begin, end): false for a location elsewhere.
static bool directiveLine(const SourceManager &SM, StringRef Text, SourceLocation L,
                          std::pair<unsigned, unsigned> &Line) {
  if (L.isInvalid() || L.isMacroID() || SM.getFileID(L) != SM.getMainFileID())
    return false;
  unsigned Off = SM.getFileOffset(L);
  unsigned B = Off;
  while (B > 0 && Text[B - 1] != '\n')
    --B;
  unsigned E = Off;
  while (E < Text.size()) {
    if (Text[E] == '\n') {
      unsigned P = E;
      if (P > 0 && Text[P - 1] == '\r')
        --P;
      if (P == 0 || Text[P - 1] != '\\') {
        ++E;
        break;
      }
    }
    ++E;
  }
  Line = {B, E};
  return true;
}

/// Records the lines of the main file's #define and #undef directives that
/// the preprocessor executed: outlined code is moved before its function,
/// so the macros a function defines must be defined again there; and the
/// diagnostic pragmas, whose state there must be the construct's.
class MacroRecorder : public PPCallbacks {
public:
  MacroRecorder(SourceManager &SM, StringRef Text, std::vector<std::pair<unsigned, unsigned>> &Out,
                std::vector<std::pair<unsigned, unsigned>> &Diag)
      : SM(SM), Text(Text), Out(Out), Diag(Diag) {}
  void MacroDefined(const Token &Name, const MacroDirective *) override {
    add(Out, Name.getLocation());
  }
  void MacroUndefined(const Token &Name, const MacroDefinition &, const MacroDirective *) override {
    add(Out, Name.getLocation());
  }
  // A `#pragma` line's, not a `_Pragma` in the code (which goes with it).
  void PragmaDiagnosticPush(SourceLocation L, StringRef) override { add(Diag, L, true); }
  void PragmaDiagnosticPop(SourceLocation L, StringRef) override { add(Diag, L, true); }
  void PragmaDiagnostic(SourceLocation L, StringRef, diag::Severity, StringRef) override {
    add(Diag, L, true);
  }

private:
  void add(std::vector<std::pair<unsigned, unsigned>> &To, SourceLocation L, bool Hash = false) {
    std::pair<unsigned, unsigned> Line;
    if (directiveLine(SM, Text, L, Line) &&
        (!Hash || Text.slice(Line.first, Line.second).ltrim(" \t").starts_with("#")))
      To.push_back(Line);
  }
  SourceManager &SM;
  StringRef Text;
  std::vector<std::pair<unsigned, unsigned>> &Out, &Diag;
};

/// Records, for Session::Macros, what expansions do with the main file's
/// text: a shared variable named in a macro's argument is rewritten where
/// the user wrote it, which would change the string that `#x` makes of it,
/// and one that a macro's body names is renamed by a `#define` around the
/// expansion (Captures.cpp, rewriteCaptures and defineAround).
class MacroUseRecorder : public PPCallbacks {
public:
  MacroUseRecorder(SourceManager &SM, MacroUses &Out) : SM(SM), Out(Out) {}
  void MacroExpands(const Token &Name, const MacroDefinition &MD, SourceRange Range,
                    const MacroArgs *Args) override {
    const MacroInfo *MI = MD.getMacroInfo();
    SourceLocation X = SM.getExpansionLoc(Range.getBegin());
    if (!MI || !SM.isWrittenInMainFile(X))
      return;
    unsigned XOff = SM.getFileOffset(X);
    // `#define count count` (as glibc's `#define stdin stdin`) names what
    // it would name without running: the `#define count (*parc_p_count_)`
    // that renames a shared `count` can stand in for it.
    bool Identity = !MI->isFunctionLike() && MI->getNumTokens() == 1 &&
                    MI->getReplacementToken(0).getIdentifierInfo() == Name.getIdentifierInfo();
    if (!Identity)
      Out.Expanded[XOff].insert(Name.getIdentifierInfo());
    FileID Def = SM.getFileID(SM.getSpellingLoc(MI->getDefinitionLoc()));
    if (Def != SM.getMainFileID()) {
      SourceLocation Inc = SM.getIncludeLoc(Def);
      while (Inc.isValid() && SM.getFileID(Inc) != SM.getMainFileID())
        Inc = SM.getIncludeLoc(SM.getFileID(Inc));
      if (Inc.isValid())
        Out.FromIncludes.push_back({XOff, SM.getFileOffset(Inc), Name.getIdentifierInfo()});
    }
    if (!Args || !MI->isFunctionLike())
      return;
    ArrayRef<Token> Body = MI->tokens();
    auto Param = [&](size_t I) {
      const IdentifierInfo *P = I < Body.size() ? Body[I].getIdentifierInfo() : nullptr;
      return P ? MI->getParameterNum(P) : -1;
    };
    for (size_t I = 0; I < Body.size(); ++I) {
      // `#param` and `param ## x` / `x ## param`: the argument's own
      // spelling, not its expansion, goes into the string or the paste.
      int N = -1, M = -1;
      bool Quote = Body[I].is(tok::hash);
      if (Quote)
        N = Param(I + 1);
      else if (Body[I].is(tok::hashhash))
        N = I ? Param(I - 1) : -1, M = Param(I + 1);
      // GNU `, ## __VA_ARGS__` pastes nothing: it only drops the comma when
      // the arguments are empty, and the arguments are rescanned as usual.
      if (M >= 0 && Body[I - 1].is(tok::comma) && MI->isVariadic() &&
          unsigned(M) + 1 == MI->getNumParams())
        M = -1;
      for (int K : {N, M}) {
        if (K < 0)
          continue;
        for (const Token *T = Args->getUnexpArgument(K); T->isNot(tok::eof); ++T) {
          const IdentifierInfo *II = T->getIdentifierInfo();
          if (!II)
            continue;
          if (!Quote && SM.isMacroArgExpansion(T->getLocation()))
            Out.PastedDeep[XOff].insert(II);
          else if (!Quote && T->getLocation().isFileID() &&
                   SM.isWrittenInMainFile(T->getLocation()))
            Out.Pasted.insert(SM.getFileOffset(T->getLocation()));
          SourceLocation S = SM.getSpellingLoc(T->getLocation());
          if (Quote && SM.isWrittenInMainFile(S))
            (Range.getBegin().isFileID() && T->getLocation().isFileID() ? Out.Stringized
                                                                        : Out.StringizedDeep)
                .insert(SM.getFileOffset(S));
        }
      }
    }
  }

  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    SourceLocation L = Name.getLocation();
    if (!II || !keywordParccUses(II->getName()) || !L.isFileID() || SM.isInSystemHeader(L))
      return;
    unsigned At;
    if (!mainOffset(L, At))
      return;
    Out.Keywords.push_back({II, L, At, ~0u});
  }
  void MacroUndefined(const Token &Name, const MacroDefinition &,
                      const MacroDirective *) override {
    unsigned At;
    for (MacroUses::KeywordMacro &K : Out.Keywords)
      if (K.Name == Name.getIdentifierInfo() && K.To == ~0u &&
          mainOffset(Name.getLocation(), At))
        K.To = At;
  }

private:
  /// The words that parcc's own code for constructs is written with.
  static bool keywordParccUses(StringRef W) {
    for (const char *K : {"struct", "union", "void", "char", "int", "long", "unsigned",
                          "signed", "if", "else", "for", "while", "do", "return", "sizeof",
                          "switch", "case", "break", "goto", "typedef", "__typeof__"})
      if (W == K)
        return true;
    return false;
  }
  /// Where L takes effect in the main file: L itself there, else the
  /// #include of the file that holds it.
  bool mainOffset(SourceLocation L, unsigned &At) const {
    if (!L.isFileID())
      return false;
    while (L.isValid() && !SM.isWrittenInMainFile(L))
      L = SM.getIncludeLoc(SM.getFileID(L));
    if (L.isInvalid())
      return false;
    At = SM.getFileOffset(L);
    return true;
  }

  SourceManager &SM;
  MacroUses &Out;
};

/// A `#pragma omp` or `#pragma acc` line: its kind ("omp" or "acc", else
/// null) and the names it gives as variables.
struct Directive {
  const char *Kind = nullptr;
  /// A simd directive: honoured under -fopenmp-simd.
  bool Simd = false;
  /// Its directive's words (`parallel for`), before the first clause, and
  /// where they start.
  std::string Name;
  SourceLocation NameLoc;
  /// Just past the directive's last token.
  SourceLocation End;
  std::vector<Token> Names;
  bool honoured(const LowerOptions &O) const {
    return Kind && (StringRef(Kind) == "omp" ? O.OpenMP || (O.OpenMPSimd && Simd) : O.OpenACC);
  }
};

/// The directive whose `#` is at file location Hash, read raw to the end of
/// its line.  Its names are the identifiers inside a clause's parentheses,
/// except the words of clauses that take no expression (default(shared),
/// schedule(dynamic), critical(name)), modifiers and reduction operators
/// before a ':' (map(tofrom: x), reduction(max: m)), and called names.
Directive readDirective(const SourceManager &SM, const LangOptions &LO, SourceLocation Hash) {
  Directive D;
  std::vector<Token> Line = rawDirectiveTokens(SM, LO, Hash);
  auto Word = [&](size_t I) {
    return I < Line.size() && Line[I].is(tok::raw_identifier) ? Line[I].getRawIdentifier()
                                                               : StringRef();
  };
  if (Line.size() < 3 || Word(1) != "pragma" || (Word(2) != "omp" && Word(2) != "acc"))
    return D;
  D.Kind = Word(2) == "omp" ? "omp" : "acc";
  D.End = Line.back().getLocation().getLocWithOffset(Line.back().getLength());
  for (size_t I = 3; !Word(I).empty() && !(I + 1 < Line.size() && Line[I + 1].is(tok::l_paren));
       ++I) {
    if (D.Name.empty())
      D.NameLoc = Line[I].getLocation();
    D.Name += (D.Name.empty() ? "" : " ") + Word(I).str();
  }
  if (D.Name.empty() && !Word(3).empty()) { // critical(name), declare ...
    D.Name = Word(3).str();
    D.NameLoc = Line[3].getLocation();
  }
  std::vector<StringRef> Clause; // the clause of each open parenthesis
  StringRef Last;
  for (size_t I = 3; I < Line.size(); ++I) {
    const Token &K = Line[I];
    if (K.is(tok::l_paren)) {
      Clause.push_back(Clause.empty() ? Last : Clause.front());
      continue;
    }
    if (K.is(tok::r_paren)) {
      if (!Clause.empty())
        Clause.pop_back();
      continue;
    }
    StringRef W = Word(I);
    if (W.empty())
      continue;
    Last = W;
    if (Clause.empty()) {
      D.Simd |= W == "simd";
      continue;
    }
    StringRef C = Clause.front();
    bool NoExpr = C == "default" || C == "defaultmap" || C == "proc_bind" || C == "critical" ||
                  C == "order" || C == "bind" || C == "atomic_default_mem_order" ||
                  C == "device_type" || C == "severity" || C == "at" || C == "declare";
    bool ScheduleKind =
        (C == "schedule" || C == "dist_schedule") &&
        (W == "dynamic" || W == "guided" || W == "runtime" || W == "monotonic" ||
         W == "nonmonotonic");
    bool Modifier = I + 1 < Line.size() && Line[I + 1].is(tok::colon);
    bool Called = I + 1 < Line.size() && Line[I + 1].is(tok::l_paren);
    if (!NoExpr && !ScheduleKind && !Modifier && !Called)
      D.Names.push_back(K);
  }
  return D;
}

/// The variables that a directive the back end honours names (`#pragma omp
/// parallel for num_threads(n)` under -fopenmp), looked up in the parser's
/// scope at the directive, as the back end will: each is marked used on
/// purpose (the front end parses C without OpenMP, and would call n unused
/// where the back end uses it), and those of the file's directives are
/// recorded for checkDirectiveNames (Checks.cpp).  Every `#pragma omp`
/// directive of the file is recorded too: those the back end ignores for
/// checkIgnoredOpenMP, those it honours for checkOpenMPOnConstructs.
class DirectiveRecorder : public PPCallbacks {
public:
  DirectiveRecorder(CompilerInstance &CI, const LowerOptions &O, MacroUses &Out)
      : CI(CI), O(O), Out(Out) {}
  void PragmaDirective(SourceLocation Loc, PragmaIntroducerKind Kind) override {
    if (Kind != PIK_HashPragma || !Loc.isFileID() || !CI.hasSema())
      return;
    SourceManager &SM = CI.getSourceManager();
    Directive D = readDirective(SM, CI.getLangOpts(), Loc);
    bool Omp = D.Kind && StringRef(D.Kind) == "omp" && SM.isWrittenInMainFile(Loc);
    SourceLocation At = D.NameLoc.isValid() ? D.NameLoc : Loc;
    if (Omp && !D.honoured(O))
      Out.IgnoredDirectives.push_back({At, D.Name});
    if (!D.honoured(O))
      return;
    if (Omp)
      Out.OpenMPDirectives.push_back({SM.getFileOffset(D.End), At, D.Name});
    Sema &S = CI.getSema();
    IdentifierTable &Table = CI.getPreprocessor().getIdentifierTable();
    for (const Token &T : D.Names) {
      // Looked up, not added (a name the table lacks names no variable):
      // see BackEndFeatures::asksCompiler.
      auto It = Table.find(T.getRawIdentifier());
      if (It == Table.end())
        continue;
      auto *V = dyn_cast_or_null<VarDecl>(S.LookupSingleName(S.getCurScope(), It->getValue(),
                                                             T.getLocation(),
                                                             Sema::LookupOrdinaryName));
      if (!V)
        continue;
      if (!V->hasAttr<UnusedAttr>())
        V->addAttr(UnusedAttr::CreateImplicit(S.Context));
      if (SM.isWrittenInMainFile(Loc))
        Out.DirectiveNames.push_back({SM.getFileOffset(Loc), T.getLocation(), V, D.Kind});
    }
  }

private:
  CompilerInstance &CI;
  const LowerOptions &O;
  MacroUses &Out;
};

/// The `#pragma clang diagnostic` and `#pragma GCC diagnostic` lines that
/// the preprocessor meets (not those an #if skips), for parcc's own
/// warnings (Warnings.h): push, pop, and those that name one of them.  A
/// "-Wparc..." name that is none of them gets Clang's "unknown warning
/// group" warning, which the engine would not give (parcc's front end
/// runs with -Wno-unknown-warning-option, for gcc's names).
class DiagnosticPragmaRecorder : public PPCallbacks {
public:
  DiagnosticPragmaRecorder(CompilerInstance &CI, OwnWarnings &Out) : CI(CI), Out(Out) {}
  void PragmaDirective(SourceLocation Loc, PragmaIntroducerKind Kind) override {
    if (Kind != PIK_HashPragma || !Loc.isFileID())
      return;
    DiagnosticPragma P;
    std::string Unknown;
    SourceLocation UnknownLoc;
    unsigned LineEnd = 0;
    SourceManager &SM = CI.getSourceManager();
    bool Ours = readDiagnosticPragma(SM, CI.getLangOpts(), Loc, P, Unknown, UnknownLoc, LineEnd);
    if ((Ours && P.Kind == DiagnosticPragma::Set) || !Unknown.empty())
      if (SM.isWrittenInMainFile(Loc))
        Out.OwnPragmaLines.push_back({SM.getFileOffset(Loc), LineEnd});
    if (Ours) {
      Out.Pragmas.push_back(P);
      return;
    }
    if (Unknown.empty())
      return;
    DiagnosticsEngine &D = CI.getDiagnostics();
    DiagnosticsEngine::Level Lv = Out.CommandLine.unknownGroupLevel(D.getIgnoreAllWarnings());
    if (Lv == DiagnosticsEngine::Ignored)
      return;
    reportWithOption(D, UnknownLoc, Lv,
                     "unknown warning group '-W%0', ignored; did you mean '-W%1'?",
                     "unknown-warning-option")
        << Unknown << nearestOwnWarning(Unknown);
  }

private:
  CompilerInstance &CI;
  OwnWarnings &Out;
};

/// Forwards the user's #include, #embed, #if and #elif to BackEndFeatures.
class FeatureRecorder : public PPCallbacks {
public:
  FeatureRecorder(BackEndFeatures &F, Preprocessor &PP, const std::function<void()> &Embeds)
      : F(F), PP(PP), Embeds(Embeds) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef FileName,
                          bool IsAngled, CharSourceRange, OptionalFileEntryRef, StringRef,
                          StringRef, const Module *, bool, SrcMgr::CharacteristicKind) override {
    F.included(HashLoc, FileName, IsAngled);
  }
  void EmbedDirective(SourceLocation HashLoc, StringRef, bool, OptionalFileEntryRef,
                      const LexEmbedParametersResult &) override {
    F.embed(HashLoc);
    if (Embeds)
      Embeds();
  }
  void HasEmbed(SourceLocation, StringRef, bool, OptionalFileEntryRef) override {
    if (Embeds)
      Embeds();
  }
  void If(SourceLocation Loc, SourceRange Cond, ConditionValueKind) override {
    F.condition(Cond, PP);
    F.openConditional(Loc, Loc, PP);
  }
  void Elif(SourceLocation Loc, SourceRange Cond, ConditionValueKind, SourceLocation) override {
    F.condition(Cond, PP);
    F.continueConditional(Loc, PP);
  }
  void Ifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &) override {
    F.openConditional(Loc, Name.getLocation(), PP);
  }
  void Ifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &) override {
    F.openConditional(Loc, Name.getLocation(), PP);
  }
  void Endif(SourceLocation Loc, SourceLocation) override { F.closeConditional(Loc); }

private:
  BackEndFeatures &F;
  Preprocessor &PP;
  const std::function<void()> &Embeds;
};

struct TranslateState {
  const TokenPassResult &TP;
  OriginalSource &Orig;
  std::string FileName;
  LowerOptions Lower;
  bool SyntaxOnly;
  std::string &Out;
  const BackEndQuestions &BackEnd;
  std::vector<std::pair<unsigned, unsigned>> MacroLines, DiagPragmaLines;
  MacroUses Macros;
  std::unique_ptr<BackEndFeatures> Features;
  bool Ok = false;
  /// parcc's own warnings: the command line's options, then the pragmas.
  OwnWarnings Warnings = {};
  DiagPrinter *Printer = nullptr;
};

/// `#define int long long`, `#define struct union` in force at a construct:
/// the code parcc writes for it uses those words (its index and count
/// types, its environment struct), and the macro changes that code: a
/// confusing error at `parfor int i`, or an environment made a union and
/// wrong results.  Reported at each construct's marker, also after the
/// parse failed, which such a macro may have made it do.
static void reportKeywordMacros(CompilerInstance &CI, const TranslateState &St) {
  const std::vector<MacroUses::KeywordMacro> &Keywords = St.Macros.Keywords;
  if (Keywords.empty())
    return;
  SourceManager &SM = CI.getSourceManager();
  DiagnosticsEngine &D = CI.getDiagnostics();
  StringRef Text = SM.getBufferData(SM.getMainFileID());
  SourceLocation Start = SM.getLocForStartOfFile(SM.getMainFileID());
  std::set<const IdentifierInfo *> Said;
  for (size_t At = Text.find("parc_mark_"); At != StringRef::npos;
       At = Text.find("parc_mark_", At + 1)) {
    StringRef Rest = Text.substr(At + strlen("parc_mark_"));
    if ((At >= St.TP.PreludeBegin && At < St.TP.PreludeEnd) ||
        !(Rest.starts_with("parblock(") || Rest.starts_with("parfor(") ||
          Rest.starts_with("lparfor(")))
      continue;
    for (const MacroUses::KeywordMacro &K : Keywords)
      if (K.From <= At && At < K.To && Said.insert(K.Name).second) {
        D.Report(Start.getLocWithOffset(At),
                 D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "'%0' is a macro here, and parcc's code for this construct "
                                   "uses the keyword '%0'"))
            << K.Name->getName();
        D.Report(K.Def, D.getCustomDiagID(DiagnosticsEngine::Note,
                                          "defined here: '#undef %0' before the construct, "
                                          "or keep the constructs in a file that does not "
                                          "redefine it"))
            << K.Name->getName();
      }
  }
}

class ParccConsumer : public ASTConsumer {
public:
  ParccConsumer(CompilerInstance &CI, TranslateState &St) : CI(CI), St(St) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    auto Dispatch = unwrapSectionDispatch(Ctx);
    reportKeywordMacros(CI, St);
    // After errors in the parse, the checks still look at the declarations
    // that hold none (Session::setParseErrors), unless an error stopped the
    // parse or lies outside the file.
    std::vector<SourceLocation> Errors;
    bool AfterErrors = Diags.hasErrorOccurred();
    if (AfterErrors && (Diags.hasFatalErrorOccurred() ||
                        !St.Printer->errorsLocated(Ctx.getSourceManager(), Errors)))
      return;
    Session S(Ctx, Diags, St.TP, St.Orig, St.FileName, St.Lower);
    if (AfterErrors)
      S.setParseErrors(Errors);
    S.Warnings = St.Warnings;
    for (auto [Begin, End] : Dispatch)
      S.Edits.replace(Begin, End, "");
    for (auto [Begin, End] : S.Warnings.OwnPragmaLines)
      S.Edits.replace(Begin, End,
                      std::string(StringRef(St.TP.Text).slice(Begin, End).count('\n'), '\n'));
    S.MacroLines = St.MacroLines;
    S.DiagPragmaLines = St.DiagPragmaLines;
    S.Macros = std::move(St.Macros);
    bool Checked = analyze(S) && runChecks(S);
    St.Printer->releaseInLineOrder();
    if (!Checked || AfterErrors)
      return;
    // Lowering runs for -fsyntax-only too: it has errors of its own (local
    // types that cannot move to file scope, ...).
    Outliner O(S);
    std::string Discard;
    St.Ok = O.run(St.SyntaxOnly ? Discard : St.Out) && !Diags.hasErrorOccurred();
    // What the back end lacks, reported here rather than as its errors
    // inside the lowered C.
    if (St.Ok && !St.SyntaxOnly && St.BackEnd.Compile) {
      St.Features->scan(Ctx);
      St.Ok = St.Features->check(Diags, St.BackEnd);
    }
  }

private:
  CompilerInstance &CI;
  TranslateState &St;
};

class ParccAction : public ASTFrontendAction {
public:
  explicit ParccAction(TranslateState &St) : St(St) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    return std::make_unique<ParccConsumer>(CI, St);
  }
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    // Clang's diagnostics and parcc's checks' are printed together in
    // line order (DiagPrinter::holdInLineOrder).
    St.Printer->holdInLineOrder(CI.getDiagnosticOpts().ErrorLimit);
    CI.getDiagnostics().setErrorLimit(0);
    for (const auto &M : CI.getPreprocessorOpts().Macros)
      if (StringRef(M.first).take_until([](char C) { return C == '='; }) == "__PARCC__")
        St.Lower.DefinesParcc = !M.second;
    Preprocessor &PP = CI.getPreprocessor();
    PP.addPPCallbacks(
        std::make_unique<MacroRecorder>(CI.getSourceManager(), St.TP.Text, St.MacroLines,
                                        St.DiagPragmaLines));
    PP.addPPCallbacks(std::make_unique<MacroUseRecorder>(CI.getSourceManager(), St.Macros));
    PP.addPPCallbacks(std::make_unique<DirectiveRecorder>(CI, St.Lower, St.Macros));
    St.Features = std::make_unique<BackEndFeatures>(CI.getSourceManager(), St.TP.PreludeBegin,
                                                    St.TP.PreludeEnd);
    PP.addPPCallbacks(std::make_unique<FeatureRecorder>(*St.Features, PP, St.BackEnd.Embeds));
    PP.addPPCallbacks(std::make_unique<DiagnosticPragmaRecorder>(CI, St.Warnings));
    watchTokens(PP, St.Macros, *St.Features);
    // gcc's pragmas that Clang does not know: the emitted C keeps them for
    // the back end, which honours them (gcc does), and -Wall warned
    // "unknown pragma ignored" about valid code.
    for (const char *Name :
         {"ivdep", "optimize", "target", "push_options", "pop_options", "reset_options"})
      PP.AddPragmaHandler("GCC", new EmptyPragmaHandler(Name));
    return true;
  }

  /// Every token the parser gets: counted for Session::Macros::Emitted
  /// when a macro expansion written in the file makes it, looked at for
  /// what a back end may lack, and checked for a misplaced `::` (below).
  static void watchTokens(Preprocessor &PP, MacroUses &Macros, BackEndFeatures &Features) {
    PP.setTokenWatcher([&PP, &Macros, &Features,
                        Check = ColonColonCheck()](const Token &CT) mutable {
      Features.token(CT, PP);
      if (CT.is(tok::identifier) && CT.getLocation().isMacroID()) {
        SourceManager &SM = PP.getSourceManager();
        SourceLocation X = SM.getExpansionLoc(CT.getLocation());
        if (SM.isWrittenInMainFile(X))
          ++Macros.Emitted[SM.getFileOffset(X)][CT.getIdentifierInfo()];
      }
      misplacedColonColon(PP, Check, CT);
    });
  }

  /// The token pass rejects a `::` written in the file; one that a macro or
  /// a header writes reaches the parser, and Clang 19's C parser loops
  /// forever on some (`(::x)`, llvm/llvm-project#195367).  Such a token is
  /// reported where the macro wrote it, turned into a ':' so that the
  /// parser cannot loop on it, and the rest of the parse is silenced: its
  /// diagnostics would be about a token the user did not write.
  static void misplacedColonColon(Preprocessor &PP, ColonColonCheck &Check, const Token &CT) {
    if (!Check.misplaced(CT.getKind()))
      return;
    Token &T = const_cast<Token &>(CT); // Preprocessor::Lex's own result
    DiagnosticsEngine &D = PP.getDiagnostics();
    if (!D.getSuppressAllDiagnostics())
      D.Report(T.getLocation(),
               D.getCustomDiagID(DiagnosticsEngine::Error, "'::' is not allowed here in C"));
    D.setSuppressAllDiagnostics(true);
    T.setKind(tok::colon);
  }

private:
  TranslateState &St;
};

bool readSource(const std::string &Path, std::string &Text) {
  // "-": standard input, as cc reads it (`echo ... | cc -x c -`).
  auto Buf = Path == "-" ? llvm::MemoryBuffer::getSTDIN()
                         : llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) {
    llvm::errs() << "parcc: error: cannot read '" << Path << "': " << Buf.getError().message()
                 << "\n";
    return false;
  }
  Text = (*Buf)->getBuffer().str();
  return true;
}

/// scanSource in the dialect parcc reads before it knows the -std= (GNU C17).
SourceScan scanText(const std::string &Text) {
  LangOptions ScanOpts;
  ScanOpts.C99 = ScanOpts.C11 = ScanOpts.C17 = ScanOpts.GNUMode = ScanOpts.Digraphs =
      ScanOpts.LineComment = 1;
  return scanSource(Text, ScanOpts);
}

/// Standard input, already read as Text, reaches Clang under its name Path
/// (nameInput): Clang would read the consumed stream again.
void remapStdin(CompilerInvocation &Inv, const std::string &InputPath, const std::string &Path,
                const std::string &Text) {
  if (InputPath == "-")
    Inv.getPreprocessorOpts().addRemappedFile(
        Path, llvm::MemoryBuffer::getMemBufferCopy(Text, Path).release());
}

/// The dependency file (-MD, -MMD, -M) that Opts asks for, if any.
void setDepOutput(CompilerInvocation &Inv, const FrontendOptions &Opts) {
  if (Opts.DepFile.empty())
    return;
  DependencyOutputOptions &Dep = Inv.getDependencyOutputOpts();
  Dep.OutputFile = Opts.DepFile;
  Dep.Targets = Opts.DepTargets;
  Dep.IncludeSystemHeaders = Opts.DepSystemHeaders;
  Dep.UsePhonyTargets = Opts.DepPhony;
}

} // namespace

/// Deeply nested constructs make deeply nested statements: Clang's parser
/// and the AST walks recurse once per level.  The front end runs on a thread
/// with a large stack (address space only; pages are committed as used),
/// and Clang's bracket limit is raised to match.
static constexpr unsigned FrontendStack = 1u << 30;

namespace {
struct StackJob {
  std::function<bool()> Fn;
  bool Result = false;
};
} // namespace

static void *runStackJob(void *P) {
  auto *J = static_cast<StackJob *>(P);
  J->Result = J->Fn();
  return nullptr;
}

/// The stack sizes to try, largest first.  Under an address-space limit
/// (ulimit -v) the stack's reservation competes with the heap: a 64 MiB
/// stack that fitted left too little for the parse, and LLVM aborted "out
/// of memory".  There the stack takes a quarter of what is left, or none
/// below 16 MiB (this thread's own then).
static std::vector<size_t> frontendStacks() {
  struct rlimit RL;
  if (getrlimit(RLIMIT_AS, &RL) != 0 || RL.rlim_cur == RLIM_INFINITY)
    return {size_t(FrontendStack), size_t(64) << 20};
  unsigned long long Pages = 0;
  if (FILE *F = fopen("/proc/self/statm", "r")) {
    if (fscanf(F, "%llu", &Pages) != 1)
      Pages = 0;
    fclose(F);
  }
  unsigned long long Page = sysconf(_SC_PAGESIZE), Used = Pages * Page;
  unsigned long long Left = RL.rlim_cur > Used ? RL.rlim_cur - Used : 0;
  size_t Size = std::min<unsigned long long>(FrontendStack, Left / 4) & ~(Page - 1);
  if (Size < (size_t(16) << 20))
    return {};
  return {Size};
}

/// Runs Fn on a thread with a large stack; where the system refuses one
/// (a tight ulimit -v), on a smaller one, else on this thread.
static bool onBigStack(std::function<bool()> Fn) {
  StackJob J{std::move(Fn)};
  for (size_t Size : frontendStacks()) {
    pthread_attr_t Attr;
    if (pthread_attr_init(&Attr) != 0)
      break;
    pthread_t T;
    bool Started = pthread_attr_setstacksize(&Attr, Size) == 0 &&
                   pthread_create(&T, &Attr, runStackJob, &J) == 0;
    pthread_attr_destroy(&Attr);
    if (Started) {
      pthread_join(T, nullptr);
      return J.Result;
    }
  }
  return J.Fn();
}

static bool translateOnThisStack(const std::string &Path, const FrontendOptions &Opts,
                                 bool SyntaxOnly, std::string &OutC,
                                 const std::string *Blanked = nullptr,
                                 DiagPrinter *Shared = nullptr, unsigned Depth = 0,
                                 const std::string *UserText = nullptr);

// Clang's parser reads MS-style inline assembly (__asm { ... }, with
// -fms-extensions) through the target's assembly parser, as clang's cc1
// does after registering every target; without them such a block is an
// error ("no targets are registered") that cc does not give.
static void registerTargetsOnce() {
  static const bool Registered = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmParsers();
    return true;
  }();
  (void)Registered;
}

bool translateFile(const std::string &Path, const FrontendOptions &Opts, bool SyntaxOnly,
                   std::string &OutC) {
  registerTargetsOnce();
  return onBigStack([&] { return translateOnThisStack(Path, Opts, SyntaxOnly, OutC); });
}

/// Text with [B, E) (a construct, or a function's body) blanked: every character but the
/// line ends ('\n' and '\r') and the preprocessor's lines (a macro defined
/// there may be used further on) made a space, so that every other
/// position stays.
static std::string blankBody(StringRef Text, unsigned B, unsigned E) {
  std::string Out = Text.str();
  bool Continued = false; // the line before was a directive ending in '\\'
  for (size_t I = B; I < E;) {
    size_t LineStart = Text.rfind('\n', I);
    LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
    size_t NewLine = Text.find('\n', I), LineEnd = std::min<size_t>(NewLine, E);
    StringRef Line = Text.slice(LineStart, NewLine);
    bool Directive = Continued || Line.ltrim().starts_with("#");
    Continued = Directive && Line.rtrim().ends_with("\\");
    if (!Directive)
      for (size_t J = I; J < LineEnd; ++J)
        if (Out[J] != '\r') // a line end to Clang, alone too
          Out[J] = ' ';
    I = LineEnd + 1;
  }
  return Out;
}

/// Blanked and Shared: a run after the token pass stopped at an error in
/// a function (TokenPassResult::RecoverBegin), on the text with the
/// construct in error, or that function's body, blanked, so that the rest
/// of the file's errors come in the same run, with the same printer; its
/// warnings are left out (some would be about what is blanked: unused
/// variables and parameters, no return).  UserText: the file as the user
/// wrote it, which such a run's diagnostics quote (Blanked has its
/// offsets); a blanked line quoted as `;      x` is not what the user
/// wrote (tester I, s46).
static bool translateOnThisStack(const std::string &InputPath, const FrontendOptions &Opts,
                                 bool SyntaxOnly, std::string &OutC,
                                 const std::string *Blanked, DiagPrinter *Shared,
                                 unsigned Depth, const std::string *UserText) {
  std::string Text;
  if (Blanked)
    Text = *Blanked;
  else if (!readSource(InputPath, Text))
    return false;

  // Command-line errors (a bad -std=, ...) print in Clang's plain format.
  IntrusiveRefCntPtr<DiagnosticOptions> ArgOpts = new DiagnosticOptions();
  TextDiagnosticPrinter ArgPrinter(llvm::errs(), ArgOpts.get());
  IntrusiveRefCntPtr<DiagnosticsEngine> ArgDiags =
      new DiagnosticsEngine(new DiagnosticIDs(), ArgOpts, &ArgPrinter, false);
  SourceScan Scan = scanText(Text);
  std::shared_ptr<CompilerInvocation> Inv =
      makeInvocation(InputPath, Opts, !Scan.DeclaresFaa, ArgDiags);
  if (!Inv)
    return false;
  std::string Path = nameInput(*Inv, InputPath);
  LowerOptions Lower = Opts.Lower;
  Lower.UndefFaa = Scan.DeclaresFaa;

  IntrusiveRefCntPtr<DiagnosticOptions> PrintOpts =
      new DiagnosticOptions(Inv->getDiagnosticOpts());
  std::optional<DiagPrinter> OwnPrinter;
  DiagPrinter &Printer = Shared ? *Shared : OwnPrinter.emplace(llvm::errs(), PrintOpts.get());
  if (Shared)
    Printer.setRecovering();
  else // the token pass's diagnostics among the others, in line order
    Printer.holdInLineOrder(Inv->getDiagnosticOpts().ErrorLimit);
  Printer.BeginSourceFile(Inv->getLangOpts(), nullptr);
  OriginalSource Orig(Path, Text, PrintOpts.get(), &Printer);
  Printer.setOriginal(&Orig);
  std::optional<OriginalSource> Shown;
  if (UserText && UserText->size() == Text.size())
    Shown.emplace(Path, *UserText, PrintOpts.get(), &Printer);
  Printer.setShown(Shown ? &*Shown : nullptr);

  std::vector<SkippedRange> Skipped;
  // The preprocessor runs first where it tells what the token pass must
  // know: the regions that #if skips, and the lines that the user's #line
  // directives give (for diagnostics, and for the lowered C's own #line).
  std::vector<LineNote> LineNotes;
  if ((Scan.HasKeyword && Scan.HasConditional) || Scan.HasLineDirective) {
    auto PPInv = std::make_shared<CompilerInvocation>(*Inv);
    PPInv->getDependencyOutputOpts() = DependencyOutputOptions();
    CompilerInstance PPCI;
    remapStdin(*PPInv, InputPath, Path, Text);
    PPCI.setInvocation(PPInv);
    IgnoringDiagConsumer Quiet;
    PPCI.createDiagnostics(&Quiet, false);
    SkipAction Act(Skipped, LineNotes);
    PPCI.ExecuteAction(Act);
    for (const LineNote &N : LineNotes)
      if (N.Offset < Text.size()) {
        Orig.addLineNote(N.Offset, N.LineNo, N.Filename, N.Kind);
        if (Shown)
          Shown->addLineNote(N.Offset, N.LineNo, N.Filename, N.Kind);
      }
    std::sort(Skipped.begin(), Skipped.end(),
              [](const SkippedRange &A, const SkippedRange &B) { return A.Begin < B.Begin; });
  }

  TokenPassResult TP = runTokenPass(Orig.sm(), Orig.fid(), Inv->getLangOpts(), Skipped,
                                    Orig.diags());
  if (!TP.Ok) {
    if (TP.RecoverEnd > TP.RecoverBegin && Depth < 32) {
      std::string Next = blankBody(Text, TP.RecoverBegin, TP.RecoverEnd), Unused;
      if (TP.RecoverStatement) // `if (c) parfor ... epar else` stays C
        Next[TP.RecoverBegin] = ';';
      translateOnThisStack(InputPath, Opts, /*SyntaxOnly=*/true, Unused, &Next, &Printer,
                           Depth + 1, UserText ? UserText : &Text);
      return false;
    }
    // As Clang ends a failed compilation.
    Printer.releaseInLineOrder();
    unsigned N = Printer.getNumErrors();
    llvm::errs() << N << (N == 1 ? " error" : " errors") << " generated.\n";
    return false;
  }
  Printer.setMap(&TP.Map);
  Printer.setPrelude(TP.PreludeBegin, TP.PreludeEnd);
  Printer.setPreturns(&TP.PreturnOffsets);
  Printer.setRenamed(&TP.Renamed);
  Printer.setBodilessSteps(&TP.BodilessSteps);

  setDepOutput(*Inv, Opts);
  Inv->getPreprocessorOpts().addRemappedFile(
      Path, llvm::MemoryBuffer::getMemBufferCopy(TP.Text, Path).release());

  CompilerInstance CI;
  CI.setInvocation(Inv);
  CI.createDiagnostics(&Printer, /*ShouldOwnClient=*/false);
  // ISO C forbids a repeated type specifier (`unsigned unsigned`); Clang
  // only warns, gcc stops. An error here, at the user's line, rather than
  // the back end's.
  CI.getDiagnostics().setSeverity(diag::ext_warn_duplicate_declspec, diag::Severity::Error,
                                  SourceLocation());
  TranslateState St{TP, Orig, Path, Lower, SyntaxOnly, OutC, Opts.BackEnd, {}, {}, {}, nullptr, false};
  for (StringRef A : Opts.ClangArgs)
    if (A.consume_front("-W"))
      St.Warnings.CommandLine.applyOption(A);
  St.Printer = &Printer;
  ParccAction Act(St);
  bool Ran = CI.ExecuteAction(Act);
  return Ran && St.Ok && !CI.getDiagnostics().hasErrorOccurred() && Printer.getNumErrors() == 0;
}

bool preprocessFile(const std::string &InputPath, const FrontendOptions &Opts,
                    const std::string &OutFile, bool AsCompiled) {
  std::string Text;
  if (!readSource(InputPath, Text))
    return false;
  IntrusiveRefCntPtr<DiagnosticOptions> ArgOpts = new DiagnosticOptions();
  TextDiagnosticPrinter ArgPrinter(llvm::errs(), ArgOpts.get());
  IntrusiveRefCntPtr<DiagnosticsEngine> ArgDiags =
      new DiagnosticsEngine(new DiagnosticIDs(), ArgOpts, &ArgPrinter, false);
  bool ForceInclude = AsCompiled && !scanText(Text).DeclaresFaa;
  std::shared_ptr<CompilerInvocation> Inv =
      makeInvocation(InputPath, Opts, ForceInclude, ArgDiags);
  if (!Inv)
    return false;
  std::string Path = nameInput(*Inv, InputPath);
  remapStdin(*Inv, InputPath, Path, Text);
  setDepOutput(*Inv, Opts);
  Inv->getFrontendOpts().OutputFile = OutFile;
  // As cc -E: -dM lists the macros instead of the text, -dD adds them to
  // it, -dI keeps the #include lines, -P drops the line markers, -C and
  // -CC keep comments.
  PreprocessorOutputOptions &PO = Inv->getPreprocessorOutputOpts();
  auto Has = [&](StringRef F) { return llvm::is_contained(Opts.PreprocessFlags, F); };
  PO.ShowCPP = !Has("-dM");
  PO.ShowMacros = Has("-dM") || Has("-dD");
  PO.ShowIncludeDirectives = Has("-dI");
  PO.ShowLineMarkers = !Has("-P");
  PO.ShowComments = Has("-C") || Has("-CC");
  PO.ShowMacroComments = Has("-CC");
  CompilerInstance CI;
  CI.setInvocation(Inv);
  CI.createDiagnostics();
  PrintPreprocessedAction Act;
  return CI.ExecuteAction(Act) && !CI.getDiagnostics().hasErrorOccurred();
}

std::vector<UnknownWarningOption> unknownWarningOptions(const std::vector<std::string> &Args) {
  IntrusiveRefCntPtr<DiagnosticOptions> Opts(new DiagnosticOptions);
  OwnWarningState Own;
  std::vector<StringRef> OwnOptions;
  for (const std::string &A : Args) {
    StringRef S(A);
    if (S == "-w")
      Opts->IgnoreWarnings = true;
    else if (isOwnWarningOption(S))
      OwnOptions.push_back(S);
    else if (S.starts_with("-W") && !S.starts_with("-Wp,"))
      Opts->Warnings.push_back(S.drop_front(2).str());
    if (S.starts_with("-W"))
      Own.applyOption(S.drop_front(2));
  }
  UnknownWarningCollector Collect;
  if (!Opts->Warnings.empty()) {
    DiagnosticsEngine Diags(new DiagnosticIDs, Opts, &Collect, /*ShouldOwnClient=*/false);
    ProcessWarningOptions(Diags, *Opts, /*ReportDiags=*/true);
  }
  // parcc's names, as Clang judges its own: -Wno-NAME too, since no gcc
  // option starts with parc.
  DiagnosticsEngine::Level Lv = Own.unknownGroupLevel(Opts->IgnoreWarnings);
  for (StringRef S : OwnOptions) {
    StringRef Group = ownWarningGroupOf(S.drop_front(2));
    if (ownWarningMask(Group) || Lv == DiagnosticsEngine::Ignored)
      continue;
    StringRef Prefix = S.drop_back(Group.size());
    std::string Message = ("unknown warning option '" + S + "'; did you mean '" + Prefix +
                           nearestOwnWarning(Group) + "'?")
                              .str();
    Collect.Found.push_back({S.str(), Message, Lv == DiagnosticsEngine::Error, true});
  }
  return Collect.Found;
}

} // namespace parcc
