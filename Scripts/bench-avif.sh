#!/usr/bin/env bash
# Side-by-side AVIF decoding speed: ZoetropeAVIF vs the C reference (libavif, avif_anim) and
# Pillow, from ../shared/bench, alternating the decoders in each round and quoting medians.
#
#   Scripts/bench-avif.sh [ROUNDS]            (default 7 rounds)
#   IN=/tmp/animbench  THREADS="1 2"  INPUTS="small timer big"  Scripts/bench-avif.sh
#
# Needs the inputs (OUT=/tmp/animbench bash ../shared/bench/make_inputs.sh; reuse them if
# another run made them) and Pillow + numpy for the Pillow column. Every decoder prints the
# same JSON line (fps over the whole file decoded K times, first-frame time, checksum);
# equal checksums mean identical pixels.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH="${BENCH:-$ROOT/../shared/bench}"
IN="${IN:-/tmp/animbench}"
ROUNDS="${1:-7}"
THREADS="${THREADS:-1 2}"
INPUTS="${INPUTS:-small timer big}"
WORK="${WORK:-/tmp/zoetrope-bench-avif}"

mkdir -p "$WORK/ref"
cp "$BENCH"/ref/* "$WORK/ref/"
make -s -C "$WORK/ref" avif_anim >/dev/null
swift build -c release --package-path "$ROOT/Scripts/bench-avif" >/dev/null
ZBIN="$(swift build -c release --package-path "$ROOT/Scripts/bench-avif" --show-bin-path)/zoetrope-avif-bench"

RESULTS="$WORK/results.jsonl"
: > "$RESULTS"
loops_for() { case "$1" in small) echo 40;; timer) echo 8;; big) echo 2;; *) echo 3;; esac; }
run() { # label command...
    local label="$1"; shift
    local line
    if line="$("$@" 2>/dev/null | tail -1)"; then
        echo "{\"label\":\"$label\",\"result\":$line}" >> "$RESULTS"
    else
        echo "$label failed: $*" >&2
    fi
}
for r in $(seq 1 "$ROUNDS"); do
    for name in $INPUTS; do
        f="$IN/$name.avif"
        [ -f "$f" ] || { echo "missing $f (make the inputs first)" >&2; exit 1; }
        k="$(loops_for "$name")"
        run "$name|C ref (t=2)" "$WORK/ref/avif_anim" -k "$k" "$f"
        run "$name|zoetrope (default)" "$ZBIN" -k "$k" "$f"
        for t in $THREADS; do run "$name|zoetrope t=$t" "$ZBIN" -k "$k" -t "$t" "$f"; done
        run "$name|C ref t=1" "$WORK/ref/avif_anim" -k "$k" -t 1 "$f"
        if python3 -c "import PIL, numpy" 2>/dev/null; then
            run "$name|Pillow" python3 "$BENCH/pillow_decode.py" -k "$k" "$f"
        fi
    done
    echo "round $r/$ROUNDS done" >&2
done

python3 - "$RESULTS" <<'PY'
import json, statistics, sys, collections
rows = collections.defaultdict(list)
sums = collections.defaultdict(set)
for line in open(sys.argv[1]):
    d = json.loads(line)
    rows[d["label"]].append(d["result"])
    # Pillow bundles its own libavif/libyuv, so its pixels may differ; compare the rest.
    if d["result"].get("checksum") and not d["label"].endswith("|Pillow"):
        sums[d["label"].split("|")[0]].add(d["result"]["checksum"])
inputs = []
for label in rows:
    name = label.split("|")[0]
    if name not in inputs:
        inputs.append(name)
print(f"{'input':<7} {'decoder':<20} {'fps (median)':>13} {'vs C ref':>9} {'vs Pillow':>10} {'first ms':>9} {'cpu s':>7} {'rss KiB':>8}")
for name in inputs:
    med = {}
    for label, rs in rows.items():
        if label.split("|")[0] == name:
            med[label.split("|")[1]] = rs
    ref = statistics.median(r["fps"] for r in med.get("C ref (t=2)", [{"fps": float("nan")}]))
    pil = statistics.median(r["fps"] for r in med.get("Pillow", [{"fps": float("nan")}]))
    for dec, rs in med.items():
        fps = statistics.median(r["fps"] for r in rs)
        first = statistics.median(r["first_frame_ms"] for r in rs)
        cpu = statistics.median(r["cpu_s"] for r in rs)
        rss = statistics.median(r["maxrss_kb"] for r in rs)
        print(f"{name:<7} {dec:<20} {fps:>13.1f} {fps/ref:>8.2f}x {fps/pil:>9.2f}x {first:>9.2f} {cpu:>7.3f} {rss:>8.0f}")
    print(f"{name:<7} checksums (C ref, zoetrope): {'identical' if len(sums[name]) == 1 else 'DIFFER: ' + ', '.join(sorted(sums[name]))} ({len(rows[name + '|C ref (t=2)'])} rounds)")
PY
