"""NMODL front end: parse with Blue Brain's NMODL framework, run its passes, analyse.

Everything here is built on `nmodl` (Debian's python3-nmodl 0.5): the parser
(NmodlDriver), the symbol table, the inliner, the kinetic-to-derivative pass and the
SymPy solvers (cnexp, derivimplicit, sparse, euler). What cannot be translated is refused
with a `Refusal` naming the file, the line and the construct.
"""

import os
import re
from dataclasses import dataclass, field

import nmodl
from nmodl import ast, symtab, visitor

T = ast.AstNodeType

# Ions NEURON knows without a VALENCE statement (NEURON 8.2 registers na, k, ca at start).
KNOWN_IONS = {"na": 1, "k": 1, "ca": 2}

# Unit factors `NAME = (unit1) (unit2)` as NEURON 8.2's nocmodl computes them (its default,
# non-legacy units: CODATA 2018), keyed by (unit1, unit2).
UNIT_FACTORS = {
    ("faraday", "coulomb"): float.fromhex("0x1.78e555060882cp+16"),
    ("faraday", "coulombs"): float.fromhex("0x1.78e555060882cp+16"),
    ("faraday", "coul"): float.fromhex("0x1.78e555060882cp+16"),
    ("faraday", "kilocoulombs"): float.fromhex("0x1.78e555060882cp+16") / 1000,
    ("faraday", "kilocoulomb"): float.fromhex("0x1.78e555060882cp+16") / 1000,
    ("k-mole", "joule/degc"): float.fromhex("0x1.0a1013e8990bep+3"),
    ("k-mole", "joule/k"): float.fromhex("0x1.0a1013e8990bep+3"),
    ("e", "coulomb"): float.fromhex("0x1.7a4da290c1653p-63"),
    ("e", "coulombs"): float.fromhex("0x1.7a4da290c1653p-63"),
    ("e", "coul"): float.fromhex("0x1.7a4da290c1653p-63"),
    ("k", "joule/degc"): float.fromhex("0x1.0b0e6d55e647cp-76"),
    ("k", "joule/k"): float.fromhex("0x1.0b0e6d55e647cp-76"),
    ("pi", "1"): float.fromhex("0x1.921fb54442d18p+1"),
}

# Functions the generated code maps to <cmath> (NEURON's own math library names).
MATH_FUNCTIONS = {
    "exp": "exp", "log": "log", "log10": "log10", "sqrt": "sqrt", "fabs": "fabs",
    "pow": "pow", "sin": "sin", "cos": "cos", "tan": "tan", "atan": "atan", "atan2": "atan2",
    "tanh": "tanh", "sinh": "sinh", "cosh": "cosh", "floor": "floor", "ceil": "ceil",
    "fmod": "fmod", "asin": "asin", "acos": "acos", "fmin": "fmin", "fmax": "fmax",
}
# Variables of the compartment and the run, read through the accessor.
ENVIRONMENT = {"v", "t", "dt", "celsius", "diam", "area"}
BUILTIN_CONSTANTS = {"PI": 3.14159265358979323846}
SUPPORTED_METHODS = {"cnexp", "derivimplicit", "sparse", "euler"}
# SOLVE ... STEADYSTATE in INITIAL: one implicit step of the block with this dt (NEURON's
# _ss_sparse and _ss_derivimplicit), whose fixed point is the steady state.
STEADYSTATE_METHODS = {"sparse", "derivimplicit"}
STEADYSTATE_DT = 1e9
# Elements of the file's arrays made scalars (arrays.scalarize): element name -> array name.
ARRAY_ELEMENTS = {}


class Refusal(Exception):
    """A construct the compiler does not translate (exit status 2)."""

    def __init__(self, path, line, construct, message):
        super().__init__(f"{path}:{line}: error: {construct}: {message}")
        self.path, self.line, self.construct, self.message = path, line, construct, message


@dataclass
class Variable:
    name: str
    kind: str  # parameter, state, assigned
    default: float = 0.0
    range: bool = True  # declared RANGE (or a STATE): visible to the user, recordable
    written: bool = False  # assigned by the mechanism's own code
    units: str = ""
    output_only: bool = False  # written, never read back (set by the emitter)


@dataclass
class IonVariable:
    ion: str
    name: str
    role: str  # e, ci, co, i
    read: bool
    write: bool


@dataclass
class Ion:
    name: str
    valence: int
    line: int
    variables: list = field(default_factory=list)


@dataclass
class Mechanism:
    name: str
    kind: str  # density, point
    path: str
    variables: list = field(default_factory=list)
    globals: list = field(default_factory=list)  # (name, default), read-only in code
    constants: dict = field(default_factory=dict)
    ions: list = field(default_factory=list)
    ion_variables: list = field(default_factory=list)
    nonspecific: list = field(default_factory=list)
    electrode: list = field(default_factory=list)
    statics: list = field(default_factory=list)  # written non-RANGE names kept per instance
    scratch: list = field(default_factory=list)  # written non-RANGE names local to each call
    initial: object = None
    breakpoint: list = field(default_factory=list)  # statements (SOLVE removed)
    solves: list = field(default_factory=list)  # (block name, method, statement block)
    net_receive: object = None  # (argument names, statements, statements of its INITIAL)
    net_receive_sends: bool = False  # its statements call net_send (self-events)
    methods: list = field(default_factory=list)
    tables: bool = False
    writes_concentration: bool = False
    warnings: list = field(default_factory=list)  # (line, message)
    # The Newton iterations of KINETIC blocks (METHOD sparse), by their functor's NMODL text:
    # they stop as NEURON's sparse does (emit.Emitter.newton).
    sparse_functors: set = field(default_factory=set)
    # NMODL's SympyConductanceVisitor's CONDUCTANCE hints for the BREAKPOINT's currents:
    # (conductance name, ion or None for a NONSPECIFIC_CURRENT).
    conductances: list = field(default_factory=list)


