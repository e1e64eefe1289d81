/* Valid C and C++: a caller of the runtime's public entries (cxx_header.test). */
#include <parc.h>

int main(void)
{
    parc_sem_t s;
    parc_sem_init(&s, 1);
    parc_P(&s);
    parc_V(&s);
    long n = 0;
    faa(&n, 2);
    return parc_nprocs() > 0 && n == 2 && sizeof s == 48 ? 0 : 1;
}
