//===- Mutator.cpp - grammar-aware mutations of PARC source ---------------===//
//
// A rough lexer (enough to find token boundaries, brackets and the PARC
// keywords; comments, strings and directive lines are single tokens) and a
// table of steps.  Every step leaves the text lexically plausible; none tries
// to keep it valid: the point is to be one mistake away from a valid
// program, in every place a construct can appear.
//
//===----------------------------------------------------------------------===//
#include "Mutator.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <random>
#include <vector>

namespace parcfuzz {

namespace {

enum class TK { Space, Comment, Directive, Ident, Number, String, Punct };

struct Tok {
  size_t B, E;
  TK K;
};

bool identStart(char C) { return std::isalpha((unsigned char)C) || C == '_' || C == '$'; }
bool identChar(char C) { return std::isalnum((unsigned char)C) || C == '_' || C == '$'; }

std::vector<Tok> lex(const std::string &S) {
  std::vector<Tok> Out;
  size_t I = 0, N = S.size();
  bool LineStart = true;
  while (I < N) {
    size_t B = I;
    char C = S[I];
    if (C == '\n' || C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      while (I < N && std::isspace((unsigned char)S[I])) {
        if (S[I] == '\n')
          LineStart = true;
        ++I;
      }
      Out.push_back({B, I, TK::Space});
      continue;
    }
    if (C == '#' && LineStart) {
      // The whole directive, continuation lines included.
      while (I < N && S[I] != '\n')
        I += (S[I] == '\\' && I + 1 < N) ? 2 : 1;
      Out.push_back({B, I, TK::Directive});
      continue;
    }
    LineStart = false;
    if (C == '/' && I + 1 < N && S[I + 1] == '/') {
      while (I < N && S[I] != '\n')
        ++I;
      Out.push_back({B, I, TK::Comment});
    } else if (C == '/' && I + 1 < N && S[I + 1] == '*') {
      size_t End = S.find("*/", I + 2);
      I = End == std::string::npos ? N : End + 2;
      Out.push_back({B, I, TK::Comment});
    } else if (C == '"' || C == '\'') {
      ++I;
      while (I < N && S[I] != C && S[I] != '\n')
        I += (S[I] == '\\' && I + 1 < N) ? 2 : 1;
      if (I < N && S[I] == C)
        ++I;
      Out.push_back({B, I, TK::String});
    } else if (identStart(C)) {
      while (I < N && identChar(S[I]))
        ++I;
      Out.push_back({B, I, TK::Ident});
    } else if (std::isdigit((unsigned char)C) ||
               (C == '.' && I + 1 < N && std::isdigit((unsigned char)S[I + 1]))) {
      while (I < N && (identChar(S[I]) || S[I] == '.' ||
                       ((S[I] == '+' || S[I] == '-') && std::strchr("eEpP", S[I - 1]))))
        ++I;
      Out.push_back({B, I, TK::Number});
    } else {
      Out.push_back({B, I + 1, TK::Punct});
      ++I;
    }
  }
  return Out;
}

/// The text with its tokens, the bracket pairs and the construct spans.
struct View {
  const std::string &S;
  std::vector<Tok> T;   // all tokens
  std::vector<size_t> C; // indices into T of the non-space, non-comment tokens
  /// Matching closer (as index into C) of each opener; -1 if unmatched.
  std::vector<long> Match;
  /// [keyword, epar] index pairs into C.
  std::vector<std::pair<size_t, size_t>> Constructs;

