//===- EditList.h - text edits over B1 ---------------------------*- C++ -*-===//
//
// Lowering edits B1 by offset: small replacements and insertions (a shared
// variable becomes (*parc_p_x_), a marker call becomes a runtime call, a
// loop condition gains a poll) and, innermost construct first, the collapse
// of a whole construct into its spawn code once its activities' text has been
// rendered into body functions.  This is clang::Rewriter's job; it is done
// here because render() and collapse() need one precise rule for edits at
// range boundaries, stated below.
//
// Rules: an insertion at offset P lies inside [B, E) when B <= P < E; a
// replacement lies inside when B <= its begin and its end <= E.  At one
// offset, insertions come before a replacement starting there, in the order
// they were made.  Replacements never overlap partially.
//
//===----------------------------------------------------------------------===//
#ifndef PARCC_EDITLIST_H
#define PARCC_EDITLIST_H

#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>

namespace parcc {

class EditList {
public:
  explicit EditList(llvm::StringRef Base) : Base(Base) {}

  /// Replaces [Begin, End).  Returns false if it overlaps an edit partially
  /// or covers one (use collapse for that).
  bool replace(unsigned Begin, unsigned End, std::string Text);
  void insert(unsigned Offset, std::string Text);
  /// Replaces [Begin, End) and drops every edit inside it: the caller has
  /// already rendered that text where it belongs.
  bool collapse(unsigned Begin, unsigned End, std::string Text);
  /// The base text of [Begin, End) with the edits inside it applied.
  std::string render(unsigned Begin, unsigned End) const;
  /// True if some replacement covers Offset (for de-duplication).
  bool isReplaced(unsigned Begin, unsigned End) const;

  llvm::StringRef base() const { return Base; }

private:
  struct Edit {
    unsigned Begin, End;
    std::string Text;
    unsigned long Seq;
  };
  /// (Begin, replacement after insertions, Seq); an offset alone compares
  /// with Begin.
  struct Order {
    using is_transparent = void;
    bool operator()(const Edit &A, const Edit &B) const;
    bool operator()(const Edit &A, unsigned Off) const { return A.Begin < Off; }
    bool operator()(unsigned Off, const Edit &B) const { return Off < B.Begin; }
  };
  using Set = std::set<Edit, Order>;
  Set::iterator lowerBound(unsigned Off) { return Edits.lower_bound(Off); }
  Set::const_iterator lowerBound(unsigned Off) const { return Edits.lower_bound(Off); }
  void add(Edit E) { Edits.insert(std::move(E)); }
  bool straddles(unsigned Off) const;

  llvm::StringRef Base;
  /// A set, not a sorted vector: edits come in any order (the polls of
  /// every function after the rewrites of every parc_V), and inserting
  /// into the middle of a vector made a file of 16,384 functions that each
  /// call parc_V take 0.9 s, quadratic in the edits.
  Set Edits;
  unsigned long NextSeq = 0;
};

} // namespace parcc

#endif
