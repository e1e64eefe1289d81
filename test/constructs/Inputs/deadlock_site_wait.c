/* Plain C compiled by the back end, not by parcc: its parc_P names no site. */
#include <parc.h>

void wait_in_c(parc_sem_t *s) { parc_P(s); }
