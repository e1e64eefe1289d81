/* Plain C, compiled by parcc into a library that dlopen loads: a loop
   long enough that a pbreak elsewhere should stop it at a poll. */
volatile unsigned long plugin_spins;

int plugin_spin(unsigned long n)
{
    for (plugin_spins = 0; plugin_spins < n; plugin_spins++)
        ;
    return 1;
}
