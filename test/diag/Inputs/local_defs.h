typedef int loc_t;
#define K 11
