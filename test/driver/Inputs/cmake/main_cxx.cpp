// A C++ program that links the library parcc compiled: CMake links it with
// the C++ compiler and adds what a parcc link needs (libparc, pthreads),
// which it learned from `parcc -v`.
#include <cstdio>

extern "C" long sq_sum(int n);

int main() {
  std::printf("sq_sum(10) = %ld\n", sq_sum(10));
  return 0;
}
