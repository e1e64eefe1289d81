//===- Driver.cpp - parcc used like cc ------------------------------------===//
//
// Options are sorted into three places: the PARC front end (Clang: -I -D -U
// -std= -W ...), the back-end compile of the emitted C (-O -g -f -m and every
// option parcc does not know), and the link (-l -L -Wl, objects), keeping
// their command-line order where it matters (libraries after the objects
// that need them).  The back end compiles with -w: parcc has already
// reported the user's warnings once, at the user's columns.
//
//===----------------------------------------------------------------------===//
#include "parcc/Driver.h"

#include "parcc/Config.h"
#include "parcc/Frontend.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/MD5.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <ctime>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <optional>
#include <set>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace parcc {

ArrayRef<const char *> backEndQuietFlags() {
  static const char *const Flags[] = {"-w",
                                      "-Wno-implicit-int",
                                      "-Wno-implicit-function-declaration",
                                      "-Wno-int-conversion",
                                      "-Wno-incompatible-pointer-types",
                                      "-Wno-incompatible-function-pointer-types",
                                      "-Wno-return-type",
                                      "-Wno-return-mismatch"};
  return Flags;
}

namespace {

//===-- Interruption --------------------------------------------------------===//
//
// SIGINT, SIGTERM, SIGHUP or SIGQUIT to parcc (a user's Ctrl-C or kill, a
// build tool stopping its jobs), or SIGPIPE (`parcc -E ... | head`: LLVM's
// own handler would exit with status 74 and leave the directories) stops
// the back end too, with the same
// signal: the back end and everything it started (gcc's cc1, as, collect2,
// ld), found through /proc, since a kill aimed at parcc alone reaches no
// child, and gcc itself passes no signal on to its own.  Once they have
// ended, parcc removes its temporary files (LLVM's RemoveFileOnSignal list)
// and directories, then dies of the signal, as gcc's driver does.  Only
// async-signal-safe calls happen in the handler.

std::atomic<pid_t> BackEndPid{0};

/// The temporary directories, newest first (subdirectories before the
/// directory that holds them).  Nodes are never freed: the handler may be
/// walking the list.
struct DirNode {
  std::string Path;
  DirNode *Next;
};
std::atomic<DirNode *> TempDirList{nullptr};

const int InterruptSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
bool InheritedIgnored[std::size(InterruptSignals)];

/// Appends the decimal form of N to Buf at Len (async-signal-safe).
size_t putNumber(char *Buf, size_t Len, long N) {
  char Digits[24];
  size_t D = 0;
  do
    Digits[D++] = char('0' + N % 10);
  while ((N /= 10) > 0);
  while (D > 0)
    Buf[Len++] = Digits[--D];
  return Len;
}

/// Adds the descendants of P to Out (from /proc/P/task/P/children, where
/// Linux lists them), depth first.
size_t collectDescendants(pid_t P, pid_t *Out, size_t N, size_t Max) {
  char Path[64] = "/proc/";
  size_t Len = putNumber(Path, 6, P);
  memcpy(Path + Len, "/task/", 6);
  Len = putNumber(Path, Len + 6, P);
  memcpy(Path + Len, "/children", 10);
  int FD = open(Path, O_RDONLY | O_CLOEXEC);
  if (FD < 0)
    return N;
  char Buf[1024];
  ssize_t Got = read(FD, Buf, sizeof(Buf) - 1);
  close(FD);
  if (Got <= 0)
    return N;
  pid_t Kids[128];
  size_t NumKids = 0;
  long Cur = -1;
  for (ssize_t I = 0; I <= Got; ++I) {
    char C = I < Got ? Buf[I] : ' ';
    if (C >= '0' && C <= '9') {
      Cur = (Cur < 0 ? 0 : Cur * 10) + (C - '0');
    } else if (Cur >= 0) {
      if (NumKids < std::size(Kids))
        Kids[NumKids++] = pid_t(Cur);
      Cur = -1;
    }
  }
  for (size_t I = 0; I < NumKids && N < Max; ++I) {
    Out[N++] = Kids[I];
    N = collectDescendants(Kids[I], Out, N, Max);
  }
  return N;
}

extern "C" void onInterrupt(int Sig) {
  // SA_RESETHAND: the same signal again (a second Ctrl-C) ends parcc at once.
  pid_t Child = BackEndPid.exchange(0);
  if (Child > 0) {
    pid_t Tree[256];
    size_t N = collectDescendants(Child, Tree, 0, std::size(Tree));
    kill(Child, Sig);
    for (size_t I = 0; I < N; ++I)
      kill(Tree[I], Sig);
    int Status;
    while (waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
    }
    // The descendants, now the init process's, end as promptly; give them
    // a moment (at most half a second) before removing what they write.
    struct timespec Tick = {0, 10 * 1000 * 1000};
    for (int Round = 0; Round < 50; ++Round) {
      bool Alive = false;
      for (size_t I = 0; I < N && !Alive; ++I)
        Alive = kill(Tree[I], 0) == 0;
      if (!Alive)
        break;
      nanosleep(&Tick, nullptr);
    }
  }
  sys::RunInterruptHandlers();
  for (DirNode *D = TempDirList.load(); D; D = D->Next)
    rmdir(D->Path.c_str());
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, Sig);
  pthread_sigmask(SIG_UNBLOCK, &Set, nullptr);
  signal(Sig, SIG_DFL);
  raise(Sig);
}

/// Takes over the interrupt signals from LLVM's handler (which removes
/// files but neither stops children nor removes directories), except
/// those that parcc's parent had ignored (nohup, a background job of a
/// shell without job control), which stay ignored, as in gcc.
void handleInterrupts() {
  for (size_t I = 0; I < std::size(InterruptSignals); ++I) {
    struct sigaction SA;
    memset(&SA, 0, sizeof(SA));
    if (InheritedIgnored[I]) {
      SA.sa_handler = SIG_IGN;
    } else {
      SA.sa_handler = onInterrupt;
      SA.sa_flags = SA_RESETHAND | SA_NODEFER;
    }
    sigemptyset(&SA.sa_mask);
    sigaction(InterruptSignals[I], &SA, nullptr);
  }
}

void addTempDir(const std::string &Path) {
  TempDirList.store(new DirNode{Path, TempDirList.load()});
}

int fail(const Twine &Msg) {
  errs() << "parcc: error: " << Msg << "\n";
  return 1;
}

enum class Mode { Link, Compile, Assemble, EmitC, SyntaxOnly, Preprocess, Deps };

struct Input {
  std::string Path;
  bool Parc; // goes through the PARC front end
  bool Object; // object, archive or shared library: for the linker only
  std::string Lang = {}; // -x LANG for the back end (assembler...), or ""
};

/// One item of the link line, in command-line order.
struct LinkItem {
  int Input = -1; // index into Inputs, or -1 for Arg
  std::string Arg;
};

struct Options {
  Mode M = Mode::Link;
  std::string Output;
  std::vector<Input> Inputs;
  std::vector<LinkItem> Link;
  std::vector<std::string> Front;        // the PARC front end (Clang)
  std::vector<std::string> BackCompile;  // back-end compile of emitted C
  std::vector<std::string> BackAndLink;  // both back-end compile and link
  std::string CC;
  bool SaveTemps = false, SaveTempsObj = false;
  bool Verbose = false;
  bool Polls = true;
  bool StacklessSync = true;
  bool StacklessSyncGiven = false; // -f[no-]parc-stackless-sync written
  std::set<std::string> Sanitizers; // -fsanitize= kinds in force
  bool OpenMP = false, OpenMPSimd = false, OpenACC = false; // what the back end honours
  bool FenvAccess = false; // -frounding-math, -ffp-model=strict
  bool MD = false, MMD = false, MP = false;
  std::string MF;
  std::vector<std::string> MT;
  std::vector<std::string> PreprocessFlags; // -dM -dD -dI -P -C -CC
  std::vector<std::string> Queries;         // -dumpmachine, -print-*, ...
};

const char *const Usage =
    "OVERVIEW: parcc - compiler for PARC, C with parallel constructs\n"
    "\n"
    "USAGE: parcc [options] file...\n"
    "\n"
    "Inputs: .pc and .c files go through the PARC front end; objects (.o),\n"
    "archives (.a) and shared libraries (.so) go to the linker; - is standard\n"
    "input (with -x c, -x pc or -E).\n"
    "\n"
    "OPTIONS:\n"
    "  -o <file>          Write the output to <file>\n"
    "  -c                 Compile to object files, do not link\n"
    "  -S                 Compile to assembly\n"
    "  -E                 Preprocess only (PARC constructs are kept as written)\n"
    "  -emit-c            Write the lowered C (to -o <file> or stdout)\n"
    "  -fsyntax-only      Check the program, produce nothing\n"
    "  -I<dir> -D<m>[=v] -U<m> -include <f> -isystem <dir> -iquote <dir>\n"
    "                     Preprocessor options, as for cc\n"
    "  -std=<std>         C language standard (default gnu17)\n"
    "  -W<warning> -w     Warnings, reported by parcc at the user's lines\n"
    "                     (parcc's own: -Wparc-<name>, -Wno-parc-<name>)\n"
    "  -O<level> -g       Optimisation and debug information (back end)\n"
    "  -l<lib> -L<dir>    Libraries for the link\n"
    "  -MD -MMD -MF <f> -MT <t> -MQ <t> -MP\n"
    "                     Write a dependency file while compiling\n"
    "  -M -MM             Write the dependencies only (to -MF, -o or stdout)\n"
    "  -save-temps        Keep the lowered C as <name>.parc.c\n"
    "  --cc=<compiler>    Back-end C compiler (default: $PARCC_CC, else cc)\n"
    "  -fno-parc-polls    Emit no poll points (to measure their cost; pbreak\n"
    "                     and preturn then stop activities only at construct\n"
    "                     boundaries and blocking operations)\n"
    "  -fno-parc-stackless-sync\n"
    "                     Keep every activity waiting at sync on a stack of\n"
    "                     its own (to compare with the frames parcc uses)\n"
    "  @<file>            Read more options from <file>\n"
    "  -v                 Show the commands parcc runs\n"
    "  -dumpversion -dumpmachine -print-file-name=<f> -print-prog-name=<p> ...\n"
    "                     Answer as cc does, compiling nothing\n"
    "  --help             Show this help\n"
    "  --version          Show the version\n"
    "\n"
    "Other options are passed to the back-end C compiler.\n";

bool isParcSource(StringRef P) {
  return P.ends_with(".pc") || P.ends_with(".c");
}

