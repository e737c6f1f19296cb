"""Arrays of fixed size made scalars, before the kinetic and SymPy passes see them.

NMODL 0.5's Python passes lose what a loop over an array does in a KINETIC block (its
reactions and an indexed COMPARTMENT), and the generated code keeps every instance's values
as scalars. So a file that declares arrays (`ca[NANN]`, `LOCAL frat[NANN]`) is rewritten,
in NMODL text, to one that does not:
  - FROM loops whose body indexes an array are unrolled (their bounds must be constants:
    integers, DEFINEs and arithmetic on them);
  - `COMPARTMENT i, expr {ca}` becomes one COMPARTMENT per element, i replaced by its index;
  - an element `ca[3]` (and `ca'[3]`) becomes the scalar `ca_3`, declared where the array
    was, with its units and bounds; RANGE and GLOBAL lists name every element.
Then the rewritten text is parsed again. An index that is not a constant after unrolling, an
index out of bounds, or an element name the file already uses is refused (file, line).
"""

import re

import nmodl

from .frontend import ARRAY_ELEMENTS, Refusal, T, lookup, name_of

# Each element is a scalar of every instance, each unrolled iteration a copy of the body.
MAX_ELEMENTS = 1000
MAX_UNROLLED = 10000

INDEXED = re.compile(r"\b([A-Za-z_]\w*)(')?\s*\[([^\[\]]*)\]")


def element(name, k):
    return f"{name}_{k}"


def has_arrays(program):
    return bool(lookup(program, T.INDEXED_NAME)) or bool(lookup(program, T.COMPARTMENT))


def use_line(src, name, index):
    """The line of `name[index]` in the file, else of the first use of the array outside
    its declaration (an index that a FROM loop's unrolling made)."""
    spaced = r"\s*".join(re.escape(c) for c in index.replace(" ", ""))
    line = src.line_of(r"\b%s\s*'?\s*\[\s*%s\s*\]" % (re.escape(name), spaced))
    if line:
        return line
    depth, declaring = 0, False
    for i, text in enumerate(src.lines, 1):
        if depth == 0 and re.match(r"\s*(STATE|ASSIGNED|PARAMETER)\b", text):
            declaring = True
        if not declaring and not re.match(r"\s*LOCAL\b", text) and \
                re.search(r"\b%s\s*'?\s*\[" % re.escape(name), text):
            return i
        depth += text.count("{") - text.count("}")
        if depth <= 0:
            depth, declaring = 0, False
    return 0


def integer(text, env, src, where):
    """The value of an integer expression of literals and names in env, or a refusal."""
    expr = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: str(env[m.group(0)]) if m.group(0) in env else m.group(0),
                  text)
    if not re.fullmatch(r"[\d\s()+\-*/]+", expr):
        src.refuse(where, "array index",
                   f"'{text.strip()}' is not a constant (only FROM loops of constant bounds are "
                   "unrolled; an array indexed at run time is not supported)")
    try:
        if "**" in expr:
            raise ValueError("a power")
        value = eval(expr, {"__builtins__": {}}, {})  # digits and + - * / ( ) only
    except (ArithmeticError, SyntaxError, ValueError) as e:
        src.refuse(where, "array index", f"'{text.strip()}' cannot be evaluated ({e})")
    if value != int(value):
        src.refuse(where, "array index", f"'{text.strip()}' is not an integer ({value})")
    return int(value)


def matching_brace(text, open_at):
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced braces")


FROM_HEAD = re.compile(r"\bFROM\s+(\w+)\s*=\s*(.+?)\s+TO\s+(.+?)(?:\s+BY\s+(.+?))?\s*\{")


def unroll(text, arrays, defines, src):
    """Unrolls, outermost first, every FROM loop whose body indexes an array."""
    pos = 0
    while True:
        m = FROM_HEAD.search(text, pos)
        if m is None:
            return text
        open_at = m.end() - 1
        close_at = matching_brace(text, open_at)
        body = text[open_at + 1:close_at]
        if not any(n in arrays for n, _, _ in INDEXED.findall(body)):
            pos = m.end()
            continue
        var = m.group(1)
        where = r"\bFROM\s+%s\b" % re.escape(var)
        lo = integer(m.group(2), defines, src, where)
        hi = integer(m.group(3), defines, src, where)
        step = integer(m.group(4), defines, src, where) if m.group(4) else 1
        if step <= 0:
            src.refuse(where, f"FROM {var}", "a loop over an array must count up")
        if (hi - lo) // step + 1 > MAX_UNROLLED:
            src.refuse(where, f"FROM {var}", f"a loop over an array of more than {MAX_UNROLLED} "
                       "iterations is not unrolled")
        copies = []
        for k in range(lo, hi + 1, step):
            copies.append(re.sub(r"\b%s\b" % re.escape(var), str(k), body))
        text = text[:m.start()] + "\n".join(copies) + text[close_at + 1:]
        pos = m.start()


COMPARTMENT_INDEXED = re.compile(r"\bCOMPARTMENT\s+(\w+)\s*,\s*(.+?)\s*\{([^{}]*)\}")


