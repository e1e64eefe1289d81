#include <stdio.h>

int main(void)
{
    printf("plain %d\n", 7);
    fprintf(stderr, "to stderr\n");
    return 0;
}
