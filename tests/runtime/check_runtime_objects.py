#!/usr/bin/env python3
"""Two rules of the C99 runtime's link structure, read from its static library with nm.

1. No file circles: if a.c calls into b.c, b.c does not call back into a.c, directly or
   through others. A circle makes two files one unit that can only be read, tested and
   left out of a firmware together (issue 38 found executor.c <-> stage_*.c and
   plan_reader.c <-> plan_verify.c).
2. Every global symbol is tgrs_-prefixed: a firmware links the runtime beside its own code
   and other libraries (a FlatBuffers reader's fb_ symbols, say); an unprefixed name can
   collide there.

    check_runtime_objects.py libtigris_runtime.a [--nm NM]
"""
import argparse
import collections
import subprocess
import sys


def symbols(nm, archive, *flags):
    """{member: set of symbols} for `nm -A FLAGS archive`."""
    out = subprocess.run([nm, "-A", *flags, archive], capture_output=True, text=True, check=True)
    table = collections.defaultdict(set)
    for line in out.stdout.splitlines():
        # "archive:member.o:0000000000000000 T name" or "archive:member.o:   U name"
        parts = line.rsplit(":", 2)
        fields = parts[-1].split()
        if len(parts) < 3 or len(fields) < 2:
            continue
        table[parts[-2]].add(fields[-1])
    return table


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive")
    parser.add_argument("--nm", default="nm")
    args = parser.parse_args()

    defined = symbols(args.nm, args.archive, "--defined-only", "-g")
    undefined = symbols(args.nm, args.archive, "-u")
    owner = {sym: member for member, syms in defined.items() for sym in syms}
    graph = {member: {owner[s] for s in syms if s in owner and owner[s] != member}
             for member, syms in undefined.items()}
    for member in defined:
        graph.setdefault(member, set())

    problems = []
    for component in cycles(graph):
        calls = [f"{a} -> {b} ({', '.join(sorted(s for s in undefined[a] if owner.get(s) == b))})"
                 for a in component for b in sorted(graph[a]) if b in component]
        problems.append("file circle: " + "; ".join(calls))
    for member, syms in sorted(defined.items()):
        for sym in sorted(syms):
            if not sym.startswith("tgrs_"):
                problems.append(f"{member}: global symbol '{sym}' lacks the tgrs_ prefix")
    for p in problems:
        print(p)
    print(f"{len(defined)} objects, {sum(len(s) for s in defined.values())} global symbols, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
