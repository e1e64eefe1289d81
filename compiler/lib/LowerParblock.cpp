//===- LowerParblock.cpp - parblock ---------------------------------------===//
//
//   int x, y;                             static void f_parblock_L3_s0(parc_act *parc_self_,
//   parblock                                                            void *parc_envp_) {
//     { x = g(1); }                         struct parc_env_f_L3 *parc_env_ = ...;
//   :                                     #line 4 "prog.pc"
//     { y = g(2); }                         { (*parc_p_x_) = g(1); }
//   epar                                  }
//                                         ... f_parblock_L3_s1 likewise ...
//                                         static void f_parblock_L3(parc_act *parc_self_,
//                                                                   void *parc_envp_) {
//                                           __UINT64_TYPE__ parc_k_;
//                                           while (parc_next(parc_self_, &parc_k_))
//                                             switch (parc_k_) {
//                                             case 0: f_parblock_L3_s0(parc_self_, parc_envp_); break;
//                                             case 1: f_parblock_L3_s1(parc_self_, parc_envp_); break;
//                                             }
//                                         }
// and in f, in place of the construct:
//   { struct parc_env_f_L3 parc_e_L3_ = { &x, &y }; parc_desc parc_d_L3_;
//     parc_spawn(&parc_d_L3_, &parc_site_f_L3_, f_parblock_L3, &parc_e_L3_, 2); }
//
// One spawn descriptor per execution, one activity per section; each
// section is a function of its own so that gdb and profilers name it.
//
//===----------------------------------------------------------------------===//
#include "parcc/Lowering.h"

namespace parcc {

std::string sectionNames(const Outliner &O, const Construct &C, std::string &Decls) {
  std::string Lines = "static const unsigned parc_lines_" + C.Tag + "_[] = {";
  for (const auto &A : C.Acts) {
    std::string File;
    unsigned Line, Col;
    O.S.userPosition(O.S.offset(A->Body->getLBracLoc()), Line, Col);
    O.S.presumedLine(Line, File, Line);
    Lines += (A->Index ? ", " : " ") + std::to_string(Line) + ", " + std::to_string(Col);
  }
  Decls += Lines + " };\n";
  return "PARC_SECTION_NAMES_INIT(parc_lines_" + C.Tag + "_)";
}

void lowerParblock(Outliner &O, const Construct &C, std::string &Defs, std::string &Spawn) {
  std::string Name = O.bodyName(C);
  for (const auto &A : C.Acts) {
    std::string Sec = Name + "_s" + std::to_string(A->Index);
    Defs += O.placeLines(O.bodyHead(C, Sec, A.get()) + O.activityText(*A) + "}\n", C.Line);
  }
  std::string Dispatch = "static void " + Name +
                         "(parc_act *parc_self_, void *parc_envp_) {\n"
                         "  __UINT64_TYPE__ parc_k_;\n"
                         "  while (parc_next(parc_self_, &parc_k_)) {\n"
                         "    switch (parc_k_) {\n";
  for (const auto &A : C.Acts) {
    std::string K = std::to_string(A->Index);
    Dispatch += "    case " + K + ": " + Name + "_s" + K + "(parc_self_, parc_envp_); break;\n";
  }
  Defs += O.placeLines(Dispatch + "    default: break;\n    }\n  }\n}\n", C.Line);

  std::string D = O.descName(C), E = O.envVarName(C);
  Spawn = "{ ";
  std::string EnvArg = "(void *)0";
  if (O.hasEnv(C)) {
    Spawn += O.envType(C) + " " + E + " = { " + O.envInits(C) + " }; ";
    EnvArg = "&" + E;
  }
  Spawn += "parc_desc " + D + "; parc_spawn(&" + D + ", &" + O.siteName(C) + ", " + Name + ", " +
           EnvArg + ", " + std::to_string(C.Acts.size()) + "); " + preturnCheck(O, C) + "}";
}

} // namespace parcc
