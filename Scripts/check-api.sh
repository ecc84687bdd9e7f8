#!/usr/bin/env bash
# Checks the public API of every library module against the baseline checked in under
# Docs/API/<Module>.txt, and fails on any difference, so a public change is always a
# deliberate one: the same commit updates the baseline (and CHANGELOG.md).
#
#   Scripts/check-api.sh              # compare; prints the diff and fails on a change
#   UPDATE=1 Scripts/check-api.sh     # rewrite the baseline from the current build
#
# How: the toolchain's `swift-api-digester -dump-sdk` reads each module's .swiftmodule
# from the usual debug build (public declarations only), and a few lines of Python turn
# its JSON into one sorted line per declaration (kind, name, type, and the attributes that
# change what a client may write: static, throws, mutating, conformances…), nested by
# type. The text form diffs readably in review. Linux only (the platform's imports differ).
# It also checks that the version `zoetrope --version` prints heads CHANGELOG.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export PATH="/opt/swift/usr/bin:$PATH"
modules=(Zoetrope ZoetropeEncoding ZoetropeQuality ZoetropeTesting ZoetropeColor ZoetropeGIF ZoetropeAPNG ZoetropeWebP ZoetropeAVIF ZoetropeJPEG ZoetropeBuiltInCoders ZoetropeLoading ZoetropeUI ZoetropeCodecs)
out=$root/.build/api
mkdir -p "$out"

start=$(date +%s)
echo "check-api: building the library modules"
# ZoetropeCodecs brings every library module (ZoetropeEncoding too) but ZoetropeQuality and
# ZoetropeTesting, built beside it.
if ! { swift build --target ZoetropeCodecs && swift build --target ZoetropeQuality && swift build --target ZoetropeTesting; } >"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    echo "check-api: the package does not build" >&2
    exit 1
fi
bin=$(swift build --show-bin-path)
includes=(-I "$bin/Modules" -I Sources/CGIF -I Sources/CPNG -I Sources/CWebP -I Sources/CAVIF
          -I Sources/CZoetropeAVIF/include -I Sources/CZoetropePNG/include -I Sources/CTurboJPEG -I Sources/CLCMS2
          -I Sources/CZoetropeJPEGBands/include -I Sources/CZoetropeJPEG/include -I Sources/CCurl
          -I Sources/CZoetropeColorKernels/include)

status=0
# The version the tool prints is the newest one CHANGELOG.md describes.
version=$(sed -n 's/^    static let version = "\(.*\)"$/\1/p' Sources/ZoetropeTool/Tool.swift)
latest=$(sed -n 's/^## \([0-9][^ ]*\).*/\1/p' CHANGELOG.md | head -1)
if [[ -z "$version" || "$version" != "$latest" ]]; then
    echo "check-api: zoetrope --version says '$version' but CHANGELOG.md's newest version is '$latest'" >&2
    status=1
fi
for m in "${modules[@]}"; do
    swift-api-digester -dump-sdk -module "$m" "${includes[@]}" -o "$out/$m.json" 2>"$out/$m.log" || {
        cat "$out/$m.log" >&2; echo "check-api: swift-api-digester failed for $m" >&2; exit 1; }
    python3 - "$out/$m.json" "$out/$m.txt" <<'PY'
import json, sys
root = json.load(open(sys.argv[1]))["ABIRoot"]
TYPES = {"TypeNominal", "TypeFunc", "TypeNameAlias"}
lines = []

def type_of(n):
    return n.get("printedName", "")

def flags(n):
    f = []
    for key, word in (("static", "static"), ("throwing", "throws"), ("isThrowing", "throws"),
                      ("isOpen", "open"), ("isFinal", "final"), ("hasDefaultArg", "default"),
                      ("isAsync", "async"), ("isLet", "let")):
        if n.get(key): f.append(word)
    if any(a.get("accessorKind") == "set" for a in n.get("accessors", [])): f.append("settable")
    if n.get("funcSelfKind") == "Mutating": f.append("mutating")
    if n.get("genericSig"): f.append("where " + n["genericSig"])
    # Attributes a client can see (not storage details such as HasStorage, HasInitialValue).
    attrs = sorted(a for a in n.get("declAttributes", []) if a not in ("HasStorage", "HasInitialValue", "Transparent"))
    if attrs: f.append("@" + " @".join(attrs))
    conf = sorted(c["printedName"] for c in n.get("conformances", []))
    if conf: f.append(": " + ", ".join(conf))
    if n.get("superclassUsr"): f.append("super " + n.get("superclassNames", [""])[0])
    return f

def walk(n, path):
    kids = n.get("children", [])
    for c in kids:
        kind = c.get("declKind") or c.get("kind")
        if c.get("kind") in TYPES or kind == "Import":
            continue
        # `package` declarations are in the dump too, marked internal: not public API.
        if c.get("kind") == "Accessor" or c.get("isInternal"):
            continue
        # Another module's type extended with `package` members only adds no public API.
        members = [k for k in c.get("children", []) if k.get("kind") not in TYPES]
        if c.get("isExternal") and members and all(k.get("isInternal") for k in members):
            continue
        sig = [type_of(t) for t in c.get("children", []) if t.get("kind") in TYPES]
        head = f"{'.'.join(path + [c.get('printedName', '')])}"
        if kind in ("Func", "Constructor", "Subscript"):
            ret = sig[0] if sig else ""
            params = ", ".join(sig[1:])
            text = f"{kind} {head} ({params}) -> {ret}"
        elif kind in ("Var", "EnumElement", "TypeAlias", "AssociatedType"):
            text = f"{kind} {head}: {', '.join(sig)}"
        else:
            text = f"{kind} {head}"
        lines.append(" ".join([text] + flags(c)))
        if kind in ("Struct", "Enum", "Class", "Protocol", "Extension"):
            walk(c, path + [c.get("printedName", "")])

walk(root, [])
open(sys.argv[2], "w").write("".join(l + "\n" for l in sorted(set(lines))))
PY
    if [[ "${UPDATE:-0}" == 1 ]]; then
        cp "$out/$m.txt" "Docs/API/$m.txt"
    elif ! diff -u "Docs/API/$m.txt" "$out/$m.txt" >"$out/$m.diff" 2>&1; then
        echo "check-api: the public API of $m changed:" >&2
        cat "$out/$m.diff" >&2
        status=1
    fi
done
if [[ "${UPDATE:-0}" == 1 ]]; then
    echo "check-api: wrote Docs/API/*.txt ($(($(date +%s) - start)) s)"
elif [[ $status != 0 ]]; then
    echo "check-api: if the change is intended, run UPDATE=1 Scripts/check-api.sh, commit Docs/API and note it in CHANGELOG.md" >&2
    exit 1
else
    echo "check-api: the public API of ${#modules[@]} modules matches Docs/API ($(($(date +%s) - start)) s)"
fi
