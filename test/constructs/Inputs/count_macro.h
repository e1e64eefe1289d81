/* A header's macro that names a variable of its user's. */
#define COUNT_ONE() faa(&count, 1)
