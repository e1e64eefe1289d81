#define PAR(a, b) parblock { a; } : { b; } epar