/// A source file that reached the linker by its name (`prog.PC`, `prog`):
/// text, no object or archive, and not named as a linker script or a
/// source of another language the back end knows.
bool looksLikeStraySource(StringRef P) {
  StringRef Name = sys::path::filename(P);
  StringRef Ext = sys::path::extension(Name);
  for (StringRef Known : {".ld", ".lds", ".x", ".s", ".S", ".sx", ".i", ".ii", ".cc", ".cp",
                          ".cxx", ".cpp", ".CPP", ".c++", ".C", ".m", ".mm", ".M", ".h", ".hh",
                          ".hpp", ".f", ".F", ".f90", ".go", ".d", ".map"})
    if (Ext == Known)
      return false;
  auto Buf = MemoryBuffer::getFile(P, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return false;
  StringRef Head = (*Buf)->getBuffer().take_front(4096);
  return !Head.empty() && !Head.contains('\0') && !Head.starts_with("\x7f" "ELF") &&
         !Head.starts_with("!<arch>") && !Head.starts_with("/* GNU ld script") &&
         !Head.starts_with("INPUT") && !Head.starts_with("GROUP");
}

bool isObject(StringRef P) {
  StringRef Name = sys::path::filename(P);
  return Name.ends_with(".o") || Name.ends_with(".a") || Name.ends_with(".so") ||
         Name.contains(".so.") || Name.ends_with(".obj");
}

/// Options of Clang's that change how the source parses.
bool frontEndF(StringRef A) {
  return A == "-funsigned-char" || A == "-fsigned-char" || A == "-fno-signed-char" ||
         A == "-fno-unsigned-char" || A == "-fshort-enums" || A == "-fno-short-enums" ||
         A == "-fshort-wchar" || A == "-fno-short-wchar" || A == "-fgnu89-inline" ||
         A == "-fno-gnu89-inline" || A.starts_with("-fno-builtin") || A == "-fbuiltin" ||
         A == "-fms-extensions" || A == "-fno-ms-extensions" ||
         A == "-fdollars-in-identifiers" || A == "-fno-dollars-in-identifiers" ||
         A == "-ffreestanding" || A == "-fhosted" || A == "-fgnu-keywords" ||
         A == "-fno-gnu-keywords" || A == "-fasm" || A == "-fno-asm";
}
/// Diagnostic presentation: the front end's business only.
bool diagF(StringRef A) {
  return A == "-fcolor-diagnostics" || A == "-fno-color-diagnostics" ||
         A.starts_with("-fdiagnostics-color") || A.starts_with("-fmessage-length=") ||
         A.starts_with("-ferror-limit=") || A == "-fno-diagnostics-show-option" ||
         A == "-fdiagnostics-show-option" || A == "-fno-caret-diagnostics" ||
         A == "-fno-show-column" || A.starts_with("-fbracket-depth=") ||
         A.starts_with("-fmacro-backtrace-limit=");
}

/// The -std= option A as the back end gets it: C23 by the name that every C
/// compiler with some of it knows (gcc 9 to 13 and Clang before 18 do not
/// know -std=c23; gcc 14 and Clang take c2x as c23).
std::string backEndStd(StringRef A) {
  if (A == "-std=c23")
    return "-std=c2x";
  if (A == "-std=gnu23")
    return "-std=gnu2x";
  return A.str();
}

/// The preprocessor option with a file or directory argument that A starts
/// with (-include, -isystem, ...), or "".
StringRef includeFlag(StringRef A) {
  for (StringRef F : {"-include", "-imacros", "-isystem", "-iquote", "-idirafter",
                      "-iprefix", "-iwithprefixbefore", "-iwithprefix", "-isysroot"})
    if (A.starts_with(F))
      return F;
  return "";
}

/// Options of cc's whose value may be the next word (`--param NAME=VAL`,
/// `-u SYMBOL`), and who gets the pair: read as two options, the value
/// was taken for an input file.  Their joined forms (`-usym`, `--param=`)
/// are single words and go to the back end as other options do.
enum class ValueTo { Link, BackCompile, BackAndLink, FrontAndBack };
struct SeparateOption {
  const char *Name;
  ValueTo To;
};
const SeparateOption SeparateOptions[] = {
    // The linker's: kept in order among the inputs, as -Xlinker.
    {"-u", ValueTo::Link},
    {"-z", ValueTo::Link},
    {"-e", ValueTo::Link},
    {"-T", ValueTo::Link},
    // The back end's own.
    {"--param", ValueTo::BackAndLink},
    {"-B", ValueTo::BackAndLink},
    {"-wrapper", ValueTo::BackAndLink},
    {"-dumpbase", ValueTo::BackAndLink},
    {"-dumpbase-ext", ValueTo::BackAndLink},
    {"-dumpdir", ValueTo::BackAndLink},
    {"-aux-info", ValueTo::BackCompile},
    {"-Xassembler", ValueTo::BackCompile},
    {"-Xclang", ValueTo::BackCompile},
    {"-mllvm", ValueTo::BackCompile},
    // gcc's #assert predicates, which Clang does not have.
    {"-A", ValueTo::BackCompile},
    // The preprocessor's: the front end must see the same macros.
    {"-Xpreprocessor", ValueTo::FrontAndBack},
};

/// A Make target as -MQ and cc's default target write it: spaces and tabs
/// (and the backslashes before them) escaped with a backslash, '$' doubled,
/// '#' escaped.
std::string quoteTarget(StringRef T) {
  std::string R;
  for (size_t I = 0; I < T.size(); ++I) {
    char Ch = T[I];
    if (Ch == ' ' || Ch == '\t') {
      for (size_t J = I; J > 0 && T[J - 1] == '\\'; --J)
        R += '\\';
      R += '\\';
    } else if (Ch == '$') {
      R += '$';
    } else if (Ch == '#') {
      R += '\\';
    }
    R += Ch;
  }
  return R;
}

/// Parses Argv into O.  Returns an exit status on error or for --help and
/// --version, nothing to go on.
std::optional<int> parse(ArrayRef<const char *> Argv, Options &O) {
  enum class Lang { None, Parc, C, BackEnd };
  Lang XLang = Lang::None;
  std::string BackEndLang; // with Lang::BackEnd
  for (size_t I = 1; I < Argv.size(); ++I) {
    StringRef A = Argv[I];
    auto Value = [&](StringRef Flag, std::string &Out) -> bool {
      // -Xvalue or -X value
      if (A.size() > Flag.size()) {
        Out = A.drop_front(Flag.size()).str();
        return true;
      }
      if (I + 1 >= Argv.size())
        return false;
      Out = Argv[++I];
      return true;
    };
    // --flag=value or --flag value.
    auto ValueEq = [&](StringRef Flag, std::string &Out) {
      if (Value(Flag, Out) && StringRef(Out).starts_with("="))
        Out.erase(0, 1);
      return !Out.empty();
    };
    auto Missing = [&](StringRef Flag) {
      return fail("argument to '" + Flag + "' is missing (expected 1 value)");
    };

    if (A == "--help" || A == "-help") {
      outs() << Usage;
      return 0;
    }
    if (A == "--version") {
      // gcc's layout, "NAME (DETAILS) VERSION": build systems that read
      // the first version in the text (meson) find the front end's, the
      // Clang whose C parcc accepts and whose macros the source sees.
      outs() << "parcc (LLVM/Clang " << PARCC_LLVM_VERSION << ") " << PARCC_VERSION << "\n";
      return 0;
    }
    if (A.empty() || A[0] != '-' || A == "-") {
      // "-": standard input (needs -x unless -E, as in cc; see Job::run).
      if (A == "-")
        for (const Input &In : O.Inputs)
          if (In.Path == "-")
            return fail("standard input ('-') can be an input only once");
      Input In{A.str(), false, false};
      if (XLang == Lang::Parc || XLang == Lang::C)
        In.Parc = true;
      else if (XLang == Lang::BackEnd)
        In.Lang = BackEndLang;
      else if (isParcSource(A))
        In.Parc = true;
      else
        In.Object = isObject(A);
      O.Inputs.push_back(In);
      O.Link.push_back({(int)O.Inputs.size() - 1, ""});
      continue;
    }
    std::string V;
    if (A == "-c")
      O.M = Mode::Compile;
    else if (A == "-S")
      O.M = Mode::Assemble;
    else if (A == "-E")
      O.M = Mode::Preprocess;
    else if (A == "-emit-c" || A == "--emit-c")
      O.M = Mode::EmitC;
    else if (A == "-fsyntax-only")
      O.M = Mode::SyntaxOnly;
    else if (A.starts_with("-o")) {
      if (!Value("-o", V))
        return Missing("-o");
      O.Output = V;
    } else if (A.starts_with("--cc=")) {
      O.CC = A.drop_front(5).str();
      if (O.CC.empty())
        return fail("'--cc=' needs a compiler");
    } else if (A == "-fno-parc-polls")
      O.Polls = false;
    else if (A == "-fparc-polls")
      O.Polls = true;
    else if (A == "-fno-parc-stackless-sync" || A == "-fparc-stackless-sync")
      O.StacklessSync = A == "-fparc-stackless-sync", O.StacklessSyncGiven = true;
    else if (A == "-save-temps" || A == "--save-temps" || A == "-save-temps=cwd")
      O.SaveTemps = true;
    else if (A == "-save-temps=obj")
      O.SaveTemps = O.SaveTempsObj = true;
    else if (A == "-v")
      O.Verbose = true;
    else if (A == "-dM" || A == "-dD" || A == "-dI" || A == "-P" || A == "-C" || A == "-CC")
      O.PreprocessFlags.push_back(A.str());
    else if (A == "-dumpversion" || A == "-dumpfullversion" || A == "-dumpmachine" ||
             A.starts_with("-print-"))
      O.Queries.push_back(A.str());
    else if (A.starts_with("-x")) {
      // -x LANG or -xLANG, as cc takes both (-xc is common in makefiles).
      if (!Value("-x", V))
        return Missing("-x");
      StringRef L = V;
      if (L == "c")
        XLang = Lang::C;
      else if (L == "pc" || L == "parc")
        XLang = Lang::Parc;
      else if (L == "none")
        XLang = Lang::None;
      else if (L == "assembler" || L == "assembler-with-cpp" || L == "c-header") {
        // As cc: handed to the back end, which assembles them, or makes a
        // precompiled header (CMake's target_precompile_headers).
        XLang = Lang::BackEnd;
        BackEndLang = L.str();
      } else
        return fail("language '" + L + "' is not supported; parcc compiles C and PARC (-x c, -x pc)" +
                    " and hands assembler and headers to the back end (-x assembler, -x " +
                    "assembler-with-cpp, -x c-header)");
    } else if (A == "-MD")
      O.MD = true;
    else if (A == "-MMD")
      O.MMD = true;
    else if (A == "-MP")
      O.MP = true;
    else if (A.starts_with("-MF")) {
      if (!Value("-MF", V))
        return Missing("-MF");
      O.MF = V;
    } else if (A.starts_with("-MT") || A.starts_with("-MQ")) {
      if (!Value(A.take_front(3), V))
        return Missing(A.take_front(3));
      O.MT.push_back(A.starts_with("-MQ") ? quoteTarget(V) : V);
    } else if (A == "-M" || A == "-MM") {
      // Only the dependencies (`cc -MM *.c > .depend`): to -MF, -o or stdout.
      O.M = Mode::Deps;
      (A == "-M" ? O.MD : O.MMD) = true;
    } else if (A == "-MG") {
      return fail("'" + A + "' is not supported: parcc needs every header to exist");
    } else if (A.starts_with("-I") || A.starts_with("-D") || A.starts_with("-U")) {
      std::string Flag = A.take_front(2).str();
      if (!Value(Flag, V))
        return Missing(Flag);
      O.Front.push_back(Flag + V);
      O.BackCompile.push_back(Flag + V);
    } else if (StringRef Flag = includeFlag(A); !Flag.empty()) {
      // -isystem DIR or -isystemDIR, as cc takes both.
      if (!Value(Flag, V))
        return Missing(Flag);
      for (auto *L : {&O.Front, &O.BackCompile}) {
        L->push_back(Flag.str());
        L->push_back(V);
      }
    } else if (A.starts_with("--embed-dir")) {
      // #embed's search path (C23, Clang 19, gcc 15): both compilers read
      // the files, the front end to decide __has_embed, the back end to
      // embed them.
      if (!ValueEq("--embed-dir", V))
        return Missing("--embed-dir");
      O.Front.push_back("--embed-dir=" + V);
      O.BackCompile.push_back("--embed-dir=" + V);
    } else if (A.starts_with("-std=") || A == "-ansi") {
      O.Front.push_back(A.str());
      O.BackCompile.push_back(backEndStd(A));
    } else if (A == "-pedantic" || A == "-pedantic-errors" || A == "-Wpedantic") {
      O.Front.push_back(A.str());
    } else if (A.starts_with("-Wl,")) {
      O.Link.push_back({-1, A.str()});
    } else if (A.starts_with("-Wa,")) {
      O.BackCompile.push_back(A.str());
    } else if (A.starts_with("-Wp,")) {
      // The dependency options among them (-Wp,-MD,FILE as kbuild writes
      // it) are parcc's: the back end would describe the lowered C in a
      // temporary file.  -Wp,-MD,FILE is -MD -MF FILE.
      SmallVector<StringRef, 4> Items;
      A.drop_front(4).split(Items, ',');
      std::string Rest;
      for (size_t J = 0; J < Items.size(); ++J) {
        StringRef It = Items[J];
        bool HasNext = J + 1 < Items.size();
        if ((It == "-MD" || It == "-MMD") && HasNext) {
          (It == "-MD" ? O.MD : O.MMD) = true;
          O.MF = Items[++J].str();
        } else if (It == "-MF" && HasNext) {
          O.MF = Items[++J].str();
        } else if ((It == "-MT" || It == "-MQ") && HasNext) {
          O.MT.push_back(It == "-MQ" ? quoteTarget(Items[J + 1]) : Items[J + 1].str());
          ++J;
        } else if (It == "-MP") {
          O.MP = true;
        } else {
          Rest += (Rest.empty() ? "-Wp," : ",") + It.str();
        }
      }
      if (!Rest.empty()) {
        O.Front.push_back(Rest);
        O.BackCompile.push_back(Rest);
      }
    } else if (A.starts_with("-W") || A == "-w") {
      O.Front.push_back(A.str());
    } else if (A.starts_with("-l") || A.starts_with("-L")) {
      std::string Flag = A.take_front(2).str();
      if (!Value(Flag, V))
        return Missing(Flag);
      O.Link.push_back({-1, Flag + V});
    } else if (A == "-Xlinker") {
      if (I + 1 >= Argv.size())
        return Missing(A);
      O.Link.push_back({-1, "-Xlinker"});
      O.Link.push_back({-1, Argv[++I]});
    } else if (const SeparateOption *SO = llvm::find_if(
                   SeparateOptions, [&](const SeparateOption &X) { return A == X.Name; });
               SO != std::end(SeparateOptions)) {
      if (I + 1 >= Argv.size())
        return Missing(A);
      std::string Val = Argv[++I];
      switch (SO->To) {
      case ValueTo::Link:
        O.Link.push_back({-1, A.str()});
        O.Link.push_back({-1, Val});
        break;
      case ValueTo::BackCompile:
        O.BackCompile.insert(O.BackCompile.end(), {A.str(), Val});
        break;
      case ValueTo::BackAndLink:
        O.BackAndLink.insert(O.BackAndLink.end(), {A.str(), Val});
        break;
      case ValueTo::FrontAndBack:
        O.Front.insert(O.Front.end(), {A.str(), Val});
        O.BackCompile.insert(O.BackCompile.end(), {A.str(), Val});
        break;
      }
    } else if (A == "--sysroot" || A.starts_with("--sysroot=")) {
      // Where both compilers find the headers (and the back end the
      // libraries): the front end must read the same ones.
      if (!ValueEq("--sysroot", V))
        return Missing("--sysroot");
      O.Front.push_back("--sysroot=" + V);
      O.BackAndLink.push_back("--sysroot=" + V);
    } else if (A == "-undef") {
      O.Front.push_back(A.str());
      O.BackCompile.push_back(A.str());
    } else if (A == "-shared" || A == "-static" || A == "-rdynamic" || A == "-nostdlib" ||
               A == "-nodefaultlibs" || A == "-nostartfiles" || A == "-pie" || A == "-no-pie" ||
               A == "-s") {
      O.Link.push_back({-1, A.str()});
    } else if (A == "-Ofast") {
      // Clang 19 warns that -Ofast is deprecated; the back end (gcc) takes
      // it without a word.  The front end gets -O3, and the fast-math
      // macros from the back end, as for -ffast-math (optionMacros).
      O.Front.push_back("-O3");
      O.BackAndLink.push_back(A.str());
    } else if (A.starts_with("-O") || A == "-pthread") {
      O.Front.push_back(A.str());
      O.BackAndLink.push_back(A.str());
    } else if (A.starts_with("-g")) {
      O.BackAndLink.push_back(A.str());
    } else if (A.starts_with("-f")) {
      if (A == "-fopenmp" || A.starts_with("-fopenmp="))
        O.OpenMP = true;
      else if (A == "-fno-openmp")
        O.OpenMP = false;
      else if (A == "-fopenmp-simd")
        O.OpenMPSimd = true;
      else if (A == "-fno-openmp-simd")
        O.OpenMPSimd = false;
      else if (A == "-fopenacc")
        O.OpenACC = true;
      else if (A == "-fno-openacc")
        O.OpenACC = false;
      else if (A == "-frounding-math" || A == "-ffp-model=strict")
        O.FenvAccess = true;
      else if (A == "-fno-rounding-math" || A.starts_with("-ffp-model="))
        O.FenvAccess = false;
      StringRef Kinds = A;
      bool On = Kinds.consume_front("-fsanitize=");
      if (On || Kinds.consume_front("-fno-sanitize=")) {
        SmallVector<StringRef, 4> List;
        Kinds.split(List, ',');
        for (StringRef K : List) {
          // MemorySanitizer needs every instruction that writes memory
          // instrumented, libparc's context switches included: it reported
          // uninitialised values inside parcc's code.
          if (On && K == "memory")
            return fail("'-fsanitize=memory' is not supported: the runtime is not built "
                        "for it (use -fsanitize=address, thread or undefined)");
          if (On)
            O.Sanitizers.insert(K.str());
          else
            O.Sanitizers.erase(K.str());
        }
      }
      if (frontEndF(A)) {
        O.Front.push_back(A.str());
        O.BackCompile.push_back(A.str());
      } else if (diagF(A)) {
        O.Front.push_back(A.str());
      } else {
        O.BackAndLink.push_back(A.str());
      }
    } else if (A == "-m32" || A == "-mx32" || A == "-m16") {
      // The back end would make 32-bit code and then fail to link it with
      // the 64-bit libparc (or, without multilib, fail on <stdio.h>, which
      // read as parcc's fault).
      return fail("'" + A + "' is not supported: the runtime (libparc) is built for 64-bit "
                  "code only, and switches the stacks of activities with 64-bit code");
    } else {
      // Unknown to parcc: the back end decides (and fails if it must).
      O.BackAndLink.push_back(A.str());
    }
  }
  // AddressSanitizer sees an activity's locals in a sync frame (parc_abi.h,
  // "Stackless sync") only as part of one allocation, the frames packed
  // without redzones: a write past a local array was not reported, or went
  // into the next activity's locals.  On their stacks it sees them.
  if (O.Sanitizers.count("address") && !O.StacklessSyncGiven)
    O.StacklessSync = false;
  return std::nullopt;
}

struct Paths {
  std::string RuntimeInclude, RuntimeLib;
};

Paths findRuntime(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(Argv0, (void *)&findRuntime);
  SmallString<256> Dir(sys::path::parent_path(Exe));
  auto Under = [&](StringRef Rel) {
    SmallString<256> P(Rel);
    if (!sys::path::is_absolute(Rel)) {
      P = Dir;
      sys::path::append(P, Rel);
    }
    return P;
  };
  SmallString<256> Inc = Under(PARCC_INSTALL_REL_INCLUDE_DIR);
  SmallString<256> Lib = Under(PARCC_INSTALL_REL_LIB_DIR);
  SmallString<256> Abi(Inc);
  sys::path::append(Abi, "parc_abi.h");
  if (!Dir.empty() && sys::fs::exists(Abi)) {
    sys::path::remove_dots(Inc, true);
    sys::path::remove_dots(Lib, true);
    return {std::string(Inc), std::string(Lib)};
  }
  return {PARCC_BUILD_RUNTIME_INCLUDE_DIR, PARCC_BUILD_RUNTIME_LIB_DIR};
}

class Runner {
public:
  Runner(const Options &O) : O(O) {}

  /// Resolves the back-end compiler.  False (reported, unless Quiet) if
  /// it is not found.
  bool init(bool Quiet = false) {
    if (!Program.empty())
      return true;
    CCArgs.clear();
    auto fail = [Quiet](const Twine &Msg) { return Quiet ? 1 : parcc::fail(Msg); };
    std::string CC = O.CC;
    if (CC.empty())
      if (std::optional<std::string> E = sys::Process::GetEnv("PARCC_CC"))
        CC = *E;
    if (CC.empty())
      CC = "cc";
    Given = CC;
    // A compiler and its options, split as a shell would split them
    // ("ccache gcc", "'/opt/my cc/bin/gcc' -m32"); a path to a program
    // that has spaces in it is that program ("/opt/my cc/bin/gcc").
    SmallVector<StringRef, 4> Words;
    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    if (StringRef(CC).contains('/') && sys::fs::can_execute(CC) && !sys::fs::is_directory(CC)) {
      Words.push_back(CC);
    } else {
      // TokenizeGNUCommandLine takes an unmatched quote to the end of the
      // text: `PARCC_CC="gcc '-O2"` ran gcc with -O2.  A shell refuses it.
      char Quote = 0;
      for (size_t I = 0; I < CC.size(); ++I) {
        char Ch = CC[I];
        if (Quote == '\'' ? Ch == '\'' : Quote == '"' ? Ch == '"' : Ch == '\'' || Ch == '"')
          Quote = Quote ? 0 : Ch;
        else if (Ch == '\\' && Quote != '\'' && I + 1 < CC.size())
          ++I;
      }
      if (Quote) {
        fail(std::string("the back-end C compiler '") + CC + "' (" +
             (O.CC.empty() ? "PARCC_CC" : "--cc=") + ") has an unmatched " +
             (Quote == '"' ? "double" : "single") + " quote");
        return false;
      }
      SmallVector<const char *, 4> Split;
      cl::TokenizeGNUCommandLine(CC, Saver, Split);
      for (const char *W : Split)
        Words.push_back(W);
    }
    if (Words.empty()) {
      fail("no back-end C compiler given");
      return false;
    }
    for (size_t I = 1; I < Words.size(); ++I)
      CCArgs.push_back(Words[I].str());
    if (Words[0].contains('/')) {
      Program = Words[0].str();
      if (!sys::fs::can_execute(Program)) {
        fail("cannot execute the back-end C compiler '" + Program + "'");
        return false;
      }
    } else {
      ErrorOr<std::string> P = sys::findProgramByName(Words[0]);
      if (!P) {
        fail("cannot find the back-end C compiler '" + Words[0] + "'");
        return false;
      }
      Program = *P;
    }
    return true;
  }

  /// Runs the back end with Args.  With -v, the back end gets -v too
  /// (unless Own: the command is already a question of its own), and shows
  /// its own stages (cc1, as, collect2), as `cc -v` shows all of them;
  /// CMake learns the libraries a link needs (libparc, pthreads) from
  /// that, for targets of other languages that link parcc's objects.
  /// With Out and Err, its standard output and error go to those files.
  bool run(std::vector<std::string> Args, bool Own = false, StringRef Out = {},
           StringRef Err = {}) {
    sys::ProcessInfo PI = start(std::move(Args), Own, Out, Err);
    return PI.Pid != sys::ProcessInfo::InvalidPid && wait(PI);
  }
  /// run() in two halves, so that two runs can overlap: start() (an
  /// invalid Pid after a failure, reported) and wait().
  /// CC: the back end's own words (PARCC_CC's options) to use instead of
  /// its own.
  sys::ProcessInfo start(std::vector<std::string> Args, bool Own = false, StringRef Out = {},
                         StringRef Err = {}, const std::vector<std::string> *CC = nullptr) {
    Failed = false;
    if (O.Verbose && !Own)
      Args.push_back("-v");
    const std::vector<std::string> &Words = CC ? *CC : CCArgs;
    Args.insert(Args.begin(), Words.begin(), Words.end());
    Args.insert(Args.begin(), Program);
    if (O.Verbose) {
      for (size_t I = 0; I < Args.size(); ++I)
        errs() << (I ? " " : "") << Args[I];
      errs() << "\n";
    }
    std::vector<StringRef> Refs(Args.begin(), Args.end());
    std::optional<StringRef> Redirects[] = {std::nullopt, std::nullopt, std::nullopt};
    if (!Out.empty())
      Redirects[1] = Out;
    if (!Err.empty())
      Redirects[2] = Err;
    std::string Msg;
    bool ExecFailed = false;
    sys::ProcessInfo PI =
        sys::ExecuteNoWait(Program, Refs, std::nullopt, Redirects, 0, &Msg, &ExecFailed);
    if (ExecFailed || PI.Pid == sys::ProcessInfo::InvalidPid) {
      fail("cannot run '" + Program + "': " + Msg);
      PI.Pid = sys::ProcessInfo::InvalidPid;
    }
    return PI;
  }
  bool wait(sys::ProcessInfo PI) {
    std::string Msg;
    BackEndPid.store(PI.Pid); // for onInterrupt
    sys::ProcessInfo Done = sys::Wait(PI, std::nullopt, &Msg);
    BackEndPid.store(0);
    if (Done.ReturnCode < 0) {
      fail("'" + Program + "' " + (Msg.empty() ? "failed" : "ended: " + Msg));
      return false;
    }
    Failed = Done.ReturnCode != 0;
    return !Failed;
  }

  /// The back end as the user named it: "cc", "clang-19", PARCC_CC's words.
  const std::string &given() const { return Given; }
  /// The options among PARCC_CC's words (after init()).
  const std::vector<std::string> &ccArgs() const { return CCArgs; }
  /// Whether the last run() ran the back end and it reported failure (its
  /// messages are out), rather than not running or ending on a signal.
  bool failed() const { return Failed; }

private:
  const Options &O;
  std::string Program, Given;
  std::vector<std::string> CCArgs;
  bool Failed = false;
};

/// The back end's messages without gcc's notes about parcc's own
/// -Wno-... (backEndQuietFlags) that it does not know ("cc1: note:
/// unrecognized command-line option '-Wno-return-mismatch' may have been
/// intended to silence earlier diagnostics"), which gcc adds to every
/// error, and the "At top level:" line that introduces them.
std::string withoutQuietFlagNotes(StringRef Said) {
  SmallVector<StringRef, 16> Lines;
  Said.split(Lines, '\n');
  auto Quiet = [](StringRef L) {
    if (!L.contains("note: unrecognized command-line option"))
      return false;
    for (const char *F : backEndQuietFlags())
      if (StringRef(F) != "-w" && L.contains(F))
        return true;
    return false;
  };
  std::string Out;
  for (size_t I = 0; I < Lines.size(); ++I) {
    if (Quiet(Lines[I]))
      continue;
    if (Lines[I].ends_with("At top level:") && I + 1 < Lines.size() && Quiet(Lines[I + 1]))
      continue;
    Out += Lines[I].str();
    if (I + 1 < Lines.size())
      Out += "\n";
  }
  return Out;
}

/// The back end's messages with each one that repeats an earlier one left
/// out: parcc writes a brief parfor's body twice (a loop for full blocks,
/// one for the rest), and an error in it came twice, with twice the count
/// in Clang's "N errors generated.".  A message is its FILE:LINE:COL line
/// and what follows up to the next one (its source line, caret, notes).
std::string withoutRepeats(StringRef Said) {
  SmallVector<StringRef, 32> Lines;
  Said.split(Lines, '\n');
  auto Starts = [](StringRef L) {
    // FILE:LINE:COL: error: / warning: (a note belongs to the one before)
    size_t E = L.find(": error: "), W = L.find(": warning: ");
    size_t At = std::min(E, W);
    if (At == StringRef::npos)
      return false;
    StringRef Loc = L.take_front(At);
    StringRef Col = Loc.rsplit(':').second, Line = Loc.rsplit(':').first.rsplit(':').second;
    unsigned N;
    return !Col.getAsInteger(10, N) && !Line.getAsInteger(10, N);
  };
  // Where a message ends: the next one, Clang's count, gcc's "In function".
  auto Boundary = [&](StringRef L) {
    return Starts(L) || L.ends_with(" generated.") || L.contains(": In function");
  };
  std::set<std::string> Seen;
  std::string Out, Group;
  bool Keep = true;
  unsigned Dropped = 0, Errors = 0;
  auto Flush = [&] {
    if (Keep)
      Out += Group;
    Group.clear();
  };
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I];
    bool Summary = L.ends_with(" generated.");
    if (Boundary(L)) {
      Flush();
      Keep = true;
    }
    if (Starts(L)) {
      // The whole message decides: the same line with other notes stays.
      std::string Whole = L.str();
      for (size_t J = I + 1; J < Lines.size() && !Boundary(Lines[J]); ++J)
        Whole += "\n" + Lines[J].str();
      Keep = Seen.insert(StringRef(Whole).rtrim().str()).second;
      bool Error = L.contains(": error: ");
      Errors += Keep && Error;
      Dropped += !Keep && Error;
    }
    if (Summary && Dropped && L.ends_with(" errors generated.") && L.front() >= '0' &&
        L.front() <= '9' && !L.contains("warning")) {
      Group += std::to_string(Errors) + (Errors == 1 ? " error generated." : " errors generated.");
    } else {
      Group += L.str();
    }
    if (I + 1 < Lines.size())
      Group += "\n";
  }
  Flush();
  return Out;
}

