static inline void both(int *a, int *b) { parblock { *a = 1; } : { *b = 2; } epar }