  explicit View(const std::string &Text) : S(Text), T(lex(Text)) {
    for (size_t I = 0; I < T.size(); ++I)
      if (T[I].K != TK::Space && T[I].K != TK::Comment)
        C.push_back(I);
    Match.assign(C.size(), -1);
    std::vector<size_t> Br, Kw;
    for (size_t I = 0; I < C.size(); ++I) {
      std::string W = text(I);
      if (W == "(" || W == "[" || W == "{") {
        Br.push_back(I);
      } else if (W == ")" || W == "]" || W == "}") {
        if (!Br.empty()) {
          Match[Br.back()] = long(I);
          Br.pop_back();
        }
      } else if (W == "parblock" || W == "parfor" || W == "lparfor") {
        Kw.push_back(I);
      } else if (W == "epar" && !Kw.empty()) {
        Constructs.push_back({Kw.back(), I});
        Kw.pop_back();
      }
    }
  }
  std::string text(size_t CI) const { return S.substr(T[C[CI]].B, T[C[CI]].E - T[C[CI]].B); }
  size_t begin(size_t CI) const { return T[C[CI]].B; }
  size_t end(size_t CI) const { return T[C[CI]].E; }
  /// Offsets just after ';', '{', '}' or 'epar': where a statement may start.
  std::vector<size_t> stmtBoundaries() const {
    std::vector<size_t> Out;
    for (size_t I = 0; I < C.size(); ++I) {
      std::string W = text(I);
      if (W == ";" || W == "{" || W == "}" || W == "epar")
        Out.push_back(end(I));
    }
    return Out;
  }
};

//--- What gets inserted ---------------------------------------------------

const char *const Keywords[] = {
    "parblock", "parfor", "lparfor", "mapped", "epar", "pbreak", "preturn", "sync",
    "faa",      ":",      ";",       "{",      "}",    "(",      ")",       ",",
    "mapped lparfor", "pbreak;", "preturn;", "sync;", "epar;", "} epar", "} : {",
};

const char *const Statements[] = {
    "pbreak;",
    "preturn;",
    "preturn 0;",
    "preturn x;",
    "sync;",
    "sync();",
    "int sync = 1; sync;",
    "return;",
    "return 0;",
    "break;",
    "continue;",
    "goto parc_fz_l;",
    "parc_fz_l: ;",
    "x++;",
    "faa(&x, 1);",
    "faa(&x, faa(&x, 1));",
    "{ parc_sem_t s; parc_sem_init(&s, 1); parc_P(&s); parc_V(&s); }",
    "x = parc_nprocs() + parc_procid();",
    "for (int q = 0; q < 3; q++) x += q;",
    "while (x < 0) x++;",
    "do { x--; } while (x > 9);",
    "switch (x) { case 0: x = 1; break; default: ; }",
    "switch (x) { case 1:",
    "case 2:",
    "default:",
    "if (x) x = 0; else x = 1;",
    "int x = 0;",
    "long y = x;",
    "static int sx; sx++;",
    "register int r = 1; r++;",
    "int v[x + 1]; v[0] = 0;",
    "struct parc_fz_s { int a; } st; st.a = x;",
    "typedef int parc_fz_t; parc_fz_t tv = 0;",
    "enum parc_fz_e { FZ_A, FZ_B } ev = FZ_B;",
    "const char *fn = __func__;",
    "x = sizeof(x);",
    "x = ({ int t = 1; t; });",
    "__label__ parc_fz_lab;",
    "void *lp = &&parc_fz_l; goto *lp;",
    "extern int parc_fz_ext;",
    "int (*fp)(void) = 0;",
    "_Static_assert(1, \"ok\");",
    "(void)\"parblock epar\";",
    "/* parfor epar */",
    "// sync;\n",
    "#if 0\nparblock\n#endif\n",
    "#if 1\n",
    "#else\n",
    "#endif\n",
    "#ifdef __STDC__\n",
    "#define PARC_FZ_M(a) a\n",
    "PARC_FZ_M(x++);",
    "PARC_FZ_M(parblock { x++; } epar)",
    "#define PARC_FZ_P parblock\n",
    "PARC_FZ_P { } epar",
    "#undef x\n",
    "#line 7\n",
    "_Pragma(\"GCC diagnostic push\")",
    "asm volatile(\"\");",
    "exit(1);",
    "par\\\nblock",
    "<% x++; %>",
    "?\?=define T 1\n",
    "parblock <% x++; %> : <% x--; %> epar",
    "int parc_rv_ = 0, parc_env_ = 1, parc_self_ = 2, parc_k_ = 3; parc_rv_ += parc_env_;",
    "preturn parc_rv_;",
    "x = parc_self_ + parc_k_;",
};

const char *const Types[] = {"int",  "long",   "unsigned", "short",       "char",
                             "size_t", "long long", "unsigned char", "_Bool", "float",
                             "double", "int *", "const int", "enum parc_fz_e", "parc_fz_t"};
const char *const Bounds[] = {"0", "1", "-1", "x", "n", "2147483647", "-2147483648", "100",
                              "x + 1", "sizeof(int)", "0.5", "\"s\"", "(void)0", "i", "j",
                              "9223372036854775807LL", "18446744073709551615ULL", "0x7f",
                              "parc_nprocs()", "faa(&x, 1)"};
const char *const Vars[] = {"i", "j", "k", "x", "n", "sync", "epar", "parblock", "main"};

/// Keywords and the words they may be traded for.
const std::vector<std::vector<const char *>> Related = {
    {"parblock", "parfor", "lparfor", "mapped lparfor", "mapped parblock", "{", "if (x)", "for (;;)"},
    {"epar", "}", ":", ";", "epar;", "} epar", "epar epar"},
    {"pbreak", "preturn", "sync", "return", "break", "continue", "exit(0)", "goto parc_fz_l"},
    {"{", "(", "[", "}", ")", "]"},
    {";", ":", ",", ";;"},
    {"int", "long", "unsigned", "char", "float", "size_t", "void", "struct parc_fz_s"},
    {"if", "while", "switch", "for"},
    {"mapped", "static", "register", "const", ""},
};

class Gen {
public:
  explicit Gen(unsigned Seed) : R(Seed) {}
  size_t pick(size_t N) { return N ? std::uniform_int_distribution<size_t>(0, N - 1)(R) : 0; }
  template <size_t N> const char *pick(const char *const (&A)[N]) { return A[pick(N)]; }
  bool coin(unsigned OneIn) { return pick(OneIn) == 0; }

