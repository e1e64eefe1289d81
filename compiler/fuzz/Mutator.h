//===- Mutator.h - grammar-aware mutations of PARC source -------*- C++ -*-===//
//
// libFuzzer's byte mutations rarely keep a PARC program well formed enough
// to get past the token pass, so most of its inputs would die at the first
// structural error.  These mutations work on whole tokens and whole
// constructs instead: they insert a keyword, a statement or a generated
// construct at a token boundary, wrap a run of statements in a construct,
// delete, duplicate, swap or unwrap a construct or a bracketed group, and
// trade a keyword for a related one (parfor <-> lparfor, pbreak <-> return,
// epar <-> '}').  The fuzzer then reaches the analysis, the checks and the
// lowering with inputs that are almost right, which is where bugs hide.
//
//===----------------------------------------------------------------------===//
#ifndef PARCC_FUZZ_MUTATOR_H
#define PARCC_FUZZ_MUTATOR_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace parcfuzz {

/// Mutates Text in place with one grammar-aware step chosen by Seed.
/// Returns false when no step applied (the caller falls back to bytes).
bool mutateParc(std::string &Text, unsigned Seed);

/// Inserts a construct or bracketed group of Donor into Text at a
/// statement boundary.  Returns false when Donor has none.
bool crossOverParc(std::string &Text, const std::string &Donor, unsigned Seed);

} // namespace parcfuzz

#endif
