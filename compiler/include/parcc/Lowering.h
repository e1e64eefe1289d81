//===- Lowering.h - outlining and the lowering of each construct -*- C++ -*-===//
//
// Lowering rewrites B1 into the emitted C through S.Edits.  First the leaf
// edits: shared variables become (*parc_p_x_) (Captures.cpp), pbreak,
// preturn and sync become runtime calls (LowerKill.cpp, LowerSync.cpp), loops
// and function entries get polls (Polls.cpp).  Then, innermost construct
// first, each construct's activities are rendered into a static body
// function and the construct collapses into its spawn code (Outliner.cpp
// with LowerParblock.cpp and LowerParfor.cpp).  The outlined code of a
// function goes right before it, after a prototype of the function (for
// recursion) and the local types it needs, with #line directives that keep
// every line of user code at its .pc line.
//
//===----------------------------------------------------------------------===//
#ifndef PARCC_LOWERING_H
#define PARCC_LOWERING_H

#include "parcc/Session.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <set>
#include <string>

namespace parcc {

class Outliner {
public:
  explicit Outliner(Session &S) : S(S) {}

  /// Lowers the whole file; on success Out is the emitted C.
  bool run(std::string &Out);

  Session &S;
  /// The static parc_wait_sites of the parc_P calls and syncs, for the top
  /// of the file (LowerWait.cpp).
  std::string WaitSites;
  /// A new parc_wait_site for the code at B1 offset At in function Fn, with
  /// Arg (a C string literal's contents, escaped) as written: its name.
  std::string waitSite(unsigned At, const clang::FunctionDecl *Fn, const std::string &Arg);

  //--- Captures (Captures.cpp) -------------------------------------------
  /// Variably modified: reached through a void * and rebuilt dimensions.
  bool isVM(const clang::VarDecl *V) const;
  /// The variable as an lvalue in code that runs in Ctx (null: the function).
  std::string lvalue(const clang::VarDecl *V, const Activity *Ctx) const;
  /// Field declarations of C's environment struct (without the braces).
  std::string envFields(const Construct &C) const;
  /// Initializers of C's environment, evaluated by C's parent.
  std::string envInits(const Construct &C) const;
  /// Declarations at the top of a body function of C: each shared
  /// variable's address, once, in a const local parc_p_<name>_.
  std::string bodyPrologue(const Construct &C, const Activity *Only = nullptr) const;
  /// The body function's own copies of the construct's Constants.
  std::string constantDecls(const Construct &C) const;
  /// The captures of C that its body functions read once, found once per
  /// construct: a parblock has a body function per section.
  const llvm::SmallPtrSet<const clang::VarDecl *, 8> &readOnlyCaptures(const Construct &C) const;
  mutable llvm::DenseMap<const Construct *, llvm::SmallPtrSet<const clang::VarDecl *, 8>>
      ReadOnly;
  /// A function's locals and parameters that something other than their
  /// name may reach, and where each of the others is written (main-file
  /// offsets, sorted); found in one walk of the function (Captures.cpp,
  /// LocalWrites) for all its constructs.
  struct FunctionWrites {
    llvm::DenseSet<const clang::VarDecl *> Escaped;
    llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<unsigned, 2>> Writes;
  };
  const FunctionWrites &functionWrites(const clang::FunctionDecl *F) const;
  mutable llvm::DenseMap<const clang::FunctionDecl *, FunctionWrites> WritesOf;
  /// Leaf edits: references to shared variables, `register` on shared
  /// variables.  False on error (reported).
  bool rewriteCaptures();
  static bool inSet(const std::map<unsigned, std::set<const clang::IdentifierInfo *>> &Sets,
                    unsigned X, unsigned E, const clang::NamedDecl *V);
  const char *whyNotRenamable(unsigned X, const VarUse &U, unsigned Uses);
  void defineAround(const std::vector<const VarUse *> &Us);
  /// Wraps the main-file expansion that InIt is part of in directives: Push
  /// (lines, each starting with a newline) goes before it, Pop after its
  /// last token.  Wraps of one expansion add up; emitWraps writes them.
  void wrapExpansion(clang::SourceLocation InIt, const std::string &Push, const std::string &Pop);
  void emitWraps();
  bool refuseQuoted(const VarUse &U, const char *Why);
  bool refuseRenamed(const VarUse &U, const char *Why);
  bool noteCopyToLocal(const VarUse &U);
  /// Names the unnamed non-local tags that shared variables' types reach
  /// through typeof, so that environments can name them.  False on error.
  bool nameFileTags();
  std::string nameTag(const clang::TagDecl *TD);
  /// The declarator of Inner with type T (see Captures.cpp).
  std::string declarator(clang::QualType T, std::string Inner,
                         const std::function<std::string(unsigned)> &Dim, unsigned &K) const;
  bool needsDeclarator(clang::QualType T) const;
  /// T as a type name (a cast's, a compound literal's) that code outside
  /// the declaration's scope can use.
  std::string typeName(clang::QualType T) const;
  /// A declaration of Name with type T that code outside the declaration's
  /// scope can use (declarator() where Clang's printer cannot serve).
  std::string declare(clang::QualType T, std::string Name) const;
  /// The tag T is (through arrays and pointers) if it has no name that
  /// code elsewhere could use: a file-scope `struct { } x` seen through
  /// typeof, or an anonymous local tag not yet moved to file scope under
  /// a name of parcc's (hoistLocalDecls does so, after the leaf edits).
  const clang::TagDecl *unnamedTag(clang::QualType T) const;
  /// Local types and block-scope function declarations that the outlined
  /// code of F needs at file scope; removes moved declarations from F.
  bool hoistLocalDecls(FunctionModel &F, std::string &Out);
  /// The local types (tags, typedefs, enums) that F's outlined code needs.
  llvm::SetVector<const clang::Decl *> localTypesNeeded(const FunctionModel &F) const;
  /// Gives a name of parcc's to each local type (or enumerator) that
  /// hoistLocalDecls will move and whose name is taken at file scope or
  /// by another moved one: two functions' `struct pair`.
  void renameClashingLocalTypes();
  /// Can a spelling of local type D at L, inside a macro's expansion, be
  /// renamed where it is written?  Yes for an argument written in the file
  /// (`faa(&t, sizeof(struct pair))`) that no macro turns into a string or
  /// pastes.
  bool renamableInMacro(const clang::NamedDecl *D, clang::SourceLocation L) const;
  /// Those it could not rename, with a spelling of theirs it cannot edit.
  llvm::DenseMap<const clang::Decl *, clang::SourceLocation> Unrenamed;
  /// The definition of a tag that FD's return type defines (`struct S {
  /// ... } f(...)`), moved in front of the outlined code, which needs it
  /// complete; `struct S` stays behind.  Empty if there is none.
  std::string hoistReturnTag(const clang::FunctionDecl *FD);

