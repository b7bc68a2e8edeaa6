#!/usr/bin/env python3
"""libesframe.so exports its public API and nothing else.

  check-exports.py LIBESFRAME_SO INCLUDE_DIR...

Reads the dynamic symbols the library defines (nm -D --defined-only) and fails, listing them, on
any that is not part of the public API: a name in namespace esf:: declared with ESF_API in
the INCLUDE_DIRs (include/esframe/ and the build's generated esframe/version.hpp: free functions, and the members, typeinfo and vtables of ESF_API
classes), a template instantiation of the C++ standard library (std::, __gnu_cxx::: weak copies
the compiler emits with default visibility), or an entry of ALLOWED below. With
-fvisibility=hidden dropped, or ESF_API on an internal header's name, it fails.
"""
import os
import re
import subprocess
import sys

# Symbols that are neither esf:: API nor standard-library instantiations, each with its reason.
ALLOWED = {
    "_init", "_fini",  # the ELF constructors and destructors section entry points
    "_edata", "_end", "__bss_start",  # the linker's section bounds
}
# A mangled name: _Z, what the compiler made of a class or function (typeinfo TI, its name TS,
# vtable TV, VTT TT, guard variable GV, thunks Th/Tv/Tc), Z for a name local to a function, N and
# qualifiers for a nested name, then the first component: St (std::) or <length><identifier>.
MANGLED = re.compile(r"^_Z(?:T[ISVT]|GV|Th[n\d]*_|Tv[n\d]*_[n\d]*_|Tc\w*?_)?Z?N?[rVKRO]*(St|\d+)")
# Namespaces of the standard library's own templates (weak copies with default visibility).
STD_NAMESPACES = {"St", "__gnu_cxx", "__cxxabiv1"}


def components(mangled):
    """The first two name components of a mangled symbol, ("esf", "Pipeline"), or None."""
    m = MANGLED.match(mangled)
    if not m:
        return None
    if m.group(1) == "St":
        return ("St", None)
    pos = m.end(1)
    length = int(m.group(1))
    first = mangled[pos:pos + length]
    pos += length
    second = None
    n = re.match(r"\d+", mangled[pos:])
    if n:
        second = mangled[pos + len(n.group(0)):pos + len(n.group(0)) + int(n.group(0))]
    return (first, second)


def public_names(include_dir):
    """The names ESF_API marks in the public headers: classes and free functions."""
    names = set()
    for root, _, files in os.walk(include_dir):
        for f in files:
            if not f.endswith(".hpp"):
                continue
            text = open(os.path.join(root, f)).read()
            text = re.sub(r"//[^\n]*", "", text)
            names.update(re.findall(r"\b(?:class|struct)\s+ESF_API\s+(\w+)", text))
            # A function: ESF_API, its return type, then its name and "(".
            for decl in re.findall(r"\bESF_API\s+([^;{]*?)\(", text):
                if not re.match(r"(class|struct)\b", decl):
                    names.add(decl.split()[-1].lstrip("*&"))
    return names


def main():
    library, include_dirs = sys.argv[1], sys.argv[2:]
    include_dir = " ".join(include_dirs)
    api = set()
    for d in include_dirs:
        api |= public_names(d)
    if not api or "Pipeline" not in api or "run" not in api:
        sys.exit(f"check-exports: FAIL: no ESF_API names found under {include_dir}: {api}")
    out = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True,
                         text=True, check=True).stdout
    symbols = [line.split()[-1] for line in out.splitlines() if len(line.split()) >= 2]
    if not symbols:
        sys.exit(f"check-exports: FAIL: nm read no symbols from {library}")
    bad = []
    counted = {"api": 0, "std": 0, "allowed": 0}
    for symbol in symbols:
        symbol = symbol.split("@")[0]  # a symbol version, if any
        parts = components(symbol)
        if symbol in ALLOWED:
            counted["allowed"] += 1
        elif parts and parts[0] in STD_NAMESPACES:
            counted["std"] += 1
        elif parts and parts[0] == "esf" and parts[1] in api:
            counted["api"] += 1
        else:
            bad.append(symbol)
    print(f"check-exports: {len(symbols)} symbols: {counted['api']} public API, "
          f"{counted['std']} standard library, {counted['allowed']} allowed")
    if bad:
        print(f"check-exports: FAIL: {len(bad)} exported symbols are not public API "
              f"(ESF_API in {include_dir}):", file=sys.stderr)
        shown = subprocess.run(["c++filt"], input="\n".join(sorted(bad)[:200]),
                               capture_output=True, text=True).stdout
        for symbol in shown.splitlines():
            print("  " + symbol, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
