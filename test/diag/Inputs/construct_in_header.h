/* A construct written in a header (diag/after_parse_errors.pc). */
#include <stdio.h>
static int a[4];
static void fill(void)
{
    parfor int i; 0; 3; 1; { a[i] = i; } epar
}
