#!/usr/bin/env bash
# Compiles every ```swift block of the documentation against the package's library
# products (Zoetrope, ZoetropeEncoding, ZoetropeGIF, ZoetropeAPNG, ZoetropeWebP, ZoetropeAVIF, ZoetropeCodecs,
# ZoetropeQuality, ZoetropeTesting)
# in Swift 6 language mode, and fails on any error or warning, so no sample can rot.
#
#   Scripts/check-snippets.sh                 # README.md, Docs/*.md, Examples/README.md, DocC articles
#   Scripts/check-snippets.sh Docs/Foo.md     # only these files
#
# How a block is compiled (one file per block, all in one module, one compiler run):
# - Its `import` lines move to the top of the file; a block without imports gets
#   `import ZoetropeCodecs` (the core and every codec). `Foundation` is always imported.
# - The rest becomes the body of `@MainActor func snippet_N(<givens>) async throws { ... }`,
#   so statements, `try`, `await` and local types compile as written.
# - Givens: a block may use `url: URL`, `data: Data`, `image: AnimatedImage`,
#   `source: any FrameSource` and `registry: CoderRegistry` without declaring them
#   (unless it declares that name itself). More with a marker, see below.
# - A fragment shows values the reader goes on to use: every `let`/`var` the block declares
#   at its top level is read once after it (`_ = name`), so "never used" is not reported
#   for those; every other warning fails the check.
#
# Markers: one-line HTML comments (invisible on GitHub) on the lines just above the fence.
#   <!-- snippet: skip -->                 not compiled (pseudo-code, excerpts, output)
#   <!-- snippet: toplevel -->             placed at file scope, unwrapped (declarations only)
#   <!-- snippet: member -->               placed inside `struct Snippet_N { ... }`
#   <!-- snippet: given name: Type, ... --> more values the block may use
#   <!-- snippet: with path/File.swift -->  compile that Swift file into the module too
#                                           (the complete example a page walks through)
# Text after `skip` is a free reason: `<!-- snippet: skip: a protocol excerpt -->`.
#
# The libraries come from the package's usual debug build (`swift build --target
# ZoetropeCodecs`, `ZoetropeQuality` and `ZoetropeTesting`, scratch .build, shared with the other scripts and the tests); the
# snippets are compiled by one `swiftc -wmo -c` against those modules, nothing is linked.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
swiftc=${SWIFTC:-"$(dirname "$(readlink -f "$(command -v "$swift")")")/swiftc"}
out=$root/.build/snippets
files=()
for f in "$@"; do files+=("$(realpath --relative-to="$root" "$f")"); done
cd "$root"

if [ "${#files[@]}" -eq 0 ]; then
    files=(README.md)
    for f in Docs/*.md Examples/README.md Sources/*/*.docc/*.md; do [ -e "$f" ] && files+=("$f"); done
fi

start=$(date +%s%N)
log=$out/build.log
mkdir -p "$out"
echo "check-snippets: building the library products"
if ! { "$swift" build --target ZoetropeCodecs && "$swift" build --target ZoetropeQuality \
    && "$swift" build --target ZoetropeTesting; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "check-snippets: the package does not build" >&2
    exit 1
fi
bin=$("$swift" build --show-bin-path)

rm -rf "$out/src" && mkdir -p "$out/src"
python3 - "$out/src" "${files[@]}" <<'PY'
import json, os, re, sys
dst, files = sys.argv[1], sys.argv[2:]
GIVENS = [("url", "URL"), ("data", "Data"), ("image", "AnimatedImage"),
          ("source", "any FrameSource"), ("registry", "CoderRegistry")]
fence_open = re.compile(r"^(\s*)```swift\s*$")
marker = re.compile(r"^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$")
import_line = re.compile(r"^(@\w+\s+)*(public\s+|internal\s+|package\s+)?import\s+\w")
decl = re.compile(r"^(?:(?:private|fileprivate|public|package|nonisolated|lazy|static)\s+)*(?:let|var)\s+([A-Za-z_]\w*)\b")

def split_top(s):          # "a: [K: V], b: (X, Y) -> Z" -> ["a: [K: V]", "b: (X, Y) -> Z"]
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([<": depth += 1
        if ch in ")]>" and not (ch == ">" and cur.endswith("-")): depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur); cur = ""
        else:
            cur += ch
    return [p.strip() for p in parts + [cur] if p.strip()]

snippets, skipped, extra = [], 0, []
for path in files:
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = fence_open.match(lines[i])
        if not m:
            i += 1; continue
        indent, fence_line = m.group(1), i + 1
        # Markers: the comment lines right above the fence (blank lines between allowed).
        directives, j = [], i - 1
        while j >= 0 and (not lines[j].strip() or marker.match(lines[j])):
            if lines[j].strip():
                directives.append(marker.match(lines[j]).group(1))
            j -= 1
        body, k = [], i + 1
        while k < len(lines) and lines[k].strip() != "```":
            l = lines[k]
            body.append((k + 1, l[len(indent):] if l.startswith(indent) else l.lstrip()))
            k += 1
        if k == len(lines):
            sys.exit(f"{path}:{fence_line}: check-snippets: unterminated ```swift block")
        i = k + 1
        mode, givens = "function", []
        for d in directives:
            word = d.split(None, 1)[0].rstrip(":") if d else ""
            if word == "skip": mode = "skip"
            elif word in ("toplevel", "member"): mode = mode if mode == "skip" else word
            elif word == "given": givens += split_top(d.split(None, 1)[1] if " " in d else "")
            elif word == "with":
                for w in d.split()[1:]:
                    if not os.path.isfile(w):
                        sys.exit(f"{path}:{fence_line}: check-snippets: 'with' names no file: {w}")
                    if w not in extra: extra.append(w)
            else: sys.exit(f"{path}:{fence_line}: check-snippets: unknown marker '{d}'")
        if mode == "skip":
            skipped += 1; continue
        snippets.append(dict(path=path, line=fence_line, mode=mode, givens=givens, body=body, indent=len(indent)))

listing = []
for n, s in enumerate(snippets, 1):
    imports = [(ln, t) for ln, t in s["body"] if import_line.match(t)]
    code = [(ln, t) for ln, t in s["body"] if not import_line.match(t)]
    out, origin = [], []                      # generated lines, and the doc line of each (or None)
    def emit(text, ln=None):
        out.append(text); origin.append(ln)
    emit(f"// Generated by Scripts/check-snippets.sh from {s['path']}:{s['line']}; do not edit.")
    emit("import Foundation")
    for ln, t in imports: emit(t, ln)
    if not imports: emit("import ZoetropeCodecs")
    declared = [decl.match(t).group(1) for _, t in code if decl.match(t)]
    if s["mode"] == "function":
        params = [f"{name}: {ty}" for name, ty in GIVENS if name not in declared]
        params += [g for g in s["givens"] if g.split(":")[0].strip() not in declared]
        emit(f"@MainActor func snippet_{n}({', '.join(params)}) async throws {{")
        for ln, t in code: emit("    " + t, ln)
        for name in declared: emit(f"    _ = {name}")
        emit("}")
    elif s["mode"] == "member":
        emit(f"struct Snippet_{n} {{")
        for ln, t in code: emit("    " + t, ln)
        emit("}")
    else:
        for ln, t in code: emit(t, ln)
    name = f"snippet_{n:03}.swift"
    open(os.path.join(dst, name), "w").write("\n".join(out) + "\n")
    listing.append(dict(file=name, path=s["path"], line=s["line"], origin=origin,
                        shift=(0 if s["mode"] == "toplevel" else 4) - s["indent"]))
json.dump(listing, open(os.path.join(dst, "..", "map.json"), "w"))
open(os.path.join(dst, "..", "with.txt"), "w").write("".join(w + "\n" for w in extra))
print(f"check-snippets: {len(snippets)} blocks to compile, {skipped} marked skip, "
      f"from {len(files)} files")
PY

# C modules the codec modules import: the system-library module maps and the C target's headers.
cflags=()
for map in Sources/*/module.modulemap Sources/*/include/module.modulemap; do
    [ -e "$map" ] && cflags+=(-Xcc "-fmodule-map-file=$root/$map")
done
for inc in Sources/*/include; do cflags+=(-Xcc "-I$root/$inc"); done
for pc in libpng libwebpdemux; do
    for f in $(pkg-config --cflags-only-I "$pc" 2>/dev/null); do cflags+=(-Xcc "$f"); done
