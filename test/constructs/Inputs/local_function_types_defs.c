/* Definitions for local_function_types.pc, in a translation unit of their
   own: the types are compatible with that file's local ones across units. */
typedef struct { int a; } L;
struct Pt { int x, y; };
L make(int v) { L l = { v * 7 }; return l; }
struct Pt mid(struct Pt a, struct Pt b)
{
    struct Pt m = { (a.x + b.x) / 2, (a.y + b.y) / 2 };
    return m;
}