# --- source positions ------------------------------------------------------------------
# The Python binding of NMODL 0.5 does not expose token positions, so lines are found in
# the source text with comments removed (the same text the parser read).


def strip_comments(text):
    out = []
    in_comment = False
    for line in text.splitlines():
        s = line.strip()
        if in_comment:
            if s.startswith("ENDCOMMENT"):
                in_comment = False
            out.append("")
            continue
        if s.startswith("COMMENT"):
            in_comment = True
            out.append("")
            continue
        out.append(line.split(":", 1)[0] if not s.startswith("VERBATIM") else line)
    return out


class Source:
    def __init__(self, path):
        self.path = path
        with open(path, encoding="utf-8", errors="replace") as f:
            self.text = f.read()
        self.lines = strip_comments(self.text)

    def line_of(self, pattern, flags=0):
        rx = re.compile(pattern, flags)
        for i, line in enumerate(self.lines, 1):
            if rx.search(line):
                return i
        return 0

    def refuse(self, pattern, construct, message):
        raise Refusal(self.path, self.line_of(pattern), construct, message)


# --- parsing and passes --------------------------------------------------------------


def lookup(node, *types):
    found = []
    for t in types:
        found += visitor.AstLookupVisitor().lookup(node, t)
    return found


def name_of(node):
    """The plain name of a Name, VarName, PrimeName, IndexedName or String node."""
    if node is None:
        return None
    t = node.get_node_type()
    if t == T.VAR_NAME:
        return name_of(node.name)
    if t == T.NAME:
        return node.value.eval()
    if t in (T.STRING,):
        return node.eval()
    if t == T.PRIME_NAME:
        return node.value.eval()
    if t == T.INDEXED_NAME:
        return name_of(node.name)
    return node.get_node_name()


def number_of(node):
    """The value of a Double, Integer, Float or DoubleUnit node (None when absent)."""
    if node is None:
        return None
    t = node.get_node_type()
    if t == T.DOUBLE_UNIT:
        return number_of(node.value)
    if t in (T.DOUBLE, T.INTEGER, T.FLOAT):
        return float(node.eval())
    return None


def rewrite_state_discontinuity(text):
    """state_discontinuity(x, value) as the assignment x = value, what it is in NEURON's
    fixed-step method (it also tells CVODE to restart). Each call stays on its line."""
    out, pos = [], 0
    rx = re.compile(r"\bstate_discontinuity\s*\(")
    while True:
        m = rx.search(text, pos)
        if m is None:
            out.append(text[pos:])
            return "".join(out)
        depth, comma, k = 1, -1, m.end()
        while k < len(text) and depth > 0:
            ch = text[k]
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif ch == "," and depth == 1 and comma < 0:
                comma = k
            elif ch == "\n":
                break
            k += 1
        if depth != 0 or comma < 0:  # left for the parser and check_calls to name
            out.append(text[pos:m.end()])
            pos = m.end()
            continue
        target, value = text[m.end():comma].strip(), text[comma + 1:k - 1].strip()
        out.append(text[pos:m.start()] + f"{target} = ({value})")
        pos = k


def parse(src):
    driver = nmodl.NmodlDriver()
    try:
        if re.search(r"\bstate_discontinuity\b", src.text):
            program = driver.parse_string(rewrite_state_discontinuity(src.text))
        else:
            program = driver.parse_file(src.path)
    except RuntimeError as e:
        msg = str(e)
        m = re.search(r"Location : (\d+)\.(\d+)", msg)
        line = int(m.group(1)) if m else 0
        first = msg.splitlines()[0] if msg else "syntax error"
        first = re.sub(r"\s*\[Location[^\]]*\]", "", first).replace("NMODL Parser Error : ", "")
        raise Refusal(src.path, line, "syntax", first)
    return program


REFUSED_NODES = [
    (T.VERBATIM, r"\bVERBATIM\b", "VERBATIM", "C code inside a .mod file cannot run in a Kokkos kernel"),
    (T.POINTER, r"\bPOINTER\b", "POINTER", "pointers to other mechanisms' variables are not supported yet"),
    (T.BBCORE_POINTER, r"\bBBCOREPOINTER\b", "BBCOREPOINTER", "opaque pointers are not supported"),
    (T.EXTERNAL, r"\bEXTERNAL\b", "EXTERNAL", "variables of other mechanisms are not supported"),
    (T.FUNCTION_TABLE_BLOCK, r"\bFUNCTION_TABLE\b", "FUNCTION_TABLE", "tables filled from hoc are not supported"),
    (T.CONSTRUCTOR_BLOCK, r"\bCONSTRUCTOR\b", "CONSTRUCTOR", "needs C code (VERBATIM)"),
    (T.DESTRUCTOR_BLOCK, r"\bDESTRUCTOR\b", "DESTRUCTOR", "needs C code (VERBATIM)"),
    (T.BEFORE_BLOCK, r"\bBEFORE\b", "BEFORE", "BEFORE/AFTER blocks are not supported yet"),
    (T.AFTER_BLOCK, r"\bAFTER\b", "AFTER", "BEFORE/AFTER blocks are not supported yet"),
    (T.LINEAR_BLOCK, r"\bLINEAR\b", "LINEAR", "LINEAR blocks are not supported yet"),
    (T.NON_LINEAR_BLOCK, r"\bNONLINEAR\b", "NONLINEAR", "NONLINEAR blocks are not supported yet"),
    (T.DISCRETE_BLOCK, r"\bDISCRETE\b", "DISCRETE", "DISCRETE blocks are not supported"),
    (T.WATCH_STATEMENT, r"\bWATCH\b", "WATCH", "WATCH (threshold events) is not supported yet"),
    (T.FOR_NETCON, r"\bFOR_NETCONS\b", "FOR_NETCONS", "not supported yet"),
    (T.LAG_STATEMENT, r"\bLAG\b", "LAG", "not supported"),
    (T.LON_DIFUSE, r"\bLONGITUDINAL_DIFFUSION\b", "LONGITUDINAL_DIFFUSION", "longitudinal diffusion is not supported"),
    (T.INDEXED_NAME, r"\w+\s*\[", "array variable", "an array the compiler could not make scalars"),
]

