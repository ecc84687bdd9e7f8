#!/usr/bin/env bash
# Builds one DocC archive per public module, offline, with the toolchain's own `docc`
# (this SwiftPM has no docc plugin), and fails when a public declaration has no `///`.
#
#   Scripts/build-docs.sh            -> .docc-build/<Module>.doccarchive
#   OUT=/tmp/docs Scripts/build-docs.sh
#   ALLOW_MISSING_DOCS=1 Scripts/build-docs.sh   (report undocumented API, still build)
#
# Steps: build with symbol graphs (its own scratch folder, so the usual .build is not
# invalidated), check documentation coverage from those graphs, run `docc convert` per
# module with warnings as errors. Needs only the toolchain and python3.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/.docc-build}
scratch=${SCRATCH:-$root/.build/docs}
swift=${SWIFT:-swift}
docc=${DOCC:-}
if [ -z "$docc" ]; then
    docc="$(dirname "$(readlink -f "$(command -v "$swift")")")/docc"
    [ -x "$docc" ] || docc=$(command -v docc || true)
fi
[ -x "$docc" ] || { echo "build-docs: no docc next to $swift or on PATH (set DOCC=)" >&2; exit 2; }

modules=(Zoetrope ZoetropeGIF ZoetropeAPNG ZoetropeWebP ZoetropeAVIF)
graphs=$scratch/symbol-graphs
mkdir -p "$graphs" "$out"

echo "build-docs: building with symbol graphs (scratch $scratch)"
# Graphs are written when a module compiles; an unchanged module keeps the last ones.
"$swift" build --package-path "$root" --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public

echo "build-docs: checking that every public declaration is documented"
python3 - "$graphs" "$root" "${ALLOW_MISSING_DOCS:-0}" "${modules[@]}" <<'PY'
import json, os, sys
graphs, root, allow, modules = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4:]
missing = []
for m in modules:
    files = [f for f in os.listdir(graphs) if f == m + ".symbols.json" or f.startswith(m + "@")]
    if m + ".symbols.json" not in files:
        sys.exit(f"build-docs: no symbol graph for {m}")
    for f in files:
        for s in json.load(open(os.path.join(graphs, f)))["symbols"]:
            # Declared in this package (synthesized and standard-library members have no
            # location), public, and with neither a /// comment nor docs it inherits.
            if s.get("accessLevel") not in ("public", "open") or "location" not in s:
                continue
            if s.get("docComment") or s.get("sourceOrigin"):
                continue
            path = s["location"]["uri"].replace("file://", "")
            line = s["location"]["position"]["line"] + 1
            missing.append(f"{os.path.relpath(path, root)}:{line}: warning: missing documentation for public "
                           f"{s['kind']['displayName'].lower()} {'.'.join(s['pathComponents'])}")
for w in sorted(missing):
    print(w)
if missing and not allow:
    sys.exit(f"build-docs: {len(missing)} public declaration(s) without documentation")
PY

for m in "${modules[@]}"; do
    dir=$scratch/graphs-$m
    rm -rf "$dir" && mkdir -p "$dir"
    cp "$graphs/$m.symbols.json" "$dir/"
    for ext in "$graphs/$m@"*.symbols.json; do [ -e "$ext" ] && cp "$ext" "$dir/"; done
    rm -rf "$out/$m.doccarchive"
    echo "build-docs: docc convert $m"
    "$docc" convert "$root/Sources/$m/$m.docc" \
        --additional-symbol-graph-dir "$dir" \
        --output-path "$out/$m.doccarchive" \
        --fallback-display-name "$m" \
        --fallback-bundle-identifier "org.zoetrope.$m" \
        --fallback-default-module-kind "Framework" \
        --warnings-as-errors
done
echo "build-docs: wrote ${modules[*]/%/.doccarchive} in $out"
