#!/usr/bin/env bash
# Decoding speed of Zoetrope's APNG coder, side by side in one run with the libpng C
# reference (../shared/bench/ref/apng_anim) and Pillow (../shared/bench/pillow_decode.py).
#
#   Scripts/bench-apng.sh [ROUNDS]          (default 5 rounds)
#
# Inputs: $IN (default /tmp/animbench) small.png, timer.png, big.png, made by
# ../shared/bench/make_inputs.sh. Every decoder decodes every frame to a full RGBA canvas
# K times per process (a fresh decoder each loop, the file read from its path each loop)
# and checksums each frame the same way, so equal checksums mean equal pixels. The three
# commands alternate within each round; the table gives medians of frames per second.
#
# The Zoetrope side is a small Swift program (written below) compiled with -O against the
# release build of the ZoetropeAPNG module; it times the public API only:
# APNGCoder().makeFrameSource(data:options:) + decodeFrame(at:into:) for every frame.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${SHARED:-$ROOT/../shared}"
IN="${IN:-/tmp/animbench}"
ROUNDS="${1:-5}"
WORK="${WORK:-/tmp/zoetrope-bench-apng}"
mkdir -p "$WORK"

for f in small timer big; do
    [ -f "$IN/$f.png" ] || { echo "missing $IN/$f.png: run OUT=$IN bash $SHARED/bench/make_inputs.sh" >&2; exit 1; }
done

# C reference, built from a copy (shared/ is read-only).
rm -rf "$WORK/ref" && cp -r "$SHARED/bench/ref" "$WORK/ref"
make -s -C "$WORK/ref" apng_anim >/dev/null

# Zoetrope harness.
(cd "$ROOT" && swift build -c release --product zoetrope >/dev/null)
cat > "$WORK/main.swift" <<'SWIFT'
import Foundation
import Zoetrope
import ZoetropeAPNG

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func frameSum(_ b: [UInt8]) -> UInt64 {
    b.withUnsafeBytes { raw in
        var s0: UInt64 = 0, s1: UInt64 = 0, s2: UInt64 = 0, s3: UInt64 = 0
        let n = raw.count
        var i = 0
        while i + 32 <= n {
            s0 &+= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            s1 &+= raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
            s2 &+= raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
            s3 &+= raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
            i += 32
        }
        while i + 8 <= n { s0 &+= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self); i += 8 }
        if i < n {
            var t: UInt64 = 0
            for k in 0..<(n - i) { t |= UInt64(raw[i + k]) << (8 * UInt64(k)) }
            s0 &+= t
        }
        return s0 &+ s1 &+ s2 &+ s3
    }
}

var args = Array(CommandLine.arguments.dropFirst())
var loops = 1
if args.first == "-k" { loops = Int(args[1])!; args.removeFirst(2) }
let path = args[0]
let coder = APNGCoder()
var buffer = PixelBuffer()
var firstMs = -1.0, checksum: UInt64 = 0, total = 0, perLoop = -1, w = 0, h = 0
let t0 = now()
for k in 0..<loops {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let source = try coder.makeFrameSource(data: data, options: .default)
    w = source.info.canvasSize.width; h = source.info.canvasSize.height
    var c: UInt64 = 0
    for i in 0..<source.info.frameCount {
        try source.decodeFrame(at: i, into: &buffer)
        if k == 0 && i == 0 { firstMs = (now() - t0) * 1e3 }
        c = c &* 1_000_003 &+ frameSum(buffer.bytes)
    }
    if perLoop < 0 { perLoop = source.info.frameCount; checksum = c }
    total += source.info.frameCount
}
let dt = now() - t0
var ru = rusage()
getrusage(Int32(RUSAGE_SELF.rawValue), &ru)
let mp = Double(w * h) / 1e6
print("{\"decoder\":\"zoetrope\",\"file\":\"\(path)\"," + String(format: "\"w\":%d,\"h\":%d,\"frames\":%d,\"loops\":%d,\"first_frame_ms\":%.3f,\"decode_s\":%.6f,\"fps\":%.2f,\"mpps\":%.2f,\"maxrss_kb\":%ld,\"checksum\":\"%016llx\"}",
             w, h, perLoop, loops, firstMs, dt, Double(total) / dt, Double(total) * mp / dt, ru.ru_maxrss, checksum))
SWIFT
REL="$ROOT/.build/release"
swiftc -O -module-cache-path "$WORK/mc" -I "$REL/Modules" -I "$ROOT/Sources/CPNG" \
    "$WORK/main.swift" "$REL"/Zoetrope.build/*.o "$REL"/ZoetropeAPNG.build/*.o \
    -lpng16 -lz -o "$WORK/zoetrope_apng_bench" 2>&1 | grep -v "^$" || true
[ -x "$WORK/zoetrope_apng_bench" ] || { echo "harness did not build" >&2; exit 1; }

declare -A K=([small]=100 [timer]=10 [big]=1)
RESULTS="$WORK/results.jsonl"
: > "$RESULTS"
for r in $(seq 1 "$ROUNDS"); do
    for f in small timer big; do
        k=${K[$f]}
        for d in c zoetrope pillow; do
            case $d in
                c) line=$("$WORK/ref/apng_anim" -k "$k" "$IN/$f.png") ;;
                zoetrope) line=$("$WORK/zoetrope_apng_bench" -k "$k" "$IN/$f.png") ;;
                pillow) line=$(python3 "$SHARED/bench/pillow_decode.py" -k "$k" "$IN/$f.png") ;;
            esac
            echo "{\"round\":$r,\"input\":\"$f\",\"who\":\"$d\",\"result\":$line}" >> "$RESULTS"
        done
    done
    echo "round $r/$ROUNDS done" >&2
done

python3 - "$RESULTS" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"{'input':6} {'C ref fps':>10} {'Zoetrope':>10} {'Pillow':>10} {'Z/C':>6} {'Z/Pillow':>9} {'Z 1st ms':>9} {'C 1st ms':>9}  checksums")
for f in ("small", "timer", "big"):
    med = {}
    first = {}
    sums = {}
    for who in ("c", "zoetrope", "pillow"):
        rs = [r["result"] for r in rows if r["input"] == f and r["who"] == who]
        med[who] = statistics.median(r["fps"] for r in rs)
        first[who] = statistics.median(r["first_frame_ms"] for r in rs)
        sums[who] = {r["checksum"] for r in rs}
    same = "equal" if sums["c"] == sums["zoetrope"] == sums["pillow"] else f"DIFFER {sums}"
    print(f"{f:6} {med['c']:10.1f} {med['zoetrope']:10.1f} {med['pillow']:10.1f} "
          f"{med['zoetrope']/med['c']:6.2f} {med['zoetrope']/med['pillow']:9.2f} {first['zoetrope']:9.2f} {first['c']:9.2f}  {same}")
PY
