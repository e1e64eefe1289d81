/* A header of the user's with an error (diag/after_parse_errors.pc). */
static int helper(int x) { return x * nope; }
