#!/usr/bin/env python3
"""parcgen.py - a random PARC program generator that looks for wrong code.

    tools/parcgen.py SEED [-o DIR]      write DIR/gen-SEED.pc and DIR/gen-SEED.c
    tools/parcgen.py SEED --print pc|c  write one of the two to stdout

From SEED it makes one valid, terminating PARC program whose output does not
depend on P or on the schedule *by construction*, and the same program as
plain serial C, every construct replaced by its serial meaning.  gcc's build
of the serial C gives the expected output; tools/parcgen-run.sh compares it
with parcc's builds at several P and schedules.

How the output is kept deterministic (docs/reliability.md, section 8):
- every object has one owner at a time.  A construct hands the objects its
  parent owns to its activities: a scalar to one parblock section, or one
  element (row) of an array per activity, indexed by the activity's ordinal;
  everything not handed out is read-only while the construct runs;
- shared accumulators are only changed with faa or inside a semaphore used as
  a lock, by commutative additions (exact in double), and read by an owner only;
- pbreak: every activity that may pbreak first stores the same value into the
  same flag, and the pbreaking construct writes nothing else that outlives it;
  preturn: every activity returns the same value, and the function's
  activities write nothing outside the function's own locals; no preturn
  inside a construct that may pbreak (which of the two wins is the schedule's);
- sync: double-buffered stencils, phase k reads phase k-1's buffer;
- arithmetic is unsigned (wraps), conversions are explicit, floats hold
  multiples of 1/4 below 2^20, so that nothing is undefined.
Only the root activity prints.
"""
import argparse
import os
import random
import sys

# Integer types: name, bits, signed.  (size_t, ptrdiff_t and the <stdint.h>
# names are the x86-64 ones.)
ITYPES = [
    ("char", 8, True), ("signed char", 8, True), ("unsigned char", 8, False),
    ("short", 16, True), ("unsigned short", 16, False), ("int", 32, True),
    ("unsigned", 32, False), ("long", 64, True), ("unsigned long", 64, False),
    ("long long", 64, True), ("unsigned long long", 64, False),
    ("size_t", 64, False), ("ptrdiff_t", 64, True), ("int8_t", 8, True),
    ("uint16_t", 16, False), ("int32_t", 32, True), ("uint64_t", 64, False),
    ("idx_t", 64, True), ("uidx_t", 16, False),
]
ITYPE = {t[0]: t for t in ITYPES}
FTYPES = ["float", "double", "long double"]
# Index types beyond the integer ones: _Bool, an enum and __int128.
EXTRA_INDEX = [("_Bool", 1, False), ("enum colour", 32, False), ("__int128", 128, True)]
ITYPE.update({t[0]: t for t in EXTRA_INDEX})

MAX_DEPTH = 4          # constructs nested in one function body
BUDGET = 1500          # activities, roughly, that one program may create


def tmin(t):
    _, bits, signed = ITYPE[t]
    if t == "enum colour":
        return 0
    return -(1 << (bits - 1)) if signed else 0


