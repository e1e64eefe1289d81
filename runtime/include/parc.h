/* parc.h - the PARC library as a user program sees it (contract, section 3).
 *
 * parcc makes these declarations available to every PARC source file, so the
 * #include is optional there; plain C files that link against libparc
 * include it themselves.  Everything the compiler emits beyond this lives in
 * parc_abi.h and is not for users.
 */
#ifndef PARC_PARC_H
#define PARC_PARC_H

#ifdef __cplusplus
extern "C" {
#endif

/* faa(p, v): atomically add v to the integer object *p and return its
 * previous value.  A macro over the GNU atomic builtin so that it works for
 * every integer type (int, unsigned, long, long long, size_t, ...) with the
 * type of *p, as the contract requires.  Sequentially consistent, so faa can
 * be used to build the user's own synchronisation. */
#define faa(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)

/* A counting semaphore.  Opaque: initialise it with parc_sem_init before use.
 * A blocked parc_P never ties up its processor: the processor runs other
 * activities until a parc_V wakes the waiter. */
typedef struct parc_sem {
  __attribute__((__aligned__(8))) unsigned char opaque_[48]; /* _Alignas(8), also in C++ */
} parc_sem_t;

void parc_sem_init(parc_sem_t *s, int value);
void parc_P(parc_sem_t *s);
void parc_V(parc_sem_t *s);

/* The number of processors P (PARC_NPROCS, by default the online CPUs). */
int parc_nprocs(void);
/* The processor (0 .. P-1) running the calling activity. */
int parc_procid(void);

#ifdef __cplusplus
}
#endif

#endif /* PARC_PARC_H */