# Calls only an ARTIFICIAL_CELL's NET_RECEIVE may make (check_calls).
ARTIFICIAL_CALLS = {
    "net_event": "a spike from a mechanism (net_event) is supported in an ARTIFICIAL_CELL's "
                 "NET_RECEIVE only (a cell's spikes come from its detector)",
    "net_move": "net_move is supported in an ARTIFICIAL_CELL's NET_RECEIVE only",
}

# NEURON's random functions (their argument counts): an ARTIFICIAL_CELL draws them from a
# stream of its own (the accessor's scop_random, exprand, normrand).
RANDOM_CALLS = {"scop_random": 0, "exprand": 1, "normrand": 2}

REFUSED_CALLS = {
    "set_seed": "a cell's random stream is seeded by its sources entry's seed (or the "
                "network's), not by the mechanism",
    "nrn_random_play": "not supported",
    "state_discontinuity": "only as state_discontinuity(variable, value)",
}


def check_refused(src, program, arrays=True):
    """arrays=False: everything but indexed names (checked before arrays are made scalars)."""
    for node_type, pattern, construct, message in REFUSED_NODES:
        if not arrays and node_type == T.INDEXED_NAME:
            continue
        if lookup(program, node_type):
            src.refuse(pattern, construct, message)
    # CONSERVE: NMODL's kinetic pass replaces the last named state's equation by the sum, as
    # NEURON's sparse does; elsewhere NEURON rejects it.
    in_kinetic = sum(len(lookup(b, T.CONSERVE)) for b in lookup(program, T.KINETIC_BLOCK))
    if len(lookup(program, T.CONSERVE)) > in_kinetic:
        src.refuse(r"\bCONSERVE\b", "CONSERVE", "CONSERVE is supported in KINETIC blocks only")
    for sb in lookup(program, T.SOLVE_BLOCK):
        block = name_of(sb.block_name)
        if sb.steadystate is not None:
            ss_method = name_of(sb.steadystate)
            if ss_method not in STEADYSTATE_METHODS:
                src.refuse(r"\bSTEADYSTATE\s+%s\b" % re.escape(ss_method), f"STEADYSTATE {ss_method}",
                           "supported steady-state methods are " + ", ".join(sorted(STEADYSTATE_METHODS)))
        method = name_of(sb.method) if sb.method is not None else None
        if method is not None and method not in SUPPORTED_METHODS:
            src.refuse(r"\bMETHOD\s+%s\b" % re.escape(method), f"METHOD {method}",
                       "supported methods are " + ", ".join(sorted(SUPPORTED_METHODS)))


def strip_tables(program):
    """Removes TABLE statements (the generated code computes every value exactly, as NEURON
    with usetable_<mechanism> = 0); NMODL's inliner does not inline blocks that hold one."""
    found = False
    for sb in lookup(program, T.STATEMENT_BLOCK):
        stmts = sb.statements
        kept = [x for x in stmts if x.get_node_type() != T.TABLE_STATEMENT]
        if len(kept) != len(stmts):
            sb.statements = kept
            found = True
    return found


def check_useion_twice(src, program):
    seen = {}
    for u in lookup(program, T.USEION):
        ion = name_of(u.name)
        if ion in seen:
            lines = [i for i, l in enumerate(src.lines, 1)
                     if re.search(r"\bUSEION\s+%s\b" % re.escape(ion), l)]
            raise Refusal(src.path, lines[1] if len(lines) > 1 else 0, f"USEION {ion}",
                          f"conflicting USEION: ion '{ion}' is declared twice in this file "
                          f"(first at line {lines[0] if lines else 0})")
        seen[ion] = True


def nonlinear_cnexp(program):
    """States whose cnexp ODE is nonlinear in the state (before SymPy solves it)."""
    import sympy
    from sympy.parsing.sympy_parser import (convert_xor, parse_expr,
                                            standard_transformations)
    cnexp = {name_of(sb.block_name) for sb in lookup(program, T.SOLVE_BLOCK)
             if sb.method is not None and name_of(sb.method) == "cnexp"}
    found = []
    for b in program.blocks:
        if b.get_node_type() != T.DERIVATIVE_BLOCK or name_of(b.name) not in cnexp:
            continue
        for d in lookup(b, T.DIFF_EQ_EXPRESSION):
            e = d.expression
            if not lookup(e.lhs, T.PRIME_NAME):
                continue
            state = name_of(e.lhs)
            try:
                rhs = parse_expr(nmodl.to_nmodl(e.rhs), transformations=standard_transformations +
                                 (convert_xor,))
                x = sympy.Symbol(state)
                if x in sympy.diff(rhs, x).free_symbols:
                    found.append(state)
            except Exception:  # an expression SymPy cannot read: no warning
                continue
    return found


def conductance_hints(program):
    """The CONDUCTANCE statements NMODL's SympyConductanceVisitor would add to the
    BREAKPOINT (a current linear in v: di/dv is its conductance), found on a copy so that
    the code generated from program does not change."""
    copy = program.clone()
    try:
        symtab.SymtabVisitor().visit_program(copy)
        visitor.SympyConductanceVisitor().visit_program(copy)
    except RuntimeError:
        return []
    hints = []
    for b in lookup(copy, T.BREAKPOINT_BLOCK):
        for h in lookup(b, T.CONDUCTANCE_HINT):
            hints.append((name_of(h.conductance), name_of(h.ion) if h.ion is not None else None))
    return hints