std::string stemOf(StringRef Path) { return sys::path::stem(Path).str(); }

/// The name of input Path in messages and in the objects made from it:
/// standard input is "<stdin>", as cc calls it.
std::string displayName(StringRef Path) {
  return Path == "-" ? "<stdin>" : sys::path::filename(Path).str();
}

std::string replaceExt(StringRef Path, StringRef Ext) {
  SmallString<256> P(Path);
  sys::path::replace_extension(P, Ext);
  return std::string(P);
}

bool writeFile(const std::string &Path, StringRef Text) {
  if (Path == "-") {
    outs() << Text;
    outs().flush();
    return true;
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC) {
    fail("cannot write '" + Path + "': " + EC.message());
    return false;
  }
  OS << Text;
  return true;
}

class Job {
public:
  Job(Options &O, const Paths &P) : O(O), P(P), R(O) {}
  int run(const char *Argv0);

private:
  int answerQueries();
  int describe();
  bool namesFilesByObject() const;
  bool countsProfile() const;
  bool coverageMapping() const;
  void warnCoverageMapping() const;
  std::string objectBesideProgram(const Input &In);
  FrontendOptions frontFor(const Input &In, const std::string &Obj, std::string &DepAppend);
  bool translate(const Input &In, const std::string &Obj, bool SyntaxOnly, std::string &C);
  bool preprocess(const Input &In);
  bool finishDeps(const FrontendOptions &F, const std::string &DepAppend);
  bool lower(const Input &In, const std::string &Obj, std::string &CFile, bool &Temp);
  bool compileEmitted(const Input &In, const std::string &CFile, bool Temp,
                      const std::string &Out, bool Asm);
  std::vector<std::string> emittedFlags(const Input &In) const;
  const std::vector<std::string> &optionMacros();
  BackEndQuestions questions(const Input &In);
  bool probe(const Input &In, const std::string &Text, std::set<unsigned> &ErrorLines);
  std::string backEndName(const Input &In);
  bool knowsEmbedDir(const Input &In);
  std::string wayOut(const Input &In);
  bool compileOther(const Input &In, const std::string &Out, bool Asm);
  bool checkWarningOptions();
  bool preprocessOther(const Input &In);
  void appendOther(std::vector<std::string> &A, const Input &In) const;
  size_t indexOf(const Input &In) const { return &In - O.Inputs.data(); }
  std::string tempDir(size_t Index);
  std::string tempFile(size_t Index, StringRef Name);
  std::string keyedDir(const Input &In, StringRef C);
  std::string addTemp(const std::string &Dir, StringRef Name);
  void removeTemps();