def expand_compartments(text, arrays, src):
    def one(m):
        var, volume, names = m.group(1), m.group(2), m.group(3).split()
        where = r"\bCOMPARTMENT\s+%s\s*," % re.escape(var)
        out = []
        for n in names:
            if n not in arrays:
                src.refuse(where, f"COMPARTMENT {var}", f"'{n}' is not an array")
            for k in range(arrays[n]):
                v = re.sub(r"\b%s\b" % re.escape(var), str(k), volume)
                out.append(f"COMPARTMENT {v} {{{n}[{k}]}}")
        return "\n    ".join(out)

    return COMPARTMENT_INDEXED.sub(one, text)


def declarations(program, defines, src):
    """{array name: size} of every array the file declares."""
    arrays = {}
    for node in lookup(program, T.ASSIGNED_DEFINITION, T.LOCAL_VAR, T.PARAM_ASSIGN):
        n = node.name
        if n.get_node_type() == T.INDEXED_NAME:
            name, length = name_of(n.name), n.length
        elif getattr(node, "length", None) is not None:
            name, length = name_of(n), node.length
        else:
            continue
        where = r"\b%s\s*\[" % re.escape(name)
        size = integer(nmodl.to_nmodl(length), defines, src, where)
        if not 0 < size <= MAX_ELEMENTS:
            src.refuse(where, f"{name}[{size}]", f"an array has 1 to {MAX_ELEMENTS} elements here "
                       "(each is a variable of the instance)")
        arrays[name] = size
    return arrays


def scalarize(src, program):
    """The program with its arrays as scalars (re-parsed), or the program as it was."""
    ARRAY_ELEMENTS.clear()
    if not has_arrays(program):
        return program
    text = nmodl.to_nmodl(program)
    defines = {}
    for m in re.finditer(r"^DEFINE\s+(\w+)\s+(\S+)", text, re.M):
        defines[m.group(1)] = integer(m.group(2), defines, src, r"\bDEFINE\s+%s\b" % m.group(1))
    arrays = declarations(program, defines, src)
    words = set(re.findall(r"\b[A-Za-z_]\w*\b", text))
    for name, size in arrays.items():
        for k in range(size):
            if element(name, k) in words:
                src.refuse(r"\b%s\b" % re.escape(element(name, k)), element(name, k),
                           f"the name of element {k} of array {name} is already used")
    for name, size in arrays.items():
        ARRAY_ELEMENTS.update({element(name, k): name for k in range(size)})
    text = unroll(text, arrays, defines, src)
    text = expand_compartments(text, arrays, src)

    # Declarations: `name[N] rest` lines of STATE/ASSIGNED/PARAMETER, LOCAL lists.
    def declaration_line(m):
        indent, name, size, rest = m.group(1), m.group(2), m.group(3), m.group(4)
        if name not in arrays:
            return m.group(0)
        return "\n".join(f"{indent}{element(name, k)}{rest}" for k in range(arrays[name]))

    out, pos = [], 0
    for m in re.finditer(r"^(STATE|ASSIGNED|PARAMETER)\s*\{", text, re.M):
        close_at = matching_brace(text, m.end() - 1)
        block = re.sub(r"^(\s+)(\w+)\[([^\]]+)\](.*)$", declaration_line, text[m.end():close_at], flags=re.M)
        out += [text[pos:m.end()], block]
        pos = close_at
    text = "".join(out) + text[pos:]

    def local_list(m):
        names = []
        for item in m.group(2).split(","):
            item = item.strip()
            d = re.fullmatch(r"(\w+)\s*\[[^\]]*\]", item)
            if d and d.group(1) in arrays:
                names += [element(d.group(1), k) for k in range(arrays[d.group(1)])]
            else:
                names.append(item)
        return m.group(1) + ", ".join(names)

    text = re.sub(r"^(\s*LOCAL\s+)(.*)$", local_list, text, flags=re.M)

    def name_list(m):
        names = []
        for item in m.group(2).split(","):
            item = item.strip()
            names += [element(item, k) for k in range(arrays[item])] if item in arrays else [item]
        return m.group(1) + ", ".join(names)

    text = re.sub(r"^(\s*(?:RANGE|GLOBAL)\s+)(.*)$", name_list, text, flags=re.M)

    def reference(m):
        name, prime, index = m.group(1), m.group(2) or "", m.group(3)
        if name not in arrays:
            return m.group(0)
        line = use_line(src, name, index)
        try:
            k = integer(index, defines, src, r"$^")
        except Refusal as e:
            raise Refusal(src.path, line, e.construct, e.message)
        if not 0 <= k < arrays[name]:
            raise Refusal(src.path, line, f"{name}[{k}]",
                          f"index out of bounds (the array has {arrays[name]} elements)")
        return element(name, k) + prime

    text = INDEXED.sub(reference, text)
    left = [n for n in lookup(program, T.INDEXED_NAME) if name_of(n.name) not in arrays]
    if left:
        name = name_of(left[0].name)
        src.refuse(r"\b%s\s*\[" % re.escape(name), f"{name}[]", "indexes a name that is not a declared array")
    try:
        return nmodl.NmodlDriver().parse_string(text)
    except RuntimeError as e:
        raise Refusal(src.path, 0, "array", f"the file with its arrays made scalars does not parse: {e}")
