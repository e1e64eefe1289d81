//===- Analysis.h - find the constructs and what they use --------*- C++ -*-===//
#ifndef PARCC_ANALYSIS_H
#define PARCC_ANALYSIS_H

#include "parcc/Session.h"

#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace parcc {

/// Walks the functions of the main file and fills S.M: constructs with their
/// activities, uses of shared variables, markers, preturns, jumps, loops.
/// Reports constructs whose B1 shape is broken (which the token pass should
/// have prevented).  Returns false on error.
bool analyze(Session &S);

/// The token pass writes a parblock of two or more sections with a dispatch
/// that lets its sections run in any order (TokenPass.cpp, sectionOrder),
/// for Clang's flow analyses, which run as each function's body ends.
/// Takes the dispatch out of every function of Ctx, before anything else
/// looks at the bodies: the rest of parcc sees `{ parc_mark_parblock();
/// do { ... } while (parc_mark_act()); ... parc_mark_end(); }` alone.
/// Returns the B1 ranges of the dispatch's text, which the lowered C must
/// not keep.
std::vector<std::pair<unsigned, unsigned>> unwrapSectionDispatch(clang::ASTContext &Ctx);

/// Computes Construct::Captures, CapturesRV and ContainsPreturn and the
/// function's NeedsRV from the recorded uses (Captures.cpp).
void computeCaptures(Session &S);

/// T is parc_sem_t, the struct parc_sem, under any typedef or qualifier.
bool isSemaphoreType(clang::QualType T);

/// I as a C integer constant that denotes its value exactly, as a value
/// of int where it is one (INT_MIN written so that it is); empty beyond
/// 64 bits.
std::string integerLiteral(const llvm::APSInt &I);

/// The functions that the file installs as signal handlers (passed to
/// signal() and its kin, or stored in a sa_handler or sa_sigaction field),
/// each with the first place that installs it (Polls.cpp: a handler keeps
/// no poll; Checks.cpp: a construct in one is warned of).
llvm::DenseMap<const clang::FunctionDecl *, clang::SourceLocation>
signalHandlers(clang::ASTContext &Ctx);

} // namespace parcc

#endif