done

mapfile -t with < "$out/with.txt"
if ! ls "$out"/src/*.swift >/dev/null 2>&1; then
    echo "check-snippets: no block to compile"
    exit 0
fi
status=0
"$swiftc" -swift-version 6 -parse-as-library -module-name ZoetropeSnippets \
    -diagnostic-style llvm -wmo -c -o "$out/snippets.o" -module-cache-path "$out/module-cache" \
    -I "$bin/Modules" -I "$bin" "${cflags[@]}" "$out"/src/*.swift "${with[@]}" \
    >"$out/compile.log" 2>&1 || status=$?

# Diagnostics point at the generated files: print them against the documentation, by block.
python3 - "$out" "$status" <<'PY'
import json, os, re, sys
out, status = sys.argv[1], int(sys.argv[2])
listing = {e["file"]: e for e in json.load(open(os.path.join(out, "map.json")))}
log = open(os.path.join(out, "compile.log"), encoding="utf-8", errors="replace").read().splitlines()
diag = re.compile(r"^(.*?):(\d+):(\d+): (error|warning|note): (.*)$")
blocks, order, current, problems = {}, [], None, 0    # block -> printed lines
for line in log:
    m = diag.match(line)
    if m:
        name = os.path.basename(m.group(1))
        e = listing.get(name) if "/snippets/src/" in m.group(1) else None
        if e:
            key = f"{e['path']}:{e['line']}"
            ln = e["origin"][int(m.group(2)) - 1] if int(m.group(2)) <= len(e["origin"]) else None
            col = max(1, int(m.group(3)) - (e["shift"] if ln else 0))
            where = f"{e['path']}:{ln}:{col}" if ln else f"{key} (generated wrapper, {name}:{m.group(2)})"
            text = f"  {where}: {m.group(4)}: {m.group(5)}"
        else:
            key, text = "other", "  " + line
        if m.group(4) != "note":
            problems += 1
        current = key
        if key not in blocks:
            blocks[key] = []; order.append(key)
        blocks[key].append(text)
    elif line.strip() and current:
        blocks[current].append("      " + line)      # the compiler's source line and caret
for key in order:
    print(f"check-snippets: the ```swift block at {key} does not compile cleanly:" if key != "other"
          else "check-snippets: other compiler output:")
    print("\n".join(blocks[key]))
if status != 0 and not problems:
    print(f"check-snippets: the compiler failed (exit {status}) without a diagnostic; see {out}/compile.log")
    sys.exit(1)
if problems:
    print(f"check-snippets: {problems} error(s)/warning(s) in {len([k for k in order if k != 'other'])} block(s); "
          f"generated sources in {out}/src")
    sys.exit(1)
PY
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "check-snippets: every block compiles, no warnings ($((ms / 1000)).$(( ms % 1000 / 100 )) s)"