  /// A construct with generated activities (Depth limits the nesting).
  std::string construct(unsigned Depth) {
    std::string Out;
    switch (pick(4)) {
    case 0: {
      Out = "parblock { " + stmts(Depth + 1) + " }";
      for (size_t N = pick(3); N; --N)
        Out += " : { " + stmts(Depth + 1) + " }";
      return Out + " epar";
    }
    default: {
      static const char *const Kinds[] = {"parfor", "lparfor", "mapped lparfor"};
      std::string Var = coin(4) ? pick(Vars) : "i";
      Out = std::string(pick(Kinds)) + " " + pick(Types) + " " + Var + "; " + pick(Bounds) +
            "; " + pick(Bounds) + "; " + (coin(3) ? pick(Bounds) : "1") + "; ";
      Out += coin(2) ? "{ " + stmts(Depth + 1) + " }" : stmt(Depth + 1);
      return Out + " epar";
    }
    }
  }

  std::string stmt(unsigned Depth) {
    if (Depth < 4 && coin(4))
      return construct(Depth);
    if (Depth < 4 && coin(8))
      return std::string(coin(2) ? "if (x) " : "for (int q = 0; q < 2; q++) ") + construct(Depth);
    return pick(Statements);
  }

  std::string stmts(unsigned Depth) {
    std::string Out;
    for (size_t N = 1 + pick(3); N; --N)
      Out += stmt(Depth) + " ";
    return Out;
  }

  /// A function around a generated construct (a whole translation unit
  /// when Alone), named so as not to clash with the text it is added to.
  std::string unit(bool Alone) {
    std::string F = "parc_fz_f" + std::to_string(pick(1000000));
    std::string Out = Alone && coin(2) ? "#include <stdio.h>\n" : "";
    Out += "int " + F + "(int n) {\n  int x = n;\n  " + construct(1) + "\n  return x;\n}\n";
    if (Alone && coin(2))
      Out += "int main(void) { return " + F + "(4) != 0; }\n";
    return Out;
  }

