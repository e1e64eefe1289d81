//===- FrontendFuzzer.cpp - libFuzzer target over the PARC front end ------===//
//
// Each input is a .pc file.  It goes through parcc's front end in-process
// (parcc::translateFile: skipped regions, token pass, Clang parse, analysis,
// checks, lowering), exactly as `parcc -emit-c` runs it, and the target
// checks what the front end promises:
//   - no crash, no assertion, no sanitizer report (ASan+UBSan build), no hang
//     (libFuzzer's -timeout);
//   - a rejected input printed at least one error diagnostic, and one of them
//     is at FILE:LINE:COLUMN with a position that exists in that file;
//   - an accepted input printed no error and produced C whose #line
//     directives name lines of the input, and that C compiles (Clang's
//     syntax check in-process, with the driver's back-end flags).
// A violation prints the input and the diagnostics and aborts, so libFuzzer
// records the input as a crash.
//
// translateFile prints its diagnostics to stderr; the target sends fd 2 to a
// memory file around the call and reads them back.  Run it with
// -close_fd_mask=2 (tools/fuzz.sh does): libFuzzer then keeps its own report
// and the sanitizers' on a duplicate of the real stderr, which the
// redirection does not touch.
//
// Environment:
//   PARCC_FUZZ_INCLUDE   colon-separated -I directories (the seeds' headers)
//   PARCC_FUZZ_EMIT_DIR  write the C of every accepted input to DIR/<sha1>.c,
//                        <sha1> naming the input as libFuzzer's corpus does
//                        (tools/fuzz.sh --check-corpus compiles them)
//
//===----------------------------------------------------------------------===//
#include "Mutator.h"

#include "parcc/Config.h"
#include "parcc/Driver.h"
#include "parcc/Frontend.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SHA1.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <pthread.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

namespace {

parcc::FrontendOptions Opts;
std::string InputPath;
std::string EmitDir;
/// The real stderr, for the target's own reports.
int RealErr = 2;
/// Where fd 2 points while the front end runs.
int Capture = -1;

void say(llvm::StringRef S) {
  while (!S.empty()) {
    ssize_t N = write(RealErr, S.data(), S.size());
    if (N <= 0 && errno != EINTR)
      return;
    if (N > 0)
      S = S.drop_front(size_t(N));
  }
}

[[noreturn]] void violated(const std::string &What, llvm::StringRef Input,
                           llvm::StringRef Diags) {
  say("parcc-fuzz: invariant violated: " + What + "\n--- input (" +
      std::to_string(Input.size()) + " bytes) ---\n");
  say(Input);
  say("\n--- diagnostics ---\n");
  say(Diags);
  say("--- end ---\n");
  abort();
}

bool writeInput(const uint8_t *Data, size_t Size) {
  int Fd = open(InputPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (Fd < 0)
    return false;
  size_t Done = 0;
  while (Done < Size) {
    ssize_t N = write(Fd, Data + Done, Size - Done);
    if (N <= 0) {
      close(Fd);
      return false;
    }
    Done += size_t(N);
  }
  close(Fd);
  return true;
}

/// Runs Fn with fd 2 captured; Diags receives what it printed.
bool captured(const std::function<bool()> &Fn, std::string &Diags) {
  ftruncate(Capture, 0);
  lseek(Capture, 0, SEEK_SET);
  int Saved = dup(2);
  dup2(Capture, 2);
  bool Ok = Fn();
  dup2(Saved, 2);
  close(Saved);
  off_t Len = lseek(Capture, 0, SEEK_END);
  Diags.resize(size_t(Len > 0 ? Len : 0));
  if (Len > 0)
    pread(Capture, Diags.data(), Diags.size(), 0);
  return Ok;
}

/// Runs Fn on a thread with a stack as large as the front end's (deeply
/// nested input stays deeply nested in the emitted C).
bool onBigStack(const std::function<bool()> &Fn) {
  struct Job {
    const std::function<bool()> *Fn;
    bool Result;
  } J{&Fn, false};
  pthread_attr_t Attr;
  pthread_t T;
  pthread_attr_init(&Attr);
  pthread_attr_setstacksize(&Attr, size_t(1) << 30);
  bool Started = pthread_create(
                     &T, &Attr,
                     [](void *P) -> void * {
                       auto *J = static_cast<Job *>(P);
                       J->Result = (*J->Fn)();
                       return nullptr;
                     },
                     &J) == 0;
  pthread_attr_destroy(&Attr);
  if (!Started)
    return Fn();
  pthread_join(T, nullptr);
  return J.Result;
}

/// The back end's view of the emitted C, in-process: Clang's syntax check
/// with the flags parcc's driver gives the back end (and the front end's
/// bracket depth).  tools/fuzz.sh --check-corpus repeats it with cc.
bool backEndAccepts(const std::string &C, std::string &Diags) {
  std::vector<std::string> Args = {"-std=gnu17"};
  for (const char *F : parcc::backEndQuietFlags())
    Args.push_back(F);
  Args.insert(Args.end(), {"-fbracket-depth=16384", "-resource-dir", Opts.ResourceDir,
                           "-I" + Opts.RuntimeIncludeDir});
  for (const std::string &A : Opts.ClangArgs)
    Args.push_back(A);
  return captured(
      [&] {
        return onBigStack([&] {
          return clang::tooling::runToolOnCodeWithArgs(
              std::make_unique<clang::SyntaxOnlyAction>(), C, Args, InputPath + ".c",
              PARCC_CLANG_PATH);
        });
      },
      Diags);
}

/// Lines of Text as Clang counts them: "\n", "\r\n" and a lone "\r" end one.
std::vector<llvm::StringRef> clangLines(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Lines;
  size_t B = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] != '\n' && Text[I] != '\r')
      continue;
    Lines.push_back(Text.slice(B, I));
    if (Text[I] == '\r' && I + 1 < Text.size() && Text[I + 1] == '\n')
      ++I;
    B = I + 1;
  }
  Lines.push_back(Text.substr(B));
  return Lines;
}

