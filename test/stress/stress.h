/* stress.h - what the stress programs share: a seeded random source, random
 * work, and the verdict.
 *
 * A stress program takes its seed as argv[1] (tools/stress.sh passes a new
 * one per run and prints it with every failure, so a failing schedule's
 * inputs can be replayed), draws every size, role and amount of work from
 * it, checks its own results, prints "FORBIDDEN: ..." the moment it reaches
 * code the contract says cannot run (after pbreak, past a sync or a P that
 * only a kill can end, after an epar whose construct preturned), "FAIL: ..."
 * for a wrong result, and "OK" as its only line when all is well.
 *
 * This header is plain C: its loops are not poll points (headers are not
 * PARC), so stress_work is straight-line code as far as kills go.  Loops that
 * a kill must interrupt are written in the .pc files.
 */
#ifndef PARC_STRESS_H
#define PARC_STRESS_H

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static unsigned long long stress_seed;
static int stress_failures;

/* splitmix64: a well-mixed value for every (seed, salt). */
static unsigned long long stress_mix(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* A number in [0, n) that depends only on the seed and the salt, so that a
 * decision does not depend on which activity runs first. */
static unsigned stress_pick(unsigned long long salt, unsigned n)
{
    return n ? (unsigned)(stress_mix(stress_seed ^ stress_mix(salt)) % n) : 0;
}

static void stress_init(int argc, char **argv)
{
    if (argc > 1)
        stress_seed = strtoull(argv[1], NULL, 0);
    else
        stress_seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
}

/* About units * 100 loop iterations of work; now and then a yield or a short
 * sleep of the processor's thread, so that the operating system reorders
 * the processors as well.  The salt picks which. */
static void stress_work(unsigned units, unsigned long long salt)
{
    volatile unsigned sink = 0;
    for (unsigned k = 0; k < units * 100u; k++)
        sink += k;
    switch (stress_pick(salt ^ 0x5eedULL, 32)) {
    case 0:
        sched_yield();
        break;
    case 1:
        usleep(stress_pick(salt ^ 0x51eeULL, 200));
        break;
    default:
        break;
    }
}

#define STRESS_FORBIDDEN(what)                                                    \
    do {                                                                          \
        printf("FORBIDDEN: %s (line %d, seed %llu)\n", what, __LINE__, stress_seed); \
        fflush(stdout);                                                           \
        faa(&stress_failures, 1);                                                 \
    } while (0)

/* One printf per message, so that messages of several activities do not
 * interleave. */
static void stress_fail(int line, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printf("FAIL: line %d, seed %llu: %s\n", line, stress_seed, msg);
    fflush(stdout);
    faa(&stress_failures, 1);
}

#define STRESS_CHECK(cond, ...)                                                   \
    do {                                                                          \
        if (!(cond))                                                              \
            stress_fail(__LINE__, __VA_ARGS__);                                   \
    } while (0)

/* The exit status of main. */
static int stress_done(void)
{
    if (stress_failures == 0)
        printf("OK\n");
    return stress_failures != 0;
}

#endif