def run_passes(program):
    tables = strip_tables(program)
    symtab.SymtabVisitor().visit_program(program)
    visitor.LocalVarRenameVisitor().visit_program(program)
    symtab.SymtabVisitor().visit_program(program)
    visitor.KineticBlockVisitor().visit_program(program)
    symtab.SymtabVisitor().visit_program(program)
    visitor.InlineVisitor().visit_program(program)
    symtab.SymtabVisitor().visit_program(program)
    nonlinear = nonlinear_cnexp(program)
    visitor.SympySolverVisitor().visit_program(program)
    symtab.SymtabVisitor().visit_program(program)
    return tables, nonlinear


# --- analysis ----------------------------------------------------------------------------

ION_ROLES = ("e", "ci", "co", "i")


def unit_scale(unit):
    """(number, unit) of a unit written with a leading number ("10000 coulomb"); (1.0, unit)
    without one; (None, unit) where the number does not parse."""
    m = re.fullmatch(r"([0-9.][0-9.eE+-]*)\s+(.+)", unit)
    if not m:
        return 1.0, unit
    try:
        return float(m.group(1)), m.group(2).strip()
    except ValueError:
        return None, unit


def ion_role(ion, var):
    if var == "e" + ion:
        return "e"
    if var == ion + "i":
        return "ci"
    if var == ion + "o":
        return "co"
    if var == "i" + ion:
        return "i"
    return None


