int plain_helper(int x);
int plain_helper(int x) { int r = 0; parblock { r = x * x; } epar return r; }