  Options &O;
  const Paths &P;
  Runner R;
  std::string TempRoot;              // this run's private directory
  std::vector<std::string> Temps;    // files in it
  std::vector<std::string> TempDirs; // its subdirectories, then itself
  std::set<std::string> DepsWritten; // dependency files this run wrote
  std::optional<std::string> Identity; // the back end's, as backEndName found it
  std::set<size_t> Embeds; // the inputs that #embed or ask __has_embed
  std::optional<std::vector<std::string>> OptMacros; // optionMacros
};

/// Where temporary directories go, as gcc chooses: the first of $TMPDIR,
/// $TMP, $TEMP, /tmp, /var/tmp, /usr/tmp and the current directory that is
/// a directory parcc may write in (a TMPDIR that names no directory is
/// passed over, not an error).
std::string tempBase() {
  std::vector<std::string> Candidates;
  for (const char *Var : {"TMPDIR", "TMP", "TEMP"})
    if (std::optional<std::string> V = sys::Process::GetEnv(Var); V && !V->empty())
      Candidates.push_back(*V);
  for (const char *Dir : {"/tmp", "/var/tmp", "/usr/tmp"})
    Candidates.push_back(Dir);
  for (const std::string &C : Candidates)
    if (sys::fs::is_directory(C) && access(C.c_str(), W_OK | X_OK) == 0)
      return C;
  return ".";
}