  //--- Outlining (Outliner.cpp) ------------------------------------------
  bool hasEnv(const Construct &C) const;
  std::string envType(const Construct &C) const { return "struct parc_env_" + C.Tag; }
  /// The rows of the table that names the construct's captured semaphores
  /// (parc_abi.h, "Names of semaphores"), Count of them; empty for none.
  std::string captureSemaphoreNames(const Construct &C, unsigned &Count) const;
  std::string siteName(const Construct &C) const { return "parc_site_" + C.Tag + "_"; }
  bool fenvAccess(const Construct &C) const;
  std::string descName(const Construct &C) const { return "parc_d_" + suffix(C) + "_"; }
  std::string envVarName(const Construct &C) const { return "parc_e_" + suffix(C) + "_"; }
  std::string bodyName(const Construct &C) const;
  /// `static void NAME(parc_act *parc_self_, void *parc_envp_) {` and the
  /// environment prologue.
  std::string bodyHead(const Construct &C, llvm::StringRef Name,
                       const Activity *Only = nullptr) const;
  /// #line plus the rendered text of an activity body (`{ ... }`), between
  /// the markers that placeLines looks for.
  std::string activityText(const Activity &A) const;
  /// A whole outlined function (bodyHead, generated loops, activityText):
  /// every run of parcc's own lines becomes one line at the construct's
  /// line `Line`, so that no generated code carries the line of a user's
  /// statement (a breakpoint there would stop in it too); the activity
  /// bodies keep their own lines.
  std::string placeLines(const std::string &Fn, unsigned Line) const;
  /// The text of a B1 range with the edits so far.
  std::string render(const clang::Stmt *St) const;
  /// `parc_rv_` as an lvalue in code running in Ctx.
  std::string rvLValue(const Activity *Ctx) const;

  /// What __PRETTY_FUNCTION__ in an activity of FD becomes: a macro of
  /// parcc's (prettyNames), for the back end's spelling of it.
  static std::string prettyMacro(const clang::FunctionDecl *FD) {
    return "parc_pretty_" + FD->getName().str() + "_";
  }
  /// `#define parc_pretty_f_` for each function of PrettyFns: Clang's
  /// __PRETTY_FUNCTION__ is the signature ("int f(int)"), gcc's in C the
  /// bare name, and the emitted C must say what its compiler would.
  std::string prettyNames() const;
  llvm::SetVector<const clang::FunctionDecl *> PrettyFns;

