"""The lanes variants of a mechanism's current and state: the same statements over the W
cells of a host tile at once (the tiles schedule's tiles: cell_tiles.hpp).

Every value that differs between cells (states, assigned and ion variables, locals, v) is
an array of W; every statement becomes a loop over the lanes, which the compiler
vectorises, and each exp() in it is first computed for all lanes by the accessor
(hb_a.exp_lanes<W>: glibc's exp bit for bit, four at a time where the CPU has AVX2). An
`if` runs lane by lane with the scalar code. Each lane thus gets the scalar function's
operations in its order, so the results are the same to the bit. Bodies the lanes form
does not cover (loops, Newton and linear solver blocks, LOCALs inside branches) get no
lanes variant: the schedule then calls the scalar function lane by lane. Per-instance
invariants are the scalar functions' (the same variables), loaded per lane.
"""

from .emit import Emitter, cxx_name
from .frontend import T, lookup, name_of


class NotLanes(Exception):
    pass


LOOP = "for (int hb_l = 0; hb_l < W; ++hb_l)"


class LanesEmitter(Emitter):
    def __init__(self, mech, src, uniforms, invariants, invariants_allowed):
        super().__init__(mech, src)
        self.uniforms = list(uniforms)  # the scalar functions' (the same indices)
        self.invariants = list(invariants)  # likewise, with their variables in mech.variables
        self.invariants_allowed = invariants_allowed
        self.mode = "vector"  # or "lane": scalar code of lane hb_l
        self.pre = []  # statements an expression needs first (its exps)
        self.temps = 0
        self.renamed = {}  # inside a selected if's branch: the copies it assigns

    def assignment(self, s):
        """The (lhs, rhs) of a plain assignment statement, else None."""
        if s.get_node_type() != T.EXPRESSION_STATEMENT:
            return None
        e = s.expression
        if e.get_node_type() == T.DIFF_EQ_EXPRESSION and not lookup(e, T.PRIME_NAME):
            e = e.expression
        if e.get_node_type() == T.BINARY_EXPRESSION and e.op.eval() == "=":
            if e.lhs.get_node_type() in (T.VAR_NAME, T.NAME) and self.lane_varying(name_of(e.lhs)):
                return e.lhs, e.rhs
        return None

    def selected_if(self, s, out, p):
        """`if c {A} else {B}` of assignments alone, for every lane at once: A and B each on
        copies of what they assign, then each lane takes its branch's values. A lane's
        values are the scalar code's; the other branch's are discarded."""
        if s.elseifs or s.elses is None:
            return False
        branches = [list(s.statement_block.statements), list(s.elses.statement_block.statements)]
        if not all(b and all(self.assignment(st) for st in b) for b in branches):
            return False
        k = self.temps
        self.temps += 1
        self.pre = []
        cond = self.expr(s.condition)
        out += [p + line for line in self.pre]
        out.append(f"{p}bool hb_c{k}[W];")
        out.append(f"{p}{LOOP} hb_c{k}[hb_l] = {cond};")
        targets = sorted({name_of(self.assignment(st)[0]) for b in branches for st in b})
        for side in ("t", "e"):
            for n in targets:
                out.append(f"{p}double {cxx_name(n)}_{side}{k}[W];")
                out.append(f"{p}{LOOP} {cxx_name(n)}_{side}{k}[hb_l] = {cxx_name(n)}[hb_l];")
        for side, branch in zip(("t", "e"), branches):
            self.renamed = {n: f"{cxx_name(n)}_{side}{k}" for n in targets}
            try:
                for st in branch:
                    lhs, rhs = self.assignment(st)
                    self.vector_assign(lhs, rhs, out, p)
            finally:
                self.renamed = {}
        for n in targets:
            out.append(f"{p}{LOOP} {cxx_name(n)}[hb_l] = hb_c{k}[hb_l] ? {cxx_name(n)}_t{k}[hb_l] : "
                       f"{cxx_name(n)}_e{k}[hb_l];")
        return True

    def lane_varying(self, n):
        return (n == "v" or n in self.locals or n in self.var_index or n in self.ion_index
                or n in self.m.scratch)

    # --- expressions -------------------------------------------------------------------
    def name_text(self, n):
        text = self.renamed.get(n, cxx_name(n))
        return f"{text}[hb_l]" if self.lane_varying(n) else text

    def indexed_name_text(self, n, k):
        raise NotLanes()

    def call_text(self, n, args):
        if n != "exp" or self.mode != "vector" or not self.hoist:  # (not hoist: a uniform's text)
            return super().call_text(n, args)
        k = self.temps
        self.temps += 1
        self.pre.append(f"double hb_x{k}[W];")
        self.pre.append(f"{LOOP} hb_x{k}[hb_l] = {args[0]};")
        self.pre.append(f"hb_a.template exp_lanes<W>(hb_x{k});")
        return f"hb_x{k}[hb_l]"

    def new_invariant(self, e, key):
        raise NotLanes()  # one the scalar functions do not have

    def expr(self, e):
        before = len(self.uniforms)
        text = super().expr(e)
        if len(self.uniforms) != before:  # a uniform the scalar functions do not have
            raise NotLanes()
        return text

    # --- statements --------------------------------------------------------------------
    def vector_assign(self, lhs, rhs, out, p):
        self.pre = []
        r = self.expr(rhs)
        left = self.expr(lhs)
        out += [p + line for line in self.pre]
        out.append(f"{p}{LOOP} {left} = {r};")

    def stmt(self, s, out, ind):
        t = s.get_node_type()
        if t in (T.EIGEN_NEWTON_SOLVER_BLOCK, T.EIGEN_LINEAR_SOLVER_BLOCK, T.WHILE_STATEMENT,
                 T.FROM_STATEMENT):
            raise NotLanes()
        if self.mode == "lane":
            if t == T.LOCAL_LIST_STATEMENT:
                raise NotLanes()
            return super().stmt(s, out, ind)
        p = "  " * ind
        if t == T.EXPRESSION_STATEMENT:
            e = s.expression
            if e.get_node_type() == T.DIFF_EQ_EXPRESSION and not lookup(e, T.PRIME_NAME):
                e = e.expression
            if e.get_node_type() == T.STATEMENT_BLOCK:
                return self.stmt(e, out, ind)
            if e.get_node_type() == T.BINARY_EXPRESSION and e.op.eval() == "=":
                return self.vector_assign(e.lhs, e.rhs, out, p)
            if e.get_node_type() == T.FUNCTION_CALL and name_of(e.name) in ("at_time",):
                return
            raise NotLanes()
        if t == T.PROTECT_STATEMENT:
            return self.vector_assign(s.expression.lhs, s.expression.rhs, out, p)
        if t == T.LOCAL_LIST_STATEMENT:
            names = [cxx_name(name_of(v.name)) for v in s.variables]
            if names:
                out.append(p + "[[maybe_unused]] double " + ", ".join(f"{n}[W] = {{}}" for n in names) + ";")
            return
        if t == T.STATEMENT_BLOCK:
            out.append(p + "{")
            self.stmts(s.statements, out, ind + 1)
            out.append(p + "}")
            return
        if t == T.IF_STATEMENT:
            if self.selected_if(s, out, p):
                return
            out.append(f"{p}{LOOP} {{")
            self.mode = "lane"
            try:
                super().stmt(s, out, ind + 1)
            finally:
                self.mode = "vector"
            out.append(p + "}")
            return
        super().stmt(s, out, ind)  # comments, TABLE, SOLVE

    # --- loads and stores --------------------------------------------------------------
    def load(self, name, access, out, maybe_unused=False):
        attr = "[[maybe_unused]] " if maybe_unused else ""
        out.append(f"    {attr}double {name}[W];")
        out.append(f"    {LOOP} {name}[hb_l] = {f'hb_a.{access}(hb_l)' if access else '0.0'};")

    def scratch_local(self, name):
        return f"{name}[W] = {{}}"

    def store(self, access, name, out):
        out.append(f"    {LOOP} hb_a.{access}(hb_l, {name}[hb_l]);")

    # --- the two entry points ----------------------------------------------------------
    HEAD = ["  template <int W, class Accessor>"]

    def state_lanes(self):
        m = self.m
        stmts = [st for _, _, sb in m.solves for st in sb.statements]
        self.collect_locals(stmts)
        used, written = self.names_in(stmts)
        out = ["  // state() for the W cells of a host tile at once (see current_lanes).",
               *self.HEAD, "  KOKKOS_INLINE_FUNCTION static void state_lanes(Accessor& hb_a) {"]
        body = []
        self.begin_body(True)
        self.stmts(stmts, body, 2)
        used = self.used_after_body(used)
        self.prologue(used, out, loaded=self.read_first(stmts))
        out += body
        self.epilogue(written, out)
        out.append("  }")
        return out

    def current_lanes(self):
        m = self.m
        stmts = m.breakpoint
        self.collect_locals(stmts)
        used, written = self.names_in(stmts)
        currents = [v.name for v in m.ion_variables if v.write and v.role == "i"]
        linear = self.linear_conductances(currents)
        out = ["  // current() for the W cells of a host tile at once: lane l's arithmetic is",
               "  // current()'s for that cell, in its order; exps W at a time (hb_a.exp_lanes).",
               *self.HEAD, "  KOKKOS_INLINE_FUNCTION static void current_lanes(Accessor& hb_a) {"]
        all_currents = currents + m.nonspecific + (m.electrode if linear is None else [])
        for c in all_currents:
            used.add(c)
        if linear is not None:
            used |= set(linear.values())
        used.add("v")
        # The body's lines first (what they read decides the loads); twice where di/dv is a
        # difference quotient, each copy with its own temporaries.
        self.begin_body(True)
        bodies = []
        for _ in range(1 if linear is not None else 2):
            lines = ["    {"]
            self.stmts(stmts, lines, 3)
            lines.append("    }")
            bodies.append(lines)
        used = self.used_after_body(used)
        self.prologue(used, out, skip_v=True, loaded=self.read_first(stmts))
        out.append("    [[maybe_unused]] double v[W];")
        out.append(f"    {LOOP} v[hb_l] = hb_a.v(hb_l);")

        def body():
            return bodies.pop(0)

        def total():
            terms = [f"{cxx_name(c)}[hb_l]" for c in currents + m.nonspecific]
            if linear is None:
                terms += [f"-{cxx_name(c)}[hb_l]" for c in m.electrode]
            return " + ".join(terms).replace("+ -", "- ") if terms else "0.0"

        if linear is not None:
            out += body()
            conds = [f"{cxx_name(linear[c])}[hb_l]" for c in currents + m.nonspecific]
            out.append(f"    {LOOP} hb_a.add_current(hb_l, {total()}, {' + '.join(conds) or '0.0'});")
            for c in currents:
                out.append(f"    {LOOP} hb_a.template add_ion_current<{self.ion_index[c]}>("
                           f"hb_l, {cxx_name(c)}[hb_l], {cxx_name(linear[c])}[hb_l]);")
        else:
            out.append("    double hb_v[W], hb_i_dv[W];")
            out.append(f"    {LOOP} hb_v[hb_l] = v[hb_l];")
            out.append(f"    {LOOP} v[hb_l] = hb_v[hb_l] + 0.001;")
            out += body()
            out.append(f"    {LOOP} hb_i_dv[hb_l] = {total()};")
            for c in currents:
                out.append(f"    double hb_{c}_dv[W];")
                out.append(f"    {LOOP} hb_{c}_dv[hb_l] = {cxx_name(c)}[hb_l];")
            out.append(f"    {LOOP} v[hb_l] = hb_v[hb_l];")
            out += body()
            out.append(f"    {LOOP} {{")
            out.append(f"      const double hb_i = {total()};")
            out.append("      hb_a.add_current(hb_l, hb_i, (hb_i_dv[hb_l] - hb_i) / 0.001);")
            out.append("    }")
            for c in currents:
                k = self.ion_index[c]
                out.append(f"    {LOOP} hb_a.template add_ion_current<{k}>(hb_l, {cxx_name(c)}[hb_l], "
                           f"(hb_{c}_dv[hb_l] - {cxx_name(c)}[hb_l]) / 0.001);")
        self.epilogue(written, out)
        out.append("  }")
        return out


def lanes_functions(mech, src, scalar):
    """The lines of current_lanes and state_lanes (scalar: the Emitter of the scalar
    functions, whose uniforms and invariants they share), and whether there are any: none where
    the mechanism is not a density mechanism or a body is not covered."""
    if mech.kind != "density":
        return [], False
    em = LanesEmitter(mech, src, scalar.uniforms, scalar.invariants, scalar.invariants_allowed)
    try:
        lines = [""] + em.current_lanes()
        if mech.solves:
            lines += [""] + em.state_lanes()
    except NotLanes:
        return [], False
    return lines, True