/// The directory for input Index's temporary files: one per input inside
/// a private directory of this run, so that the files can carry the
/// user's own names.  The back end then names the user's file, not a
/// random one, in the object (its STT_FILE symbol, with -g its debug
/// information) and in the linker's messages, and compiling the same
/// source twice gives the same object.
std::string Job::tempDir(size_t Index) {
  if (TempRoot.empty()) {
    SmallString<256> Model;
    Model = tempBase();
    sys::path::append(Model, "parcc");
    SmallString<256> Dir;
    if (std::error_code EC = sys::fs::createUniqueDirectory(Model, Dir)) {
      fail("cannot create a temporary directory: " + EC.message());
      return "";
    }
    TempRoot = std::string(Dir);
    TempDirs.push_back(TempRoot);
    addTempDir(TempRoot);
  }
  SmallString<256> Sub(TempRoot);
  sys::path::append(Sub, std::to_string(Index));
  if (!sys::fs::is_directory(Sub)) {
    if (std::error_code EC = sys::fs::create_directory(Sub)) {
      fail("cannot create a temporary directory: " + EC.message());
      return "";
    }
    TempDirs.insert(TempDirs.end() - 1, std::string(Sub));
    addTempDir(std::string(Sub));
  }
  return std::string(Sub);
}

/// The directory for the lowered C of input In (and, when linking, its
/// object): one whose name depends on that C, the input's path and the
/// back end's options only, so
/// that compiling the same source again gives the back end the same
/// command line and the same file name.  A compiler cache in PARCC_CC
/// ("ccache gcc") hashes both (the input's path, and the line markers of
/// the preprocessed text, which name it) and would otherwise never hit.
/// The directory is created afresh and is this run's alone (mode 0700):
/// if it exists (the same source compiled at the same time by another
/// parcc, or a directory left by one killed with SIGKILL), this run takes
/// a private directory as for any other temporary file.
std::string Job::keyedDir(const Input &In, StringRef C) {
  SmallString<256> Abs(In.Path);
  sys::fs::make_absolute(Abs);
  MD5 Hash;
  Hash.update(Abs);
  Hash.update(ArrayRef<uint8_t>{0});
  Hash.update(C);
  // And the back end's options: compiles of one source with other options
  // at the same time (a static and a shared library's objects, -fPIC)
  // do not compete for one directory.
  for (const auto *List : {&O.BackCompile, &O.BackAndLink})
    for (const std::string &A : *List) {
      Hash.update(ArrayRef<uint8_t>{0});
      Hash.update(A);
    }
  Hash.update(ArrayRef<uint8_t>{uint8_t(O.M)});
  MD5::MD5Result Sum;
  Hash.final(Sum);
  SmallString<256> Dir;
  Dir = tempBase();
  sys::path::append(Dir, "parcc-" + std::to_string(getuid()) + "-" +
                             Sum.digest().str().substr(0, 16));
  std::string D(Dir);
  if (!sys::fs::create_directory(D, /*IgnoreExisting=*/false, sys::fs::perms::owner_all)) {
    TempDirs.insert(TempDirs.begin(), D);
    addTempDir(D);
    return D;
  }
  return tempDir(indexOf(In));
}

std::string Job::addTemp(const std::string &Dir, StringRef Name) {
  SmallString<256> Path(Dir);
  sys::path::append(Path, Name);
  std::string P(Path);
  // Interrupted (SIGINT, SIGTERM, ...), parcc leaves no temporary file.
  sys::RemoveFileOnSignal(P);
  Temps.push_back(P);
  return P;
}

std::string Job::tempFile(size_t Index, StringRef Name) {
  std::string Dir = tempDir(Index);
  if (Dir.empty())
    return "";
  return addTemp(Dir, Name);
}

void Job::removeTemps() {
  for (const std::string &T : Temps) {
    sys::fs::remove(T);
    sys::DontRemoveFileOnSignal(T);
  }
  // Recursively: what the back end wrote beside a temporary file (a
  // .dwo, a .gcno) is gone too.  Every one of them is this run's own.
  for (const std::string &D : TempDirs)
    sys::fs::remove_directories(D);
  for (DirNode *D = TempDirList.exchange(nullptr); D;) {
    DirNode *Next = D->Next;
    delete D;
    D = Next;
  }
}

FrontendOptions Job::frontFor(const Input &In, const std::string &Obj, std::string &DepAppend) {
  FrontendOptions F;
  F.ClangArgs = optionMacros();
  F.ClangArgs.insert(F.ClangArgs.end(), O.Front.begin(), O.Front.end());
  F.RuntimeIncludeDir = P.RuntimeInclude;
  F.ResourceDir = PARCC_CLANG_RESOURCE_DIR;
  F.ClangPath = PARCC_CLANG_PATH;
  F.Lower.Polls = O.Polls;
  F.Lower.StacklessSync = O.StacklessSync;
  F.Lower.OpenMP = O.OpenMP;
  F.Lower.OpenMPSimd = O.OpenMPSimd;
  F.Lower.FenvAccess = O.FenvAccess;
  F.Lower.OpenACC = O.OpenACC;
  F.PreprocessFlags = O.PreprocessFlags;
  if (O.M == Mode::Link || O.M == Mode::Compile || O.M == Mode::Assemble)
    F.BackEnd = questions(In);
  DepAppend.clear();
  if (O.MD || O.MMD) {
    // As cc: the target is the output (the program when linking), and the
    // file is that output's name with .d; without -o, NAME.o and NAME.d.
    bool Linking = O.M == Mode::Link;
    std::string Target = Linking && !O.Output.empty() ? O.Output
                         : Obj.empty()                ? stemOf(In.Path) + ".o"
                                                      : Obj;
    std::string DepFile = !O.MF.empty()       ? O.MF
                          : O.M == Mode::Deps ? (O.Output.empty() ? "-" : O.Output)
                          : !O.Output.empty() ? replaceExt(O.Output, ".d")
                                              : stemOf(In.Path) + ".d";
    F.DepTargets = O.MT.empty() ? std::vector<std::string>{quoteTarget(Target)} : O.MT;
    F.DepSystemHeaders = O.MD;
    F.DepPhony = O.MP;
    // Several inputs of one command with one dependency file (-MF, or a
    // program linked from several sources): the file gets the rules of
    // them all, where cc keeps the last input's only.
    if (DepFile != "-" && !DepsWritten.insert(DepFile).second) {
      F.DepFile = tempFile(indexOf(In), stemOf(In.Path) + ".d");
      DepAppend = DepFile;
    } else {
      F.DepFile = DepFile;
    }
  }
  return F;
}

/// Appends the rules that F's temporary dependency file holds to
/// DepAppend, the file that an earlier input of this command wrote.
bool Job::finishDeps(const FrontendOptions &F, const std::string &DepAppend) {
  if (DepAppend.empty() || F.DepFile.empty())
    return true;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Rules = MemoryBuffer::getFile(F.DepFile);
  if (!Rules)
    return true; // the front end stopped before writing it
  std::error_code EC;
  raw_fd_ostream OS(DepAppend, EC, sys::fs::OF_Text | sys::fs::OF_Append);
  if (EC) {
    fail("cannot write '" + DepAppend + "': " + EC.message());
    return false;
  }
  OS << (*Rules)->getBuffer();
  return true;
}

bool Job::translate(const Input &In, const std::string &Obj, bool SyntaxOnly, std::string &C) {
  std::string DepAppend;
  FrontendOptions F = frontFor(In, Obj, DepAppend);
  if (!DepAppend.empty() && F.DepFile.empty())
    return false; // no temporary file (reported)
  bool Ok = translateFile(In.Path, F, SyntaxOnly, C);
  return finishDeps(F, DepAppend) && Ok;
}

bool Job::preprocess(const Input &In) {
  std::string DepAppend;
  FrontendOptions F = frontFor(In, "", DepAppend);
  // -M and -MM: the dependencies only, the preprocessed text goes nowhere.
  std::string Out = O.M == Mode::Deps ? "/dev/null" : O.Output.empty() ? "-" : O.Output;
  bool Ok = preprocessFile(In.Path, F, Out, /*AsCompiled=*/O.M == Mode::Deps);
  return finishDeps(F, DepAppend) && Ok;
}

/// Front end: In -> C file (kept with -save-temps, else temporary).
bool Job::lower(const Input &In, const std::string &Obj, std::string &CFile, bool &Temp) {
  std::string C;
  if (!translate(In, Obj, false, C))
    return false;
  if (O.SaveTemps) {
    // -save-temps=obj: next to the object, or to the program when linking
    // (as cc puts them next to its -o output).
    StringRef Next = !Obj.empty() ? StringRef(Obj) : StringRef(O.Output);
    std::string Dir = O.SaveTempsObj ? sys::path::parent_path(Next).str() : "";
    SmallString<256> Path(Dir);
    sys::path::append(Path, stemOf(In.Path) + ".parc.c");
    CFile = std::string(Path);
    Temp = false;
  } else {
    // The user's file name (compiled with -x c): see tempDir and keyedDir.
    std::string Dir = keyedDir(In, C);
    if (Dir.empty())
      return false;
    CFile = addTemp(Dir, displayName(In.Path));
    Temp = true;
  }
  return writeFile(CFile, C);
}

/// The back end's options for the lowered C of In (and for the examples
/// that BackEndFeatures has it compile).
std::vector<std::string> Job::emittedFlags(const Input &In) const {
  std::vector<std::string> A;
  ArrayRef<const char *> Quiet = backEndQuietFlags();
  A.insert(A.end(), Quiet.begin(), Quiet.end());
#if defined(__x86_64__) || defined(__aarch64__)
  // An activity's stack is an envelope with one guard page below it, and the
  // envelopes of a batch lie next to each other: a frame larger than a page
  // (a local array) would step over the guard into a neighbour's stack and
  // context.  Probing every page of a large frame hits the guard first, so
  // the overflow is reported (context.c) instead.  Before the user's flags,
  // so -fno-stack-clash-protection still turns it off.
  A.push_back("-fstack-clash-protection");
#endif
  // Every PARC program is multithreaded: counters of coverage or profiling
  // that activities bump on several processors at once lost counts (a
  // fib's line read 2,616 calls of 3,193 at P = 2).  gcc makes them atomic
  // under -pthread; clang only when asked.  Before the user's flags, so a
  // -fprofile-update of theirs wins.
  if (countsProfile())
    A.push_back("-fprofile-update=atomic");
  A.push_back("-I" + P.RuntimeInclude);
  A.insert(A.end(), O.BackCompile.begin(), O.BackCompile.end());
  A.insert(A.end(), O.BackAndLink.begin(), O.BackAndLink.end());
  StringRef Parent = sys::path::parent_path(In.Path);
  SmallString<256> SrcDir(Parent);
  if (SrcDir.empty())
    SrcDir = ".";
  A.push_back("-iquote");
  A.push_back(std::string(SrcDir));
  return A;
}

