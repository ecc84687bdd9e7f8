#!/usr/bin/env bash
# Side-by-side GIF decoding benchmark: Zoetrope's GIFCoder (release build) against
# ../shared/bench's giflib reference (gif_anim) and its Pillow script, in one run,
# alternating the commands (Zoetrope reading the file, Zoetrope mapping it, C, Pillow), ROUNDS rounds per input; prints each run's JSON line
# and then medians (fps, cpu seconds, peak RSS) and ratios, and checks that all three
# produced the same checksum (identical pixels).
#
#   Scripts/bench-gif.sh                    # small, timer, big from /tmp/animbench
#   ROUNDS=7 INPUTS="big" Scripts/bench-gif.sh
#
# Inputs: OUT=/tmp/animbench bash ../shared/bench/make_inputs.sh (needs Pillow + numpy).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SHARED="${SHARED:-$ROOT/../shared}"
IN="${IN:-/tmp/animbench}"
ROUNDS="${ROUNDS:-5}"
INPUTS="${INPUTS:-small timer big}"
REF="$(mktemp -d /tmp/bench-gif-ref.XXXXXX)"
LOG="$(mktemp /tmp/bench-gif.XXXXXX.jsonl)"
trap 'rm -rf "$REF"' EXIT

cp -r "$SHARED/bench/ref/." "$REF/"
make -s -C "$REF" gif_anim >/dev/null
(cd "$ROOT" && swift build -c release --product ZoetropeGIFBench 2>&1 | grep -E "error|warning" || true)
Z="$ROOT/.build/release/ZoetropeGIFBench"

declare -A K=([small]=200 [timer]=10 [big]=1)
for s in $INPUTS; do
  f="$IN/$s.gif"
  [[ -s "$f" ]] || { echo "missing $f (run make_inputs.sh)"; exit 1; }
  k="${K[$s]:-3}"
  for r in $(seq "$ROUNDS"); do
    "$Z" -k "$k" "$f" | tee -a "$LOG"
    "$Z" -k "$k" --mmap "$f" | tee -a "$LOG"
    "$REF/gif_anim" -k "$k" "$f" | tee -a "$LOG"
    python3 "$SHARED/bench/pillow_decode.py" -k "$k" "$f" | tee -a "$LOG"
  done
done

python3 - "$LOG" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault((r["file"].rsplit("/", 1)[-1], r["decoder"]), []).append(r)
files = sorted({f for f, _ in by}, key=lambda f: ["small.gif", "timer.gif", "big.gif"].index(f) if f in ("small.gif", "timer.gif", "big.gif") else 9)
print()
print("%-10s %-18s %9s %9s %10s %8s  %s" % ("input", "decoder", "fps(med)", "cpu_s/loop", "maxrss_kb", "n", "checksum"))
for f in files:
    med = {}
    sums = set()
    for d in ("zoetrope-gif", "zoetrope-gif-mmap", "gif-c", "pillow"):
        rs = by.get((f, d), [])
        if not rs: continue
        fps = statistics.median(r["fps"] for r in rs)
        cpu = statistics.median(r["cpu_s"] / r["loops"] for r in rs)
        rss = statistics.median(r["maxrss_kb"] for r in rs)
        med[d] = (fps, cpu)
        sums.add(rs[0]["checksum"])
        print("%-10s %-18s %9.1f %10.4f %10d %8d  %s" % (f, d, fps, cpu, rss, len(rs), rs[0]["checksum"]))
    for zd in ("zoetrope-gif", "zoetrope-gif-mmap"):
        if zd not in med: continue
        z = med[zd]
        for d in ("gif-c", "pillow"):
            if d in med:
                print("%-10s %s/%-6s fps ratio %.2f, cpu ratio %.2f (lower is better)" % (f, zd, d, z[0] / med[d][0], z[1] / med[d][1]))
    print("%-10s checksums %s" % (f, "identical" if len(sums) == 1 else "DIFFER: %s" % sums))
    zs = by.get((f, "zoetrope-gif"), [])
    if zs:
        import os
        path = zs[0]["file"]
        canvas_kb = zs[0]["w"] * zs[0]["h"] * 4 / 1024
        budget = os.path.getsize(path) / 1024 + 3 * canvas_kb + 16 * 1024
        peak = max(r["maxrss_kb"] for r in zs)
        floor = min(r["rss_start_kb"] for r in zs)
        print("%-10s peak RSS %d KiB, %d KiB above the process floor before reading (%d KiB); budget file + 3 canvases + 16 MiB = %d KiB: %s"
              % (f, peak, peak - floor, floor, budget, "within" if peak <= budget else "over (the Swift runtime floor alone is %d KiB)" % floor))
PY
echo "raw runs: $LOG"
