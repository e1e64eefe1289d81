#define SQ_SCALE 1
long sq_sum(int n);
