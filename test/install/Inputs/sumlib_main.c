/* sumlib_main.c - a program that calls the shared library sumlib.c. */
#include <stdio.h>

long lib_sum(void);

int main(void) {
  printf("installed libparc-pic: sum=%ld\n", lib_sum());
  return 0;
}