def analyse(src, program):
    blocks = list(program.blocks)
    neuron_blocks = [b for b in blocks if b.get_node_type() == T.NEURON_BLOCK]
    if not neuron_blocks:
        src.refuse(r".", "NEURON block", "the file has no NEURON block")
    mech = None
    range_names, global_names = set(), set()
    nonspecific, electrode = [], []
    ions = []
    for stmt in neuron_blocks[0].statement_block.statements:
        t = stmt.get_node_type()
        if t == T.SUFFIX:
            kind = name_of(stmt.type)
            name = name_of(stmt.name)
            kinds = {"POINT_PROCESS": "point", "ARTIFICIAL_CELL": "artificial"}
            mech = Mechanism(name=name, kind=kinds.get(kind, "density"), path=src.path)
        elif t == T.USEION:
            ion = name_of(stmt.name)
            line = src.line_of(r"\bUSEION\s+%s\b" % re.escape(ion))
            valence = None
            if stmt.valence is not None:
                valence = int(number_of(stmt.valence.value))
            if any(i.name == ion for i in ions):
                raise Refusal(src.path, line, f"USEION {ion}",
                              f"conflicting USEION: ion '{ion}' is declared twice in this file "
                              f"(first at line {next(i.line for i in ions if i.name == ion)})")
            if valence is None:
                if ion not in KNOWN_IONS:
                    raise Refusal(src.path, line, f"USEION {ion}",
                                  f"unknown ion '{ion}': not one of {', '.join(sorted(KNOWN_IONS))} "
                                  "and no VALENCE given")
                valence = KNOWN_IONS[ion]
            elif ion in KNOWN_IONS and valence != KNOWN_IONS[ion]:
                raise Refusal(src.path, line, f"USEION {ion}",
                              f"conflicting USEION: VALENCE {valence} for '{ion}', whose valence is "
                              f"{KNOWN_IONS[ion]}")
            entry = Ion(ion, valence, line)
            reads = [name_of(n) for n in stmt.readlist]
            writes = [name_of(n) for n in stmt.writelist]
            for var in dict.fromkeys(reads + writes):
                role = ion_role(ion, var)
                if role is None:
                    raise Refusal(src.path, line, f"USEION {ion}",
                                  f"'{var}' is not a variable of ion {ion} "
                                  f"(e{ion}, {ion}i, {ion}o, i{ion})")
                entry.variables.append(IonVariable(ion, var, role, var in reads, var in writes))
            ions.append(entry)
        elif t == T.RANGE:
            range_names.update(name_of(v) for v in stmt.variables)
        elif t == T.GLOBAL:
            global_names.update(name_of(v) for v in stmt.variables)
        elif t == T.NONSPECIFIC:
            nonspecific += [name_of(c) for c in stmt.currents]
        elif t == T.ELECTRODE_CURRENT:
            electrode += [name_of(c) for c in stmt.currents]
    if mech is None:
        src.refuse(r"\bNEURON\b", "NEURON block", "no SUFFIX or POINT_PROCESS")
    mech.ions = ions
    mech.ion_variables = [v for i in ions for v in i.variables]
    mech.nonspecific, mech.electrode = nonspecific, electrode
    ion_names = {v.name for v in mech.ion_variables}
    for v in mech.ion_variables:
        if v.write and v.role in ("ci", "co"):
            mech.writes_concentration = True

    # Declarations: PARAMETER, STATE, ASSIGNED, CONSTANT, UNITS factors, top-level LOCAL.
    special = ENVIRONMENT | ion_names
    params, states, assigned, statics_decl = [], [], [], []
    for b in blocks:
        t = b.get_node_type()
        if t == T.PARAM_BLOCK:
            for p in b.statements:
                if p.get_node_type() != T.PARAM_ASSIGN:
                    continue
                n = name_of(p.name)
                if n in special:
                    continue
                value = number_of(p.value) if p.value is not None else 0.0
                params.append((n, value if value is not None else 0.0, units_of(p)))
        elif t == T.STATE_BLOCK:
            for d in b.definitions:
                n = name_of(d.name)
                if n not in special:
                    states.append(n)
        elif t == T.ASSIGNED_BLOCK:
            for d in b.definitions:
                n = name_of(d.name)
                if n not in special:
                    assigned.append(n)
        elif t == T.CONSTANT_BLOCK:
            for c in b.statements:
                if c.get_node_type() == T.CONSTANT_STATEMENT:
                    cv = c.constant
                    mech.constants[name_of(cv.name)] = number_of(cv.value)
        elif t == T.UNIT_BLOCK:
            for d in b.definitions:
                if d.get_node_type() != T.FACTOR_DEF:
                    continue
                n = name_of(d.name)
                if d.value is not None:
                    mech.constants[n] = number_of(d.value)
                    continue
                u1 = name_of(d.unit1.name).strip().lower() if d.unit1 is not None else ""
                u2 = name_of(d.unit2.name).strip().lower() if d.unit2 is not None else ""
                # A number before a unit scales it: (faraday) (10000 coulomb) is F / 10000.
                scale1, u1 = unit_scale(u1)
                scale2, u2 = unit_scale(u2)
                key = (u1, u2)
                if key not in UNIT_FACTORS or scale1 is None or scale2 is None:
                    src.refuse(r"\b%s\s*=" % re.escape(n), f"UNITS {n}",
                               f"unit factor ({u1}) ({u2}) is not in the compiler's table "
                               "(FARADAY, R, e, k, PI as NEURON 8.2 defines them)")
                value = UNIT_FACTORS[key]
                if scale1 != 1.0:
                    value *= scale1
                if scale2 != 1.0:
                    value /= scale2
                mech.constants[n] = value
        elif t == T.LOCAL_LIST_STATEMENT:
            statics_decl += [name_of(v.name) for v in b.variables]

    # Names in code that no block declares are NEURON's own (t, dt, ...) or an error.
    written = collect_written(program)
    for n in sorted((ENVIRONMENT - {"v"}) & written):
        src.refuse(r"\b%s\s*=[^=]" % re.escape(n), f"assignment to {n}",
                   f"{n} belongs to the simulation; a mechanism may only read it")
    for n, value, units in params:
        is_range = n in range_names and n not in global_names
        if is_range:
            mech.variables.append(Variable(n, "parameter", value, True, n in written, units))
        else:
            if n in written:
                # A GLOBAL the code assigns is per call state in NEURON's THREADSAFE
                # semantics; it is handled like a non-RANGE ASSIGNED below.
                assigned.append(n)
            else:
                mech.globals.append((n, value))
    for n in states:
        mech.variables.append(Variable(n, "state", 0.0, True, True))
    hidden = []
    for n in assigned:
        if n in range_names or n in nonspecific + electrode:
            mech.variables.append(Variable(n, "assigned", 0.0, True, n in written))
        else:
            hidden.append(n)
    hidden += [n for n in statics_decl if n not in hidden]

    # Entry points (blocks after inlining).
    solves = {}
    for b in blocks:
        t = b.get_node_type()
        if t == T.INITIAL_BLOCK:
            mech.initial = b.statement_block
        elif t == T.BREAKPOINT_BLOCK:
            for s in b.statement_block.statements:
                if s.get_node_type() == T.EXPRESSION_STATEMENT and \
                        s.expression.get_node_type() == T.SOLVE_BLOCK:
                    s = s.expression
                if s.get_node_type() == T.SOLVE_BLOCK:
                    method = name_of(s.method) if s.method is not None else None
                    mech.solves.append((name_of(s.block_name), method))
                elif s.get_node_type() == T.CONDUCTANCE_HINT:
                    continue
                else:
                    mech.breakpoint.append(s)
        elif t in (T.DERIVATIVE_BLOCK, T.PROCEDURE_BLOCK, T.KINETIC_BLOCK):
            solves[name_of(b.name)] = b
        elif t == T.NET_RECEIVE_BLOCK:
            if mech.kind == "density":
                src.refuse(r"\bNET_RECEIVE\b", "NET_RECEIVE", "only point processes receive events")
            names = [name_of(p.name) for p in b.parameters]
            body, init = [], []
            for st in b.statement_block.statements:
                inner = st.expression if st.get_node_type() == T.EXPRESSION_STATEMENT else st
                if inner.get_node_type() == T.INITIAL_BLOCK:
                    init += list(inner.statement_block.statements)
                else:
                    body.append(st)
            mech.net_receive = (names, body, init)
            mech.net_receive_sends = any(name_of(c.name) == "net_send"
                                         for st in body for c in lookup(st, T.FUNCTION_CALL))
        elif t == T.INITIAL_BLOCK:
            pass
    resolved = []
    for block, method in mech.solves:
        if block not in solves:
            src.refuse(r"\bSOLVE\s+%s\b" % re.escape(block), f"SOLVE {block}", "no such block")
        b = solves[block]
        if b.get_node_type() == T.KINETIC_BLOCK:
            src.refuse(r"\bKINETIC\s+%s\b" % re.escape(block), f"KINETIC {block}",
                       "the kinetic scheme was not converted (METHOD sparse is needed)")
        for d in lookup(b, T.DIFF_EQ_EXPRESSION):
            if not lookup(d, T.PRIME_NAME):
                continue  # solved by SymPy: an assignment kept in its DiffEqExpression
            src.refuse(r"\bDERIVATIVE\s+%s\b" % re.escape(block), f"DERIVATIVE {block}",
                       f"NMODL's SymPy solver left an ODE unsolved (METHOD {method})")
        if method == "sparse":
            for solver in lookup(b, T.EIGEN_NEWTON_SOLVER_BLOCK):
                assign_after_solve(solver, set(states))
                mech.sparse_functors.add(nmodl.to_nmodl(solver.functor_block))
        resolved.append((block, method, b.statement_block))
        if method:
            mech.methods.append(method)
    mech.solves = resolved
    mech.tables = bool(lookup(program, T.TABLE_STATEMENT))
    for b in blocks:
        if b.get_node_type() == T.INITIAL_BLOCK:
            continue
        for sb in lookup(b, T.SOLVE_BLOCK):
            if sb.steadystate is not None:
                src.refuse(r"\bSTEADYSTATE\b", "STEADYSTATE",
                           "SOLVE ... STEADYSTATE is supported in INITIAL only")
    # NEURON starts every STATE s at s0 (a PARAMETER of that name, else 0) before INITIAL;
    # an array's elements all at the array's s0.
    param_names = {n for n, _, _ in params}
    starts = [(n, base_name(n) + "0") for n in states if base_name(n) + "0" in param_names]
    if starts:
        text = "\n".join(f"{n} = {n0}" for n, n0 in starts)
        parsed = nmodl.NmodlDriver().parse_string(f"PROCEDURE hb_start() {{ {text} }}")
        first = list(lookup(parsed, T.PROCEDURE_BLOCK)[0].statement_block.statements)
        rest = list(mech.initial.statements) if mech.initial is not None else []
        mech.initial = ast.StatementBlock(first + rest)
    if mech.initial is not None:
        methods = {block: method for block, method, _ in resolved}
        mech.initial = steady_states(src, mech.initial, solves, methods)

    if mech.kind == "artificial":
        check_artificial(src, mech)
    check_calls(src, program, mech.kind == "artificial")
    classify_hidden(mech, hidden)
    return mech


