//===- BackEndFeatures.cpp - what Clang takes and a back end may not ------===//
//
// See BackEndFeatures.h.  Each feature comes with an example that a back end
// with the feature compiles and one without it rejects (gcc 12 warns about
// an unknown attribute or builtin and goes on, so the examples make that an
// error); the examples of the features a file uses go to the back end as
// one file, each on lines of its own, and the lines of its errors tell
// which it lacks.  '@' in an example stands for a name of its own.
//
//===----------------------------------------------------------------------===//
#include "parcc/BackEndFeatures.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallString.h"

#include <algorithm>

using namespace clang;

namespace parcc {

namespace {

/// Clang's builtins that GCC (12, at least) lacks; a call of one compiles
/// there as a call of an undeclared function, which the link then misses.
bool clangOnlyBuiltin(StringRef Name) {
  for (StringRef P : {"__builtin_elementwise_", "__builtin_reduce_", "__builtin_matrix_",
                      "__builtin_bitreverse", "__builtin_rotateleft", "__builtin_rotateright",
                      "__builtin_addc", "__builtin_subc", "__builtin_align_",
                      "__builtin_os_log_format"})
    if (Name.starts_with(P))
      return true;
  for (StringRef N :
       {"__builtin_dump_struct", "__builtin_assume", "__builtin_assume_separate_storage",
        "__builtin_popcountg", "__builtin_clzg", "__builtin_ctzg", "__builtin_is_aligned",
        "__builtin_nondeterministic_value", "__builtin_verbose_trap",
        "__builtin_allow_runtime_check", "__builtin_unpredictable", "__builtin_memcpy_inline",
        "__builtin_memset_inline", "__builtin_readcyclecounter", "__builtin_readsteadycounter",
        "__builtin_isfpclass", "__builtin_FUNCSIG", "__builtin_preserve_access_index",
        "__builtin_launder", "__builtin_function_start"})
    if (Name == N)
      return true;
  return false;
}

const char BitIntExample[] = "unsigned _BitInt(8) @;";

/// An example that a back end without the builtin N rejects.
std::string builtinExample(const std::string &N) {
  return "#ifdef __has_builtin\n#if !__has_builtin(" + N + ")\n#error " + N +
         "\n#endif\n#endif";
}

/// The standard headers that define, for a compiler without C23's
/// keywords, the macros that stand for them.
bool definesKeywords(StringRef Header) {
  return Header == "stdbool.h" || Header == "stdalign.h" || Header == "assert.h" ||
         Header == "threads.h";
}

class Scanner : public RecursiveASTVisitor<Scanner> {
public:
  Scanner(std::function<void(SourceLocation, const char *, const char *)> Add,
          const LangOptions &LO)
      : Add(std::move(Add)), LO(LO) {}

