#!/usr/bin/env bash
# Keeps full Foundation out of the core, encoding, the codec modules, ZoetropeUI and zoetrope-decode-bench
# (the process floor, Docs/Benchmarks.md "The process floor"):
# 1. every `import Foundation` in those sources sits in the `#else` of
#    `#if canImport(FoundationEssentials)` or under `#if canImport(Darwin)`, and none
#    imports FoundationNetworking;
# 2. the release build of zoetrope-decode-bench links neither libFoundation,
#    libFoundationInternationalization nor libFoundationNetworking (Linux only; a Foundation
#    API used by mistake links them through its module even when the import is guarded).
# 3. the `zoetrope` tool (target ZoetropeTool) imports neither FoundationNetworking, ZoetropeCodecs
#    nor ZoetropeLoading and does not
#    depend on ZoetropeCodecs: it uses full Foundation, but URLSession would add
#    FoundationNetworking and libcurl's libraries to every start of it (about twice the CPU
#    of `zoetrope --version`, Docs/Benchmarks.md "The tool and URLs"); its http(s)
#    arguments are read by the zoetrope-fetch helper, the only process that loads them.
#
#   Scripts/check-foundation-floor.sh            # both checks (a release build of the bench)
#   SOURCES_ONLY=1 Scripts/check-foundation-floor.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

python3 - Sources/Zoetrope Sources/ZoetropeEncoding Sources/ZoetropeColor Sources/ZoetropeGIF Sources/ZoetropeAPNG Sources/ZoetropeWebP \
    Sources/ZoetropeAVIF Sources/ZoetropeJPEG Sources/ZoetropeBuiltInCoders Sources/ZoetropeProcessStats Sources/ZoetropeUI Benchmarks/ZoetropeDecodeBench <<'PY'
import pathlib, re, sys
bad = []
for root in sys.argv[1:]:
    for path in sorted(pathlib.Path(root).rglob("*.swift")):
        conditions = []          # the #if / #elseif / #else line of each open block
        for n, line in enumerate(path.read_text().splitlines(), 1):
            s = line.strip()
            if s.startswith("#if "): conditions.append(s)
            elif s.startswith("#elseif ") or s == "#else": conditions[-1] = s
            elif s == "#endif": conditions.pop()
            elif re.match(r"(@_exported\s+)?import\s+FoundationNetworking\b", s):
                bad.append(f"{path}:{n}: imports FoundationNetworking")
            elif re.match(r"(@_exported\s+)?import\s+Foundation\s*$", s):
                guard = conditions[-1] if conditions else ""
                if guard != "#else" and "canImport(Darwin)" not in guard:
                    bad.append(f"{path}:{n}: `import Foundation` outside `#else` of canImport(FoundationEssentials)")
for b in bad: print(b, file=sys.stderr)
if bad: sys.exit("check-foundation-floor: full Foundation imported where FoundationEssentials should do")
print("check-foundation-floor: sources import FoundationEssentials only (Foundation elsewhere)")
PY

python3 - Sources/ZoetropeTool <<'PY'
import pathlib, re, sys
bad = [f"{path}:{n}: imports {m.group(2)}"
       for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.swift"))
       for n, line in enumerate(path.read_text().splitlines(), 1)
       for m in [re.match(r"\s*(@_exported\s+)?import\s+(FoundationNetworking|ZoetropeCodecs|ZoetropeLoading)\b", line)] if m]
package = pathlib.Path("Package.swift").read_text()
tool = re.search(r'\.executableTarget\(\s*name:\s*"ZoetropeTool",\s*dependencies:\s*\[([^\]]*)\]', package)
if tool is None or '"ZoetropeCodecs"' in tool.group(1) or '"ZoetropeLoading"' in tool.group(1):
    bad.append("Package.swift: the ZoetropeTool target depends on ZoetropeCodecs or ZoetropeLoading (or was not found)")
for b in bad: print(b, file=sys.stderr)
if bad: sys.exit("check-foundation-floor: the tool would load FoundationNetworking at every start")
print("check-foundation-floor: the tool leaves URLs to zoetrope-fetch (no FoundationNetworking)")
PY

[[ "${SOURCES_ONLY:-0}" == 1 || "$(uname)" != Linux ]] && exit 0
swift build -c release --product zoetrope-decode-bench 2>&1 | tail -1
linked=$(readelf -d .build/release/zoetrope-decode-bench | grep NEEDED \
    | grep -oE 'lib(Foundation|FoundationInternationalization|FoundationNetworking)\.so' || true)
if [[ -n "$linked" ]]; then
    echo "check-foundation-floor: zoetrope-decode-bench links $(echo $linked)" >&2
    exit 1
fi
echo "check-foundation-floor: zoetrope-decode-bench links FoundationEssentials only"
