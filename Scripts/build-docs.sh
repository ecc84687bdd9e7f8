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

modules=(Zoetrope ZoetropeEncoding ZoetropeQuality ZoetropeTesting ZoetropeColor ZoetropeGIF ZoetropeAPNG ZoetropeWebP ZoetropeAVIF ZoetropeJPEG ZoetropeBuiltInCoders ZoetropeLoading ZoetropeUI ZoetropeCodecs)
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
symbols, relations = {}, []
for m in modules:
    files = [f for f in os.listdir(graphs) if f == m + ".symbols.json" or f.startswith(m + "@")]
    if m + ".symbols.json" not in files:
        sys.exit(f"build-docs: no symbol graph for {m}")
    for f in files:
        g = json.load(open(os.path.join(graphs, f)))
        for s in g["symbols"]:
            symbols.setdefault(s["identifier"]["precise"], s)
        relations += g["relationships"]

def name(s): return s["pathComponents"][-1]

# A member that implements a documented protocol requirement shows that documentation
# (DocC's "inherited" docs), so it needs no comment of its own.
documented_requirements = {}          # protocol id -> {(name, kind)}
for r in relations:
    if r["kind"] in ("requirementOf", "optionalRequirementOf"):
        req = symbols.get(r["source"])
        if req and req.get("docComment"):
            documented_requirements.setdefault(r["target"], set()).add((name(req), req["kind"]["identifier"]))
conforms = {}                          # type id -> {protocol ids}
parent = {}                            # member id -> type id
implements = set()                     # default implementations of a documented requirement
for r in relations:
    if r["kind"] == "conformsTo":
        conforms.setdefault(r["source"], set()).add(r["target"])
    elif r["kind"] == "memberOf":
        parent[r["source"]] = r["target"]
    elif r["kind"] == "defaultImplementationOf":
        req = symbols.get(r["target"])
        if req and req.get("docComment"):
            implements.add(r["source"])

def inherits_docs(sid, s):
    if sid in implements or s.get("sourceOrigin"):
        return True
    key = (name(s), s["kind"]["identifier"])
    return any(key in documented_requirements.get(p, ()) for p in conforms.get(parent.get(sid), ()))

missing = []
for sid, s in symbols.items():
    # Declared in this package (synthesized and standard-library members have no
    # location), public, and with neither a /// comment nor documentation it inherits.
    if s.get("accessLevel") not in ("public", "open") or "location" not in s:
        continue
    if s.get("docComment") or inherits_docs(sid, s):
        continue
    path = s["location"]["uri"].replace("file://", "")
    line = s["location"]["position"]["line"] + 1
    missing.append(f"{os.path.relpath(path, root)}:{line}: warning: missing documentation for public "
                   f"{s['kind']['displayName'].lower()} {'.'.join(s['pathComponents'])}")
for w in sorted(set(missing)):
    print(w)
if missing and not allow:
    sys.exit(f"build-docs: {len(set(missing))} public declaration(s) without documentation")
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
