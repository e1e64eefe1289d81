#include <stdio.h>
int sum_a(int n);
int sum_b(int n);
int main(void)
{
    printf("%d %d\n", sum_a(4), sum_b(3));
    return 0;
}