  bool VisitVarDecl(VarDecl *VD) {
    const AutoType *AT = VD->getType()->getContainedAutoType();
    // C23's `auto`; GNU's __auto_type every gcc has.
    if (AT && AT->getKeyword() == AutoTypeKeyword::Auto)
      Add(VD->getTypeSpecStartLoc(), "'auto' type inference (C23)",
          "void @(void) { auto d = 1.5; _Static_assert(sizeof d == sizeof(double), \"\"); }");
    return true;
  }
  bool VisitEnumDecl(EnumDecl *ED) {
    if (ED->getIntegerTypeSourceInfo())
      Add(ED->getLocation(), "enumerations with a fixed underlying type (C23)",
          "enum @ : int { @_a };");
    return true;
  }
  bool VisitGenericSelectionExpr(GenericSelectionExpr *E) {
    if (E->isTypePredicate())
      Add(E->getGenericLoc(), "_Generic with a type as its first operand",
          "_Static_assert(_Generic(int, int: 1, default: 0), \"\");");
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (const auto *A = FD->getAttr<OverloadableAttr>())
      Add(A->getLocation(), "__attribute__((overloadable))",
          "__attribute__((overloadable)) int @(int);\n"
          "__attribute__((overloadable)) int @(double);");
    return true;
  }
  bool VisitTypedefNameDecl(TypedefNameDecl *TD) {
    if (isa<ExtVectorType>(TD->getUnderlyingType().getTypePtr()))
      Add(TD->getLocation(), "__attribute__((ext_vector_type))",
          "typedef float @ __attribute__((ext_vector_type(2)));\n"
          "float @_x(@ v) { return v.x; }");
    return true;
  }
  bool VisitForStmt(ForStmt *FS) {
    // Clang takes it before C99 with a warning that gcc does not; gcc
    // -std=gnu89 stops on the lowered C, inside an outlined function.
    if (!LO.C99 && FS->getInit() && isa<DeclStmt>(FS->getInit()))
      Add(FS->getInit()->getBeginLoc(),
          "a declaration in a 'for' loop's first clause before C99 (declare the variable "
          "before the loop, or compile with -std=gnu99 or later)",
          "void @(void) { for (int i = 0; i < 1; i++) ; }");
    return true;
  }

private:
  std::function<void(SourceLocation, const char *, const char *)> Add;
  const LangOptions &LO;
};

/// The identifiers of a directive's line from From to its end, lexed raw
/// (a comment there is no word), each handed to Each until it returns
/// true.  Returns whether one did.
bool directiveWords(const SourceManager &SM, const LangOptions &LO, SourceLocation From,
                    llvm::function_ref<bool(const Token &)> Each) {
  auto [FID, Off] = SM.getDecomposedLoc(From);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return false;
  Lexer Raw(SM.getLocForStartOfFile(FID), LO, Buf.begin(), Buf.begin() + Off, Buf.end());
  Token T;
  for (bool First = true;; First = false) {
    Raw.LexFromRawLexer(T);
    if (T.is(tok::eof) || (!First && T.isAtStartOfLine()))
      return false;
    if (T.is(tok::raw_identifier) && Each(T))
      return true;
  }
}

} // namespace

bool BackEndFeatures::userWritten(SourceLocation L) const {
  // The back end reads its own system headers, not the front end's.
  SourceLocation S = SM.getSpellingLoc(L);
  return S.isValid() && !SM.isInSystemHeader(S) && !SM.isInSystemHeader(SM.getExpansionLoc(L));
}

/// Does a condition ask which compiler reads it, directly or through the
/// user's macros (`#define HAS(x) __has_builtin(x)`)?
bool BackEndFeatures::asksCompiler(SourceLocation From, Preprocessor &PP) const {
  static const char *const Words[] = {
      "__has_builtin", "__has_feature",     "__has_extension",     "__has_attribute",
      "__has_c_attribute", "__is_identifier", "__clang__",         "__clang_major__",
      "__clang_minor__",   "__clang_version__", "__llvm__",        "__BITINT_MAXWIDTH__",
      "__GNUC__",          "__GNUC_MINOR__",    "__apple_build_version__"};
  auto Asks = [](StringRef W) {
    return std::find(std::begin(Words), std::end(Words), W) != std::end(Words);
  };
  // From the directive's word: the condition's range can begin after a
  // builtin macro such as __has_builtin.
  SourceLocation B = SM.getExpansionLoc(From);
  if (B.isInvalid())
    return false;
  std::vector<const MacroInfo *> Todo;
  std::set<const MacroInfo *> Seen;
  if (directiveWords(SM, PP.getLangOpts(), B, [&](const Token &T) {
        StringRef W = T.getRawIdentifier();
        // A name the table does not hold names no macro.  Looked up, not
        // added: an identifier added here, in code inlined into parcc,
        // could start one of the table's slabs, which parcc's
        // AddressSanitizer builds poison and libclang, built without it,
        // then fills (a false use-after-poison that the fuzzer found).
        auto It = PP.getIdentifierTable().find(W);
        if (It != PP.getIdentifierTable().end())
          if (const MacroInfo *MI = PP.getMacroInfo(It->getValue()))
            Todo.push_back(MI);
        return Asks(W);
      }))
    return true;
  while (!Todo.empty() && Seen.size() < 64) {
    const MacroInfo *MI = Todo.back();
    Todo.pop_back();
    if (!Seen.insert(MI).second)
      continue;
    for (const Token &K : MI->tokens())
      if (const IdentifierInfo *II = K.getIdentifierInfo()) {
        if (Asks(II->getName()))
          return true;
        if (const MacroInfo *Next = PP.getMacroInfo(const_cast<IdentifierInfo *>(II)))
          Todo.push_back(Next);
      }
  }
  return false;
}

/// Does the emitted C keep the conditional at Hash for the back end?
/// Those of headers, always; those of the file itself unless they hold a
/// construct: the token pass leaves only the taken branch of one with a
/// construct in a branch not taken, and one that keeps its #if (`#if
/// defined(__clang__)` around a parfor, no #else) still sends the
/// construct's outlined function, outside the #if, to the back end.  Read
/// raw from the #if to its #endif.
bool BackEndFeatures::keptForBackEnd(SourceLocation Hash, const LangOptions &LO) const {
  if (!SM.isWrittenInMainFile(Hash))
    return true;
  auto [FID, Off] = SM.getDecomposedLoc(Hash);
  StringRef Buf = SM.getBufferData(FID);
  // From the start of the directive's line: its '#' and 'if' count too.
  size_t Line = Buf.rfind('\n', Off);
  Line = Line == StringRef::npos ? 0 : Line + 1;
  Lexer Raw(SM.getLocForStartOfFile(FID), LO, Buf.begin(), Buf.begin() + Line, Buf.end());
  Token T;
  unsigned Depth = 0;
  bool Directive = false;
  for (Raw.LexFromRawLexer(T); T.isNot(tok::eof); Raw.LexFromRawLexer(T)) {
    if (T.is(tok::hash) && T.isAtStartOfLine()) {
      Directive = true;
      continue;
    }
    if (!T.is(tok::raw_identifier)) {
      Directive = false;
      continue;
    }
    StringRef W = T.getRawIdentifier();
    if (Directive) {
      Directive = false;
      if (W == "if" || W == "ifdef" || W == "ifndef")
        ++Depth;
      else if (W == "endif" && --Depth == 0)
        return true;
      continue;
    }
    // The front end reads the token pass's text, where a construct is its
    // markers (parc_mark_parblock(), ...), no longer its keywords; the
    // markers' declarations (the prelude, before the file's first token,
    // which may be inside this conditional) are none.
    unsigned At = SM.getFileOffset(T.getLocation());
    if ((W == "parc_mark_parblock" || W == "parc_mark_parfor" || W == "parc_mark_lparfor") &&
        !(PreludeBegin <= At && At < PreludeEnd))
      return false;
  }
  return true;
}

void BackEndFeatures::openConditional(SourceLocation Hash, SourceLocation Cond,
                                      Preprocessor &PP) {
  bool Asks = Hash.isValid() && Hash.isFileID() && asksCompiler(Cond, PP) &&
              keptForBackEnd(Hash, PP.getLangOpts());
  Conds.push_back({Hash, Asks});
}

void BackEndFeatures::continueConditional(SourceLocation Cond, Preprocessor &PP) {
  if (!Conds.empty() && !Conds.back().Asks && Conds.back().Begin.isValid() &&
      Conds.back().Begin.isFileID() && asksCompiler(Cond, PP))
    Conds.back().Asks = keptForBackEnd(Conds.back().Begin, PP.getLangOpts());
}

void BackEndFeatures::closeConditional(SourceLocation Endif) {
  if (Conds.empty())
    return;
  Open C = Conds.back();
  Conds.pop_back();
  if (C.Asks && Endif.isValid())
    AskedRanges.push_back({C.Begin, Endif});
}

/// Is L inside a conditional that asks which compiler this is?  While the
/// preprocessor runs, the open ones tell; afterwards (scan), the ranges.
bool BackEndFeatures::inCompilerConditional(SourceLocation L) const {
  for (const Open &C : Conds)
    if (C.Asks)
      return true;
  // Where the token was written counts too: `#if __has_builtin(b)` then
  // `#define ROT b`, and ROT used after the #endif.
  for (SourceLocation X : {SM.getExpansionLoc(L), SM.getSpellingLoc(L)})
    for (const SourceRange &R : AskedRanges)
      if (SM.isBeforeInTranslationUnit(R.getBegin(), X) &&
          SM.isBeforeInTranslationUnit(X, R.getEnd()))
        return true;
  return false;
}

void BackEndFeatures::add(SourceLocation L, const std::string &What, const std::string &Example,
                          const char *Group) {
  if (Seen.count(What) || !userWritten(L) || inCompilerConditional(L))
    return;
  Seen.insert(What);
  Uses.push_back({What, Example, L, Group});
}

/// A C23 keyword, by its spelling (__typeof_unqual__ is another question
/// than typeof_unqual).
void BackEndFeatures::keyword(tok::TokenKind Kind, StringRef Spelling, SourceLocation L) {
  static const std::pair<tok::TokenKind, const char *> Examples[] = {
      {tok::kw_bool, "$ @;"},
      {tok::kw_true, "int @ = $;"},
      {tok::kw_false, "int @ = $;"},
      {tok::kw_nullptr, "void *@ = $;"},
      {tok::kw_constexpr, "$ int @ = 1;"},
      {tok::kw_typeof_unqual, "$(const int) @;"},
      {tok::kw_static_assert, "$(1, \"\");"},
      {tok::kw_alignas, "$(8) int @;"},
      {tok::kw_alignof, "int @ = $(int);"},
      {tok::kw_thread_local, "$ int @;"},
      {tok::kw_typeof, "$(int) @;"}};
  for (const auto &[K, Ex] : Examples)
    if (K == Kind) {
      std::string Example = Ex;
      Example.replace(Example.find('$'), 1, Spelling.str());
      add(L, "the keyword '" + Spelling.str() + "' (C23)", Example, "C23");
    }
}

void BackEndFeatures::condition(SourceRange Cond, Preprocessor &PP) {
  const LangOptions &LO = PP.getLangOpts();
  SourceLocation B = SM.getExpansionLoc(Cond.getBegin());
  if (!LO.C23 || !userWritten(B))
    return;
  // The condition as written, lexed raw to the end of the directive: its
  // range ends inside a macro's expansion when a macro is used there, and
  // a comment in it is no keyword.
  directiveWords(SM, LO, B, [&](const Token &T) {
    StringRef Word = T.getRawIdentifier();
    // A macro of the user's by that name stands for it in either compiler.
    if ((Word == "true" || Word == "false") && !PP.isMacroDefined(Word))
      keyword(Word == "true" ? tok::kw_true : tok::kw_false, Word, T.getLocation());
    return false;
  });
}

void BackEndFeatures::token(const Token &T, Preprocessor &PP) {
  switch (T.getKind()) {
  case tok::kw__BitInt:
    add(T.getLocation(), "_BitInt", BitIntExample);
    return;
  case tok::numeric_constant: {
    // 5wb, 5uwb: of a _BitInt type.  No other C number has a 'w'.
    SmallString<32> Buf;
    if (PP.getSpelling(T, Buf).contains_insensitive("wb"))
      add(T.getLocation(), "_BitInt", BitIntExample);
    return;
  }
  case tok::kw_bool:
  case tok::kw_true:
  case tok::kw_false:
  case tok::kw_nullptr:
  case tok::kw_constexpr:
  case tok::kw_typeof_unqual:
  case tok::kw_static_assert:
  case tok::kw_alignas:
  case tok::kw_alignof:
  case tok::kw_thread_local:
  case tok::kw_typeof: {
    // typeof is C23's, and GNU C's before it (which every gcc has).
    if (T.is(tok::kw_typeof) && PP.getLangOpts().GNUMode)
      return;
    keyword(T.getKind(), T.getIdentifierInfo()->getName(), T.getLocation());
    return;
  }
  case tok::kw___bf16:
    add(T.getLocation(), "__bf16", "__bf16 *@;");
    return;
  case tok::kw_half: // __fp16 (`half` itself is OpenCL's)
    add(T.getLocation(), "__fp16", "__fp16 *@;");
    return;
  case tok::kw___builtin_bit_cast:
  case tok::kw___builtin_COLUMN:
  case tok::kw___builtin_FILE_NAME: {
    // Keywords in Clang, not builtins with an ID; gcc 12 has none of them
    // (__builtin_COLUMN() compiled as a call of an undeclared function,
    // and the link failed without a line to go by).
    std::string N = T.getIdentifierInfo()->getName().str();
    add(T.getLocation(), "the builtin '" + N + "'", builtinExample(N));
    return;
  }
  case tok::kw__Nonnull:
  case tok::kw__Nullable:
  case tok::kw__Nullable_result:
  case tok::kw__Null_unspecified: {
    std::string Q = T.getIdentifierInfo()->getName().str();
    add(T.getLocation(), "the nullability qualifier '" + Q + "'", "int *" + Q + " @;");
    return;
  }
  case tok::identifier: {
    const IdentifierInfo *II = T.getIdentifierInfo();
    if (II && II->getBuiltinID() != 0 && clangOnlyBuiltin(II->getName())) {
      std::string N = II->getName().str();
      add(T.getLocation(), "the builtin '" + N + "'", builtinExample(N));
    }
    return;
  }
  default:
    return;
  }
}

void BackEndFeatures::included(SourceLocation HashLoc, StringRef Name, bool Angled) {
  std::string H = "<" + Name.str() + ">";
  if (Angled && definesKeywords(Name) && userWritten(HashLoc) &&
      std::find(Headers.begin(), Headers.end(), H) == Headers.end())
    Headers.push_back(H);
}

void BackEndFeatures::embed(SourceLocation HashLoc) {
  add(HashLoc, "#embed", "static const char @[] = {0,\n#embed __FILE__ limit(1)\n};");
}

void BackEndFeatures::scan(ASTContext &Ctx) {
  Scanner S([&](SourceLocation L, const char *What, const char *Example) { add(L, What, Example); },
            Ctx.getLangOpts());
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(D->getLocation()))
      S.TraverseDecl(D);
}

