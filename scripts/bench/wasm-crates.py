#!/usr/bin/env python3
"""Code bytes of a wasm module by Rust crate, from its name section.

    scripts/bench/wasm-crates.py MODULE.wasm [BEFORE.wasm] [--top N]

Reads the cargo output (before wasm-opt strips the names): each function body's size in the
code section, attributed to the crate that its name starts with (`<T as Trait>::f` counts for
T's crate). With BEFORE, prints both and the difference per crate. Data segments are not
counted (they have no names); neither are functions without a name.
"""
import re
import sys
from collections import Counter


def leb(data, at):
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def sections(data):
    if data[:4] != b"\0asm":
        sys.exit("not a wasm module")
    at = 8
    while at < len(data):
        kind = data[at]
        size, at = leb(data, at + 1)
        yield kind, data[at:at + size]
        at += size


def imported_functions(body):
    count, at = leb(body, 0)
    functions = 0
    for _ in range(count):
        for _ in range(2):  # module and field names
            length, at = leb(body, at)
            at += length
        kind = body[at]
        at += 1
        if kind == 0:  # function: type index
            _, at = leb(body, at)
            functions += 1
        elif kind == 1:  # table: ref type, limits
            at += 1
            flags, at = leb(body, at)
            _, at = leb(body, at)
            if flags & 1:
                _, at = leb(body, at)
        elif kind == 2:  # memory: limits
            flags, at = leb(body, at)
            _, at = leb(body, at)
            if flags & 1:
                _, at = leb(body, at)
        elif kind == 3:  # global: value type, mutability
            at += 2
        elif kind == 4:  # tag
            at += 1
            _, at = leb(body, at)
    return functions


def function_names(body):
    at = 0
    length, at = leb(body, at)
    at += length  # "name"
    names = {}
    while at < len(body):
        sub = body[at]
        size, at = leb(body, at + 1)
        end = at + size
        if sub == 1:
            count, p = leb(body, at)
            for _ in range(count):
                index, p = leb(body, p)
                length, p = leb(body, p)
                names[index] = body[p:p + length].decode("utf-8", "replace")
                p += length
        at = end
    return names


LEGACY_ESCAPES = [("$LT$", "<"), ("$GT$", ">"), ("$RF$", "&"), ("$BP$", "*"), ("$u20$", " "), ("$C$", ","), ("..", "::")]


def crate_of(name):
    if name.startswith("_R"):  # v0 mangling: the first crate root, C[s<disambiguator>_]<len><ident>
        match = re.search(r"C(?:s[0-9A-Za-z]*_)?(\d+)", name)
        if match:
            return name[match.end():match.end() + int(match.group(1))]
    if name.startswith("_ZN"):  # legacy mangling: the first path component, unescaped
        match = re.match(r"_ZN(\d+)", name)
        if match:
            name = name[match.end():match.end() + int(match.group(1))].lstrip("_")
            for escaped, plain in LEGACY_ESCAPES:
                name = name.replace(escaped, plain)
    name = re.sub(r"^(<|&|\*|\(|mut |const |dyn )+", "", name)
    crate = re.split(r"::|<| |\$|,|>", name, maxsplit=1)[0]
    return crate or "?"


def sizes_by_crate(path):
    data = open(path, "rb").read()
    imported, bodies, names = 0, [], None
    for kind, body in sections(data):
        if kind == 2:
            imported = imported_functions(body)
        elif kind == 10:
            count, at = leb(body, 0)
            for _ in range(count):
                size, start = leb(body, at)
                bodies.append(size + (start - at))
                at = start + size
        elif kind == 0:
            length, at = leb(body, 0)
            if body[at:at + length] == b"name":
                names = function_names(body)
    if names is None:
        sys.exit(f"{path} has no name section (wasm-opt output is stripped: use the cargo output)")
    totals = Counter()
    for i, size in enumerate(bodies):
        totals[crate_of(names.get(imported + i, "?"))] += size
    return totals


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    top = 25
    if "--top" in sys.argv:
        top = int(sys.argv[sys.argv.index("--top") + 1])
        args = [a for a in args if a != str(top)]
    if not args:
        sys.exit(__doc__)
    after = sizes_by_crate(args[0])
    if len(args) == 1:
        print(f"{'crate':<28} {'code bytes':>12}")
        for crate, size in after.most_common(top):
            print(f"{crate:<28} {size:>12,}")
        print(f"{'total':<28} {sum(after.values()):>12,}")
        return
    before = sizes_by_crate(args[1])
    crates = sorted(set(after) | set(before), key=lambda c: -max(after[c], before[c]))
    print(f"{'crate':<28} {'before':>12} {'after':>12} {'change':>12}")
    for crate in crates[:top]:
        print(f"{crate:<28} {before[crate]:>12,} {after[crate]:>12,} {after[crate] - before[crate]:>+12,}")
    gone = [c for c in crates if before[c] and not after[c]]
    print(f"{'total':<28} {sum(before.values()):>12,} {sum(after.values()):>12,} "
          f"{sum(after.values()) - sum(before.values()):>+12,}")
    if gone:
        print("gone: " + ", ".join(f"{c} ({before[c]:,})" for c in sorted(gone, key=lambda c: -before[c])))


if __name__ == "__main__":
    main()