def assign_after_solve(solver, states):
    """NEURON's sparse evaluates a KINETIC block's statements once more at the new states
    after its Newton iteration (cabpump's `cai = ca[0]`, a current from f_flux); NMODL runs
    them before it only. Those that read a state, or a value computed from one, run again
    after the solve."""
    depends = set(states)
    again = []
    for st in solver.initialize_block.statements:
        e = st.expression if st.get_node_type() == T.EXPRESSION_STATEMENT else None
        if e is None or e.get_node_type() != T.BINARY_EXPRESSION or e.op.eval() != "=":
            continue
        lhs = name_of(e.lhs)
        if lhs.startswith("old_"):
            continue
        if {name_of(n) for n in lookup(e.rhs, T.VAR_NAME, T.NAME)} & depends:
            again.append(st.clone())
            depends.add(lhs)
    if again:
        solver.finalize_block.statements = list(solver.finalize_block.statements) + again


def base_name(n):
    """The array an element made scalar belongs to (ca_3: ca), or the name itself."""
    return ARRAY_ELEMENTS.get(n, n)


def steady_states(src, initial, blocks, methods):
    """INITIAL with each `SOLVE b STEADYSTATE m` replaced by a block of its own: b's solved
    statements under `dt = STEADYSTATE_DT` (the emitter declares that dt in the block)."""
    for sb in lookup(initial, T.SOLVE_BLOCK):
        block = name_of(sb.block_name)
        where = r"\bSOLVE\s+%s\b" % re.escape(block)
        if sb.steadystate is None:
            src.refuse(where, f"SOLVE {block}", "a SOLVE in INITIAL must be STEADYSTATE")
        method = name_of(sb.steadystate)
        if methods.get(block) != method:
            src.refuse(where, f"SOLVE {block} STEADYSTATE {method}",
                       f"the steady state of a block is supported where the BREAKPOINT also "
                       f"SOLVEs it with METHOD {method}")
    statements = []
    for st in initial.statements:
        s = st
        if s.get_node_type() == T.EXPRESSION_STATEMENT and \
                s.expression.get_node_type() == T.SOLVE_BLOCK:
            s = s.expression
        if s.get_node_type() != T.SOLVE_BLOCK:
            if lookup(st, T.SOLVE_BLOCK):
                src.refuse(r"\bSTEADYSTATE\b", "STEADYSTATE",
                           "SOLVE ... STEADYSTATE is supported as a statement of INITIAL itself "
                           "(not inside an if or a loop)")
            statements.append(st)
            continue
        body = blocks[name_of(s.block_name)].statement_block.statements
        step = ast.ExpressionStatement(ast.StatementBlock([x.clone() for x in body]))
        statements.append(ast.ExpressionStatement(ast.StatementBlock([steady_state_dt(), step])))
    return ast.StatementBlock(statements)


def steady_state_dt():
    """The statement `dt = STEADYSTATE_DT`, parsed by NMODL."""
    program = nmodl.NmodlDriver().parse_string(f"PROCEDURE hb_steady() {{ dt = {STEADYSTATE_DT!r} }}")
    return lookup(program, T.PROCEDURE_BLOCK)[0].statement_block.statements[0]


def is_steady_state_dt(s):
    if s.get_node_type() != T.EXPRESSION_STATEMENT:
        return False
    e = s.expression
    return (e.get_node_type() == T.BINARY_EXPRESSION and e.op.eval() == "="
            and name_of(e.lhs) == "dt")


def check_artificial(src, mech):
    """An ARTIFICIAL_CELL runs on events alone (NEURON's IntervalFire, IntFire1, NetStim
    without noise): no membrane, no ions, no integration in time."""
    where = r"\bARTIFICIAL_CELL\b"
    if mech.net_receive is None:
        src.refuse(where, "ARTIFICIAL_CELL", "an artificial cell without NET_RECEIVE never acts")
    if mech.ions:
        src.refuse(r"\bUSEION\b", "USEION", "an artificial cell has no membrane to take ions from")
    if mech.nonspecific or mech.electrode:
        src.refuse(r"\b(NONSPECIFIC_CURRENT|ELECTRODE_CURRENT)\b", "current",
                   "an artificial cell has no membrane to pass a current through")
    if mech.solves or mech.breakpoint:
        src.refuse(r"\bBREAKPOINT\b", "BREAKPOINT",
                   "artificial cells integrated in time (BREAKPOINT, SOLVE) are not supported: "
                   "only event-driven ones (their state advanced analytically in NET_RECEIVE)")


def units_of(p):
    try:
        return name_of(p.unit.name) if p.unit is not None else ""
    except Exception:  # units are documentation only
        return ""


def collect_written(node):
    written = set()
    for e in lookup(node, T.BINARY_EXPRESSION):
        if e.op.eval() == "=":
            written.add(name_of(e.lhs))
    return written