def tmax(t):
    _, bits, signed = ITYPE[t]
    if t == "enum colour":
        return 3
    return (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1


def conv(v, t):
    """v converted to integer type t (wrapping, as gcc does)."""
    _, bits, signed = ITYPE[t]
    if t == "_Bool":
        return 1 if v else 0
    if t == "enum colour":
        return v & 0xFFFFFFFF
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def lit(v):
    """A C literal for v (any 64-bit or __int128 value we use)."""
    if v == -(1 << 63):
        return "(-9223372036854775807LL - 1)"
    if v < 0:
        return "(-%dLL)" % -v if v >= -(1 << 63) else "((__int128)(%dLL) * 4)" % (v // 4)
    if v >= 1 << 64:
        return "((__int128)%dULL * 4)" % (v // 4)
    return "%dULL" % v if v > 0x7FFFFFFF else "%d" % v


def iterations(lo, hi, st, t):
    """The values a parfor over t takes, by the contract (section 2)."""
    lo, hi, st = conv(lo, t), conv(hi, t), conv(st, t)
    out = []
    if st > 0:
        v = lo
        while v <= hi:
            out.append(v)
            if hi - v < st:
                break
            v += st
    elif st < 0:
        v = lo
        while v >= hi:
            out.append(v)
            if v - hi < -st:
                break
            v += st
    return out


class Lines:
    """Two programs written side by side: lines common to both, or a pair."""

    def __init__(self):
        self.rows = []
        self.ind = 1

    def add(self, s):
        self.rows.append((self.ind, s, s))

    def add2(self, p, s):
        self.rows.append((self.ind, p, s))

    def render(self, which):
        out = []
        for ind, p, s in self.rows:
            x = p if which == 0 else s
            if x is not None:
                out.append("    " * ind + x)
        return "\n".join(out)


class Ent:
    """A scalar lvalue (or rvalue): its C expression, type and owning base."""

    def __init__(self, expr, ty, base, shadowable=False):
        self.expr, self.ty, self.base, self.shadowable = expr, ty, base, shadowable


class Arr:
    """An array one can partition: slot(k) gives the lvalues of element k."""

    def __init__(self, name, cap, ty, base, slot):
        self.name, self.cap, self.ty, self.base, self.slot = name, cap, ty, base, slot


class Ctx:
    def __init__(self, **kw):
        self.readable = []     # Ent: read-only here
        self.own = []          # Ent: read and written here only
        self.arrays = []       # Arr: owned here
        self.faa = []          # Ent: integer accumulators, faa only
        self.locked = []       # (Ent, sem expr): accumulators under a lock
        self.depth = 0         # constructs around us in this function
        self.in_act = False
        self.killable = False  # a pbreak/preturn may kill us: no effects outside
        self.pbreak = None     # (flag expr, value, label)
        self.preturn = None    # (value expr)
        self.budget = BUDGET
        self.in_loop = False
        self.fdepth = 0        # static call depth
        self.fid = 0           # the function we are in (calls go to later ones)
        self.stmts = 0
        self.pure = False      # a function that must not touch globals
        self.nest = 0          # statements nested in this function body
        self.handed = []       # what the parent gave this activity
        self.__dict__.update(kw)

    def child(self, **kw):
        c = Ctx()
        c.__dict__.update(self.__dict__)
        c.readable = list(self.readable)
        c.own = list(self.own)
        c.arrays = list(self.arrays)
        c.faa = list(self.faa)
        c.locked = list(self.locked)
        c.__dict__.update(kw)
        return c


class Func:
    def __init__(self, fid, name, kind, budget):
        self.fid, self.name, self.kind, self.budget = fid, name, kind, budget
        self.rt = "unsigned"
        self.proto = None
        self.lines = None


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.uid = 0
        self.funcs = []
        self.globals = Lines()
        self.globals.ind = 0
        self.gmix = []          # expressions main folds into the hash at the end
        self.g_ro = []          # read-only globals (Ent)
        self.g_faa = []
        self.g_locked = []
        self.main_own = []
        self.main_arrays = []

    # -- helpers ------------------------------------------------------------
    def new(self, p):
        self.uid += 1
        return "%s%d" % (p, self.uid)

    def chance(self, p):
        return self.r.random() < p

    def pick(self, xs):
        return self.r.choice(xs)

    # -- expressions (all of type unsigned) ---------------------------------
    def leaf(self, ctx, extra):
        r = self.r.random()
        pool = ctx.readable + ctx.own + extra
        if pool and r < 0.7:
            e = self.pick(pool)
            return "(unsigned)(%s)" % e.expr
        if ctx.arrays and r < 0.8:
            a = self.pick(ctx.arrays)
            return "(unsigned)(%s)" % self.pick(a.slot(self.r.randrange(a.cap)))
        return "%du" % self.pick([x for x in range(50) if x not in (2, 10)])

    def uexpr(self, ctx, d=2, extra=()):
        extra = list(extra)
        if d <= 0 or self.chance(0.3):
            return self.leaf(ctx, extra)
        k = self.r.randrange(9)
        a = self.uexpr(ctx, d - 1, extra)
        b = self.uexpr(ctx, d - 1, extra)
        if a == b:      # x ^ x and friends: gcc folds them and may warn
            b = "%du" % self.r.randrange(3, 50)
        if k == 0:
            return "(%s + %s)" % (a, b)
        if k == 1:
            return "(%s * %s)" % (a, b)
        if k == 2:
            return "(%s ^ %s)" % (a, b)
        if k == 3:
            return "(%s - %s)" % (a, b)
        if k == 4:
            return "(%s >> (%s %% 8u))" % (a, b)
        if k == 5:
            return "(%s %% (%s | 1u))" % (a, b)
        if k == 6:
            return "(%s & %s)" % (a, b)
        if k == 7:
            c = self.uexpr(ctx, d - 1, extra)
            return "(((%s ^ %s) & 1u) ? %s : %s)" % (a, b, c, a)
        return "(%s | %s)" % (a, b)

    def value_for(self, ty, u):
        """An expression of type ty made from the unsigned expression u."""
        if ty in FTYPES:
            return "(%s)((double)(%s %% 1000u) * 0.25)" % (ty, u)
        return "(%s)(%s)" % (ty, u)

    def add_to(self, ty, lv, u):
        """lv += something of u, keeping floats small and exact."""
        if ty in FTYPES:
            return "%s = (%s)(%s + (double)(%s %% 64u));" % (lv, ty, lv, u)
        if ty == "_Bool":
            return "%s = (_Bool)((%s %% 2u) ^ (unsigned)%s);" % (lv, u, lv)
        return "%s = (%s)((unsigned)(%s) + %s);" % (lv, ty, lv, u)

    def cond(self, ctx, extra=()):
        return "(%s %% %du == %du)" % (self.uexpr(ctx, 2, extra), self.r.randrange(2, 5),
                                       self.r.randrange(0, 2))

    # -- declarations of locals -----------------------------------------------
    def scalar_type(self):
        if self.chance(0.15):
            return self.pick(FTYPES)
        return self.pick(ITYPES)[0]

    def declare_locals(self, ctx, L, n, private):
        """Declare n locals of assorted kinds; they become ctx's own.

        Returns the scalar Ents declared (consts included), for fold_all."""
        shadow = [e.expr for e in ctx.own + ctx.readable if e.shadowable]
        decl = []
        for _ in range(n):
            k = self.r.randrange(13)
            name = self.new("v")
            # Shadow a name of the enclosing scope now and then.
            if private and shadow and self.chance(0.25):
                name = self.pick(shadow)
                shadow.remove(name)
                self.drop_base(ctx, name)
            mark = len(ctx.own) + len(ctx.readable)
            if k <= 4:
                ty = self.scalar_type()
                vol = "volatile " if self.chance(0.1) else ""
                L.add("%s%s %s = %s;" % (vol, ty, name, self.value_for(ty, self.uexpr(ctx))))
                ctx.own.append(Ent(name, ty, name, shadowable=True))
            elif k == 5:
                ty = self.scalar_type()
                L.add("const %s %s = %s;" % (ty, name, self.value_for(ty, self.uexpr(ctx))))
                ctx.readable.append(Ent(name, ty, name, shadowable=True))
            elif k == 6:
                ty = self.pick(ITYPES)[0]
                cap = self.r.randrange(2, 9)
                L.add("%s %s[%d] = {0};" % (ty, name, cap))
                ctx.arrays.append(Arr(name, cap, ty, name, lambda i, n=name: ["%s[%s]" % (n, i)]))
            elif k == 7:
                ty = self.pick(ITYPES)[0]
                rows, cols = self.r.randrange(2, 7), self.r.randrange(1, 4)
                L.add("%s %s[%d][%d];" % (ty, name, rows, cols))
                L.add("memset(%s, 0, sizeof %s);" % (name, name))
                ctx.arrays.append(Arr(name, rows, ty, name,
                                      lambda i, n=name, c=cols: ["%s[%s][%d]" % (n, i, j) for j in range(c)]))
            elif k == 8:
                ty = self.pick(ITYPES)[0]
                cap = self.r.randrange(2, 9)
                nn = self.new("n")
                L.add("const int %s = %d + (int)(%s & 0u);" % (nn, cap, self.uexpr(ctx, 1)))
                L.add("%s %s[%s];" % (ty, name, nn))
                L.add("memset(%s, 0, sizeof %s);" % (name, name))
                ctx.arrays.append(Arr(name, cap, ty, name, lambda i, n=name: ["%s[%s]" % (n, i)]))
            elif k == 9:
                sn = self.new("S")
                ta, tb = self.pick(ITYPES)[0], self.pick(FTYPES)
                cap = self.r.randrange(2, 7)
                L.add("struct %s { %s a; %s d; unsigned arr[%d]; } %s;" % (sn, ta, tb, cap, name))
                L.add("memset(&%s, 0, sizeof %s);" % (name, name))
                L.add("%s.a = %s;" % (name, self.value_for(ta, self.uexpr(ctx))))
                ctx.own.append(Ent(name + ".a", ta, name + ".a"))
                ctx.own.append(Ent(name + ".d", tb, name + ".d"))
                ctx.arrays.append(Arr(name + ".arr", cap, "unsigned", name + ".arr",
                                      lambda i, n=name: ["%s.arr[%s]" % (n, i)]))
            elif k == 12:
                # Bit-fields: read-only captures (no faa on them, and
                # adjacent ones share a memory location).
                L.add("struct { unsigned a : 3; int b : 5; unsigned c : 9; } %s;" % name)
                L.add("memset(&%s, 0, sizeof %s);" % (name, name))
                L.add("%s.a = (%s) & 7u;" % (name, self.uexpr(ctx)))
                L.add("%s.b = (int)((%s) %% 16u) - 8;" % (name, self.uexpr(ctx)))
                L.add("%s.c = (%s) & 511u;" % (name, self.uexpr(ctx)))
                for f in "abc":
                    ctx.readable.append(Ent("%s.%s" % (name, f), "int" if f == "b" else "unsigned", name))
            elif k == 10:
                L.add("union { unsigned u; unsigned char b[4]; } %s;" % name)
                L.add("%s.u = %s;" % (name, self.uexpr(ctx)))
                ctx.own.append(Ent(name + ".u", "unsigned", name))
                ctx.own.append(Ent(name + ".b[1]", "unsigned char", name))
            else:
                ty = self.pick(ITYPES)[0]
                cap = self.r.randrange(2, 9)
                b = self.new("b")
                L.add("%s %s[%d] = {0};" % (ty, b, cap))
                L.add("%s *%s = %s;" % (ty, name, b))
                ctx.arrays.append(Arr(name, cap, ty, name, lambda i, n=name: ["%s[%s]" % (n, i)]))
            if len(ctx.own) + len(ctx.readable) > mark:
                decl += [e for e in ctx.own + ctx.readable if e.base == name or
                         e.base.startswith(name + ".")]
        return decl

    def drop_base(self, ctx, base):
        ctx.readable = [e for e in ctx.readable if e.base != base]
        ctx.own = [e for e in ctx.own if e.base != base]

    def fold_all(self, ctx, locals_own, locals_arrays):
        """An unsigned expression of every private local, so each is used."""
        parts = ["(unsigned)(%s)" % e.expr for e in locals_own]
        for a in locals_arrays:
            parts += ["(unsigned)(%s)" % lv for lv in a.slot(self.r.randrange(a.cap))]
        return " + ".join(parts) if parts else "0u"

    # -- statements ---------------------------------------------------------
    def block(self, ctx, L, n):
        ctx = ctx.child(nest=ctx.nest + 1)
        for _ in range(n):
            self.stmt(ctx, L)

    def stmt(self, ctx, L):
        if ctx.pbreak is not None and self.chance(0.05):
            flag, val, label = ctx.pbreak
            L.add("if %s {" % self.cond(ctx))
            L.add("    %s = %d;" % (flag, val))
            L.add2("    pbreak;", "    goto %s;" % label)
            L.add("}")
            return
        if ctx.preturn is not None and self.chance(0.05):
            L.add("if %s" % self.cond(ctx))
            L.add2("    preturn %s;" % ctx.preturn, "    return %s;" % ctx.preturn)
            return
        r = self.r.random()
        if ctx.depth < MAX_DEPTH and ctx.budget >= 2 and r < 0.34:
            return self.construct(ctx, L)
        if r < 0.42 and ctx.budget >= 2 and ctx.fdepth < 3:
            if self.call(ctx, L):
                return
        if ctx.nest > 4 and r < 0.66:
            r = 0.7
        if r < 0.5:
            return self.loop(ctx, L)
        if r < 0.56:
            return self.switch(ctx, L)
        if r < 0.62:
            return self.if_(ctx, L)
        if r < 0.66:
            return self.goto(ctx, L)
        if r < 0.7 and ctx.in_loop:
            L.add("if %s %s;" % (self.cond(ctx), self.pick(["break", "continue"])))
            return
        if r < 0.8 and (ctx.faa or ctx.locked):
            return self.acc_update(ctx, L)
        self.assign(ctx, L)

    def assign(self, ctx, L):
        if ctx.own and (not ctx.arrays or self.chance(0.6)):
            e = self.pick(ctx.own)
            if self.chance(0.5):
                L.add(self.add_to(e.ty, e.expr, self.uexpr(ctx)))
            else:
                L.add("%s = %s;" % (e.expr, self.value_for(e.ty, self.uexpr(ctx))))
        elif ctx.arrays:
            a = self.pick(ctx.arrays)
            lv = self.pick(a.slot(self.r.randrange(a.cap)))
            L.add(self.add_to(a.ty, lv, self.uexpr(ctx)))

    def acc_update(self, ctx, L):
        if ctx.faa and (not ctx.locked or self.chance(0.5)):
            e = self.pick(ctx.faa)
            L.add("(void)faa(&%s, (%s)(%s %% 5u));" % (e.expr, e.ty, self.uexpr(ctx)))
        else:
            e, sem = self.pick(ctx.locked)
            L.add("parc_P(%s);" % sem)
            if e.ty in FTYPES:
                L.add("%s += (%s)(%s %% 64u);" % (e.expr, e.ty, self.uexpr(ctx)))
            elif e.expr.endswith(".max"):
                v = self.new("m")
                L.add("{ unsigned %s = %s %% 1000u; if (%s > %s) %s = %s; }" % (
                    v, self.uexpr(ctx), v, e.expr, e.expr, v))
            else:
                L.add("%s = (%s)(%s + %s);" % (e.expr, e.ty, e.expr, self.uexpr(ctx)))
            L.add("parc_V(%s);" % sem)

    def loop(self, ctx, L):
        n = self.r.randrange(1, 4)
        c = ctx.child(budget=ctx.budget // n, in_loop=True)
        k = self.new("k")
        form = self.r.randrange(3)
        if form == 0:
            L.add("for (int %s = 0; %s < %d; %s++) {" % (k, k, n, k))
        elif form == 1:
            L.add("{ int %s = %d; while (%s-- > 0) {" % (k, n, k))
        else:
            L.add("{ int %s = 0; do {" % k)
        L.ind += 1
        c.readable = c.readable + [Ent(k, "int", k)]
        self.block(c, L, self.r.randrange(1, 3))
        L.ind -= 1
        if form == 0:
            L.add("}")
        elif form == 1:
            L.add("} }")
        else:
            L.add("} while (++%s < %d); }" % (k, n))

    def if_(self, ctx, L):
        if ctx.depth < MAX_DEPTH and ctx.budget >= 2 and self.chance(0.25):
            L.add("if %s" % self.cond(ctx))    # a construct as the whole body
            L.ind += 1
            self.par(ctx, L, pbreak=False, bare=True)
            L.ind -= 1
            if self.chance(0.5):
                L.add("else")
                L.ind += 1
                self.par(ctx, L, pbreak=False, bare=True)
                L.ind -= 1
            return
        L.add("if %s {" % self.cond(ctx))
        L.ind += 1
        self.block(ctx.child(), L, self.r.randrange(1, 3))
        L.ind -= 1
        if self.chance(0.5):
            L.add("} else {")
            L.ind += 1
            self.block(ctx.child(), L, 1)
            L.ind -= 1
        L.add("}")

    def switch(self, ctx, L):
        n = self.r.randrange(2, 4)
        L.add("switch (%s %% %du) {" % (self.uexpr(ctx), n + 1))
        for i in range(n):
            L.add("case %d: {" % i if i < n - 1 else "default: {")
            L.ind += 1
            self.block(ctx.child(), L, self.r.randrange(1, 3))
            L.ind -= 1
            L.add("} break;")
        L.add("}")

    def goto(self, ctx, L):
        lab = self.new("L")
        L.add("if %s goto %s;" % (self.cond(ctx), lab))
        L.add("{")
        L.ind += 1
        self.block(ctx.child(), L, self.r.randrange(1, 3))
        L.ind -= 1
        L.add("}")
        L.add("%s: ;" % lab)

    # -- constructs ---------------------------------------------------------
    def construct(self, ctx, L):
        r = self.r.random()
        if r < 0.12 and ctx.budget >= 8:
            return self.stencil(ctx, L)
        if r < 0.27:
            return self.par(ctx, L, pbreak=True)
        if r < 0.35 and ctx.budget >= 8:
            return self.handoff(ctx, L)
        return self.par(ctx, L, pbreak=False)

    def index_range(self, big=False):
        """(type, lo, hi, st) of a parfor; values by iterations().

        big: many iterations (an lparfor's chunks, or a wide parfor)."""
        t = self.pick([x[0] for x in ITYPES] * 3 + [x[0] for x in EXTRA_INDEX])
        if t == "_Bool":
            return t, self.r.randrange(0, 2), self.r.randrange(0, 2), 1
        if t == "enum colour":
            return t, self.r.randrange(0, 4), self.r.randrange(0, 4), 1
        signed = ITYPE[t][2]
        mn, mx = tmin(t), tmax(t)
        st = self.pick([1, 1, 2, 3, 5])
        if not signed and self.chance(0.05):
            lo = self.r.randrange(0, 10)      # -1 converted to TYPE: a huge step
            return t, lo, lo + self.r.randrange(0, 20), -1
        if signed and self.chance(0.4):
            st = -st
        cnt = self.pick([0, 1, 2, 3, 4, 5, 6, 7, 8])
        where = self.r.randrange(4) if t != "__int128" else 3
        if not big and t != "__int128" and self.chance(0.1):
            # A huge step: a few values spread over the whole type.
            cnt = self.r.randrange(1, 5)
            st = self.r.randrange(1, min(mx, (mx - mn) // cnt) + 1) * (-1 if st < 0 else 1)
            where = self.r.randrange(2)
        if big:
            st = self.pick([1, 2, 3, 7]) * (-1 if st < 0 else 1)
            cnt = min(self.pick([9, 13, 40, 100, 257, 1000, 3000]), (mx - mn - 8) // abs(st))
            where = self.r.randrange(2) if t != "__int128" else 3
        span = abs(st) * max(cnt - 1, 0) + (self.r.randrange(abs(st)) if cnt else 0)
        if cnt == 0:
            if where == 0:
                x = mx - self.r.randrange(0, 3)
            elif where == 1:
                x = mn + 1 + self.r.randrange(0, 3)
            else:
                x = self.r.randrange(max(mn + 1, -20), 40)
            y = x - 1 - self.r.randrange(0, 2) if x - 2 >= mn else x - 1
            return (t, x, y, st) if st > 0 else (t, y, x, st)
        if st > 0:
            if where == 0:
                lo = mx - span - self.r.randrange(0, 3)
            elif where == 1:
                lo = mn + self.r.randrange(0, 3)
            else:
                lo = self.r.randrange(max(mn, -20), min(mx - span, 40) + 1)
            return t, lo, lo + span, st
        if where == 0:
            lo = mn + span + self.r.randrange(0, 3)
        elif where == 1:
            lo = mx - self.r.randrange(0, 3)
        else:
            lo = self.r.randrange(max(mn + span, -20), min(mx, 40) + 1)
        return t, lo, lo - span, st

    def bound_expr(self, ctx, t, v, side, plain):
        """An expression for the bound v; side: a counter to bump (or None)."""
        x = lit(v)
        if t == "enum colour" and 0 <= v <= 3 and self.chance(0.5):
            x = ["RED", "GREEN", "BLUE", "WHITE"][v]
        hidden = v < 0 and not ITYPE[t][2]   # parcc warns on a constant one
        if side is not None and (hidden or self.chance(0.6)):
            return "bump(&%s, %s)" % (side, x)
        if hidden:
            return "(%s + (long long)g_zero)" % x
        if not plain and self.chance(0.1):
            c = self.pure_call(ctx)
            if c:
                return "(%s + (long long)(%s & 0u))" % (x, c)
        if not plain and self.chance(0.3) and (ctx.readable or ctx.own):
            return "(%s + (long long)(%s & 0u))" % (x, self.uexpr(ctx, 1))
        return x

    def hand_out(self, ctx, nact, slot_of, give, uniform, bare=False):
        """Give each of nact activities some of ctx's objects.

        Returns (per-activity own Ents, per-activity Arrs, the readable Ents
        every activity sees, faa Ents, locked, prologue lines, taken bases).
        give=False: nothing is handed out (a construct that may pbreak);
        uniform: every activity has the same body (parfor), so only slots.
        """
        own = [[] for _ in range(nact)]
        arrs = [[] for _ in range(nact)]
        taken = set()
        faa, locked, pro = [], [], []
        if give and nact:
            cands = [a for a in ctx.arrays if a.cap >= nact]
            if cands and self.chance(0.8):
                a = self.pick(cands)
                taken.add(a.base)
                for i in range(nact):
                    for lv in a.slot(slot_of(i)):
                        own[i].append(Ent(lv, a.ty, a.base))
            ints = [e for e in ctx.own if e.ty in ITYPE and e.ty != "_Bool"
                    and e.base not in taken and "[" not in e.expr]
            if ints and self.chance(0.9 if not taken else 0.5):
                e = self.pick(ints)
                taken.add(e.base)
                faa.append(e)
            rest = [e for e in ctx.own if e.base not in taken and "[" not in e.expr]
            if rest and not bare and self.chance(0.3):
                e = self.pick(rest)
                taken.add(e.base)
                s = self.new("sem")
                pro.append("parc_sem_t %s;" % s)
                pro.append("parc_sem_init(&%s, 1);" % s)
                locked.append((e, "&" + s))
            if not uniform:
                for e in ctx.own:
                    if e.base not in taken and self.chance(0.4):
                        i = self.r.randrange(nact)
                        own[i] += [x for x in ctx.own if x.base == e.base]
                        taken.add(e.base)
                for a in ctx.arrays:
                    if a.base not in taken and self.chance(0.3):
                        arrs[self.r.randrange(nact)].append(a)
                        taken.add(a.base)
        readable = ctx.readable + [e for e in ctx.own if e.base not in taken]
        for a in ctx.arrays:
            if a.base not in taken:
                readable += [Ent(lv, a.ty, a.base) for lv in a.slot(self.r.randrange(a.cap))]
        return own, arrs, readable, faa, locked, pro, taken

    def activity(self, ctx, L, own, arrs, readable, faa, locked, budget, extra_read, pb, deliver):
        """The body of one activity: private locals, statements, delivery."""
        c = ctx.child(readable=readable + extra_read, own=list(own), arrays=list(arrs),
                      handed=[e for e in own if e.ty != "_Bool"],
                      faa=ctx.faa + faa, locked=ctx.locked + locked, depth=ctx.depth + 1,
                      in_act=True, in_loop=False, budget=budget)
        c.pbreak = pb
        if pb is not None:
            c.killable = True
            # No preturn under a construct that may pbreak: a sibling's pbreak
            # may kill the activity before its preturn, and then which of the
            # two came first (the schedule) decides what the function returns.
            c.preturn = None
            c.own, c.arrays, c.faa, c.locked = [], [], [], []
        mark_arr = len(c.arrays)
        priv_own = self.declare_locals(c, L, self.r.randrange(1, 3), private=True)
        if self.chance(0.3):
            name = self.new("st")
            L.add("static const unsigned %s = %du;" % (name, self.r.randrange(100)))
            c.readable.append(Ent(name, "unsigned", name))
            priv_own.append(c.readable[-1])
        self.block(c, L, self.r.randrange(1, 4))
        priv_arr = c.arrays[mark_arr:]
        s = self.fold_all(c, priv_own, priv_arr)
        deliver(c, L, s)

    def deliver_default(self, c, L, s):
        """Hand an activity's result to what it owns, or to an accumulator."""
        outs = [e for e in c.handed if e in c.own]
        if c.pbreak is not None:
            flag, val, label = c.pbreak
            L.add("if ((%s) %% 3u == 1u) {" % s)
            L.add("    %s = %d;" % (flag, val))
            L.add2("    pbreak;", "    goto %s;" % label)
            L.add("}")
        elif c.preturn is not None and self.chance(0.5):
            L.add("if ((%s) %% 4u == 1u)" % s)
            L.add2("    preturn %s;" % c.preturn, "    return %s;" % c.preturn)
            self.deliver_to(c, L, s, outs)
        else:
            self.deliver_to(c, L, s, outs)

    def deliver_to(self, c, L, s, outs):
        if outs and (not (c.faa or c.locked) or self.chance(0.6)):
            e = self.pick(outs)
            L.add(self.add_to(e.ty, e.expr, "(%s)" % s))
        elif c.faa or c.locked:
            if c.faa and (not c.locked or self.chance(0.5)):
                e = self.pick(c.faa)
                L.add("(void)faa(&%s, (%s)((%s) %% 7u));" % (e.expr, e.ty, s))
            else:
                e, sem = self.pick(c.locked)
                L.add("parc_P(%s);" % sem)
                if e.ty in FTYPES:
                    L.add("%s += (%s)((%s) %% 64u);" % (e.expr, e.ty, s))
                elif e.expr.endswith(".max"):
                    L.add("if ((%s) %% 1000u > %s) %s = (%s) %% 1000u;" % (s, e.expr, e.expr, s))
                else:
                    L.add("%s = (%s)(%s + (%s));" % (e.expr, e.ty, e.expr, s))
                L.add("parc_V(%s);" % sem)
        else:
            L.add("(void)(%s);" % s)

    def par(self, ctx, L, pbreak, bare=False):
        """A parblock, parfor, lparfor or mapped lparfor; bare: one statement,
        with nothing declared around it (the body of an if)."""
        kind = self.pick(["parblock", "parfor", "lparfor", "mapped lparfor"])
        pb = None
        if not bare:
            L.add("{")
            L.ind += 1
        if pbreak:
            flag = self.new("flag")
            L.add("int %s = 0;" % flag)
            pb = (flag, self.r.randrange(1, 100), self.new("Lpb"))
        if kind == "parblock":
            n = self.r.randrange(1, 5)
            own, arrs, readable, faa, locked, pro, taken = self.hand_out(
                ctx, n, lambda i: str(i), not pbreak, False, bare)
            for p in pro:
                L.add(p)
            L.add2("parblock", "{")
            for i in range(n):
                L.add2("{" if i == 0 else ": {", "{")
                L.ind += 1
                self.activity(ctx, L, own[i], arrs[i], readable, faa, locked,
                              ctx.budget // (n + 1), [], pb, self.deliver_default)
                L.ind -= 1
                L.add("}")
            L.add2("epar", "}")
            if pbreak:
                L.add2(None, "%s: ;" % pb[2])
        else:
            big = self.chance(0.3 if kind != "parfor" else 0.1) and (kind != "parfor" or ctx.budget >= BUDGET // 2)
            t, lo, hi, st = self.index_range(big)
            n = len(iterations(lo, hi, st, t))
            side = None
            if ctx.own and not bare and self.chance(0.5):
                side = self.new("nb")
                L.add("int %s = 0;" % side)
            v = self.new("i")
            plain = False
            shad = [e for e in ctx.readable + ctx.own if e.shadowable and e.base not in
                    [x.base for x in ctx.own]]
            if shad and self.chance(0.2):
                v = self.pick(shad).expr     # the index shadows a read-only name
                plain = True
            stc = "(%s)(%s)" % (t, lit(st))
            loc = "(%s)(%s)" % (t, lit(lo))
            # The ordinal, in unsigned arithmetic: a signed difference can
            # overflow when the values spread over the whole type.
            U = "unsigned __int128" if t == "__int128" else "unsigned long long"
            if conv(st, t) > 0:
                slot_expr = "(int)(((%s)%s - (%s)%s) / (%s)%s)" % (U, v, U, loc, U, stc)
            else:
                slot_expr = "(int)(((%s)%s - (%s)%s) / ((%s)0 - (%s)%s))" % (U, loc, U, v, U, U, stc)
            if t == "_Bool":
                slot_expr = "(int)%s" % v
            own, arrs, readable, faa, locked, pro, taken = self.hand_out(
                ctx, min(n, 8), lambda i: slot_expr, not pbreak and n <= 8, True, bare)
            own_a = own[0] if own else []
            for p in pro:
                L.add(p)
            readable = [e for e in readable if e.base != v]
            fr, tr, sr = (self.bound_expr(ctx, t, lo, side, plain),
                          self.bound_expr(ctx, t, hi, side, plain),
                          self.bound_expr(ctx, t, st, side, plain))
            L.add2("%s %s %s; %s; %s; %s;" % (kind, t, v, fr, tr, sr), "{")
            L.ind += 1
            L.add2(None, "%s lo_ = (%s)(%s), hi_ = (%s)(%s), st_ = (%s)(%s);" % (
                t, t, fr, t, tr, t, sr))
            L.add2(None, "(void)st_;")
            if ITYPE[t][2]:
                L.add2(None, "if (st_ > 0 ? lo_ <= hi_ : lo_ >= hi_)")
            else:
                L.add2(None, "if (lo_ <= hi_)")
            L.add2(None, "for (%s %s = lo_;; %s = (%s)(%s + st_)) {" % (t, v, v, t, v))
            per = ctx.budget // max(n + 1, 2) if kind == "parfor" else ctx.budget // max(n // 8 + 1, 2)
            single = own_a and not pbreak and self.chance(0.2)
            if single:      # the body is one statement, no braces
                L.ind += 1
                e = self.pick(own_a)
                L.add("%s = %s;" % (e.expr, self.value_for(e.ty, self.uexpr(
                    ctx.child(readable=readable, own=[], arrays=[]), 2, [Ent(v, t, v)]))))
                L.ind -= 1
            else:
                L.add2("{", None)
                L.ind += 1
                self.activity(ctx, L, own_a, [], readable, faa, locked, per,
                              [Ent(v, t, v)], pb, self.deliver_default)
                L.ind -= 1
            if ITYPE[t][2]:
                L.add2(None if single else "}",
                       "if (st_ > 0 ? (%s)hi_ - (%s)%s < (%s)st_ : (%s)%s - (%s)hi_ < (%s)0 - (%s)st_) break;"
                       % (U, U, v, U, U, v, U, U, U))
            elif t == "_Bool":
                L.add2(None if single else "}", "if (%s >= hi_) break;" % v)
            else:
                L.add2(None if single else "}", "if ((%s)(hi_ - %s) < st_) break;" % (t, v))
            L.add2(None, "}")
            L.ind -= 1
            L.add2("epar", "}")
            if pbreak:
                L.add2(None, "%s: ;" % pb[2])
            if side:
                e = self.pick(ctx.own)
                L.add(self.add_to(e.ty, e.expr, "(unsigned)%s" % side))
        if pbreak:
            outs = [e for e in ctx.own if e.ty != "_Bool"]
            if outs:
                e = self.pick(outs)
                L.add(self.add_to(e.ty, e.expr, "(unsigned)%s" % pb[0]))
            elif ctx.faa:
                e = self.pick(ctx.faa)
                L.add("(void)faa(&%s, (%s)%s);" % (e.expr, e.ty, pb[0]))
            elif ctx.pbreak is not None:
                flag, val, label = ctx.pbreak
                L.add("if (%s) {" % pb[0])
                L.add("    %s = %d;" % (flag, val))
                L.add2("    pbreak;", "    goto %s;" % label)
                L.add("}")
            else:
                L.add("(void)%s;" % pb[0])
        if not bare:
            L.ind -= 1
            L.add("}")

    def handoff(self, ctx, L):
        """A parblock whose sections pass a value along a chain of semaphores.

        Section k waits for section k-1's V, reads its value and writes its
        own.  The sections appear in the parblock in a random order, so an
        activity often blocks on a semaphore before the one it waits for has
        started (at P=1 too); the serial C runs them in chain order."""
        n = self.r.randrange(2, 5)
        hs, hv = self.new("hs"), self.new("hv")
        L.add("{")
        L.ind += 1
        L.add("parc_sem_t %s[%d];" % (hs, n))
        L.add("unsigned %s[%d] = {0};" % (hv, n))
        L.add("for (int j = 0; j < %d; j++)" % n)
        L.add("    parc_sem_init(&%s[j], 0);" % hs)
        read = ctx.readable + ctx.own
        for a in ctx.arrays:
            read += [Ent(lv, a.ty, a.base) for lv in a.slot(self.r.randrange(a.cap))]
        parts = []
        for k in range(n):
            S = Lines()
            S.ind = L.ind + 1
            if k > 0:
                S.add("parc_P(&%s[%d]);" % (hs, k - 1))
            prev = [Ent("%s[%d]" % (hv, k - 1), "unsigned", hv)] if k else []
            mine = Ent("%s[%d]" % (hv, k), "unsigned", hv + str(k))
            c = ctx.child(readable=read + prev, own=[mine], arrays=[], depth=ctx.depth + 1,
                          in_act=True, in_loop=False, pbreak=None, handed=[mine],
                          budget=ctx.budget // (n + 1))
            S.add("%s = %s;" % (mine.expr, self.uexpr(c, 2)))
            self.block(c, S, self.r.randrange(1, 3))
            if k < n - 1:
                S.add("parc_V(&%s[%d]);" % (hs, k))
            parts.append(S.rows)
        order = list(range(n))
        self.r.shuffle(order)
        L.add2("parblock", None)
        for i, k in enumerate(order):
            L.add2("{" if i == 0 else ": {", None)
            L.rows += [(ind, p, None) for ind, p, _ in parts[k]]
            L.add2("}", None)
        L.add2("epar", None)
        for k in range(n):
            L.add2(None, "{")
            L.rows += [(ind, None, q) for ind, _, q in parts[k]]
            L.add2(None, "}")
        outs = [e for e in ctx.own if e.ty != "_Bool"]
        if outs:
            e = self.pick(outs)
            L.add(self.add_to(e.ty, e.expr, "%s[%d]" % (hv, n - 1)))
        elif ctx.faa:
            e = self.pick(ctx.faa)
            L.add("(void)faa(&%s, (%s)(%s[%d] %% 7u));" % (e.expr, e.ty, hv, n - 1))
        else:
            L.add("(void)%s[%d];" % (hv, n - 1))
        L.ind -= 1
        L.add("}")

    def stencil(self, ctx, L):
        """parfor or parblock with sync: a double-buffered 1-D stencil."""
        wide = ctx.budget >= 200 and self.chance(0.25)
        w = self.r.randrange(2, 7) if not wide else self.pick([17, 64, 150])
        k = self.r.randrange(1, 5)
        b = self.new("buf")
        i = self.new("i")
        ph = self.new("ph")
        early = self.chance(0.4)
        c0 = self.r.randrange(1, 9)
        L.add("{")
        L.ind += 1
        L.add("unsigned %s[2][%d] = {{0}};" % (b, w + 2))
        L.add("for (int j = 1; j <= %d; j++) %s[0][j] = %s + (unsigned)j * %du;" % (
            w, b, self.uexpr(ctx), c0))
        lim = "(%d - (%s %% 2 == 0 && %s))" % (k, i, "1" if early else "0")
        upd = "%s[%s & 1][%s] = %s[(%s - 1) & 1][%s - 1] * 3u + %s[(%s - 1) & 1][%s] + (%s[(%s - 1) & 1][%s + 1] ^ %du);" % (
            b, ph, i, b, ph, i, b, ph, i, b, ph, i, self.r.randrange(100))
        if wide or self.chance(0.5):
            L.add2("parfor int %s; 1; %d; 1; {" % (i, w), None)
            L.ind += 1
            L.add2("for (int %s = 1; %s <= %s; %s++) {" % (ph, ph, lim, ph), None)
            L.add2("    " + upd, None)
            L.add2("    sync;", None)
            L.add2("}", None)
            L.ind -= 1
            L.add2("} epar", None)
        else:
            L.add2("parblock", None)
            for s in range(1, w + 1):
                L.add2(("{" if s == 1 else ": {") + " int %s = %d;" % (i, s), None)
                L.add2("    for (int %s = 1; %s <= %s; %s++) { %s sync; }" % (ph, ph, lim, ph, upd), None)
                L.add2("}", None)
            L.add2("epar", None)
        L.add2(None, "for (int %s = 1; %s <= %d; %s++)" % (ph, ph, k, ph))
        L.add2(None, "    for (int %s = 1; %s <= %d; %s++)" % (i, i, w, i))
        L.add2(None, "        if (%s <= %s) { %s }" % (ph, lim, upd))
        s = " + ".join("%s[%d][%d]" % (b, p, j) for p in range(2) for j in range(1, min(w, 8) + 1))
        if w > 8:
            s += " + %s[0][%d] + %s[1][%d]" % (b, w, b, w)
        outs = [e for e in ctx.own if e.ty != "_Bool"]
        if outs:
            e = self.pick(outs)
            L.add(self.add_to(e.ty, e.expr, "(%s)" % s))
        elif ctx.faa:
            e = self.pick(ctx.faa)
            L.add("(void)faa(&%s, (%s)((%s) %% 7u));" % (e.expr, e.ty, s))
        elif ctx.pbreak is not None:
            flag, val, label = ctx.pbreak
            L.add("if ((%s) %% 3u == 1u) {" % s)
            L.add("    %s = %d;" % (flag, val))
            L.add2("    pbreak;", "    goto %s;" % label)
            L.add("}")
        else:
            L.add("(void)(%s);" % s)
        L.ind -= 1
        L.add("}")

    # -- functions ----------------------------------------------------------
    def pure_call(self, ctx):
        """A call of a helper without effects, as an expression (or None)."""
        if ctx.budget < 4 or ctx.fdepth >= 3:
            return None
        kind = self.pick(["pure", "preturn", "rec"])
        cands = [f for f in self.funcs if f.kind == kind and f.fid > ctx.fid
                 and f.budget <= ctx.budget // 2]
        if cands and self.chance(0.5):
            f = self.pick(cands)
        elif len(self.funcs) < 8:
            f = self.make_func(kind, ctx.budget // 4, ctx.fdepth + 1)
        else:
            return None
        return "(unsigned)(%s)" % self.call_text(ctx, f)

    def call_text(self, ctx, f):
        args = [self.uexpr(ctx, 1) for _ in range(2)]
        if f.kind in ("pure", "preturn"):
            args.append("(struct Pair){ (int)(%s %% 1000u), (unsigned char)(%s), (double)(%s %% 64u) }" % (
                self.uexpr(ctx, 1), self.uexpr(ctx, 1), self.uexpr(ctx, 1)))
            args.append("(float)(%s %% 100u)" % self.uexpr(ctx, 1))
        if f.kind == "rec":
            args = ["%d" % self.r.randrange(0, 8 if ctx.budget >= 200 else 5)] + args
        if f.kind == "effect":
            arrs = [a for a in ctx.arrays if a.ty == "unsigned" and a.cap >= 4]
            args.append("&%s" % self.pick(arrs).slot(0)[0] if arrs and self.chance(0.7) else "0")
        return "%s(%s)%s" % (f.name, ", ".join(args), ".x" if f.rt == "struct Pair" else "")

    def call(self, ctx, L):
        """Call a helper (made now, or an existing later one): a value into own."""
        outs = [e for e in ctx.own if e.ty != "_Bool"]
        if not outs and not ctx.pbreak and not ctx.faa:
            return False
        kinds = ["pure", "pure", "preturn", "rec"]
        if not ctx.killable and not ctx.pure:
            kinds += ["effect", "effect"]
        kind = self.pick(kinds)
        cands = [f for f in self.funcs if f.kind == kind and f.fid > ctx.fid
                 and f.budget <= ctx.budget]
        if cands and self.chance(0.4):
            f = self.pick(cands)
        elif len(self.funcs) < 8:
            f = self.make_func(kind, ctx.budget // 2, ctx.fdepth + 1)
        else:
            return False
        u = "(unsigned)(%s)" % self.call_text(ctx, f)
        if outs:
            e = self.pick(outs)
            L.add(self.add_to(e.ty, e.expr, u))
        elif ctx.faa:
            e = self.pick(ctx.faa)
            L.add("(void)faa(&%s, (%s)(%s %% 7u));" % (e.expr, e.ty, u))
        else:
            flag, val, label = ctx.pbreak
            L.add("if (%s %% 3u == 1u) {" % u)
            L.add("    %s = %d;" % (flag, val))
            L.add2("    pbreak;", "    goto %s;" % label)
            L.add("}")
        return True

    def make_func(self, kind, budget, fdepth):
        fid = len(self.funcs) + 1
        name = "f%d_%s" % (fid, kind)
        f = Func(fid, name, kind, budget)
        self.funcs.append(f)
        L = Lines()
        rt = "unsigned"
        if kind == "preturn":
            rt = self.pick(["unsigned", "int", "long long", "unsigned char", "double", "struct Pair"])
        f.rt = rt
        ctx = Ctx(budget=budget, fdepth=fdepth, fid=fid, readable=list(self.g_ro))
        params = [Ent("a", "unsigned", "a", True), Ent("b", "unsigned", "b", True)]
        if kind == "rec":
            ps = "int d, unsigned a, unsigned b"
            ctx.readable.append(Ent("d", "int", "d"))
            ctx.budget = budget // 16
        elif kind == "effect":
            ps = "unsigned a, unsigned b, unsigned *buf"
            ctx.faa = list(self.g_faa)
            ctx.locked = list(self.g_locked)
        else:
            ps = "unsigned a, unsigned b, struct Pair p, float q"
            params += [Ent("p.x", "int", "p.x", False), Ent("p.c", "unsigned char", "p.c"),
                       Ent("p.y", "double", "p.y"), Ent("q", "float", "q", True)]
        ctx.pure = kind != "effect"
        ctx.own = params
        f.proto = "static %s %s(%s)" % (rt, name, ps)
        if kind == "preturn":
            ctx.preturn = "(%s)%d" % (rt, self.r.randrange(1, 200))
            if rt == "struct Pair":
                ctx.preturn = "(struct Pair){ %d, 7, 0.5 }" % self.r.randrange(1, 200)
            if self.chance(0.3):
                L.add("if (a % 5u == 3u)")
                L.add2("    preturn %s;" % ctx.preturn, "    return %s;" % ctx.preturn)
        decl = self.declare_locals(ctx, L, self.r.randrange(1, 3), private=False)
        if kind == "rec":
            L.add("if (d <= 0)")
            L.add("    return %s;" % self.uexpr(ctx, 2))
            ra, rb = self.new("r"), self.new("r")
            L.add("unsigned %s = 0, %s = 0;" % (ra, rb))
            pre = None
            if self.chance(0.5):
                pre = "(unsigned)%d" % self.r.randrange(1, 1000)
            L.add2("parblock {", "{")
            L.add("    %s = %s(d - 1, %s, b);" % (ra, name, self.uexpr(ctx, 1)))
            L.add2("} : {", "} {")
            if pre:
                L.add("    if %s" % self.cond(ctx))
                L.add2("        preturn %s;" % pre, "        return %s;" % pre)
            L.add("    %s = %s(d - 2, a, %s);" % (rb, name, self.uexpr(ctx, 1)))
            L.add2("} epar", "}")
            ctx.own.append(Ent(ra, "unsigned", ra))
            ctx.own.append(Ent(rb, "unsigned", rb))
        self.block(ctx, L, self.r.randrange(1, 4))
        if kind == "effect":
            L.add("if (buf)")
            L.add("    buf[a % 4u] += b;")
        s = self.fold_all(ctx, ctx.own + [e for e in ctx.readable if e.base == "d"] +
                          [e for e in decl if e not in ctx.own], ctx.arrays)
        if rt == "struct Pair":
            L.add("return (struct Pair){ (int)((%s) %% 1000u), 3, 0.25 };" % s)
        else:
            L.add("return (%s)(%s);" % (rt, s))
        f.lines = L
        return f

    # -- the program --------------------------------------------------------
    def program(self):
        G = self.globals
        for i, t in enumerate(["int", "unsigned char", "long long", "unsigned long", "short",
                               "size_t", "signed char", "uint16_t"]):
            if self.chance(0.6) or i == 0:
                n = "g_faa%d" % i
                G.add("%s %s;" % (t, n))
                self.g_faa.append(Ent(n, t, n))
                self.gmix.append(n)
        G.add("parc_sem_t g_lock;")
        G.add("int g_zero;   /* never written: a bound no compiler can fold */")
        G.add("struct { unsigned long long sum; double dsum; unsigned max; } g_lk;")
        self.g_locked = [(Ent("g_lk.sum", "unsigned long long", "g_lk"), "&g_lock"),
                         (Ent("g_lk.dsum", "double", "g_lk"), "&g_lock"),
                         (Ent("g_lk.max", "unsigned", "g_lk"), "&g_lock")]
        self.gmix += ["g_lk.sum", "g_lk.dsum", "g_lk.max"]
        for i in range(self.r.randrange(1, 4)):
            t = self.scalar_type()
            n = "g_ro%d" % i
            v = self.r.randrange(0, 300)
            stat = self.pick(["", "static ", "const ", "static const "])
            G.add("%s%s %s = %s;" % (stat, t, n, "(%s)%d" % (t, v)))
            self.g_ro.append(Ent(n, t, n))
            self.gmix.append(n)
        G.add("static const unsigned g_tab[5] = {3, 1, 4, 1, 5};")
        self.g_ro.append(Ent("g_tab[2]", "unsigned", "g_tab"))
        self.gmix.append("g_tab[4]")
        # Globals that main owns.
        ga = "g_arr"
        cap = self.r.randrange(4, 9)
        G.add("unsigned long %s[%d];" % (ga, cap))
        self.main_arrays.append(Arr(ga, cap, "unsigned long", ga, lambda i: ["g_arr[%s]" % i]))
        G.add("long g_own;")
        self.main_own.append(Ent("g_own", "long", "g_own"))

        M = Lines()
        ctx = Ctx(readable=list(self.g_ro), own=list(self.main_own), arrays=list(self.main_arrays),
                  faa=list(self.g_faa), locked=list(self.g_locked), fid=0)
        M.add("parc_sem_init(&g_lock, 1);")
        self.declare_locals(ctx, M, self.r.randrange(2, 5), private=False)
        nstep = self.r.randrange(3, 7)
        for s in range(nstep):
            self.stmt(ctx, M)
            self.mix_all(ctx, M, s)
        M.add("printf(\"H %llu\\n\", H);")
        M.add("return 0;")
        return self.render(M)

    def mix_all(self, ctx, M, s):
        for e in ctx.own + ctx.readable:
            M.add("mix((unsigned long long)(%s));" % self.mixable(e))
        for a in ctx.arrays:
            for i in range(a.cap):
                for lv in a.slot(i):
                    M.add("mix((unsigned long long)(%s));" % self.mixable(Ent(lv, a.ty, a.base)))
        for g in self.gmix:
            M.add("mix((unsigned long long)(%s));" % ("(long long)(%s * 4)" % g if g == "g_lk.dsum" else g))
        M.add("printf(\"%d %%llu\\n\", H);" % s)

    def mixable(self, e):
        if e.ty in FTYPES:
            return "(long long)(%s * 4)" % e.expr
        return e.expr

    def render(self, M):
        head = ["#include <stdio.h>", "#include <string.h>", "#include <stddef.h>",
                "#include <stdint.h>"]
        common = [
            "typedef long idx_t;",
            "typedef unsigned short uidx_t;",
            "enum colour { RED, GREEN, BLUE, WHITE };",
            "struct Pair { int x; unsigned char c; double y; };",
            "static unsigned long long H = 1469598103934665603ULL;",
            "static void mix(unsigned long long v) {",
            "#ifdef PARCGEN_VERBOSE",
            "    printf(\"  %llu\\n\", v);",
            "#endif",
            "    H = (H ^ v) * 1099511628211ULL;",
            "}",
            "static __attribute__((unused)) __int128 bump(int *n, __int128 v) { ++*n; return v; }",
        ]
        serial_rt = [
            "typedef struct { int v; } parc_sem_t;",
            "static __attribute__((unused)) void parc_sem_init(parc_sem_t *s, int v) { s->v = v; }",
            "static __attribute__((unused)) void parc_P(parc_sem_t *s) { s->v--; }",
            "static __attribute__((unused)) void parc_V(parc_sem_t *s) { s->v++; }",
            "#define faa(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)",
        ]
        outs = []
        for which in (0, 1):
            t = ["/* parcgen seed %d: %s */" % (self.seed, "PARC" if which == 0 else "serial C")]
            t += head
            if which == 0:
                t.append("#include <parc.h>")
            else:
                t += serial_rt
            t += common
            t.append(self.globals.render(which))
            for f in self.funcs:
                t.append(f.proto + ";")
            for f in self.funcs:
                t.append(f.proto + " {")
                t.append(f.lines.render(which))
                t.append("}")
            t.append("int main(void) {")
            t.append(M.render(which))
            t.append("}")
            outs.append("\n".join(t) + "\n")
        return outs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", "--outdir", default=".")
    ap.add_argument("--print", choices=["pc", "c"])
    a = ap.parse_args()
    pc, c = Gen(a.seed).program()
    if a.print:
        sys.stdout.write(pc if a.print == "pc" else c)
        return
    os.makedirs(a.outdir, exist_ok=True)
    with open(os.path.join(a.outdir, "gen-%d.pc" % a.seed), "w") as f:
        f.write(pc)
    with open(os.path.join(a.outdir, "gen-%d.c" % a.seed), "w") as f:
        f.write(c)


if __name__ == "__main__":
    main()
