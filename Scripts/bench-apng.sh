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
# Data(contentsOf:options: .alwaysMapped) + APNGCoder().makeFrameSource(data:options:) +
# decodeFrame(at:into:) for every frame, into one reused PixelBuffer.
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
rm -rf "$WORK/ref" && cp -r "$SHARED/bench/ref" "$WORK/ref" && chmod -R u+w "$WORK/ref"
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

func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
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
let t0 = now(), c0 = cpuNow()
for k in 0..<loops {
    // Mapped, as an application hands a large file to Zoetrope: pages are read on demand.
    let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
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
let dt = now() - t0, loopCPU = cpuNow() - c0
var ru = rusage()
getrusage(Int32(RUSAGE_SELF.rawValue), &ru)
let mp = Double(w * h) / 1e6
let cpu = Double(ru.ru_utime.tv_sec) + Double(ru.ru_utime.tv_usec) * 1e-6 + Double(ru.ru_stime.tv_sec) + Double(ru.ru_stime.tv_usec) * 1e-6
print("{\"decoder\":\"zoetrope\",\"file\":\"\(path)\"," + String(format: "\"w\":%d,\"h\":%d,\"frames\":%d,\"loops\":%d,\"first_frame_ms\":%.3f,\"decode_s\":%.6f,\"fps\":%.2f,\"mpps\":%.2f,\"cpu_s\":%.3f,\"loop_cpu_s\":%.3f,\"maxrss_kb\":%ld,\"checksum\":\"%016llx\"}",
             w, h, perLoop, loops, firstMs, dt, Double(total) / dt, Double(total) * mp / dt, cpu, loopCPU, ru.ru_maxrss, checksum))
SWIFT
REL="$ROOT/.build/release"
rm -f "$WORK/zoetrope_apng_bench"
swiftc -O -module-cache-path "$WORK/mc" -I "$REL/Modules" -I "$ROOT/Sources/CPNG" -I "$ROOT/Sources/CZoetropePNG/include" \
    "$WORK/main.swift" "$REL"/Zoetrope.build/*.o "$REL"/ZoetropeAPNG.build/*.o "$REL"/CZoetropePNG.build/*.o \
    -lpng16 -lz -o "$WORK/zoetrope_apng_bench"
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
# fps: wall clock, timed in-process by each harness (the decode loops only); cpu: frames per
# CPU second of the whole process (steadier on a shared machine, but it includes start-up:
# ~1 ms for C, the Swift runtime + Foundation for Zoetrope, the interpreter + imports for
# Pillow); "Z loop cpu" counts only Zoetrope's decode loops (CLOCK_PROCESS_CPUTIME_ID).
print("medians over rounds; fps = frames decoded per wall-clock second, cpu = per CPU second")
print(f"{'input':6} {'C fps':>8} {'Z fps':>8} {'Pil fps':>8} {'Z/C':>5} {'Z/Pil':>6} | {'C cpu':>8} {'Z cpu':>8} {'Pil cpu':>8} {'Z/C':>5} {'Z/Pil':>6} | {'Z loop':>7} {'Z/C':>5} | {'Z 1st ms':>8} {'C 1st ms':>8} {'Z rss MB':>8} {'C rss MB':>8}  checksums")
for f in ("small", "timer", "big"):
    fps, cpu, first, rss, sums = {}, {}, {}, {}, {}
    zr = [r["result"] for r in rows if r["input"] == f and r["who"] == "zoetrope"]
    zloop = statistics.median(r["frames"] * r["loops"] / r["loop_cpu_s"] for r in zr)
    for who in ("c", "zoetrope", "pillow"):
        rs = [r["result"] for r in rows if r["input"] == f and r["who"] == who]
        fps[who] = statistics.median(r["fps"] for r in rs)
        cpu[who] = statistics.median(r["frames"] * r["loops"] / r["cpu_s"] for r in rs)
        first[who] = statistics.median(r["first_frame_ms"] for r in rs)
        rss[who] = statistics.median(r["maxrss_kb"] for r in rs) / 1024
        sums[who] = {r["checksum"] for r in rs}
    same = "equal" if sums["c"] == sums["zoetrope"] == sums["pillow"] else f"DIFFER {sums}"
    print(f"{f:6} {fps['c']:8.1f} {fps['zoetrope']:8.1f} {fps['pillow']:8.1f} {fps['zoetrope']/fps['c']:5.2f} {fps['zoetrope']/fps['pillow']:6.2f} | "
          f"{cpu['c']:8.1f} {cpu['zoetrope']:8.1f} {cpu['pillow']:8.1f} {cpu['zoetrope']/cpu['c']:5.2f} {cpu['zoetrope']/cpu['pillow']:6.2f} {zloop:7.1f} {zloop/cpu['c']:5.2f} | "
          f"{first['zoetrope']:8.2f} {first['c']:8.2f} {rss['zoetrope']:8.1f} {rss['c']:8.1f}  {same}")
PY
