#include <stdio.h>
long a_apply(long (*f)(int), int n);
long b_self(int n);
int main(void)
{
    printf("%ld\n", a_apply(b_self, 100));
    return 0;
}