def net_receive_body_calls(program, name):
    """How many calls of `name` NET_RECEIVE's body (not its INITIAL) makes."""
    count = 0
    for b in lookup(program, T.NET_RECEIVE_BLOCK):
        for st in b.statement_block.statements:
            inner = st.expression if st.get_node_type() == T.EXPRESSION_STATEMENT else st
            if inner.get_node_type() != T.INITIAL_BLOCK:
                count += sum(1 for c in lookup(st, T.FUNCTION_CALL) if name_of(c.name) == name)
    return count


def initial_calls(program, name):
    """How many calls of `name` the INITIAL block (not NET_RECEIVE's) makes."""
    return sum(1 for b in program.blocks if b.get_node_type() == T.INITIAL_BLOCK
               for c in lookup(b, T.FUNCTION_CALL) if name_of(c.name) == name)


def check_calls(src, program, artificial):
    user = {name_of(b.name) for b in program.blocks
            if b.get_node_type() in (T.FUNCTION_BLOCK, T.PROCEDURE_BLOCK)}
    sends = [c for c in lookup(program, T.FUNCTION_CALL) if name_of(c.name) == "net_send"]
    allowed = net_receive_body_calls(program, "net_send")
    if artificial:
        allowed += initial_calls(program, "net_send")  # how an artificial cell starts
    if len(sends) > allowed:
        where = "NET_RECEIVE or INITIAL" if artificial else "NET_RECEIVE"
        src.refuse(r"\bnet_send\s*\(", "net_send()",
                   "a self-event from outside %s (a PROCEDURE, a FUNCTION, ...) is not "
                   "supported yet%s" % (where, "" if artificial else
                                        " (INITIAL's net_send: in an ARTIFICIAL_CELL only)"))
    for c in sends:
        if len(c.arguments) != 2:
            src.refuse(r"\bnet_send\s*\(", "net_send()", "takes two arguments (delay, flag)")
    for n, why in ARTIFICIAL_CALLS.items():
        calls = [c for c in lookup(program, T.FUNCTION_CALL) if name_of(c.name) == n]
        if calls and (not artificial or len(calls) > net_receive_body_calls(program, n)):
            src.refuse(r"\b%s\s*\(" % n, f"{n}()", why)
        for c in calls:
            if len(c.arguments) != 1:
                src.refuse(r"\b%s\s*\(" % n, f"{n}()", "takes one argument (a time)")
    for call in lookup(program, T.FUNCTION_CALL):
        n = name_of(call.name)
        if n == "net_send" or n in ARTIFICIAL_CALLS:
            continue
        if n in RANDOM_CALLS:
            if not artificial:
                src.refuse(r"\b%s\s*\(" % n, f"{n}()",
                           "random numbers are supported in an ARTIFICIAL_CELL (a stream per "
                           "cell), not yet in density mechanisms or point processes")
            if len(call.arguments) != RANDOM_CALLS[n]:
                src.refuse(r"\b%s\s*\(" % n, f"{n}()", f"takes {RANDOM_CALLS[n]} arguments")
            continue
        if n in REFUSED_CALLS:
            src.refuse(r"\b%s\s*\(" % re.escape(n), f"{n}()", REFUSED_CALLS[n])
        if n in MATH_FUNCTIONS or n == "at_time":
            continue
        # Calls left after inlining inside the blocks that run are emitted only if inlined;
        # the emitter refuses what remains (a FUNCTION called from NET_RECEIVE, say).
        if n not in user:
            src.refuse(r"\b%s\s*\(" % re.escape(n), f"{n}()", "unknown function")


# --- which non-RANGE variables must live per instance ------------------------------------


def classify_hidden(mech, hidden):
    """Non-RANGE ASSIGNED, written GLOBALs and top-level LOCALs: function locals when every
    entry point assigns them before reading them (rates' mInf, mTau...), else per-instance
    storage (a cached value such as capump's Q)."""
    entries = []
    if mech.initial is not None:
        entries.append(mech.initial.statements)
    entries.append(mech.breakpoint)
    for _, _, sb in mech.solves:
        entries.append(sb.statements)
    if mech.net_receive is not None:
        entries.append(mech.net_receive[1])
        entries.append(mech.net_receive[2])
    targets = set(hidden)
    needs_storage = set()
    for stmts in entries:
        DefiniteAssignment(targets, needs_storage).statements(stmts, set())
    for n in hidden:
        if n in needs_storage:
            mech.statics.append(n)
            mech.variables.append(Variable(n, "assigned", 0.0, False, True))
        else:
            mech.scratch.append(n)


class DefiniteAssignment:
    def __init__(self, targets, needs_storage):
        self.targets, self.needs = targets, needs_storage

    def reads(self, node, assigned):
        for n in lookup(node, T.VAR_NAME, T.NAME):
            name = name_of(n)
            if name in self.targets and name not in assigned:
                self.needs.add(name)

    def statements(self, stmts, assigned):
        for s in stmts:
            assigned = self.statement(s, assigned)
        return assigned

    def statement(self, s, assigned):
        t = s.get_node_type()
        if t == T.EXPRESSION_STATEMENT:
            e = s.expression
            if e.get_node_type() == T.DIFF_EQ_EXPRESSION:
                e = e.expression
            if e.get_node_type() == T.STATEMENT_BLOCK:
                return self.statements(e.statements, assigned)
            if e.get_node_type() in (T.EIGEN_NEWTON_SOLVER_BLOCK, T.EIGEN_LINEAR_SOLVER_BLOCK):
                return self.statement(e, assigned)
            if e.get_node_type() == T.BINARY_EXPRESSION and e.op.eval() == "=":
                self.reads(e.rhs, assigned)
                return assigned | {name_of(e.lhs)}
            self.reads(e, assigned)
            return assigned
        if t == T.STATEMENT_BLOCK:
            return self.statements(s.statements, assigned)
        if t == T.IF_STATEMENT:
            self.reads(s.condition, assigned)
            outs = [self.statements(s.statement_block.statements, assigned)]
            for ei in s.elseifs:
                self.reads(ei.condition, assigned)
                outs.append(self.statements(ei.statement_block.statements, assigned))
            if s.elses is not None:
                outs.append(self.statements(s.elses.statement_block.statements, assigned))
            else:
                outs.append(assigned)
            result = outs[0]
            for o in outs[1:]:
                result = result & o
            return result
        if t in (T.WHILE_STATEMENT, T.FROM_STATEMENT):
            self.reads(s, assigned)
            return assigned
        if t in (T.EIGEN_NEWTON_SOLVER_BLOCK, T.EIGEN_LINEAR_SOLVER_BLOCK):
            parts = [s.variable_block, s.initialize_block, s.setup_x_block]
            if t == T.EIGEN_NEWTON_SOLVER_BLOCK:
                parts.append(s.functor_block)
            parts += [s.update_states_block, s.finalize_block]
            for p in parts:
                assigned = self.statements(p.statements, assigned)
            return assigned
        self.reads(s, assigned)
        return assigned