/// A #line directive or GNU line marker may move the reported line and
/// file anywhere; positions are then only checked to be positive.
bool mayMoveLines(llvm::StringRef Text) {
  for (size_t I = 0; I < Text.size(); ++I) {
    size_t J;
    if (Text[I] == '#')
      J = I + 1;
    else if (Text.substr(I).starts_with("%:") || Text.substr(I).starts_with("?\?="))
      J = I + (Text[I] == '%' ? 2 : 3);
    else
      continue;
    while (J < Text.size() && (Text[J] == ' ' || Text[J] == '\t' || Text[J] == '\\' ||
                               Text[J] == '\n' || Text[J] == '\r'))
      ++J;
    llvm::StringRef Rest = Text.substr(J);
    if (Rest.starts_with("line") || (!Rest.empty() && llvm::isDigit(Rest[0])))
      return true;
  }
  return false;
}

struct ErrorLine {
  std::string File;
  unsigned Line = 0, Col = 0;
};

/// The diagnostics of kind error or fatal error, with their positions
/// (Line == 0 when the message has none).
std::vector<ErrorLine> errorsIn(llvm::StringRef Diags, unsigned &Unlocated) {
  std::vector<ErrorLine> Out;
  Unlocated = 0;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Diags.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    size_t P = L.find(": error: ");
    if (P == llvm::StringRef::npos)
      P = L.find(": fatal error: ");
    if (P == llvm::StringRef::npos) {
      if (L.starts_with("error: ") || L.starts_with("fatal error: "))
        ++Unlocated;
      continue;
    }
    // FILE:LINE:COL before the kind; FILE may itself contain ':'.
    llvm::StringRef Head = L.take_front(P);
    auto [Rest, ColS] = Head.rsplit(':');
    auto [File, LineS] = Rest.rsplit(':');
    ErrorLine E;
    if (!File.empty() && !LineS.getAsInteger(10, E.Line) && !ColS.getAsInteger(10, E.Col)) {
      E.File = File.str();
      Out.push_back(E);
    } else {
      ++Unlocated;
    }
  }
  return Out;
}

/// The position exists in the input: a line of it, a column on that line or
/// just past its end.
bool validInInput(const ErrorLine &E, llvm::StringRef Text) {
  if (E.Line == 0 || E.Col == 0)
    return false;
  if (mayMoveLines(Text))
    return true;
  std::vector<llvm::StringRef> Lines = clangLines(Text);
  if (E.Line > Lines.size())
    return false;
  return E.Col <= Lines[E.Line - 1].size() + 1;
}

void checkRejected(llvm::StringRef Input, llvm::StringRef Diags) {
  unsigned Unlocated;
  std::vector<ErrorLine> Errors = errorsIn(Diags, Unlocated);
  if (Errors.empty())
    violated(Unlocated ? "rejected with an error diagnostic that has no file:line:column"
                       : "rejected without an error diagnostic",
             Input, Diags);
  for (const ErrorLine &E : Errors) {
    if (E.File == InputPath) {
      if (!validInInput(E, Input))
        violated("error diagnostic at " + E.File + ":" + std::to_string(E.Line) + ":" +
                     std::to_string(E.Col) + ", which is not a position in the input",
                 Input, Diags);
    } else if (E.Line == 0 || E.Col == 0) {
      violated("error diagnostic at line or column 0 in " + E.File, Input, Diags);
    }
  }
}