  /// Appends the #define/#undef lines and the diagnostic pragmas of the
  /// current function that lie before B1 offset UpTo and have not been
  /// replayed yet: a pragma's `pop` only where a replayed `push` is left to
  /// take it (the pushes left open, by namespace: DiagPushes).
  void replayMacros(unsigned UpTo, std::string &Out);
  unsigned Replayed = 0;
  std::vector<std::string> DiagPushes;

  /// "L<line>" (plus "_c<col>" when needed): names the parent's locals.
  std::string suffix(const Construct &C) const;

  //--- Stackless sync (LowerSync.cpp) ------------------------------------
  /// The frame of a parfor body whose activities wait at sync in it
  /// (parc_abi.h, "Stackless sync"): the locals moved into it, each with
  /// its member's name.
  struct FramePlan {
    std::vector<std::pair<const clang::VarDecl *, std::string>> Fields;
    /// The name of the table of the body's sync sites (parc_syncs_<tag>_).
    std::string SyncTable;
  };
  llvm::DenseMap<const Activity *, FramePlan> Frames;
  /// Every moved local's member: a nested construct captures it as
  /// &parc_fr_-><member>.
  llvm::DenseMap<const clang::VarDecl *, std::string> FrameFields;
  /// `struct parc_fr_<tag> { ... } *parc_fr_;` for a body in Frames.
  std::string frameDecl(const Construct &C, const FramePlan &P) const;

private:
  void nameConstructs();
  bool lowerFunction(FunctionModel &F);

  /// Names moved to file scope so far (tags and ordinary identifiers),
  /// with the declaration each names (canonical: a tag declared ahead,
  /// `typedef struct node node_t;` before `struct node { ... };`, is one).
  std::map<std::string, const clang::Decl *> HoistedTags, HoistedNames;
  /// The number of the next parc_wait_site (waitSite).
  unsigned NextWaitSite = 0;
  /// Anonymous local tags moved to file scope, by the name parcc gave them.
  llvm::DenseMap<const clang::TagDecl *, std::string> AnonNames;
  /// Expansions to wrap, by their B1 offset: the offset of their last token
  /// and just past it, and the directives around them.
  struct Wrap {
    unsigned Last = 0, End = 0;
    std::string Push, Pop;
  };
  std::map<unsigned, Wrap> Wraps;
};

//--- Per construct family ------------------------------------------------
/// Appends the outlined definitions of C to Defs; Spawn receives the
/// statement that replaces the construct in its parent.
void lowerParblock(Outliner &O, const Construct &C, std::string &Defs, std::string &Spawn);
void lowerParfor(Outliner &O, const Construct &C, std::string &Defs, std::string &Spawn);
/// The type in which a loop's environment carries FROM and STEP: unsigned
/// long long, or the unsigned index type when that is wider (__int128).
std::string loopWordType(const Session &S, const Construct &C);
/// The initialiser of C's parc_act_names (parc_abi.h, "Names of
/// activities"), for a loop after its environment's struct; for a parblock
/// it first appends the array of its sections' lines to Decls.
std::string loopNames(const Outliner &O, const Construct &C);
std::string sectionNames(const Outliner &O, const Construct &C, std::string &Decls);

/// pbreak and preturn inside activities (leaf edits).
bool lowerKills(Outliner &O);
/// `if (parc_preturned(&d)) return parc_rv_;` after an outermost construct
/// whose activities preturn; empty otherwise.
std::string preturnCheck(const Outliner &O, const Construct &C);
/// parc_P(ARG) => parc_P_at(ARG, &parc_wsite_N_), and parc_V likewise,
/// with the site in Outliner::WaitSites (leaf edits).  The sites' numbers
/// start at 0 in each file, in the order of waitSite's calls.
void lowerSemCalls(Outliner &O);
/// The table of the semaphores the file defines at file scope, by name,
/// with its constructor (parc_abi.h, "Names of semaphores"); empty when it
/// defines none.
std::string semaphoreNames(Session &S);
/// parc_procid() in a mapped lparfor's chunk: the chunk's number (leaf
/// edits).
void lowerChunkProcIds(Outliner &O);
/// sync inside activities (leaf edits).
bool lowerSyncs(Outliner &O);
/// parc_poll() at function entries and loop back-edges (leaf edits), and
/// the parc_rv_ local of functions that need one.
void insertPolls(Outliner &O);
/// Polls for the loops whose head a macro writes (leaf edits, before
/// lowerSyncs renders any initializer): in the body the user wrote, or in
/// the expansion through a `for`/`while` macro that polls (wrapExpansion).
void pollMacroLoops(Outliner &O);
/// T without its array and pointer layers: the element or pointee type a
/// declarator is built around.
clang::QualType innermost(const clang::ASTContext &Ctx, clang::QualType T);

} // namespace parcc

#endif