def drop_uncalled_solves(src, program):
    """Removes the FUNCTIONs and PROCEDUREs that hold a SOLVE and that no block calls (cabpump's
    `ss()`, a steady state for hoc to ask for): there is no hoc to call them. A warning each."""
    warnings = []
    while True:
        blocks = list(program.blocks)
        called = set()
        for b in blocks:
            own = name_of(b.name) if b.get_node_type() in (T.FUNCTION_BLOCK, T.PROCEDURE_BLOCK) else None
            called |= {name_of(c.name) for c in lookup(b, T.FUNCTION_CALL) if name_of(c.name) != own}
        drop = [b for b in blocks if b.get_node_type() in (T.FUNCTION_BLOCK, T.PROCEDURE_BLOCK)
                and lookup(b, T.SOLVE_BLOCK) and name_of(b.name) not in called]
        if not drop:
            return warnings
        for b in drop:
            kind = "FUNCTION" if b.get_node_type() == T.FUNCTION_BLOCK else "PROCEDURE"
            n = name_of(b.name)
            warnings.append((src.line_of(r"\b%s\s+%s\b" % (kind, re.escape(n))),
                             f"{kind} {n} holds a SOLVE and no block calls it (a function for hoc): "
                             "not compiled"))
        program.blocks = [b for b in blocks if all(b is not d for d in drop)]


def verbatim_text(node):
    text = nmodl.to_nmodl(node).strip()
    text = re.sub(r"^VERBATIM", "", text)
    text = re.sub(r"ENDVERBATIM$", "", text)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text).strip()


def drop_harmless_verbatim(src, program):
    """Removes the VERBATIM blocks that do nothing here, a warning each: only C comments,
    only `#include` lines at the top level (a header for NEURON's own C), or `return 0;` /
    `return;` as the last statement of a PROCEDURE or of INITIAL (its C function's end: a
    NEURON-era habit). Any other VERBATIM is refused later."""
    warnings = []
    lines = [i for i, line in enumerate(src.lines, 1) if re.search(r"\bVERBATIM\b", line)]
    # Each VERBATIM's place in the file (its line) by its text, in document order.
    places = {}
    for k, v in enumerate(lookup(program, T.VERBATIM)):
        places.setdefault(nmodl.to_nmodl(v), []).append(k)

    def drop(v, what):
        k = places[nmodl.to_nmodl(v)].pop(0)
        warnings.append((lines[k] if k < len(lines) else 0,
                         f"VERBATIM with {what}: not needed here, left out"))

    kept = []
    for b in program.blocks:
        if b.get_node_type() == T.VERBATIM:
            text = verbatim_text(b)
            if not [x for x in text.splitlines() if x.strip() and not re.match(r"\s*#\s*include\b", x)]:
                drop(b, "only #include lines or comments" if text else "only comments")
                continue
        kept.append(b)
    program.blocks = kept
    for b in program.blocks:
        ends_in_return = b.get_node_type() in (T.PROCEDURE_BLOCK, T.INITIAL_BLOCK)
        own = nmodl.to_nmodl(b.statement_block) if ends_in_return else None
        for sb in lookup(b, T.STATEMENT_BLOCK):
            stmts = list(sb.statements)
            out = []
            for j, st in enumerate(stmts):
                if st.get_node_type() == T.VERBATIM:
                    text = verbatim_text(st)
                    if not text:
                        drop(st, "only comments")
                        continue
                    if (re.fullmatch(r"return\s*(0\s*)?;", text) and j == len(stmts) - 1
                            and own is not None and nmodl.to_nmodl(sb) == own):
                        drop(st, f"'{text}' at the end of its block")
                        continue
                out.append(st)
            if len(out) != len(stmts):
                sb.statements = out
    return warnings


def compile_file(path):
    src = Source(path)
    if not os.path.exists(path):
        raise Refusal(path, 0, "file", "no such file")
    program = parse(src)
    dropped = drop_harmless_verbatim(src, program)
    check_refused(src, program, arrays=False)  # before the arrays' rewrite can misname one
    from .arrays import scalarize
    program = scalarize(src, program)
    dropped += drop_uncalled_solves(src, program)
    check_refused(src, program)
    check_useion_twice(src, program)
    try:
        tables, nonlinear = run_passes(program)
    except RuntimeError as e:
        msg = str(e).strip().splitlines()[0] if str(e).strip() else "error"
        m = re.search(r"(\d+)\.\d+", msg)
        raise Refusal(src.path, int(m.group(1)) if m else 0, "NMODL", msg)
    mech = analyse(src, program)
    mech.tables = tables
    mech.conductances = conductance_hints(program)
    mech.warnings = [(src.line_of(r"\b%s\s*'" % re.escape(state)),
                      f"cnexp on {state}', nonlinear in {state}: NMODL's SymPy solves it exactly "
                      "where NEURON's nocmodl linearises it (results differ at O(dt^2); "
                      "derivimplicit agrees with NEURON)") for state in nonlinear] + dropped
    return mech, src
