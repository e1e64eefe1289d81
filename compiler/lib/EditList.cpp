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
  bool Ins = E.Begin == E.End;
  auto It = std::upper_bound(Edits.begin(), Edits.end(), E, [](const Edit &A, const Edit &B) {
    return before(A.Begin, A.Begin == A.End, A.Seq, B.Begin, B.Begin == B.End, B.Seq);
  });
  (void)Ins;
  Edits.insert(It, std::move(E));
}

bool EditList::replace(unsigned Begin, unsigned End, std::string Text) {
  if (End <= Begin || End > Base.size())
    return false;
  // Any replacement starting before End and ending after Begin overlaps.
  for (auto It = Edits.begin(); It != Edits.end() && It->Begin < End; ++It) {
    if (It->Begin == It->End)
      continue;
    if (It->End > Begin)
      return false;
  }
  add({Begin, End, std::move(Text), NextSeq++});
  return true;
}

void EditList::insert(unsigned Offset, std::string Text) {
  add({Offset, Offset, std::move(Text), NextSeq++});
}

bool EditList::collapse(unsigned Begin, unsigned End, std::string Text) {
  if (End <= Begin || End > Base.size())
    return false;
  for (const Edit &E : Edits) {
    if (E.Begin == E.End)
      continue;
    bool Inside = Begin <= E.Begin && E.End <= End;
    bool Disjoint = E.End <= Begin || E.Begin >= End;
    if (!Inside && !Disjoint)
      return false;
  }
  Edits.erase(std::remove_if(Edits.begin(), Edits.end(),
                             [&](const Edit &E) {
                               if (E.Begin == E.End)
                                 return Begin <= E.Begin && E.Begin < End;
                               return Begin <= E.Begin && E.End <= End;
                             }),
              Edits.end());
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