/// Every #line of the emitted C that names the input points at one of its
/// lines (outlined code keeps the user's lines; nothing points past them).
void checkLineDirectives(llvm::StringRef Input, llvm::StringRef C, llvm::StringRef Diags) {
  if (mayMoveLines(Input))
    return;
  size_t Lines = clangLines(Input).size();
  std::string Quoted = "\"" + InputPath + "\"";
  llvm::SmallVector<llvm::StringRef, 0> Out;
  C.split(Out, '\n');
  for (llvm::StringRef L : Out) {
    if (!L.consume_front("#line "))
      continue;
    auto [Num, File] = L.split(' ');
    unsigned N;
    if (File != Quoted || Num.getAsInteger(10, N))
      continue;
    if (N == 0 || N > Lines)
      violated("the emitted C has '#line " + std::to_string(N) + "' for an input of " +
                   std::to_string(Lines) + " lines",
               Input, Diags);
  }
}

void emitC(llvm::StringRef Input, const std::string &C) {
  std::string Name = EmitDir + "/" + llvm::toHex(llvm::SHA1::hash(llvm::arrayRefFromStringRef(Input)),
                                                 /*LowerCase=*/true) + ".c";
  FILE *F = fopen(Name.c_str(), "w");
  if (!F)
    return;
  fwrite(C.data(), 1, C.size(), F);
  fclose(F);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // Before libFuzzer's -close_fd_mask=2 replaces fd 2 with /dev/null.
  RealErr = fcntl(2, F_DUPFD_CLOEXEC, 3);
  if (RealErr < 0)
    RealErr = 2;
  Capture = memfd_create("parcc-fuzz-diags", MFD_CLOEXEC);
  const char *Tmp = getenv("TMPDIR");
  std::string Dir = std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/parcc-fuzz-XXXXXX";
  if (Capture < 0 || !mkdtemp(Dir.data())) {
    say("parcc-fuzz: cannot create the capture file or the input directory\n");
    exit(1);
  }
  InputPath = Dir + "/input.pc";
  Opts.RuntimeIncludeDir = PARCC_BUILD_RUNTIME_INCLUDE_DIR;
  Opts.ResourceDir = PARCC_CLANG_RESOURCE_DIR;
  Opts.ClangPath = PARCC_CLANG_PATH;
  if (const char *Inc = getenv("PARCC_FUZZ_INCLUDE")) {
    llvm::SmallVector<llvm::StringRef, 8> Dirs;
    llvm::StringRef(Inc).split(Dirs, ':', -1, false);
    for (llvm::StringRef D : Dirs)
      Opts.ClangArgs.push_back(("-I" + D).str());
  }
  if (const char *E = getenv("PARCC_FUZZ_EMIT_DIR"))
    EmitDir = E;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Input(reinterpret_cast<const char *>(Data), Size);
  if (!writeInput(Data, Size)) {
    say("parcc-fuzz: cannot write " + InputPath + "\n");
    abort();
  }
  std::string C, Diags;
  bool Ok = captured(
      [&] { return parcc::translateFile(InputPath, Opts, /*SyntaxOnly=*/false, C); }, Diags);
  if (!Ok) {
    checkRejected(Input, Diags);
    return 0;
  }
  unsigned Unlocated;
  if (!errorsIn(Diags, Unlocated).empty() || Unlocated)
    violated("accepted, but an error was printed", Input, Diags);
  if (C.empty())
    violated("accepted, but no C was produced", Input, Diags);
  checkLineDirectives(Input, C, Diags);
  std::string BackDiags;
  if (!backEndAccepts(C, BackDiags))
    violated("accepted, but the emitted C does not compile (clang -fsyntax-only)", Input,
             Diags + "--- emitted C ---\n" + C + "\n--- back end ---\n" + BackDiags);
  if (!EmitDir.empty())
    emitC(Input, C);
  return 0;
}

/// One grammar-aware step (Mutator.cpp) in three mutations; libFuzzer's own
/// byte-level mutations (with the PARC dictionary) in the others.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size, size_t MaxSize,
                                          unsigned Seed) {
  if (Seed % 3 != 0) {
    std::string Text(reinterpret_cast<const char *>(Data), Size);
    if (parcfuzz::mutateParc(Text, Seed / 3) && Text.size() <= MaxSize) {
      memcpy(Data, Text.data(), Text.size());
      return Text.size();
    }
  }
  return LLVMFuzzerMutate(Data, Size, MaxSize);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *Data1, size_t Size1,
                                            const uint8_t *Data2, size_t Size2, uint8_t *Out,
                                            size_t MaxOutSize, unsigned Seed) {
  std::string Text(reinterpret_cast<const char *>(Data1), Size1);
  std::string Donor(reinterpret_cast<const char *>(Data2), Size2);
  if (!parcfuzz::crossOverParc(Text, Donor, Seed))
    Text = Text.substr(0, Size1 / 2) + Donor.substr(Size2 / 2);
  size_t N = std::min(Text.size(), MaxOutSize);
  memcpy(Out, Text.data(), N);
  return N;
}
