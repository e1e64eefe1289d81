//===- EditList.cpp - text edits over B1 ----------------------------------===//
#include "parcc/EditList.h"

#include <algorithm>

namespace parcc {

static bool before(unsigned ABegin, bool AIns, unsigned long ASeq, unsigned BBegin,
                   bool BIns, unsigned long BSeq) {
  if (ABegin != BBegin)
    return ABegin < BBegin;
  if (AIns != BIns)
    return AIns; // insertions first
  return ASeq < BSeq;
}

std::vector<EditList::Edit>::iterator EditList::lowerBound(unsigned Off) {
  return std::lower_bound(Edits.begin(), Edits.end(), Off,
                          [](const Edit &E, unsigned O) { return E.Begin < O; });
}
std::vector<EditList::Edit>::const_iterator EditList::lowerBound(unsigned Off) const {
  return std::lower_bound(Edits.begin(), Edits.end(), Off,
                          [](const Edit &E, unsigned O) { return E.Begin < O; });
}

void EditList::add(Edit E) {
  auto It = std::upper_bound(Edits.begin(), Edits.end(), E, [](const Edit &A, const Edit &B) {
    return before(A.Begin, A.Begin == A.End, A.Seq, B.Begin, B.Begin == B.End, B.Seq);
  });
  Edits.insert(It, std::move(E));
}

/// Does a replacement start before Off and end after it?  Replacements
/// never overlap, so only the last one starting before Off can.
bool EditList::straddles(unsigned Off) const {
  for (auto It = lowerBound(Off); It != Edits.begin();) {
    --It;
    if (It->Begin != It->End)
      return It->End > Off;
  }
  return false;
}

bool EditList::replace(unsigned Begin, unsigned End, std::string Text) {
  if (End <= Begin || End > Base.size() || straddles(Begin))
    return false;
  // A replacement starting inside [Begin, End) overlaps it or is covered.
  for (auto It = lowerBound(Begin); It != Edits.end() && It->Begin < End; ++It)
    if (It->Begin != It->End)
      return false;
  add({Begin, End, std::move(Text), NextSeq++});
  return true;
}

void EditList::insert(unsigned Offset, std::string Text) {
  add({Offset, Offset, std::move(Text), NextSeq++});
}

bool EditList::collapse(unsigned Begin, unsigned End, std::string Text) {
  if (End <= Begin || End > Base.size() || straddles(Begin))
    return false;
  // Every edit starting inside [Begin, End) goes, and must lie inside it.
  auto First = lowerBound(Begin), Last = First;
  for (; Last != Edits.end() && Last->Begin < End; ++Last)
    if (Last->End > End)
      return false;
  Edits.erase(First, Last);
  add({Begin, End, std::move(Text), NextSeq++});
  return true;
}

std::string EditList::render(unsigned Begin, unsigned End) const {
  std::string Out;
  Out.reserve(End - Begin + 64);
  unsigned Cur = Begin;
  for (auto It = lowerBound(Begin); It != Edits.end() && It->Begin < End; ++It) {
    if (It->Begin != It->End && It->End > End)
      continue; // straddles the end: not inside
    if (It->Begin < Cur)
      continue; // inside a replacement already applied
    Out.append(Base.data() + Cur, It->Begin - Cur);
    Out += It->Text;
    Cur = It->End;
  }
  Out.append(Base.data() + Cur, End - Cur);
  return Out;
}

bool EditList::isReplaced(unsigned Begin, unsigned End) const {
  for (auto It = lowerBound(Begin); It != Edits.end() && It->Begin == Begin; ++It)
    if (It->End == End)
      return true;
  return false;
}

} // namespace parcc
