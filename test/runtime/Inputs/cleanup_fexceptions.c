/* C compiled with -fexceptions: a cleanup needs unwind info with the
 * personality routine, which gcc reaches through the COMDAT group
 * DW.ref.__gcc_personality_v0, as libparc's descriptor.c does
 * (test/runtime/personality_comdat.test). */
#include <stdio.h>

static void done(int *p) { if (*p == 12345) puts("never"); }
void (*volatile user_hook)(int);

int user_with_cleanup(int v)
{
    int c __attribute__((cleanup(done))) = v;
    if (user_hook)
        user_hook(c);
    return c;
}
