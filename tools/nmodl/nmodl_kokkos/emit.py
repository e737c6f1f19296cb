"""C++ emission: one header of Kokkos device functions per mechanism, and a catalogue.

Every generated function takes an accessor to one instance (see
include/hinesbatch/simulation/nmodl/mechanism.hpp for its interface), loads what it
reads into locals, runs the translated NMODL statements on them and stores what it wrote:
the layout of the instance's data is the accessor's business.
"""

import re

import nmodl

from .frontend import (BUILTIN_CONSTANTS, ENVIRONMENT, MATH_FUNCTIONS, RANDOM_CALLS,
                       DefiniteAssignment, T, is_steady_state_dt,
                       Variable, lookup, name_of, number_of)

CXX_KEYWORDS = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char
char16_t char32_t char8_t class compl concept const consteval constexpr constinit const_cast
continue co_await co_return co_yield decltype default delete do double dynamic_cast else enum
explicit export extern false float for friend goto if inline int long mutable namespace new
noexcept not not_eq nullptr operator or or_eq private protected public register
reinterpret_cast requires return short signed sizeof static static_assert static_cast struct
switch template this thread_local throw true try typedef typeid typename union unsigned using
virtual void volatile wchar_t while xor xor_eq main std Kokkos""".split())

OPERATORS = {"+", "-", "*", "/", "<", ">", "<=", ">=", "==", "!=", "&&", "||"}

# What an expression depends on (Emitter.level): nothing per instance, values fixed per
# instance for a run, or values that change from step to step.
UNIFORM, INVARIANT, VARYING = 0, 1, 2
INVARIANT_PREFIX = "hb_invariant"

# Unqualified math calls resolve to std:: (and to the device's overloads on CUDA) through
# the namespace of using-declarations in mechanism.hpp.
MATH_USINGS = ["    using namespace ::hinesbatch::nmodl::math;"]

# A struct or local named like a math function would hide it from the calls.
RENAMED = CXX_KEYWORDS | set(MATH_FUNCTIONS)


def lookup_all(nodes, *types):
    return [x for node in nodes for x in lookup(node, *types)]


def cxx_name(n):
    return n + "_" if n in RENAMED else n


def literal(x):
    r = repr(float(x))
    if r in ("inf", "-inf", "nan"):
        raise ValueError(r)
    return r if ("." in r or "e" in r) else r + ".0"


class Emitter:
    def __init__(self, mech, src):
        self.m, self.src = mech, src
        self.var_index = {v.name: i for i, v in enumerate(mech.variables)}
        self.global_index = {g[0]: i for i, g in enumerate(mech.globals)}
        self.ion_index = {v.name: i for i, v in enumerate(mech.ion_variables)}
        # Expressions of celsius, GLOBALs and constants alone that call a function (hh's
        # q10 = 3^((celsius - 6.3)/10)): the same value at every node and step, so they are
        # computed once per run (uniforms()) and read as uniform<k>() where they stood.
        self.uniforms = []
        self.hoist = True
        self.locals = set()
        self.steady_state = False  # printing a SOLVE ... STEADYSTATE's block
        # Per-instance invariants: expressions of values that cannot change during a run (the
        # instance's variables that no block of a step writes, GLOBALs, constants, celsius,
        # dt) that call a function or divide (ExpSyn's exp(-dt/tau)): computed once per
        # instance by invariants(), which initial() calls last, kept in variables of their own
        # (hb_invariant<k>, written, not RANGE) and read where they stood. (key, C++ text,
        # names it reads) each, the key being the expression's NMODL text.
        self.invariants = []
        self.hoist_invariants = False  # in the functions a step runs
        self.invariants_allowed = True  # not for a leak, which the host folds away
        self.in_invariant = False  # printing an invariant's own text
        self.printed, self.hidden, self.invariants_read = set(), set(), set()
        # Written by a block that runs after initialisation: never an invariant's input.
        # (INITIAL may write a PARAMETER, Exp2Syn's tau1: invariants are computed after it.)
        step_blocks = list(mech.breakpoint) + [s for _, _, sb in mech.solves for s in sb.statements]
        if mech.net_receive is not None:
            step_blocks += list(mech.net_receive[1]) + list(mech.net_receive[2])
        self.step_written = self.names_in(step_blocks)[1] if step_blocks else set()

    def refuse(self, pattern, construct, message):
        self.src.refuse(pattern, construct, message)

    # --- expressions -------------------------------------------------------------------
    def uniform_leaf(self, n):
        if n in self.locals or n in self.var_index or n in self.ion_index:
            return False
        return (n == "celsius" or n in self.global_index or n in self.m.constants
                or n in BUILTIN_CONSTANTS)

    def is_uniform(self, e):
        """(uniform, calls a function): whether e depends on uniform names only."""
        t = e.get_node_type()
        if t == T.BINARY_EXPRESSION:
            op = e.op.eval()
            if op == "=":
                return False, False
            a, ca = self.is_uniform(e.lhs)
            b, cb = self.is_uniform(e.rhs)
            return a and b, ca or cb or op == "^"
        if t == T.UNARY_EXPRESSION or t in (T.PAREN_EXPRESSION, T.WRAPPED_EXPRESSION):
            return self.is_uniform(e.expression)
        if t in (T.DOUBLE, T.INTEGER, T.FLOAT, T.DOUBLE_UNIT, T.BOOLEAN):
            return True, False
        if t == T.VAR_NAME or t == T.NAME:
            if t == T.VAR_NAME and e.name.get_node_type() == T.INDEXED_NAME:
                return False, False
            return self.uniform_leaf(name_of(e)), False
        if t == T.FUNCTION_CALL:
            if name_of(e.name) not in MATH_FUNCTIONS:
                return False, False
            return all(self.is_uniform(a)[0] for a in e.arguments), True
        return False, False

    def invariant_leaf(self, n):
        if n in self.locals or n not in self.var_index or n.startswith(INVARIANT_PREFIX):
            return False
        return self.m.variables[self.var_index[n]].kind != "state" and n not in self.step_written

    def level(self, e):
        """UNIFORM, INVARIANT or VARYING: the most varying of the names e reads."""
        t = e.get_node_type()
        if t == T.BINARY_EXPRESSION:
            if e.op.eval() == "=":
                return VARYING
            return max(self.level(e.lhs), self.level(e.rhs))
        if t == T.UNARY_EXPRESSION or t in (T.PAREN_EXPRESSION, T.WRAPPED_EXPRESSION):
            return self.level(e.expression)
        if t in (T.DOUBLE, T.INTEGER, T.FLOAT, T.DOUBLE_UNIT, T.BOOLEAN):
            return UNIFORM
        if t == T.VAR_NAME or t == T.NAME:
            if t == T.VAR_NAME and e.name.get_node_type() == T.INDEXED_NAME:
                return VARYING
            n = name_of(e)
            if self.uniform_leaf(n):
                return UNIFORM
            if (n == "dt" and n not in self.locals) or self.invariant_leaf(n):
                return INVARIANT
            return VARYING
        if t == T.FUNCTION_CALL and name_of(e.name) in MATH_FUNCTIONS:
            return max([self.level(a) for a in e.arguments], default=UNIFORM)
        return VARYING

    def is_invariant(self, e):
        """Whether e is hoisted as a per-instance invariant: it reads some instance's value
        and nothing that varies, and it is a function call, a power or a division at its
        top. Only those: the step then reads the stored value where it computed the same
        operations, so no multiply-add is contracted across the boundary and the results
        stay the same to the bit. (An expression of dt, celsius and GLOBALs alone, SK_E2's
        exp(-dt/zTau), is the same for every instance: it is left where it stands rather
        than stored per instance.)"""
        if not self.hoist_invariants or self.in_invariant:
            return False
        t = e.get_node_type()
        if t == T.FUNCTION_CALL:
            if name_of(e.name) not in MATH_FUNCTIONS:
                return False
        elif t != T.BINARY_EXPRESSION or e.op.eval() not in ("/", "^"):
            return False
        if self.level(e) != INVARIANT:
            return False
        return any(self.invariant_leaf(name_of(n)) for n in lookup(e, T.VAR_NAME))

    def invariant_index(self, e):
        key = nmodl.to_nmodl(e)
        for k, (known, _, _) in enumerate(self.invariants):
            if known == key:
                return k
        return self.new_invariant(e, key)

    def new_invariant(self, e, key):
        self.in_invariant = True
        saved, self.hidden = self.hidden, set()
        try:
            text = self.expr(e)
            names = self.hidden
        finally:
            self.in_invariant = False
            self.hidden = saved
        name = f"{INVARIANT_PREFIX}{len(self.invariants)}"
        self.invariants.append((key, text, names))
        self.var_index[name] = len(self.m.variables)
        self.m.variables.append(Variable(name, "assigned", 0.0, False, True))
        return len(self.invariants) - 1

    def expr(self, e):
        if self.is_invariant(e):
            k = self.invariant_index(e)
            self.hidden |= self.invariants[k][2]  # read by the invariant, not here
            name = f"{INVARIANT_PREFIX}{k}"
            self.invariants_read.add(name)
            return self.name_text(name)
        if self.hoist:
            uniform, calls = self.is_uniform(e)
            if uniform and calls:
                self.hoist = False
                text = self.expr(e)
                self.hoist = True
                if text not in self.uniforms:
                    self.uniforms.append(text)
                return f"::hinesbatch::nmodl::uniform<{cxx_name(self.m.name)}, {self.uniforms.index(text)}>(hb_a)"
        t = e.get_node_type()
        if t == T.BINARY_EXPRESSION:
            op = e.op.eval()
            lhs, rhs = self.expr(e.lhs), self.expr(e.rhs)
            if op == "^":
                return f"pow({lhs}, {rhs})"
            if op not in OPERATORS:
                self.refuse(re.escape(op), f"operator {op}", "not supported in an expression")
            return f"({lhs} {op} {rhs})"
        if t == T.UNARY_EXPRESSION:
            op = e.op.eval()
            return f"({op}{self.expr(e.expression)})"
        if t in (T.PAREN_EXPRESSION, T.WRAPPED_EXPRESSION):
            return f"({self.expr(e.expression)})"
        if t in (T.DOUBLE, T.INTEGER, T.FLOAT, T.DOUBLE_UNIT):
            return literal(number_of(e))
        if t == T.BOOLEAN:
            return "1.0" if e.eval() else "0.0"
        if t == T.VAR_NAME or t == T.NAME:
            inner = e.name if t == T.VAR_NAME else None
            if inner is not None and inner.get_node_type() == T.INDEXED_NAME:
                return self.indexed_name_text(cxx_name(name_of(inner)), int(number_of(inner.length)))
            (self.hidden if self.in_invariant else self.printed).add(name_of(e))
            return self.name_text(name_of(e))
        if t == T.FUNCTION_CALL:
            n = name_of(e.name)
            args = [self.expr(a) for a in e.arguments]
            if n in MATH_FUNCTIONS:
                return self.call_text(n, args)
            if n == "at_time":
                # Only marks a discontinuity for variable-step methods; 0 in fixed step.
                return "0.0"
            if n in RANDOM_CALLS:  # an artificial cell's own stream (the frontend checks)
                return f"hb_a.{n}({', '.join(args)})"
            self.refuse(r"\b%s\s*\(" % re.escape(n), f"{n}()",
                        "FUNCTION/PROCEDURE call that NMODL's inliner did not inline")
        self.refuse(r".", e.get_node_type_name(), "expression not supported")

    # How a name, an indexed name and a math function call print (LanesEmitter prints
    # them per lane).
    def name_text(self, n):
        return cxx_name(n)

    def indexed_name_text(self, n, k):
        return f"{n}[{k}]"

    def call_text(self, n, args):
        return f"{MATH_FUNCTIONS[n]}({', '.join(args)})"

    # --- statements --------------------------------------------------------------------
    def stmts(self, stmts, out, ind):
        for s in stmts:
            self.stmt(s, out, ind)

    def stmt(self, s, out, ind):
        p = "  " * ind
        t = s.get_node_type()
        if t == T.EXPRESSION_STATEMENT:
            e = s.expression
            if e.get_node_type() == T.DIFF_EQ_EXPRESSION and not lookup(e, T.PRIME_NAME):
                e = e.expression  # an ODE SymPy solved: the update is an assignment
            if e.get_node_type() in (T.EIGEN_NEWTON_SOLVER_BLOCK, T.EIGEN_LINEAR_SOLVER_BLOCK):
                self.stmt(e, out, ind)
                return
            if e.get_node_type() == T.STATEMENT_BLOCK:  # an inlined PROCEDURE or FUNCTION
                self.stmt(e, out, ind)
                return
            if is_steady_state_dt(s):
                # Only the frontend writes dt (a steady state's own block): it shadows the step's.
                out.append(f"{p}[[maybe_unused]] const double dt = {self.expr(e.rhs)};")
                return
            if e.get_node_type() == T.BINARY_EXPRESSION and e.op.eval() == "=":
                out.append(f"{p}{self.expr(e.lhs)} = {self.expr(e.rhs)};")
                return
            if e.get_node_type() == T.FUNCTION_CALL and name_of(e.name) in ("at_time",):
                return
            call = e
            while call.get_node_type() in (T.WRAPPED_EXPRESSION, T.PAREN_EXPRESSION):
                call = call.expression
            if call.get_node_type() == T.FUNCTION_CALL and name_of(call.name) == "net_send":
                # A self-event: this NET_RECEIVE again, delay ms after the event's time, with
                # the same weight vector and `flag` set (the frontend allows it only here).
                delay, flag = (self.expr(a) for a in call.arguments)
                out.append(f"{p}hb_a.net_send({delay}, {flag});")
                return
            if call.get_node_type() == T.FUNCTION_CALL and name_of(call.name) in ("net_event", "net_move"):
                # An artificial cell's spike at a time, or its pending flag-1 self-event
                # moved to a time (the frontend allows them only there).
                out.append(f"{p}hb_a.{name_of(call.name)}({self.expr(call.arguments[0])});")
                return
            if e.get_node_type() == T.DIFF_EQ_EXPRESSION:
                self.refuse(r"'", "ODE", "an ODE outside a SOLVEd DERIVATIVE block")
            if e.get_node_type() == T.FUNCTION_CALL:
                n = name_of(e.name)
                self.refuse(r"\b%s\s*\(" % re.escape(n), f"{n}()",
                            "PROCEDURE call that NMODL's inliner did not inline")
            out.append(f"{p}{self.expr(e)};")
        elif t == T.PROTECT_STATEMENT:
            e = s.expression
            out.append(f"{p}{self.expr(e.lhs)} = {self.expr(e.rhs)};")
        elif t == T.LOCAL_LIST_STATEMENT:
            names = [cxx_name(name_of(v.name)) for v in s.variables]
            if names:
                out.append(p + "[[maybe_unused]] double " + ", ".join(f"{n} = 0.0" for n in names) + ";")
        elif t == T.STATEMENT_BLOCK:
            out.append(p + "{")
            steady = bool(s.statements) and is_steady_state_dt(s.statements[0])
            saved, self.steady_state = self.steady_state, self.steady_state or steady
            self.stmts(s.statements, out, ind + 1)
            self.steady_state = saved
            out.append(p + "}")
        elif t == T.IF_STATEMENT:
            out.append(f"{p}if ({self.expr(s.condition)}) {{")
            self.stmts(s.statement_block.statements, out, ind + 1)
            for ei in s.elseifs:
                out.append(f"{p}}} else if ({self.expr(ei.condition)}) {{")
                self.stmts(ei.statement_block.statements, out, ind + 1)
            if s.elses is not None:
                out.append(p + "} else {")
                self.stmts(s.elses.statement_block.statements, out, ind + 1)
            out.append(p + "}")
        elif t == T.WHILE_STATEMENT:
            out.append(f"{p}while ({self.expr(s.condition)}) {{")
            self.stmts(s.statement_block.statements, out, ind + 1)
            out.append(p + "}")
        elif t == T.FROM_STATEMENT:
            i = cxx_name(name_of(s.name))
            inc = self.expr(s.increment) if s.increment is not None else "1.0"
            frm = getattr(s, "from")
            out.append(f"{p}for ({i} = {self.expr(frm)}; {i} <= {self.expr(s.to)}; {i} += {inc}) {{")
            self.stmts(s.statement_block.statements, out, ind + 1)
            out.append(p + "}")
        elif t == T.EIGEN_NEWTON_SOLVER_BLOCK:
            self.newton(s, out, ind)
        elif t == T.EIGEN_LINEAR_SOLVER_BLOCK:
            self.linear(s, out, ind)
        elif t in (T.TABLE_STATEMENT, T.UNIT_STATE, T.LINE_COMMENT, T.BLOCK_COMMENT,
                   T.MUTEX_LOCK, T.MUTEX_UNLOCK, T.CONDUCTANCE_HINT):
            if t == T.TABLE_STATEMENT:
                out.append(p + "// TABLE: computed exactly (no table)")
        elif t == T.SOLVE_BLOCK:
            pass
        else:
            self.refuse(r".", s.get_node_type_name(), "statement not supported")

    def eigen_block(self, s, out, ind, solve):
        # The frame NMODL's solver blocks share: their arrays, the blocks that set up X,
        # `solve(q)` printing the solution at indent q, then the states and the finalisation.
        p = "  " * ind
        n = int(s.n_state_vars.eval()) if hasattr(s.n_state_vars, "eval") else int(number_of(s.n_state_vars))
        out.append(p + "{")
        q = p + "  "
        out.append(f"{q}double nmodl_eigen_x[{n}], nmodl_eigen_f[{n}], nmodl_eigen_j[{n * n}];")
        self.stmts(s.variable_block.statements, out, ind + 1)
        self.stmts(s.initialize_block.statements, out, ind + 1)
        self.stmts(s.setup_x_block.statements, out, ind + 1)
        solve(q, n)
        self.stmts(s.update_states_block.statements, out, ind + 1)
        self.stmts(s.finalize_block.statements, out, ind + 1)
        out.append(p + "}")

    def newton(self, s, out, ind):
        # NMODL's newton_solver: X -= J^-1 F until |F| < 1e-12, at most 1000 iterations
        # (derivimplicit). A KINETIC block (sparse) and a steady state (dt = 1e9) iterate as
        # NEURON's sparse does instead: stop when the update's sum of magnitudes is at most
        # 1e-6, at most 21 iterations, a state that turns negative set to 0 (not in a steady
        # state). For a steady state F is dt times a sum of terms that cancel, so its rounding
        # (about 1e-7) stays far above 1e-12; in a step, one update of 1e-9 mM is often all
        # NEURON takes, where iterating on would differ from it at 1e-7 of a concentration.
        sparse = nmodl.to_nmodl(s.functor_block) in self.m.sparse_functors
        neuron_rule = self.steady_state or sparse

        def solve(q, n):
            count = 21 if neuron_rule else 1000
            out.append(f"{q}for (int hb_iter = 0; hb_iter < {count}; ++hb_iter) {{")
            self.stmts(s.functor_block.statements, out, ind + 2)
            if not neuron_rule:
                out.append(f"{q}  if (::hinesbatch::nmodl::norm2<{n}>(nmodl_eigen_f) < 1e-12) break;")
            out.append(f"{q}  ::hinesbatch::nmodl::solve_dense<{n}>(nmodl_eigen_j, nmodl_eigen_f);")
            out.append(f"{q}  for (int hb_k = 0; hb_k < {n}; ++hb_k) nmodl_eigen_x[hb_k] -= nmodl_eigen_f[hb_k];")
            if sparse and not self.steady_state:
                out.append(f"{q}  for (int hb_k = 0; hb_k < {n}; ++hb_k) nmodl_eigen_x[hb_k] = nmodl_eigen_x[hb_k] < 0.0 ? 0.0 : nmodl_eigen_x[hb_k];")
            if neuron_rule:
                out.append(f"{q}  if (::hinesbatch::nmodl::norm1<{n}>(nmodl_eigen_f) <= 1e-6) break;")
            out.append(f"{q}}}")
        self.eigen_block(s, out, ind, solve)

    def linear(self, s, out, ind):
        def solve(q, n):
            out.append(f"{q}::hinesbatch::nmodl::solve_dense<{n}>(nmodl_eigen_j, nmodl_eigen_f);")
            out.append(f"{q}for (int hb_k = 0; hb_k < {n}; ++hb_k) nmodl_eigen_x[hb_k] = nmodl_eigen_f[hb_k];")
        self.eigen_block(s, out, ind, solve)

    # --- one entry point ---------------------------------------------------------------
    def names_in(self, nodes):
        used, written = set(), set()
        for node in nodes:
            for n in lookup(node, T.VAR_NAME, T.NAME):
                used.add(name_of(n))
            for e in lookup(node, T.BINARY_EXPRESSION):
                if e.op.eval() == "=":
                    written.add(name_of(e.lhs))
            if node.get_node_type() == T.EXPRESSION_STATEMENT:
                e = node.expression
                if e.get_node_type() == T.BINARY_EXPRESSION and e.op.eval() == "=":
                    written.add(name_of(e.lhs))
                    used.add(name_of(e.lhs))
        for node in nodes:
            for c in lookup(node, T.FUNCTION_CALL):
                used.discard(name_of(c.name))
        for node in nodes:
            for e in lookup(node, T.PROTECT_STATEMENT):
                written.add(name_of(e.expression.lhs))
        return used, written

    def read_first(self, stmts):
        """The instance variables some path through stmts reads before assigning, or may leave
        unassigned: only those are loaded (hh's BREAKPOINT assigns gna, gk, il first)."""
        needs = set()
        assigned = DefiniteAssignment(set(self.var_index), needs).statements(stmts, set())
        # A variable assigned on some paths only keeps its value on the others: loaded too.
        return needs | (set(self.var_index) - assigned)

    def scalars(self, used, out):
        """The start of every function: the math functions, then the run's environment
        (t, dt, celsius, the node's diam and area), CONSTANTs and GLOBALs it uses: the same
        for every instance (and lane) of a call."""
        out.append("    (void)hb_a;")
        out += MATH_USINGS
        for env in ("t", "dt", "celsius", "diam", "area"):
            if env in used:
                out.append(f"    [[maybe_unused]] const double {env} = hb_a.{env}();")

    def constants_and_globals(self, used, out):
        m = self.m
        for n, val in sorted(m.constants.items()):
            if n in used:
                out.append(f"    const double {cxx_name(n)} = {literal(val)};")
        for n, val in BUILTIN_CONSTANTS.items():
            if n in used and n not in m.constants and n not in self.var_index:
                out.append(f"    const double {n} = {literal(val)};")
        for n, i in self.global_index.items():
            if n in used:
                out.append(f"    const double {cxx_name(n)} = hb_a.template global<{i}>();")

    def load(self, name, access, out, maybe_unused=False):
        """Declares the local `name` holding hb_a.<access>() (0.0 where access is None)."""
        attr = "[[maybe_unused]] " if maybe_unused else ""
        out.append(f"    {attr}double {name} = {f'hb_a.{access}()' if access else '0.0'};")

    def scratch_local(self, name):
        return f"{name} = 0.0"

    def prologue(self, used, out, skip_v=False, zero_states=False, loaded=None):
        """The loads a function starts with: v, the variables and ion variables it uses (states
        zeroed for INITIAL, variables it assigns before reading not loaded), its scratch."""
        m = self.m
        self.scalars(used, out)
        if "v" in used and not skip_v:
            self.load("v", "v", out, maybe_unused=True)
        self.constants_and_globals(used, out)
        for n, i in self.var_index.items():
            if n in used:
                zero = (zero_states and m.variables[i].kind == "state") or \
                    (loaded is not None and n not in loaded)
                self.load(cxx_name(n), None if zero else f"template get<{i}>", out)
        for n, i in self.ion_index.items():
            if n in used:
                iv = m.ion_variables[i]
                zero = iv.role == "i" and not iv.read
                self.load(cxx_name(n), None if zero else f"template ion<{i}>", out)
        scratch = [cxx_name(n) for n in m.scratch if n in used]
        if scratch:
            out.append("    [[maybe_unused]] double " + ", ".join(self.scratch_local(n) for n in scratch) + ";")
        for n in sorted(used):
            if (n not in ENVIRONMENT and n not in m.constants and n not in BUILTIN_CONSTANTS
                    and n not in self.global_index and n not in self.var_index
                    and n not in self.ion_index and n not in self.m.scratch
                    and not self.declared_local(n)):
                self.refuse(r"\b%s\b" % re.escape(n), n, "variable not declared in any block")

    def loaded_anywhere(self):
        """The variables some generated function loads (reads before assigning on some
        path). An ASSIGNED variable no function loads is an output only: the simulation need
        not keep it between calls (hh's gna, pas's i)."""
        m = self.m
        blocks = [list(m.initial.statements) if m.initial is not None else [], list(m.breakpoint)]
        blocks.append([s for _, _, sb in m.solves for s in sb.statements])
        if m.net_receive is not None:
            blocks += [list(m.net_receive[1]), list(m.net_receive[2])]
        loaded = set()
        for stmts in blocks:
            self.collect_locals(stmts)
            if m.net_receive is not None:
                self.locals.update(m.net_receive[0])
            used, _ = self.names_in(stmts)
            loaded |= used & self.read_first(stmts)
        return loaded

    def declared_local(self, n):
        return n in self.locals

    def store(self, access, name, out):
        """Stores the local `name` through hb_a.<access>(...)."""
        out.append(f"    hb_a.{access}({name});")

    def epilogue(self, written, out):
        """The stores a function ends with: the variables it wrote, and the concentrations and
        reversal potentials it wrote (its ion currents go through add_ion_current)."""
        for n, i in self.var_index.items():
            if n in written:
                self.store(f"template set<{i}>", cxx_name(n), out)
        for v in self.m.ion_variables:
            if v.write and v.role != "i" and v.name in written:
                self.store(f"template set_ion<{self.ion_index[v.name]}>", cxx_name(v.name), out)

    def collect_locals(self, nodes):
        self.locals = set()
        for node in nodes:
            for l in lookup(node, T.LOCAL_VAR):
                self.locals.add(name_of(l.name))
            for b in lookup(node, T.EIGEN_NEWTON_SOLVER_BLOCK, T.EIGEN_LINEAR_SOLVER_BLOCK):
                self.locals.update({"nmodl_eigen_x", "nmodl_eigen_f", "nmodl_eigen_j"})
        for n in ("nmodl_eigen_x", "nmodl_eigen_f", "nmodl_eigen_j"):
            self.locals.add(n)

    def begin_body(self, hoist_invariants):
        """Before printing a function's statements (its loads come after, from what they
        read): whether invariants are hoisted in it, and nothing seen yet."""
        self.hoist_invariants = hoist_invariants and self.invariants_allowed
        self.printed, self.hidden, self.invariants_read = set(), set(), set()

    def used_after_body(self, used):
        """used without the names read only inside hoisted invariants, with the invariants
        read instead (their values are loaded as variables)."""
        self.hoist_invariants = False
        return (used - (self.hidden - self.printed)) | self.invariants_read

    def function(self, name, stmts, extra_args="", doc=""):
        out = []
        self.collect_locals(stmts)
        used, written = self.names_in(stmts)
        weights = name in ("net_receive", "net_receive_initial")
        if self.m.net_receive is not None and weights:
            for a in self.m.net_receive[0]:
                self.locals.add(a)
        if name == "net_receive" and self.receive_takes_flag():
            self.locals.add("flag")  # NEURON's: 0 for a NetCon's event, net_send's for a self-event
            extra_args += ", double flag = 0"
        out.append(f"  // {doc}")
        out.append("  template <class Accessor>")
        out.append(f"  KOKKOS_INLINE_FUNCTION static void {name}(Accessor& hb_a{extra_args}) {{")
        if name == "initial":
            states = {v.name for v in self.m.variables if v.kind == "state"}
            used |= states
            written |= states
        body = []
        self.begin_body(name in ("state", "net_receive"))
        self.stmts(stmts, body, 2)
        used = self.used_after_body(used)
        self.prologue(used, out, zero_states=(name == "initial"), loaded=self.read_first(stmts))
        if weights:
            for k, a in enumerate(self.m.net_receive[0]):
                out.append(f"    double {cxx_name(a)} = hb_w[{k}];")
                if a not in used:
                    out.append(f"    (void){cxx_name(a)};")
        out += body
        self.epilogue(written, out)
        if name == "initial":
            out.append("    invariants(hb_a);")
        if weights:
            for k, a in enumerate(self.m.net_receive[0]):
                if a in written:
                    out.append(f"    hb_w[{k}] = {cxx_name(a)};")
        out.append("  }")
        return out

    def receive_takes_flag(self):
        """Whether NET_RECEIVE reads flag or sends self-events (its signature then takes flag)."""
        if self.m.net_receive is None:
            return False
        if self.m.kind == "artificial":
            return True
        used, _ = self.names_in(list(self.m.net_receive[1]))
        return "flag" in used or self.m.net_receive_sends

    def uniforms_function(self):
        out = ["  // The uniform expressions (see uniform<M, K>() in mechanism.hpp), from celsius and",
               "  // the GLOBALs alone: computed once per run by schedules that keep them.",
               "  template <class Accessor>",
               "  KOKKOS_INLINE_FUNCTION static void uniforms(const Accessor& hb_a, double* hb_u) {",
               "    (void)hb_a;",
               "    (void)hb_u;"]
        if self.uniforms:
            out += MATH_USINGS
            text = " ".join(self.uniforms)
            def mentions(n):
                return re.search(r"\b%s\b" % re.escape(n), text) is not None
            if mentions("celsius"):
                out.append("    const double celsius = hb_a.celsius();")
            named = list(self.m.constants) + list(self.global_index)
            used = {n for n in named if mentions(cxx_name(n))}
            used |= {n for n in BUILTIN_CONSTANTS if mentions(n)}
            self.constants_and_globals(used, out)
            for k, u in enumerate(self.uniforms):
                out.append(f"    hb_u[{k}] = {u};")
        out.append("  }")
        return out

    def invariants_function(self):
        out = ["  // The per-instance invariants (hb_invariant<k>): expressions of the instance's values",
               "  // that no step writes, GLOBALs, constants, celsius and dt, that a step would compute",
               "  // every time (ExpSyn's exp(-dt/tau)); computed here, once per instance, by the same",
               "  // operations, at the end of initial(), and read where they stood. Valid because dt,",
               "  // like the parameters, is fixed for a run: a run with another dt initialises anew.",
               "  template <class Accessor>",
               "  KOKKOS_INLINE_FUNCTION static void invariants(Accessor& hb_a) {"]
        if not self.invariants:
            out += ["    (void)hb_a;", "  }"]
            return out
        used = set()
        for _, _, names in self.invariants:
            used |= names
        self.locals = set()
        self.scalars(used, out)
        self.constants_and_globals(used, out)
        for n, i in self.var_index.items():
            if n in used:
                out.append(f"    const double {cxx_name(n)} = hb_a.template get<{i}>();")
        for k, (_, text, _) in enumerate(self.invariants):
            out.append(f"    hb_a.template set<{self.var_index[INVARIANT_PREFIX + str(k)]}>({text});")
        out.append("  }")
        return out

    def linear_conductances(self, currents):
        """{current: conductance} when every current of the BREAKPOINT is g (v - e) with a
        conductance g of the mechanism that does not depend on v (NMODL's CONDUCTANCE
        hints, checked here): then di/dv is g, exactly, and the BREAKPOINT runs once.
        None otherwise (NEURON's difference quotient)."""
        m = self.m
        if m.electrode or not m.conductances:
            return None
        depends_on_v = {"v"}
        for st in m.breakpoint:  # assignments in order: what a value depends on
            for e in lookup(st, T.BINARY_EXPRESSION):
                if e.op.eval() == "=":
                    names = {name_of(n) for n in lookup(e.rhs, T.VAR_NAME, T.NAME)}
                    if names & depends_on_v:
                        depends_on_v.add(name_of(e.lhs))
        ok = lambda g: g in self.var_index and g not in depends_on_v
        by_ion = {}
        plain = []
        for g, ion in m.conductances:
            if not ok(g):
                return None
            if ion is None:
                plain.append(g)
            elif ion in by_ion:
                return None
            else:
                by_ion[ion] = g
        result = {}
        for c in currents:
            ion = next(v.ion for v in m.ion_variables if v.name == c)
            if ion not in by_ion:
                return None
            result[c] = by_ion.pop(ion)
        if by_ion or len(plain) != len(m.nonspecific):
            return None
        result.update(zip(m.nonspecific, plain))
        # NMODL 0.5's hint can name the wrong variable (for `i = gbar*total*(v + 20)` after
        # several assignments to total it says `total`): each current's one assignment must
        # be linear in v with di/dv = g exactly, else NEURON's difference quotient.
        for c, g in result.items():
            if not self.current_is_g_times(c, g, depends_on_v):
                return None
        return result

    def current_is_g_times(self, current, g, depends_on_v):
        """Whether the BREAKPOINT assigns `current` once, at its top level, an expression
        whose derivative in v is the symbol g and whose other names do not depend on v."""
        import sympy
        from sympy.parsing.sympy_parser import (convert_xor, parse_expr,
                                                standard_transformations)
        assignments = [e for e in lookup_all(self.m.breakpoint, T.BINARY_EXPRESSION)
                       if e.op.eval() == "=" and name_of(e.lhs) == current]
        top = [st for st in self.m.breakpoint if st.get_node_type() == T.EXPRESSION_STATEMENT
               and st.expression.get_node_type() == T.BINARY_EXPRESSION
               and st.expression.op.eval() == "=" and name_of(st.expression.lhs) == current]
        if len(assignments) != 1 or len(top) != 1:
            return False
        rhs = top[0].expression.rhs
        names = {name_of(n) for n in lookup(rhs, T.VAR_NAME, T.NAME)}
        if (names - {"v"}) & depends_on_v or lookup(rhs, T.FUNCTION_CALL):
            return False
        symbols = {n: sympy.Symbol(n) for n in names | {"v", g}}
        try:
            e = parse_expr(nmodl.to_nmodl(rhs), local_dict=symbols,
                           transformations=standard_transformations + (convert_xor,))
            didv = sympy.diff(e, symbols["v"])
            return sympy.simplify(didv - symbols[g]) == 0
        except Exception:  # an expression SymPy cannot read: the difference quotient
            return False

    def linear_leak(self):
        """Whether the mechanism is a leak: one NONSPECIFIC_CURRENT g (v - e) whose g and
        everything else it reads are constant over a run (no states, ions, events or
        INITIAL). Its current is then G v + i(0) at every node, which a schedule may fold
        into the cable's own passive terms."""
        m = self.m
        if m.kind != "density" or m.solves or m.ion_variables or m.net_receive is not None:
            return False
        if m.electrode or len(m.nonspecific) != 1:
            return False
        if m.initial is not None and list(m.initial.statements):
            return False
        linear = self.linear_conductances([])
        if linear is None:
            return False
        g = linear[m.nonspecific[0]]
        if m.variables[self.var_index[g]].written:
            return False
        self.collect_locals(m.breakpoint)
        used, written = self.names_in(m.breakpoint)
        for n in used - written - self.locals - {"v", "celsius"}:
            if n in self.var_index:
                if m.variables[self.var_index[n]].written:
                    return False
            elif not (n in self.global_index or n in m.constants or n in BUILTIN_CONSTANTS):
                return False
        return True

    def current_function(self):
        m = self.m
        stmts = m.breakpoint
        out = []
        self.collect_locals(stmts)
        used, written = self.names_in(stmts)
        currents = [v.name for v in m.ion_variables if v.write and v.role == "i"]
        linear = self.linear_conductances(currents)
        if linear is not None:
            return self.current_function_linear(stmts, used, written, currents, linear)
        out.append("  // BREAKPOINT without its SOLVE, as NEURON's nrn_cur: the membrane current at v")
        out.append("  // and its conductance (i(v + 0.001) - i(v)) / 0.001; ion currents likewise.")
        out.append("  template <class Accessor>")
        out.append("  KOKKOS_INLINE_FUNCTION static void current(Accessor& hb_a) {")
        all_currents = currents + m.nonspecific + m.electrode
        for c in all_currents:
            used.add(c)
        used.add("v")
        body = ["    {"]
        self.begin_body(True)
        self.stmts(stmts, body, 3)
        used = self.used_after_body(used)
        body.append("    }")
        self.prologue(used, out, skip_v=True, loaded=self.read_first(stmts))
        out.append("    const double hb_v = hb_a.v();")
        out.append("    [[maybe_unused]] double v = hb_v;")

        def total():
            terms = [cxx_name(c) for c in currents + m.nonspecific]
            terms += [f"-{cxx_name(c)}" for c in m.electrode]
            return " + ".join(terms).replace("+ -", "- ") if terms else "0.0"

        out.append("    v = hb_v + 0.001;")
        out += body
        out.append(f"    const double hb_i_dv = {total()};")
        for c in currents:
            out.append(f"    const double hb_{c}_dv = {cxx_name(c)};")
        out.append("    v = hb_v;")
        out += body
        out.append(f"    const double hb_i = {total()};")
        out.append("    hb_a.add_current(hb_i, (hb_i_dv - hb_i) / 0.001);")
        for c in currents:
            k = self.ion_index[c]
            out.append(f"    hb_a.template add_ion_current<{k}>({cxx_name(c)}, (hb_{c}_dv - {cxx_name(c)}) / 0.001);")
        self.epilogue(written, out)
        out.append("  }")
        return out

    def current_function_linear(self, stmts, used, written, currents, linear):
        m = self.m
        out = ["  // BREAKPOINT without its SOLVE, as NEURON's nrn_cur: the membrane current at v.",
               "  // Every current is g (v - e) with g independent of v (CONDUCTANCE), so di/dv is",
               "  // g itself, where NEURON's difference quotient gives it to rounding.",
               "  template <class Accessor>",
               "  KOKKOS_INLINE_FUNCTION static void current(Accessor& hb_a) {"]
        for c in currents + m.nonspecific:
            used.add(c)
        used |= set(linear.values())
        used.add("v")
        body = []
        self.begin_body(True)
        self.stmts(stmts, body, 3)
        used = self.used_after_body(used)
        self.prologue(used, out, skip_v=True, loaded=self.read_first(stmts))
        out.append("    [[maybe_unused]] double v = hb_a.v();")
        out.append("    {")
        out += body
        out.append("    }")
        terms = [cxx_name(c) for c in currents + m.nonspecific]
        conds = [cxx_name(linear[c]) for c in currents + m.nonspecific]
        out.append(f"    hb_a.add_current({' + '.join(terms) or '0.0'}, {' + '.join(conds) or '0.0'});")
        for c in currents:
            out.append(f"    hb_a.template add_ion_current<{self.ion_index[c]}>({cxx_name(c)}, {cxx_name(linear[c])});")
        self.epilogue(written, out)
        out.append("  }")
        return out


def header(mech, src, namespace, tool_version):
    em = Emitter(mech, src)
    m = mech
    out = []
    out.append("#pragma once")
    out.append(f"// Generated by tools/nmodl (hinesbatch-nmodl {tool_version}) from {src.path.split('/')[-1]};")
    out.append("// do not edit. Device functions over an accessor to one instance (see")
    out.append("// hinesbatch/simulation/nmodl/mechanism.hpp).")
    out.append("#include <hinesbatch/simulation/nmodl/mechanism.hpp>")
    out.append("")
    out.append(f"namespace {namespace} {{")
    out.append("")
    out.append(f"struct {cxx_name(m.name)} {{")
    out.append(f'  static constexpr const char* name = "{m.name}";')
    out.append(f'  static constexpr const char* source_file = "{src.path.split("/")[-1]}";')
    kind = {"point": "PointProcess", "artificial": "ArtificialCell"}.get(m.kind, "Density")
    out.append(f"  static constexpr ::hinesbatch::nmodl::MechanismKind kind = ::hinesbatch::nmodl::MechanismKind::{kind};")
    out.append(f"  static constexpr bool writes_concentration = {'true' if m.writes_concentration else 'false'};")
    out.append(f"  static constexpr bool has_current = {'true' if (m.breakpoint or any(v.write and v.role == 'i' for v in m.ion_variables) or m.nonspecific or m.electrode) else 'false'};")
    out.append(f"  static constexpr bool has_state = {'true' if m.solves else 'false'};")
    out.append(f"  static constexpr bool has_net_receive = {'true' if m.net_receive else 'false'};")
    out.append(f"  static constexpr bool tables_computed_exactly = {'true' if m.tables else 'false'};")
    leak = em.linear_leak()
    out.append(f"  static constexpr bool linear_leak = {'true' if leak else 'false'};")
    nw = len(m.net_receive[0]) if m.net_receive else 0
    out.append(f"  static constexpr int num_weights = {nw};")
    vk = {"parameter": "Parameter", "state": "State", "assigned": "Assigned"}
    loaded = em.loaded_anywhere()
    output_only = {v.name for v in m.variables
                   if v.kind == "assigned" and v.written and v.name not in loaded}
    for v in m.variables:
        v.output_only = v.name in output_only
    # The functions first: they find the invariants, which add variables. A leak's current
    # runs on the host from the variables the config sets (catalogue.hpp): none for it.
    em.invariants_allowed = not leak
    body = [""]
    init_stmts = list(m.initial.statements) if m.initial is not None else []
    body += em.function("initial", init_stmts, doc="INITIAL (states start at 0, as NEURON's s0 defaults)")
    body.append("")
    body += em.current_function()
    body.append("")
    state_stmts = []
    for _, _, sb in m.solves:
        state_stmts += list(sb.statements)
    methods = ", ".join(sorted(set(m.methods))) or "none"
    state_fn = em.function("state", state_stmts, doc=f"SOLVE blocks over one step dt at the new v ({methods})")
    # Whether state() reads v: a schedule runs a point process's state without waiting for
    # its node's new v where it does not.
    state_reads_v = any("hb_a.v()" in line for line in state_fn)
    body += state_fn
    # Whether a NetCon keeps state of its own (NEURON's weight vector: NET_RECEIVE or its
    # INITIAL assigns an argument, or INITIAL runs at all), and whether NET_RECEIVE reads t
    # (the event's own time, not the step's): the simulation then keeps a vector per
    # connection and the events' times.
    keeps_weights = reads_t = False
    if m.net_receive is not None:
        body.append("")
        receive = em.function("net_receive", list(m.net_receive[1]), extra_args=", double* hb_w",
                              doc="NET_RECEIVE: one event at its time t with its NetCon's weight vector hb_w")
        body += receive
        body.append("")
        receive_initial = em.function("net_receive_initial", list(m.net_receive[2]), extra_args=", double* hb_w",
                                      doc="NET_RECEIVE's INITIAL: a NetCon's weight vector at initialisation")
        body += receive_initial
        keeps_weights = bool(list(m.net_receive[2])) or any(
            line.lstrip().startswith("hb_w[") for line in receive + receive_initial)
        # net_send's delay counts from the event's own time.
        reads_t = any("hb_a.t()" in line for line in receive) or m.net_receive_sends
    out.append(f"  static constexpr bool net_receive_keeps_weights = {'true' if keeps_weights else 'false'};")
    out.append(f"  static constexpr bool net_receive_reads_t = {'true' if reads_t else 'false'};")
    # Whether NET_RECEIVE sends self-events (net_send; its signature then takes flag).
    out.append(f"  static constexpr bool net_receive_sends = {'true' if m.net_receive_sends else 'false'};")
    from .lanes import lanes_functions
    lanes, has_lanes = lanes_functions(mech, src, em)
    body += lanes
    out.append(f"  static constexpr int num_variables = {len(m.variables)};")
    out.append(f"  static constexpr std::array<::hinesbatch::nmodl::VariableInfo, {len(m.variables)}> variables{{{{")
    for v in m.variables:
        out.append(f'      {{"{v.name}", ::hinesbatch::nmodl::VariableKind::{vk[v.kind]}, {literal(v.default)}, '
                   f'{"true" if v.range else "false"}, {"true" if v.written else "false"}, '
                   f'{"true" if v.name in output_only else "false"}}},')
    out.append("  }};")
    out.append(f"  static constexpr int num_globals = {len(m.globals)};")
    out.append(f"  static constexpr std::array<::hinesbatch::nmodl::GlobalInfo, {len(m.globals)}> globals{{{{")
    for n, val in m.globals:
        out.append(f'      {{"{n}", {literal(val)}}},')
    out.append("  }};")
    out.append(f"  static constexpr int num_ion_variables = {len(m.ion_variables)};")
    out.append(f"  static constexpr std::array<::hinesbatch::nmodl::IonVariableInfo, {len(m.ion_variables)}> ion_variables{{{{")
    roles = {"e": "Reversal", "ci": "Inside", "co": "Outside", "i": "Current"}
    for v in m.ion_variables:
        valence = next(i.valence for i in m.ions if i.name == v.ion)
        out.append(f'      {{"{v.ion}", "{v.name}", {valence}, ::hinesbatch::nmodl::IonRole::{roles[v.role]}, '
                   f'{"true" if v.read else "false"}, {"true" if v.write else "false"}}},')
    out.append("  }};")
    out.append(f"  static constexpr bool has_lanes = {'true' if has_lanes else 'false'};")
    out.append(f"  static constexpr bool state_reads_v = {'true' if state_reads_v else 'false'};")
    out.append(f"  static constexpr int num_uniforms = {len(em.uniforms)};")
    out.append(f"  static constexpr int num_invariants = {len(em.invariants)};")
    out.append("")
    out += em.uniforms_function()
    out.append("")
    out += em.invariants_function()
    out += body
    out.append("};")
    out.append("")
    out.append(f"}}  // namespace {namespace}")
    return "\n".join(out) + "\n"


def catalogue(mechs, namespace, name, headers):
    out = ["#pragma once", "// Generated by tools/nmodl: the mechanisms of one catalogue; do not edit.",
           "#include <array>", "#include <tuple>"]
    for h in headers:
        out.append(f'#include "{h}"')
    out.append("")
    out.append(f"namespace {namespace} {{")
    out.append("")
    out.append(f"struct {name} {{")
    types = ", ".join(cxx_name(m.name) for m in mechs)
    out.append(f"  using mechanisms = std::tuple<{types}>;")
    out.append(f'  static constexpr const char* catalogue_name = "{name}";')
    out.append(f"  static constexpr int size = {len(mechs)};")
    out.append(f"  static constexpr std::array<const char*, {len(mechs)}> names{{{{")
    for m in mechs:
        out.append(f'      "{m.name}",')
    out.append("  }};")
    out.append("  // Calls f(M{}) for every mechanism type M, in catalogue order.")
    out.append("  template <class F>")
    out.append("  static void for_each(F&& f) {")
    for m in mechs:
        out.append(f"    f({cxx_name(m.name)}{{}});")
    out.append("  }")
    out.append("};")
    out.append("")
    out.append(f"}}  // namespace {namespace}")
    return "\n".join(out) + "\n"


def metadata(mechs, name):
    """The catalogue's metadata as plain data (written as <catalogue>.json)."""
    out = {"catalogue": name, "mechanisms": []}
    for m in mechs:
        out["mechanisms"].append({
            "name": m.name,
            "kind": {"point": "point_process", "artificial": "artificial_cell"}.get(m.kind, "density"),
            "file": m.path.split("/")[-1],
            "variables": [{"name": v.name, "kind": v.kind, "default": v.default, "range": v.range,
                           "written": v.written, "output_only": v.output_only}
                          for v in m.variables],
            "globals": [{"name": n, "default": d} for n, d in m.globals],
            "ions": [{"ion": i.name, "valence": i.valence,
                      "read": [v.name for v in i.variables if v.read],
                      "write": [v.name for v in i.variables if v.write]} for i in m.ions],
            "nonspecific_currents": m.nonspecific,
            "electrode_currents": m.electrode,
            "net_receive_weights": len(m.net_receive[0]) if m.net_receive else 0,
            "net_receive_sends": m.net_receive_sends,
            "methods": sorted(set(m.methods)),
            "tables_computed_exactly": m.tables,
        })
    return out