/// The macros that options only the back end gets define: -march=native
/// and -mavx2 (__AVX2__), -fopenmp (_OPENMP), -ffast-math (__FAST_MATH__),
/// -fsanitize=address (__SANITIZE_ADDRESS__), -fPIC (no __PIE__).  The
/// front end decides the conditionals around constructs and the back end
/// the others, so both must see them: a tester's parblock under `#ifdef
/// __AVX2__` took the generic branch while the rest of the file took the
/// AVX2 one, and `#ifndef _OPENMP` `#error` stopped `parcc -fopenmp`
/// (CMake's FindOpenMP).  The back end tells them: its `-dM -E` of an
/// empty file with and without those options (two runs, only when a -m or
/// -f option goes to it).  The front end gets the difference as -U and -D
/// options, ahead of the user's.  Options that change the target (-m32)
/// are left out: the front end parses for the host's.  Nothing when the
/// back end cannot be run or refuses an option (its compile says why).
const std::vector<std::string> &Job::optionMacros() {
  if (OptMacros)
    return *OptMacros;
  OptMacros.emplace();
  // The options that may define macros: -f and -m, but not those that
  // change the target.
  auto Defining = [](StringRef F) {
    return (F.starts_with("-f") || F.starts_with("-m")) &&
           !(F == "-m32" || F == "-m64" || F == "-mx32" || F == "-m16" || F == "-miamcu");
  };
  std::vector<std::string> Base, With;
  for (const std::string &A : O.BackCompile)
    if (StringRef(A).starts_with("-std=") || A == "-ansi")
      Base.push_back(A);
  for (const std::string &A : O.BackAndLink) {
    StringRef F = A;
    if (F == "-Ofast") {
      // -O3 and gcc's fast-math macros (__RECIPROCAL_MATH__, ...), which
      // Clang's -ffast-math, the front end's -Ofast, does not all define.
      Base.push_back("-O3");
      With.push_back(A);
    } else if (F.starts_with("-O")) {
      Base.push_back(A);
    } else if (Defining(F)) {
      With.push_back(A);
    }
  }
  // PARCC_CC="gcc -mavx2": its options too, which the base run leaves out.
  if (!R.init(/*Quiet=*/true))
    return *OptMacros;
  std::vector<std::string> BaseCC;
  for (const std::string &A : R.ccArgs())
    if (!Defining(A))
      BaseCC.push_back(A);
  if (With.empty() && BaseCC.size() == R.ccArgs().size())
    return *OptMacros;
  std::string File = tempFile(0, "parcc-macros.c");
  std::string Out[2] = {tempFile(0, "parcc-macros-base.h"), tempFile(0, "parcc-macros.h")};
  if (File.empty() || Out[0].empty() || Out[1].empty() || !writeFile(File, ""))
    return *OptMacros;
  // The two runs overlap (each is about 30 ms of gcc's).
  sys::ProcessInfo Run[2];
  bool Ran[2];
  for (int K = 0; K < 2; ++K) {
    std::vector<std::string> A = {"-dM", "-E", "-x", "c", File};
    A.insert(A.end(), Base.begin(), Base.end());
    if (K)
      A.insert(A.end(), With.begin(), With.end());
    Run[K] = R.start(A, /*Own=*/true, Out[K], "/dev/null", K ? nullptr : &BaseCC);
  }
  for (int K = 0; K < 2; ++K)
    Ran[K] = Run[K].Pid != sys::ProcessInfo::InvalidPid && R.wait(Run[K]);
  std::map<std::string, std::string> Defs[2]; // name -> "NAME=VALUE", "F(x)=VALUE"
  for (int K = 0; K < 2; ++K) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = std::error_code();
    if (!Ran[0] || !Ran[1] || !(Buf = MemoryBuffer::getFile(Out[K])))
      return *OptMacros;
    SmallVector<StringRef, 256> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    for (StringRef L : Lines) {
      if (!L.consume_front("#define "))
        continue;
      StringRef Name = L.take_until([](char C) { return C == ' ' || C == '('; });
      StringRef Rest = L.drop_front(Name.size()), Params;
      if (Rest.starts_with("(")) {
        Params = Rest.take_front(Rest.find(')') + 1);
        Rest = Rest.drop_front(Params.size());
      }
      Defs[K][Name.str()] = (Name + Params + "=" + Rest.ltrim()).str();
    }
  }
  // Clang's omp.h declares functions twice where _OPENMP is 201811 or
  // more (OpenMP 5.0's `begin declare variant`, which the front end, not
  // honouring OpenMP, does not read): the front end gets 201511, gcc 12's.
  if (auto It = Defs[1].find("_OPENMP"); It != Defs[1].end()) {
    unsigned long long V = 0;
    if (!StringRef(It->second).split('=').second.getAsInteger(10, V) && V >= 201811)
      It->second = "_OPENMP=201511";
  }
  for (const auto &[Name, Def] : Defs[1]) {
    if (auto It = Defs[0].find(Name); It != Defs[0].end() && It->second == Def)
      continue;
    if (Name == "__FLT_EVAL_METHOD__") {
      // A builtin macro to Clang, which warns when it is redefined: set by
      // the option that it stands for (-mfpmath=387 makes it 2).
      StringRef V = StringRef(Def).split('=').second.trim();
      if (V == "0" || V == "1" || V == "2")
        OptMacros->push_back(std::string("-ffp-eval-method=") +
                             (V == "0" ? "source" : V == "1" ? "double" : "extended"));
      continue;
    }
    OptMacros->insert(OptMacros->end(), {"-U" + Name, "-D" + Def});
  }
  for (const auto &[Name, Def] : Defs[0])
    if (!Defs[1].count(Name))
      OptMacros->push_back("-U" + Name);
  return *OptMacros;
}

/// -W options that neither Clang nor the back end knows: a typo (-Wal)
/// went by without a word, where gcc stops ("unrecognized command-line
/// option") and clang warns.  Clang judges first, with its suggestion
/// ("did you mean '-Wall'?"); what it does not know goes to the back end,
/// which takes gcc's own options (-Wlogical-op: reference.md, warnings
/// only a back end computes) without a word.  A warning, as clang gives
/// it, or an error under -Werror; false after an error.
bool Job::checkWarningOptions() {
  std::vector<UnknownWarningOption> Unknown = unknownWarningOptions(O.Front);
  if (Unknown.empty())
    return true;
  std::string File = tempFile(0, "parcc-option.c");
  std::string Err = tempFile(0, "parcc-option.err");
  if (File.empty() || Err.empty() || !writeFile(File, ""))
    return false;
  bool Ok = true;
  for (const UnknownWarningOption &U : Unknown) {
    // Known: the back end takes it without a message (clang as the back
    // end warns about an unknown one and succeeds).
    uint64_t Size = 1;
    if (!U.Own && R.run({"-fsyntax-only", U.Flag, "-x", "c", File}, /*Own=*/true, {}, Err) &&
        !sys::fs::file_size(Err, Size) && Size == 0)
      continue;
    errs() << "parcc: " << (U.Error ? "error: " : "warning: ") << U.Message
           << " [-Wunknown-warning-option]\n";
    Ok &= !U.Error;
  }
  return Ok;
}

BackEndQuestions Job::questions(const Input &In) {
  BackEndQuestions Q;
  Q.Compile = [this, &In](const std::string &Text, std::set<unsigned> &ErrorLines) {
    return probe(In, Text, ErrorLines);
  };
  Q.Name = [this, &In] { return backEndName(In); };
  Q.Embeds = [this, &In] { Embeds.insert(indexOf(In)); };
  Q.WayOut = [this, &In] { return wayOut(In); };
  return Q;
}

/// Has the back end check Text (BackEndFeatures::check): the lines of Text
/// its errors are on, or false if it gave none that parcc can place.
bool Job::probe(const Input &In, const std::string &Text, std::set<unsigned> &ErrorLines) {
  std::string File = tempFile(indexOf(In), "parcc-features.c");
  std::string Err = tempFile(indexOf(In), "parcc-features.err");
  if (File.empty() || Err.empty() || !writeFile(File, Text))
    return false;
  std::vector<std::string> A = {"-fsyntax-only"};
  std::vector<std::string> Flags = emittedFlags(In);
  A.insert(A.end(), Flags.begin(), Flags.end());
  A.insert(A.end(), {"-x", "c", File});
  if (R.run(A, /*Own=*/true, {}, Err))
    return true;
  if (!R.failed())
    return false;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Err);
  if (!Buf)
    return false;
  // gcc and clang alike: FILE:LINE:COLUMN: error: ... (or fatal error).
  SmallVector<StringRef, 16> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (StringRef L : Lines) {
    unsigned N;
    if (L.consume_front(File) && L.consume_front(":") && !L.consumeInteger(10, N) &&
        L.contains("error"))
      ErrorLines.insert(N);
  }
  return !ErrorLines.empty();
}

/// "the back-end C compiler 'cc' (gcc 12.2.0)": its identity from its own
/// predefined macros (one more run, on the way to an error only).
std::string Job::backEndName(const Input &In) {
  if (!Identity) {
    Identity = "";
    std::string File = tempFile(indexOf(In), "parcc-identity.c");
    std::string Out = tempFile(indexOf(In), "parcc-identity.i");
    const char *Text = "#if defined __clang__\n"
                       "clang __clang_major__.__clang_minor__.__clang_patchlevel__\n"
                       "#elif defined __GNUC__\n"
                       "gcc __GNUC__.__GNUC_MINOR__.__GNUC_PATCHLEVEL__\n"
                       "#endif\n";
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = std::error_code();
    if (!File.empty() && !Out.empty() && writeFile(File, Text) &&
        R.run({"-E", "-P", "-x", "c", File}, /*Own=*/true, Out, "/dev/null") &&
        (Buf = MemoryBuffer::getFile(Out))) {
      // "gcc 12 . 2 . 0" -> "gcc 12.2.0"
      StringRef Words = (*Buf)->getBuffer().trim();
      auto [Kind, Version] = Words.split(' ');
      std::string V;
      for (char C : Version)
        if (!isSpace(C))
          V += C;
      if (!Kind.empty() && !V.empty())
        Identity = Kind.str() + " " + V;
    }
  }
  std::string Name = "the back-end C compiler '" + R.given() + "'";
  return Identity->empty() ? Name : Name + " (" + *Identity + ")";
}

/// Does the back end take --embed-dir (Clang 19 and later, gcc 15 and
/// later)?  Asked only of a file that embeds.
bool Job::knowsEmbedDir(const Input &In) {
  backEndName(In);
  auto [Kind, Version] = StringRef(*Identity).split(' ');
  unsigned Major = 0;
  if (Version.split('.').first.getAsInteger(10, Major))
    return false;
  return (Kind == "clang" && Major >= 19) || (Kind == "gcc" && Major >= 15);
}

