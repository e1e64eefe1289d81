//===- parcc.cpp - the parcc executable: arguments to the driver ----------===//
#include "parcc/Driver.h"

#include "llvm/Support/InitLLVM.h"

int main(int argc, const char **argv) {
  parcc::noteInheritedSignals();
  llvm::InitLLVM X(argc, argv);
  parcc::installOutOfMemoryHandler();
  return parcc::runDriver(llvm::ArrayRef<const char *>(argv, argc));
}
