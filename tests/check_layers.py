#!/usr/bin/env python3
"""check_layers.py SRC - the include check of docs/architecture.md.

Reads the table of parts in SRC/docs/architecture.md, then every #include in
SRC/lib, SRC/src and SRC/testkit, and fails (exit 1, one line per finding, FILE:LINE) when
a part includes another part the table does not let it use, or an external
library the table does not name for it. Also fails when the USES of a
fr_part(...) call in SRC/CMakeLists.txt differ from the table, when a folder
of lib/ belongs to no part, or when the table's arrows form a cycle."""
import os
import re
import sys

# Header prefixes of the external libraries, as the table names them.
EXTERNAL = {
    "zlib": ("zlib.h",),
    "curl": ("curl/",),
    "libxml": ("libxml/",),
    "json-c": ("json-c/", "json.h"),
    "sqlite3": ("sqlite3.h",),
    "libpq": ("libpq-fe.h", "postgresql/"),
    "unicode": ("unicode/",),
    "libpsl": ("libpsl.h",),
    "microhttpd": ("microhttpd.h",),
    "nettle": ("nettle/",),
    "cld2": ("cld2/",),
}


def fail(msgs):
    for m in msgs:
        print(m)
    print(f"check_layers: {len(msgs)} finding(s); the allowed arrows are in docs/architecture.md")
    sys.exit(1)


def read_table(path):
    parts = {}
    rows = 0
    with open(path, encoding="utf-8") as f:
        in_table = False
        for n, line in enumerate(f, 1):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("| part |"):
                in_table = True
                continue
            if not in_table:
                continue
            if not line.startswith("|"):
                if parts:
                    break
                continue
            if set(cells[0]) <= set("- "):
                continue
            if len(cells) != 4:
                fail([f"{path}:{n}: a row of the parts table needs 4 cells, has {len(cells)}"])
            name, folders, uses, ext = cells
            split = lambda s: [x.strip() for x in s.split(",") if x.strip()]
            parts[name] = {"folders": split(folders), "uses": set(split(uses)),
                           "ext": set(split(ext)), "line": n}
            rows += 1
    if not rows:
        fail([f"{path}: no parts table (a row starting '| part |')"])
    return parts


def check_table(parts, path):
    msgs = []
    for name, p in parts.items():
        for u in p["uses"]:
            if u not in parts:
                msgs.append(f"{path}:{p['line']}: part {name} uses unknown part {u}")
        for e in p["ext"]:
            if e not in EXTERNAL:
                msgs.append(f"{path}:{p['line']}: part {name} names unknown library {e}")
    # A cycle among the arrows (depth-first search, three colours).
    colour = {}

    def visit(n, stack):
        colour[n] = 1
        for u in sorted(parts[n]["uses"]):
            if u not in parts:
                continue
            if colour.get(u) == 1:
                msgs.append(f"{path}: the arrows form a cycle: {' -> '.join(stack + [n, u])}")
            elif not colour.get(u):
                visit(u, stack + [n])
        colour[n] = 2

    for n in sorted(parts):
        if not colour.get(n):
            visit(n, [])
    return msgs


def check_cmake(parts, path):
    msgs = []
    text = open(path, encoding="utf-8").read()
    seen = set()
    for m in re.finditer(r"^fr_part\((\w+)(.*?)\)\s*$", text, re.M | re.S):
        name, body = m.group(1), m.group(2)
        line = text.count("\n", 0, m.start()) + 1
        seen.add(name)
        if name not in parts:
            msgs.append(f"{path}:{line}: fr_part({name}) is not in docs/architecture.md")
            continue
        um = re.search(r"\bUSES\b(.*?)(\bEXTERNAL\b|$)", body, re.S)
        uses = set(um.group(1).split()) if um else set()
        if uses != parts[name]["uses"]:
            msgs.append(f"{path}:{line}: fr_part({name}) USES {sorted(uses)} but "
                        f"docs/architecture.md says {sorted(parts[name]['uses'])}")
    for name in parts:
        if name != "cli" and name not in seen:
            msgs.append(f"{path}: no fr_part({name}) for the part in docs/architecture.md")
    return msgs


def part_of(rel, parts):
    """The part a file (path relative to the source tree) belongs to."""
    best, best_len = None, -1
    for name, p in parts.items():
        for f in p["folders"]:
            if rel == f or rel.startswith(f.rstrip("/") + "/") or \
               (f.endswith(".c") and rel == f[:-2] + ".h"):
                if len(f) > best_len:
                    best, best_len = name, len(f)
    return best


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    doc = os.path.join(src, "docs", "architecture.md")
    parts = read_table(doc)
    msgs = check_table(parts, "docs/architecture.md")
    msgs += check_cmake(parts, os.path.join(src, "CMakeLists.txt"))
    # Which part a quoted include names: by its first folder under lib/, or
    # a header at the top of lib/ (crawl.h, fetchq.h), or a part's folder at
    # the top of the tree ("testkit/forums.h").
    files = 0
    for top in ("lib", "src", "testkit"):
        for root, dirs, names in os.walk(os.path.join(src, top)):
            dirs.sort()
            for fn in sorted(names):
                if not fn.endswith((".c", ".h", ".cc")):
                    continue
                path = os.path.join(root, fn)
                rel = os.path.relpath(path, src)
                me = part_of(rel, parts)
                if me is None:
                    msgs.append(f"{rel}: belongs to no part of docs/architecture.md")
                    continue
                files += 1
                with open(path, encoding="utf-8", errors="replace") as f:
                    for n, line in enumerate(f, 1):
                        m = re.match(r'\s*#\s*include\s*([<"])([^>"]+)[>"]', line)
                        if not m:
                            continue
                        kind, inc = m.groups()
                        if kind == '"':
                            target = part_of("lib/" + inc, parts)
                            if target is None:
                                target = part_of(inc, parts)
                            if target is None and top == "src":
                                continue  # the CLI's own headers (cmd.h, ...)
                            if target is None:
                                target = part_of(os.path.relpath(
                                    os.path.join(root, inc), src), parts)
                            if target is None:
                                msgs.append(f"{rel}:{n}: includes \"{inc}\", which belongs to no part")
                            elif target != me and target not in parts[me]["uses"]:
                                msgs.append(f"{rel}:{n}: part {me} includes \"{inc}\" of part "
                                            f"{target}, an arrow docs/architecture.md does not allow")
                        else:
                            for lib, prefixes in EXTERNAL.items():
                                if inc.startswith(prefixes) and lib not in parts[me]["ext"]:
                                    msgs.append(f"{rel}:{n}: part {me} includes <{inc}> of {lib}, "
                                                f"which docs/architecture.md does not name for it")
    if msgs:
        fail(msgs)
    print(f"check_layers: {files} files of {len(parts)} parts, every include on an allowed arrow")


if __name__ == "__main__":
    main()