/// How to compile with a back end that has what this one lacks: the Clang
/// parcc's front end is (clang-19 on the PATH, else its own path), unless
/// the back end is that Clang already.
std::string Job::wayOut(const Input &In) {
  std::string Major = StringRef(PARCC_LLVM_VERSION).split('.').first.str();
  backEndName(In);
  if (StringRef(*Identity).starts_with("clang " + Major + "."))
    return "";
  std::string Clang = "clang-" + Major;
  if (!sys::findProgramByName(Clang)) {
    if (!sys::fs::can_execute(PARCC_CLANG_PATH))
      return "set PARCC_CC or pass --cc= to name a C compiler that does, such as Clang " + Major;
    Clang = PARCC_CLANG_PATH;
  }
  return "set PARCC_CC=" + Clang + " or pass --cc=" + Clang;
}

/// Is Fd a pipe or socket whose reader has gone?
static bool readerGone(int Fd) {
  struct pollfd P = {Fd, 0, 0};
  return poll(&P, 1, 0) == 1 && (P.revents & POLLERR);
}

/// Does what the back end said name a line of the user's file or of the
/// lowered C (`prog.pc:12:5: error: ...`, a `prog.pc: In function` header)?
/// Without the messages (unreadable), assume so.
static bool aboutTheC(StringRef Said, StringRef Input, StringRef CFile) {
  if (Said.empty())
    return true;
  for (StringRef Path : {Input, CFile}) {
    std::string Name = (sys::path::filename(Path) + ":").str();
    if (Said.contains(Name))
      return true;
  }
  return false;
}

bool Job::compileEmitted(const Input &In, const std::string &CFile, bool Temp,
                         const std::string &Out, bool Asm) {
  std::vector<std::string> A = {Asm ? "-S" : "-c"};
  std::vector<std::string> Flags = emittedFlags(In);
  A.insert(A.end(), Flags.begin(), Flags.end());
  StringRef Parent = sys::path::parent_path(In.Path);
  // The lowered C is a temporary file elsewhere: `#embed "data.bin"` looks
  // beside it first, as an #include does, then in the --embed-dir ones.
  // With a back end that has the option (Clang 19, gcc 15; gcc 12 would
  // refuse a file that only asks `defined(__has_embed)`).
  if (Embeds.count(indexOf(In)) && knowsEmbedDir(In))
    A.push_back("--embed-dir=" + (Parent.empty() ? std::string(".") : Parent.str()));
  if (Temp) {
    // The temporary C file stands for the user's: debug information names
    // the user's path (as cc would for In.Path), not the temporary one.
    std::string From = sys::path::parent_path(CFile).str() + "/";
    std::string To = Parent.empty() ? "" : Parent.str() + "/";
    A.push_back("-ffile-prefix-map=" + From + "=" + To);
  }
  A.push_back("-x");
  A.push_back("c");
  // -save-temps of standard input: -.parc.c, which the back end would
  // take for an option.
  A.push_back(StringRef(CFile).starts_with("-") ? "./" + CFile : CFile);
  A.push_back("-o");
  A.push_back(Out);
  // The back end's messages go through a file, so that parcc can tell
  // what they are about (below).
  std::string Dir = tempDir(0);
  if (Dir.empty())
    return false;
  std::string Err = addTemp(Dir, "back-end-errors.txt");
  // The redirection does not truncate: an earlier input's messages would
  // be shown again with this one's.
  sys::fs::remove(Err);
  bool Ok = R.run(A, false, {}, Err);
  StringRef Said;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Err);
  if (Buf) {
    Said = (*Buf)->getBuffer();
    errs() << withoutRepeats(withoutQuietFlagNotes(Said));
    errs().flush();
  }
  if (Ok)
    return true;
  // `parcc -S x.pc -o - | head -1`: the back end died writing to a pipe
  // that its reader closed, and said nothing, as cc says nothing then.
  if (Out == "-" && readerGone(1))
    return false;
  // Messages about the lowered C name the user's lines (it has #line), but
  // the text they quote is parcc's: say whose they are.  Not when the back
  // end said nothing of it: an option it does not know, an output it cannot
  // create ("Fatal error: can't create nodir/x.o") is the user's to fix.
  if (R.failed() && aboutTheC(Said, In.Path, CFile))
    fail("the back-end C compiler '" + R.given() + "' failed on the C that parcc made of '" + displayName(In.Path) +
         "' (-save-temps keeps it as " + stemOf(In.Path) + ".parc.c)");
  return false;
}

bool Job::preprocessOther(const Input &In) {
  if (!R.init())
    return false;
  std::vector<std::string> A = {"-E"};
  A.insert(A.end(), O.PreprocessFlags.begin(), O.PreprocessFlags.end());
  appendOther(A, In);
  if (!O.Output.empty()) {
    A.push_back("-o");
    A.push_back(O.Output);
  }
  return R.run(A);
}

bool Job::compileOther(const Input &In, const std::string &Out, bool Asm) {
  std::vector<std::string> A = {Asm ? "-S" : "-c"};
  appendOther(A, In);
  A.push_back("-o");
  A.push_back(Out);
  return R.run(A);
}

/// The back end's flags for an input it gets as it is (a header to preprocess,
/// an assembler source), its -x if it has one, then the input.
void Job::appendOther(std::vector<std::string> &A, const Input &In) const {
  A.insert(A.end(), O.BackCompile.begin(), O.BackCompile.end());
  A.insert(A.end(), O.BackAndLink.begin(), O.BackAndLink.end());
  if (!In.Lang.empty()) {
    A.push_back("-x");
    A.push_back(In.Lang);
  }
  A.push_back(In.Path);
}

/// The questions build systems ask a compiler (-dumpversion, -dumpmachine,
/// -print-*), answered as cc answers them, without compiling anything: by
/// the back end, which compiles the C and links the program (scripts use
/// the version to find its directories and to choose its flags), except
/// for parcc's runtime libraries.
int Job::answerQueries() {
  for (const std::string &Q : O.Queries) {
    StringRef Name = Q;
    if (Name.consume_front("-print-file-name=") && Name.starts_with("libparc")) {
      SmallString<256> Path(P.RuntimeLib);
      sys::path::append(Path, Name);
      if (sys::fs::exists(Path)) {
        outs() << Path << "\n";
        continue;
      }
    }
    outs().flush();
    if (!R.init() || !R.run({Q}, /*Own=*/true))
      return 1;
  }
  return 0;
}

/// -v alone: parcc's version and the back end's, as cc -v tells its own.
int Job::describe() {
  errs() << "parcc version " << PARCC_VERSION << " (LLVM/Clang " << PARCC_LLVM_VERSION << ")\n"
         << "Runtime: " << P.RuntimeInclude << ", " << P.RuntimeLib << "\n";
  if (!R.init())
    return 1;
  return R.run({"-v"}, /*Own=*/true) ? 0 : 1;
}

/// Whether the back end writes files named after the object: coverage or
/// profile files (gcc's --coverage, -fprofile-arcs, -ftest-coverage,
/// -fprofile-generate, and -fprofile-use, which reads them), or a .dwo
/// (-gsplit-dwarf, unless a -gno-split-dwarf follows).
bool Job::namesFilesByObject() const {
  bool SplitDwarf = false;
  for (const std::string &F : O.BackAndLink) {
    StringRef A(F);
    if (A == "--coverage" || A == "-coverage" || A == "-fprofile-arcs" ||
        A == "-ftest-coverage" || A.starts_with("-fprofile-generate") ||
        A.starts_with("-fprofile-use"))
      return true;
    if (A == "-gsplit-dwarf" || A == "-gno-split-dwarf")
      SplitDwarf = A == "-gsplit-dwarf";
  }
  return SplitDwarf;
}

/// Whether the back end counts what runs, for coverage or a profile: gcc's
/// and clang's --coverage, -fprofile-arcs and -fprofile-generate, clang's
/// -fprofile-instr-generate and -fcs-profile-generate.
bool Job::countsProfile() const {
  for (const auto *List : {&O.BackCompile, &O.BackAndLink})
    for (StringRef A : *List)
      if (A == "--coverage" || A == "-coverage" || A == "-fprofile-arcs" ||
          A.starts_with("-fprofile-generate") || A.starts_with("-fprofile-instr-generate") ||
          A.starts_with("-fcs-profile-generate"))
        return true;
  return false;
}

/// Whether clang's source-based coverage is asked for (the last of
/// -f[no-]coverage-mapping) for a file that goes through the front end.
bool Job::coverageMapping() const {
  bool On = false;
  for (const auto *List : {&O.BackCompile, &O.BackAndLink})
    for (StringRef A : *List)
      if (A == "-fcoverage-mapping" || A == "-fno-coverage-mapping")
        On = A == "-fcoverage-mapping";
  return On && llvm::any_of(O.Inputs, [](const Input &In) { return In.Parc; });
}

/// Clang maps its source-based coverage to the lines of the file it
/// compiles, and ignores #line: its counts went to the lines of the emitted
/// C, shown against the .pc file's text (tester B, s54).
void Job::warnCoverageMapping() const {
  if (llvm::is_contained(O.Front, "-w"))
    return;
  errs() << "parcc: warning: -fcoverage-mapping counts the lines of the C that parcc emits, "
            "not of your files (clang's coverage mapping does not follow #line); for counts "
            "of your lines use --coverage and gcov ('llvm-cov gcov' with clang)\n";
}

/// The object of input In when a program is linked and the back end names
/// files after it (namesFilesByObject()).  With profiling, the back end
/// names the .gcno file after the object and
/// builds the .gcda path into it, so a temporary object would leave them in
/// a temporary directory (which the program then creates again at run
/// time).  As gcc does for `gcc --coverage a.c -o prog`, the files are
/// PROG-a.gcno and PROG-a.gcda next to the program: the object is
/// PROG-a.o there, removed after the link.  The same for -gsplit-dwarf,
/// whose PROG-a.dwo the program's debug information names.
std::string Job::objectBesideProgram(const Input &In) {
  std::string Prog = O.Output.empty() ? "a.out" : O.Output;
  SmallString<256> Obj(sys::path::parent_path(Prog));
  sys::path::append(Obj, sys::path::stem(Prog).str() + "-" + stemOf(In.Path) + ".o");
  // A file of the user's by that name is left alone (the object then goes
  // to the temporary directory, with its coverage files).
  if (sys::fs::exists(Obj))
    return "";
  return addTemp(std::string(sys::path::parent_path(Obj)), sys::path::filename(Obj));
}

