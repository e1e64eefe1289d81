/* Plain C of a host code base, with globals named as libparc's internals
 * (test/driver/internal_names.test). */
#include <string.h>

int parc_env_parse(const char *s) { return s ? (int)strlen(s) : -1; }
int parc_help(void) { return 42; }
int parc_start = 5;