bool BackEndFeatures::check(DiagnosticsEngine &D, const BackEndQuestions &Q) const {
  if (Uses.empty() || !Q.Compile)
    return true;
  std::string Text;
  unsigned Line = 1;
  for (const std::string &H : Headers) {
    Text += "#include " + H + "\n";
    ++Line;
  }
  std::vector<std::pair<unsigned, unsigned>> Lines; // per use: its first and last line
  for (size_t I = 0; I < Uses.size(); ++I) {
    std::string Ex = Uses[I].Example;
    std::string Name = "parcc_probe_" + std::to_string(I);
    for (size_t P = Ex.find('@'); P != std::string::npos; P = Ex.find('@', P + Name.size()))
      Ex.replace(P, 1, Name);
    unsigned N = 1 + std::count(Ex.begin(), Ex.end(), '\n');
    Lines.push_back({Line, Line + N - 1});
    Text += Ex + "\n";
    Line += N;
  }
  std::set<unsigned> Errors;
  if (!Q.Compile(Text, Errors))
    return true; // no answer: the back end's own messages will tell
  std::vector<const Use *> Lacking;
  for (size_t I = 0; I < Uses.size(); ++I) {
    auto It = Errors.lower_bound(Lines[I].first);
    if (It != Errors.end() && *It <= Lines[I].second)
      Lacking.push_back(&Uses[I]);
  }
  if (Lacking.empty())
    return true;
  std::sort(Lacking.begin(), Lacking.end(), [&](const Use *A, const Use *B) {
    return SM.isBeforeInTranslationUnit(A->Loc, B->Loc);
  });
  std::string Name = Q.Name ? Q.Name() : "the back-end C compiler";
  std::string WayOut = Q.WayOut ? Q.WayOut() : "";
  std::set<std::string> Groups;
  for (const Use *U : Lacking) {
    if (*U->Group && !Groups.insert(U->Group).second)
      continue;
    if (WayOut.empty())
      D.Report(U->Loc, D.getCustomDiagID(DiagnosticsEngine::Error, "%0 does not support %1"))
          << Name << U->What;
    else
      D.Report(U->Loc,
               D.getCustomDiagID(DiagnosticsEngine::Error, "%0 does not support %1; %2"))
          << Name << U->What << WayOut;
  }
  return false;
}

} // namespace parcc