int Job::run(const char *Argv0) {
  if (!O.Queries.empty())
    return answerQueries();
  // As cc, -l and -Wl, options are inputs of the link: `cc -Wl,--version`
  // (meson finds the linker so), `cc -lm` link with no source.
  bool LinkerInputs = false;
  for (const LinkItem &L : O.Link) {
    StringRef Arg(L.Arg);
    LinkerInputs |= L.Input < 0 && (Arg.starts_with("-Wl,") || Arg.starts_with("-l") ||
                                    Arg == "-Xlinker");
  }
  if (O.Inputs.empty() && O.Verbose && !LinkerInputs)
    return describe();
  if (O.Inputs.empty() && !(LinkerInputs && O.M == Mode::Link))
    return fail("no input files");
  for (Input &In : O.Inputs) {
    // A C header checked or preprocessed (cc -fsyntax-only foo.h, cc -E
    // foo.h) goes through the front end as C; compiled, it is the back
    // end's (a precompiled header), as before.
    bool Checks = O.M == Mode::Preprocess || O.M == Mode::Deps || O.M == Mode::SyntaxOnly;
    if (Checks && !In.Parc && !In.Object && In.Lang.empty() && StringRef(In.Path).ends_with(".h"))
      In.Parc = true;
    if (In.Path != "-")
      continue;
    // As cc: -E reads C from standard input; anything else must be told.
    if (O.M == Mode::Preprocess || O.M == Mode::Deps)
      In.Parc = true;
    if (!In.Parc)
      return fail("-E or -x required when input is from standard input");
  }
  for (const Input &In : O.Inputs)
    if (In.Path != "-" && !sys::fs::exists(In.Path))
      return fail("no such file or directory: '" + In.Path + "'");

  // As cc: `parcc prog.pc -o prog.pc` must not replace the program.
  if (!O.Output.empty() && O.Output != "-" && O.M != Mode::SyntaxOnly)
    for (const Input &In : O.Inputs) {
      bool Same = false;
      if (!sys::fs::equivalent(In.Path, O.Output, Same) && Same)
        return fail("input file '" + In.Path + "' is the same as output file");
    }

  bool OneOutputPerInput = O.M != Mode::Link && O.M != Mode::SyntaxOnly;
  if (OneOutputPerInput && !O.Output.empty() && O.Inputs.size() > 1)
    return fail("cannot specify '-o' with '-c', '-S', '-E' or '-emit-c' with multiple files");

  bool NeedsCC = O.M == Mode::Link || O.M == Mode::Compile || O.M == Mode::Assemble;
  if (NeedsCC && !R.init())
    return 1;
  if (NeedsCC && !checkWarningOptions())
    return 1;
  if (NeedsCC && O.M != Mode::Assemble && coverageMapping())
    warnCoverageMapping();

  bool Ok = true;
  switch (O.M) {
  case Mode::SyntaxOnly:
    for (const Input &In : O.Inputs)
      if (In.Parc) {
        std::string Unused;
        Ok &= translate(In, "", true, Unused);
      }
    break;
  case Mode::Preprocess:
  case Mode::Deps:
    for (const Input &In : O.Inputs) {
      if (In.Object)
        continue;
      if (!In.Parc) {
        // -E of an assembler source (.S) or another file the back end
        // knows: the back end preprocesses it, as cc would.
        if (O.M == Mode::Preprocess)
          Ok &= preprocessOther(In);
        continue;
      }
      Ok &= preprocess(In);
    }
    break;
  case Mode::EmitC:
    for (const Input &In : O.Inputs) {
      if (!In.Parc)
        continue;
      std::string C;
      if (!translate(In, "", false, C)) {
        Ok = false;
        continue;
      }
      Ok &= writeFile(O.Output.empty() ? "-" : O.Output, C);
    }
    break;
  case Mode::Compile:
  case Mode::Assemble: {
    bool Asm = O.M == Mode::Assemble;
    for (const Input &In : O.Inputs) {
      if (In.Object)
        continue; // as cc: linker inputs are ignored when not linking
      // As cc, a header compiled is a precompiled header, NAME.h.gch
      // beside it (`parcc -c hh.h` wrote one as hh.o).
      bool Header = In.Lang == "c-header" ||
                    (In.Lang.empty() && !In.Parc && StringRef(In.Path).ends_with(".h"));
      std::string Out = !O.Output.empty()  ? O.Output
                        : Header && !Asm   ? In.Path + ".gch"
                                           : stemOf(In.Path) + (Asm ? ".s" : ".o");
      if (!In.Parc) {
        Ok &= compileOther(In, Out, Asm);
        continue;
      }
      std::string CFile;
      bool Temp;
      if (!lower(In, Out, CFile, Temp) || !compileEmitted(In, CFile, Temp, Out, Asm))
        Ok = false;
    }
    break;
  }
  case Mode::Link: {
    // Every input is compiled, as cc does, so that one run reports the
    // errors of all of them; the link follows only if all compiled.
    std::vector<std::string> Objs(O.Inputs.size());
    for (size_t I = 0; I < O.Inputs.size(); ++I) {
      const Input &In = O.Inputs[I];
      if (!In.Parc) {
        Objs[I] = In.Path;
        continue;
      }
      // NAME.o, unless the input itself is so named (-x c NAME.o).
      std::string ObjName = stemOf(In.Path) + ".o";
      if (ObjName == sys::path::filename(In.Path))
        ObjName = stemOf(In.Path) + ".parc.o";
      std::string CFile;
      bool Temp;
      if (!lower(In, "", CFile, Temp)) {
        Ok = false;
        continue;
      }
      // Next to the lowered C (the same name each time: see keyedDir);
      // with coverage or profile data or a .dwo, see objectBesideProgram.
      std::string Obj = namesFilesByObject() ? objectBesideProgram(In) : "";
      if (Obj.empty())
        Obj = Temp ? addTemp(sys::path::parent_path(CFile).str(), ObjName) : tempFile(I, ObjName);
      if (Obj.empty() || !compileEmitted(In, CFile, Temp, Obj, false)) {
        Ok = false;
        continue;
      }
      Objs[I] = Obj;
    }
    if (!Ok)
      break;
    std::vector<std::string> A(O.BackAndLink.begin(), O.BackAndLink.end());
    for (const LinkItem &L : O.Link)
      if (L.Input >= 0 && !O.Inputs[L.Input].Lang.empty()) {
        // -x assembler FILE: the back end assembles it while linking.
        A.insert(A.end(), {"-x", O.Inputs[L.Input].Lang, Objs[L.Input], "-x", "none"});
      } else {
        A.push_back(L.Input >= 0 ? Objs[L.Input] : L.Arg);
      }
    A.push_back("-L" + P.RuntimeLib);
    // -fsanitize=thread or address: the runtime built with that sanitizer,
    // which announces its context switches to it (runtime/CMakeLists.txt).
    // -shared: the position-independent build, which a shared library can
    // contain (libparc.a is not: "relocation R_X86_64_PC32 ... recompile
    // with -fPIC").
    bool Shared = false;
    for (const LinkItem &L : O.Link)
      Shared |= L.Input < 0 && L.Arg == "-shared";
    std::string RuntimeLib = O.Sanitizers.count("thread")    ? "-lparc-tsan"
                             : O.Sanitizers.count("address") ? "-lparc-asan"
                             : Shared                        ? "-lparc-pic"
                                                             : "-lparc";
    bool Undefined = O.Sanitizers.count("undefined");
    A.push_back(RuntimeLib);
    // An executable exports the runtime's entries (all named parc_*): a
    // library it loads with dlopen, built by `parcc -shared`, then calls
    // the executable's copy of the runtime instead of starting its own (its
    // constructs failed as run "on a thread that libparc did not create"),
    // and its polls see the executable's kills (parc_abi.h, "Polling").
    if (!Shared)
      A.push_back("-Wl,--export-dynamic-symbol=parc_*");
    // libparc-asan.a is built with UndefinedBehaviorSanitizer too: a plain
    // -fsanitize=address link would miss its __ubsan_handle_* entries.
    if (RuntimeLib == "-lparc-asan" && !Undefined)
      A.push_back("-fsanitize=undefined");
    // The runtime's libraries (pthreads, libnuma) as needed, as cc's own
    // (gcc's spec does so for libgcc_s): a plain program, which links no
    // runtime, needs none of them, and clang's driver, unlike Debian's gcc,
    // does not link with --as-needed: its programs needed libnuma.so.1 and
    // ran its constructor before main.
    SmallVector<StringRef, 4> Libs;
    StringRef(PARCC_LINK_LIBS).split(Libs, ' ', -1, false);
    A.push_back("-Wl,--push-state,--as-needed");
    for (StringRef L : Libs)
      A.push_back(L.str());
    A.push_back("-Wl,--pop-state");
    A.push_back("-o");
    A.push_back(O.Output.empty() ? "a.out" : O.Output);
    Ok = R.run(A);
    // `parcc prog.PC`: the linker read the source as a linker script
    // ("file format not recognized", "syntax error"), as cc's does, which
    // says nothing of the name (tester I, s46).
    if (!Ok)
      for (const Input &In : O.Inputs)
        if (!In.Parc && !In.Object && In.Lang.empty() && In.Path != "-" &&
            looksLikeStraySource(In.Path))
          errs() << "parcc: note: '" << In.Path
                 << "' went to the linker: parcc compiles files named '*.pc' or '*.c'; if "
                    "it is a source, rename it or put '-x pc' before it\n";
    break;
  }
  }
  removeTemps();
  (void)Argv0;
  return Ok ? 0 : 1;
}

} // namespace

/// Out of memory, as under a tight ulimit -v: LLVM's own handler printed
/// "LLVM ERROR: out of memory" and aborted, a crash to the user (exit 134,
/// maybe a core file).  No allocation here.
static void outOfMemory(void *, const char *, bool) {
  char Msg[256];
  struct rlimit RL;
  int N = getrlimit(RLIMIT_AS, &RL) == 0 && RL.rlim_cur != RLIM_INFINITY
              ? snprintf(Msg, sizeof Msg,
                         "parcc: error: out of memory: the address-space limit (ulimit -v) "
                         "is %llu MiB, too little for parcc\n",
                         (unsigned long long)(RL.rlim_cur >> 20))
              : snprintf(Msg, sizeof Msg, "parcc: error: out of memory\n");
  if (N > 0 && write(2, Msg, std::min<size_t>(N, sizeof Msg - 1)) < 0)
    N = 0;
  sys::RunInterruptHandlers(); // this run's temporary files
  _exit(1);
}

void installOutOfMemoryHandler() { install_bad_alloc_error_handler(outOfMemory); }

void noteInheritedSignals() {
  for (size_t I = 0; I < std::size(InterruptSignals); ++I) {
    struct sigaction Old;
    InheritedIgnored[I] =
        sigaction(InterruptSignals[I], nullptr, &Old) == 0 && Old.sa_handler == SIG_IGN;
  }
}

int runDriver(ArrayRef<const char *> ArgvIn) {
  // @FILE: arguments read from FILE, as cc reads them (build systems write
  // long command lines so); an @FILE that names no file stays as it is.
  SmallVector<const char *, 64> Args(ArgvIn.begin(), ArgvIn.end());
  BumpPtrAllocator Alloc;
  cl::ExpansionContext Expand(Alloc, cl::TokenizeGNUCommandLine);
  if (Error E = Expand.expandResponseFiles(Args))
    return fail(toString(std::move(E)));
  ArrayRef<const char *> Argv(Args);
  Options O;
  if (std::optional<int> RC = parse(Argv, O))
    return *RC;
  handleInterrupts();
  Paths P = findRuntime(Argv.empty() ? "parcc" : Argv[0]);
  Job J(O, P);
  return J.run(Argv.empty() ? "parcc" : Argv[0]);
}

} // namespace parcc
