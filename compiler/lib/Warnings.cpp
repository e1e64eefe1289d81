//===- Warnings.cpp - parcc's own warnings and their -W names -------------===//
#include "parcc/Warnings.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace llvm;

namespace parcc {

namespace {

const char *const Names[NumOwnWarnings] = {
    "parc-sync-call", "parc-empty-body",   "parc-index-conversion",
    "parc-zero-step", "parc-inclusive-to", "parc-uninitialized-semaphore",
    "parc-empty-range", "parc-count-overflow", "parc-signal-handler",
    "parc-ignored-openmp", "parc-openmp-in-activity", "parc-private-semaphore",
    "parc-busy-wait", "parc-index-write",
};

constexpr unsigned AllMask = (1u << NumOwnWarnings) - 1;

} // namespace

StringRef ownWarningName(OwnWarning W) { return Names[static_cast<unsigned>(W)]; }

unsigned ownWarningMask(StringRef Group) {
  if (Group == "parc")
    return AllMask;
  for (unsigned I = 0; I < NumOwnWarnings; ++I)
    if (Group == Names[I])
      return 1u << I;
  return 0;
}

namespace {
enum class OptionAct { Enable, Disable, Error, NoError };

/// -W<Opt>, Opt without the -W: what it does and the group it names.
StringRef splitOption(StringRef Opt, OptionAct &Act) {
  Act = OptionAct::Enable;
  if (Opt.consume_front("no-error="))
    Act = OptionAct::NoError;
  else if (Opt.consume_front("error="))
    Act = OptionAct::Error;
  else if (Opt.consume_front("no-"))
    Act = OptionAct::Disable;
  return Opt;
}
} // namespace

StringRef ownWarningGroupOf(StringRef Opt) {
  OptionAct Act;
  StringRef G = splitOption(Opt, Act);
  // -WParc too: a name of ours spelt in the wrong case gets our suggestion.
  return G.starts_with_insensitive("parc") ? G : StringRef();
}

bool isOwnWarningOption(StringRef Arg) {
  return Arg.consume_front("-W") && !ownWarningGroupOf(Arg).empty();
}

StringRef nearestOwnWarning(StringRef Group) {
  std::string Lower = Group.lower();
  StringRef Best = "parc";
  unsigned BestDistance = StringRef(Lower).edit_distance(Best);
  for (const char *N : Names)
    if (unsigned D = StringRef(Lower).edit_distance(N); D < BestDistance) {
      Best = N;
      BestDistance = D;
    }
  return Best;
}

void OwnWarningState::applyOption(StringRef Opt) {
  if (Opt == "error" || Opt == "no-error") {
    WarningsAsErrors = Opt == "error";
    return;
  }
  if (Opt == "everything" || Opt == "no-everything") {
    for (One &O : Each)
      O.Enabled = Opt == "everything";
    UnknownGroups = Opt == "everything";
    return;
  }
  if (Opt == "unknown-warning-option" || Opt == "no-unknown-warning-option") {
    UnknownGroups = Opt == "unknown-warning-option";
    return;
  }
  // gcc's -Wall warns of an OpenMP directive it ignores, under this name
  // (Clang, which knows the directives, does not): on with -Wall, and
  // turned off or made an error with the options a user of gcc writes.
  if (Opt == "all") {
    Each[static_cast<unsigned>(OwnWarning::IgnoredOpenMP)].Enabled = true;
    return;
  }
  OptionAct Act;
  StringRef Group = splitOption(Opt, Act);
  unsigned Mask = Group == "unknown-pragmas"
                      ? 1u << static_cast<unsigned>(OwnWarning::IgnoredOpenMP)
                      : ownWarningMask(Group);
  for (unsigned I = 0; I < NumOwnWarnings; ++I) {
    if (!(Mask & (1u << I)))
      continue;
    switch (Act) {
    case OptionAct::Enable:
      Each[I].Enabled = true;
      break;
    case OptionAct::Disable:
      Each[I].Enabled = false;
      break;
    case OptionAct::Error:
      Each[I].Enabled = true;
      Each[I].AsError = 1;
      break;
    case OptionAct::NoError:
      Each[I].AsError = 0;
      Each[I].Fatal = false;
      break;
    }
  }
}

void OwnWarningState::applyPragma(unsigned Mask, diag::Severity Sev) {
  for (unsigned I = 0; I < NumOwnWarnings; ++I) {
    if (!(Mask & (1u << I)))
      continue;
    // As Clang 19 maps its own: `warning` makes it a warning even under
    // -Werror or -Werror=NAME, `error` an error, `fatal` a fatal error,
    // which stops the compilation.
    Each[I].Enabled = Sev != diag::Severity::Ignored;
    if (Sev == diag::Severity::Ignored)
      continue;
    Each[I].AsError = Sev == diag::Severity::Warning ? 0 : 1;
    Each[I].Fatal = Sev == diag::Severity::Fatal;
  }
}

DiagnosticsEngine::Level OwnWarningState::level(OwnWarning W, bool IgnoreAll) const {
  const One &O = Each[static_cast<unsigned>(W)];
  if (IgnoreAll || !O.Enabled)
    return DiagnosticsEngine::Ignored;
  if (O.Fatal)
    return DiagnosticsEngine::Fatal;
  bool AsError = O.AsError < 0 ? WarningsAsErrors : O.AsError > 0;
  return AsError ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning;
}

DiagnosticBuilder reportWithOption(DiagnosticsEngine &D, SourceLocation L,
                                   DiagnosticsEngine::Level Lv, StringRef Fmt, StringRef Option) {
  std::string Text = Fmt.str();
  if (Lv != DiagnosticsEngine::Ignored)
    Text += (Twine(" [") + (Lv == DiagnosticsEngine::Error ? "-Werror," : "") + "-W" + Option +
             "]")
                .str();
  return D.Report(L,
                  D.getDiagnosticIDs()->getCustomDiagID(static_cast<DiagnosticIDs::Level>(Lv), Text));
}

DiagnosticsEngine::Level OwnWarningState::unknownGroupLevel(bool IgnoreAll) const {
  if (IgnoreAll || !UnknownGroups)
    return DiagnosticsEngine::Ignored;
  return WarningsAsErrors ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning;
}

std::vector<Token> rawDirectiveTokens(const SourceManager &SM, const LangOptions &LO,
                                      SourceLocation Hash) {
  std::vector<Token> Line;
  FileID File = SM.getFileID(Hash);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return Line;
  Lexer Lx(SM.getLocForStartOfFile(File), LO, Buf.begin(),
           Buf.begin() + SM.getFileOffset(Hash), Buf.end());
  Token T;
  for (Lx.LexFromRawLexer(T); T.isNot(tok::eof); Lx.LexFromRawLexer(T)) {
    if (!Line.empty() && T.isAtStartOfLine())
      break;
    Line.push_back(T);
  }
  return Line;
}

bool readDiagnosticPragma(const SourceManager &SM, const LangOptions &LO, SourceLocation Hash,
                          DiagnosticPragma &Out, std::string &Unknown,
                          SourceLocation &UnknownLoc, unsigned &LineEnd) {
  std::vector<Token> Line = rawDirectiveTokens(SM, LO, Hash);
  if (!Line.empty())
    LineEnd = SM.getFileOffset(Line.back().getLocation()) + Line.back().getLength();
  auto Word = [&](size_t I) {
    return I < Line.size() && Line[I].is(tok::raw_identifier) ? Line[I].getRawIdentifier()
                                                               : StringRef();
  };
  if (Word(1) != "pragma" || (Word(2) != "clang" && Word(2) != "GCC") ||
      Word(3) != "diagnostic")
    return false;
  Out.Loc = Hash;
  StringRef Kind = Word(4);
  if (Kind == "push" || Kind == "pop") {
    Out.Kind = Kind == "push" ? DiagnosticPragma::Push : DiagnosticPragma::Pop;
    return true;
  }
  if (Kind == "ignored")
    Out.Sev = diag::Severity::Ignored;
  else if (Kind == "warning")
    Out.Sev = diag::Severity::Warning;
  else if (Kind == "error")
    Out.Sev = diag::Severity::Error;
  else if (Kind == "fatal")
    Out.Sev = diag::Severity::Fatal;
  else
    return false;
  // The option, in one string or several that concatenate ("-Wparc-" "zero-step").
  std::string Option;
  size_t I = 5;
  for (; I < Line.size() && Line[I].is(tok::string_literal); ++I) {
    StringRef S(Line[I].getLiteralData(), Line[I].getLength());
    if (S.size() < 2 || !S.starts_with("\"") || !S.ends_with("\""))
      return false;
    Option += S.drop_front().drop_back().str();
  }
  if (I == 5 || I != Line.size() || !StringRef(Option).starts_with("-W"))
    return false;
  // A pragma takes a group's name only: "-Wno-parc-zero-step" and
  // "-Werror=parc-zero-step" are unknown groups there, as Clang says of
  // its own.
  StringRef Group = StringRef(Option).drop_front(2);
  if (ownWarningGroupOf(Group).empty())
    return false;
  Out.Kind = DiagnosticPragma::Set;
  Out.Mask = ownWarningMask(Group);
  if (!Out.Mask) {
    Unknown = Group.str();
    UnknownLoc = Line[5].getLocation();
    return false;
  }
  return true;
}

DiagnosticsEngine::Level OwnWarnings::level(OwnWarning W, SourceLocation L,
                                            const SourceManager &SM, bool IgnoreAll) const {
  OwnWarningState State = CommandLine;
  std::vector<OwnWarningState> Stack;
  L = SM.getExpansionLoc(L);
  for (const DiagnosticPragma &P : Pragmas) {
    if (L.isInvalid() || !SM.isBeforeInTranslationUnit(P.Loc, L))
      break;
    switch (P.Kind) {
    case DiagnosticPragma::Push:
      Stack.push_back(State);
      break;
    case DiagnosticPragma::Pop:
      // A pop without its push: Clang warns about it and keeps the state.
      if (!Stack.empty()) {
        State = Stack.back();
        Stack.pop_back();
      }
      break;
    case DiagnosticPragma::Set:
      State.applyPragma(P.Mask, P.Sev);
      break;
    }
  }
  return State.level(W, IgnoreAll);
}

} // namespace parcc