  std::minstd_rand R;
};

std::string spaced(const std::string &S) { return " " + S + " "; }

/// A token boundary (offset) of the view, or the end of the text.
size_t boundary(const View &V, Gen &G) {
  if (V.C.empty())
    return V.S.size();
  size_t I = G.pick(V.C.size() + 1);
  return I == V.C.size() ? V.S.size() : V.begin(I);
}

size_t stmtBoundary(const View &V, Gen &G) {
  std::vector<size_t> B = V.stmtBoundaries();
  return B.empty() ? boundary(V, G) : B[G.pick(B.size())];
}

/// A span worth moving around: a construct or a bracketed group, as offsets.
bool span(const View &V, Gen &G, size_t &B, size_t &E) {
  if (!V.Constructs.empty() && G.coin(2)) {
    auto P = V.Constructs[G.pick(V.Constructs.size())];
    B = V.begin(P.first);
    E = V.end(P.second);
    return true;
  }
  std::vector<size_t> Open;
  for (size_t I = 0; I < V.C.size(); ++I)
    if (V.Match[I] >= 0)
      Open.push_back(I);
  if (Open.empty())
    return false;
  size_t I = Open[G.pick(Open.size())];
  B = V.begin(I);
  E = V.end(size_t(V.Match[I]));
  return true;
}

bool insertAt(std::string &S, size_t Off, const std::string &What) {
  S.insert(std::min(Off, S.size()), What);
  return true;
}

//--- The steps ----------------------------------------------------------------

bool insertKeyword(std::string &S, Gen &G) {
  View V(S);
  return insertAt(S, boundary(V, G), spaced(G.pick(Keywords)));
}

/// Half the time the names the snippets use are declared around them, so
/// that an insertion into any function still gets past Sema to the
/// analysis, the checks and the lowering.
std::string declared(const std::string &Stmt, Gen &G) {
  return G.coin(2) ? "{ int x = 1, n = 4; parc_sem_t s; parc_sem_init(&s, 1); " + Stmt + " }"
                   : Stmt;
}

bool insertStatement(std::string &S, Gen &G) {
  View V(S);
  std::string St = G.pick(Statements);
  // Directives need a line of their own.
  if (St[0] == '#' || St[0] == '?')
    St = "\n" + St + "\n";
  else
    St = declared(St, G);
  return insertAt(S, stmtBoundary(V, G), spaced(St));
}

bool insertConstruct(std::string &S, Gen &G) {
  View V(S);
  if (V.C.empty() || G.coin(8)) {
    S += G.unit(V.C.empty());
    return true;
  }
  return insertAt(S, stmtBoundary(V, G), spaced(declared(G.construct(1), G)));
}

/// Wraps the statements between two boundaries of one block in a construct.
bool wrapInConstruct(std::string &S, Gen &G) {
  View V(S);
  std::vector<size_t> Opens;
  for (size_t I = 0; I < V.C.size(); ++I)
    if (V.Match[I] >= 0 && V.text(I) == "{")
      Opens.push_back(I);
  if (Opens.empty())
    return false;
  size_t O = Opens[G.pick(Opens.size())];
  size_t Cl = size_t(V.Match[O]);
  // Statement ends at this block's depth.
  std::vector<size_t> Ends = {V.end(O)};
  for (size_t I = O + 1; I < Cl; ++I) {
    if (V.Match[I] >= 0) {
      if (V.text(I) == "{")
        Ends.push_back(V.end(size_t(V.Match[I])));
      I = size_t(V.Match[I]);
      continue;
    }
    if (V.text(I) == ";")
      Ends.push_back(V.end(I));
  }
  size_t A = G.pick(Ends.size()), B = G.pick(Ends.size());
  if (A > B)
    std::swap(A, B);
  size_t From = Ends[A], To = B == A ? Ends[A] : Ends[B];
  std::string Body = S.substr(From, To - From);
  std::string Head, Tail = " epar ";
  switch (G.pick(4)) {
  case 0:
    Head = " parblock { ";
    Tail = " } : { " + (G.coin(2) ? Body : std::string(G.pick(Statements))) + " } epar ";
    break;
  case 1:
    Head = " parfor int i; 0; n; 1; { ";
    Tail = " } epar ";
    break;
  case 2:
    Head = " lparfor long i; 0; 9; 1; ";
    break;
  default:
    Head = " parblock { ";
    Tail = " } epar ";
    break;
  }
  S.replace(From, To - From, Head + Body + Tail);
  return true;
}

bool deleteTokens(std::string &S, Gen &G) {
  View V(S);
  if (V.C.empty())
    return false;
  size_t I = G.pick(V.C.size());
  size_t J = std::min(V.C.size() - 1, I + G.pick(3));
  S.erase(V.begin(I), V.end(J) - V.begin(I));
  return true;
}

bool deleteSpan(std::string &S, Gen &G) {
  View V(S);
  size_t B, E;
  if (!span(V, G, B, E))
    return false;
  S.erase(B, E - B);
  return true;
}

bool duplicateSpan(std::string &S, Gen &G) {
  View V(S);
  size_t B, E;
  if (!span(V, G, B, E))
    return false;
  std::string Copy = S.substr(B, E - B);
  return insertAt(S, stmtBoundary(V, G), spaced(Copy));
}

/// Removes a construct's keyword, header and epar, leaving its body.
bool unwrapConstruct(std::string &S, Gen &G) {
  View V(S);
  if (V.Constructs.empty())
    return false;
  auto P = V.Constructs[G.pick(V.Constructs.size())];
  size_t HeadEnd = V.end(P.first);
  if (V.text(P.first) != "parblock") {
    // Past the four ';' of the header.
    unsigned Semis = 0;
    for (size_t I = P.first + 1; I < P.second && Semis < 4; ++I)
      if (V.text(I) == ";") {
        ++Semis;
        HeadEnd = V.end(I);
      }
  }
  S.erase(V.begin(P.second), V.end(P.second) - V.begin(P.second));
  S.erase(V.begin(P.first), HeadEnd - V.begin(P.first));
  return true;
}

bool swapSpans(std::string &S, Gen &G) {
  View V(S);
  size_t B1, E1, B2, E2;
  if (G.coin(2) || !span(V, G, B1, E1) || !span(V, G, B2, E2)) {
    if (V.C.size() < 2)
      return false;
    size_t I = G.pick(V.C.size()), J = G.pick(V.C.size());
    B1 = V.begin(I), E1 = V.end(I), B2 = V.begin(J), E2 = V.end(J);
  }
  if (B1 > B2) {
    std::swap(B1, B2);
    std::swap(E1, E2);
  }
  if (E1 > B2)
    return false; // nested or equal
  std::string A = S.substr(B1, E1 - B1), B = S.substr(B2, E2 - B2);
  S.replace(B2, E2 - B2, A);
  S.replace(B1, E1 - B1, B);
  return true;
}

bool tradeKeyword(std::string &S, Gen &G) {
  View V(S);
  std::vector<std::pair<size_t, const std::vector<const char *> *>> Cands;
  for (size_t I = 0; I < V.C.size(); ++I) {
    std::string W = V.text(I);
    for (const auto &Group : Related)
      if (std::find_if(Group.begin(), Group.end(), [&](const char *K) { return W == K; }) !=
          Group.end())
        Cands.push_back({I, &Group});
  }
  if (Cands.empty())
    return false;
  auto [I, Group] = Cands[G.pick(Cands.size())];
  S.replace(V.begin(I), V.end(I) - V.begin(I), (*Group)[G.pick(Group->size())]);
  return true;
}

/// Changes a number or an identifier into a boundary value or another name.
bool tradeOperand(std::string &S, Gen &G) {
  View V(S);
  std::vector<size_t> Cands;
  for (size_t I = 0; I < V.C.size(); ++I)
    if (V.T[V.C[I]].K == TK::Number || V.T[V.C[I]].K == TK::Ident)
      Cands.push_back(I);
  if (Cands.empty())
    return false;
  size_t I = Cands[G.pick(Cands.size())];
  std::string New = G.coin(2) ? G.pick(Bounds) : G.pick(Vars);
  S.replace(V.begin(I), V.end(I) - V.begin(I), New);
  return true;
}

using Step = bool (*)(std::string &, Gen &);
const Step Steps[] = {insertKeyword,  insertStatement, insertConstruct, insertConstruct,
                      wrapInConstruct, deleteTokens,   deleteSpan,      duplicateSpan,
                      unwrapConstruct, swapSpans,      tradeKeyword,    tradeKeyword,
                      tradeOperand};

} // namespace

bool mutateParc(std::string &Text, unsigned Seed) {
  Gen G(Seed);
  for (int Try = 0; Try < 4; ++Try)
    if (Steps[G.pick(sizeof(Steps) / sizeof(Steps[0]))](Text, G))
      return true;
  return false;
}

bool crossOverParc(std::string &Text, const std::string &Donor, unsigned Seed) {
  Gen G(Seed);
  View D(Donor);
  size_t B, E;
  if (!span(D, G, B, E))
    return false;
  View V(Text);
  return insertAt(Text, stmtBoundary(V, G), spaced(Donor.substr(B, E - B)));
}

} // namespace parcfuzz
