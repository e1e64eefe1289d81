/* For c11_errno.pc: pretend to be a kernel before 6.13, which knows neither
   MADV_GUARD_INSTALL nor process_madvise, so that the runtime's envelope
   creation meets the failures it falls back from (LD_PRELOAD). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <dlfcn.h>
int madvise(void *addr, size_t len, int advice)
{
    static int (*real)(void *, size_t, int);
    if (advice == 102 /* MADV_GUARD_INSTALL */) { errno = EINVAL; return -1; }
    if (!real) real = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "madvise");
    return real(addr, len, advice);
}
long syscall(long nr, ...)
{
    static long (*real)(long, ...);
    va_list ap; va_start(ap, nr);
    long a[6]; for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
    va_end(ap);
    if (nr == SYS_process_madvise) { errno = ENOSYS; return -1; }
    if (!real) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
