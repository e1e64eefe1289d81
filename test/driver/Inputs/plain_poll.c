/* Plain C whose loops poll when parcc compiles it (the while loop calls a
 * function): plain_link.test links its object with cc, without libparc. */
#include <stdio.h>
#include <string.h>

static size_t words(const char *s)
{
    size_t n = 0;
    while (*s) {
        s += strspn(s, " ");
        if (*s)
            n++;
        s += strcspn(s, " ");
    }
    return n;
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("words %zu\n", words("a plain C file compiled by parcc"));
    return 0;
}
