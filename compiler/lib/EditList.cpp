//===- EditList.cpp - text edits over B1 ----------------------------------===//
#include "parcc/EditList.h"

namespace parcc {

bool EditList::Order::operator()(const Edit &A, const Edit &B) const {
  if (A.Begin != B.Begin)
    return A.Begin < B.Begin;
  bool AIns = A.Begin == A.End, BIns = B.Begin == B.End;
  if (AIns != BIns)
    return AIns; // insertions first
  return A.Seq < B.Seq;
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
