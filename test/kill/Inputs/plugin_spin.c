/* Plain C, compiled by parcc into a library that dlopen loads: a loop
   long enough that a pbreak elsewhere should stop it at a poll. */
unsigned long plugin_spins; /* atomic: the program watches it */

int plugin_spin(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        __atomic_store_n(&plugin_spins, i + 1, __ATOMIC_RELAXED);
    return 1;
}
