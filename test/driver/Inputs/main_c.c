/* A cc-built program using a shared library that parcc built (shared.test). */
#include <stdio.h>
#include "shared.h"

int main(void)
{
    printf("plain %d\n", plain_sum(N));
    return 0;
}
