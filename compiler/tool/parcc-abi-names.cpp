//===- parcc-abi-names.cpp - the names parc_abi.h declares, at build time -===//
//
// The C that parcc emits includes parc_abi.h at the top of every file, so
// parcc refuses a user's declaration or #define of any name that header
// declares (Checks.cpp, checkAbiNames; docs/reference.md, "Reserved
// names").  The list was typed by hand and fell behind the header
// (parc_poll_hook_, whose user declaration then met gcc's "conflicting
// types" inside the emitted C).  This build-time tool reads it from the
// header instead: Clang parses parc_abi.h as the back end sees it in the
// emitted C, and every name that the header itself declares at file scope
// (functions, variables, typedefs, tags, enumerators) or #defines is
// written, sorted, one string literal per line, to the file that
// Checks.cpp includes.  parc.h's names are not among them: the front end
// force-includes parc.h, so Clang reports clashes with those itself.
//
//   parcc-abi-names PARC_ABI_H OUTPUT
//
//===----------------------------------------------------------------------===//
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

using namespace clang;

namespace {

using NameSet = llvm::StringSet<>;

/// In parc_abi.h itself: not in parc.h, nor in the predefines, which
/// SourceManager::isInMainFile counts as included by the main file.
bool inHeader(const SourceManager &SM, SourceLocation L) {
  return SM.getFileID(SM.getExpansionLoc(L)) == SM.getMainFileID();
}

class MacroNames : public PPCallbacks {
public:
  MacroNames(const SourceManager &SM, NameSet &Names, NameSet &Macros)
      : SM(SM), Names(Names), Macros(Macros) {}
  void MacroDefined(const Token &Name, const MacroDirective *) override {
    if (inHeader(SM, Name.getLocation())) {
      Names.insert(Name.getIdentifierInfo()->getName());
      Macros.insert(Name.getIdentifierInfo()->getName());
    }
  }

private:
  const SourceManager &SM;
  NameSet &Names, &Macros;
};

class DeclNames : public ASTConsumer {
public:
  explicit DeclNames(NameSet &Names) : Names(Names) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      auto *N = dyn_cast<NamedDecl>(D);
      // Implicit: the builtins that the inline functions call.
      if (!N || N->isImplicit() || !inHeader(SM, N->getLocation()))
        continue;
      if (N->getIdentifier())
        Names.insert(N->getName());
      if (auto *E = dyn_cast<EnumDecl>(N))
        for (EnumConstantDecl *C : E->enumerators())
          Names.insert(C->getName());
    }
  }

private:
  NameSet &Names;
};

class Action : public ASTFrontendAction {
public:
  Action(NameSet &Names, NameSet &Macros) : Names(Names), Macros(Macros) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<MacroNames>(CI.getSourceManager(), Names, Macros));
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<DeclNames>(Names);
  }

private:
  NameSet &Names, &Macros;
};

/// Names, sorted, one C string literal a line, into Path.
bool writeNames(const char *Path, const NameSet &Names, const char *What) {
  std::vector<std::string> Sorted;
  for (const auto &N : Names)
    Sorted.push_back(N.getKey().str());
  std::sort(Sorted.begin(), Sorted.end());
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC);
  if (EC) {
    llvm::errs() << "parcc-abi-names: " << Path << ": " << EC.message() << "\n";
    return false;
  }
  Out << "// The names that parc_abi.h " << What << ", by parcc-abi-names; do not edit.\n";
  for (const std::string &N : Sorted)
    Out << "\"" << N << "\",\n";
  return !Out.has_error();
}

} // namespace

int main(int argc, const char **argv) {
  if (argc != 4) {
    llvm::errs() << "usage: parcc-abi-names PARC_ABI_H NAMES_OUTPUT MACROS_OUTPUT\n";
    return 2;
  }
  // As the emitted C includes it: C, without PARC_RUNTIME_SOURCE (so the
  // weak stand-ins count), and with no system header to find.
  std::vector<const char *> Args = {"clang", "-fsyntax-only", "-nostdinc", "-x", "c", argv[1]};
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      CompilerInstance::createDiagnostics(new DiagnosticOptions);
  CreateInvocationOptions CIO;
  CIO.Diags = Diags;
  std::shared_ptr<CompilerInvocation> Inv = createInvocation(Args, CIO);
  if (!Inv)
    return 1;
  CompilerInstance CI;
  CI.setInvocation(std::move(Inv));
  CI.createDiagnostics();
  NameSet Names, Macros;
  Action A(Names, Macros);
  if (!CI.ExecuteAction(A) || CI.getDiagnostics().hasErrorOccurred()) {
    llvm::errs() << "parcc-abi-names: " << argv[1] << " does not compile as C\n";
    return 1;
  }
  return writeNames(argv[2], Names, "declares") && writeNames(argv[3], Macros, "#defines")
             ? 0
             : 1;
}
