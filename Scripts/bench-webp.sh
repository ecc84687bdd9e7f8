#!/usr/bin/env bash
# WebP decoding speed, side by side in one run: libwebp's WebPAnimDecoder (the C reference
# in ../shared/bench/ref/webp_anim.c), Pillow (../shared/bench/pillow_decode.py) and
# ZoetropeWebP (Scripts/bench-webp.swift, the same harness: fresh decoder per loop, every
# frame checksummed). Rounds alternate the three programs; medians and ratios at the end,
# then the cost of seeking to random frames.
#
#   Scripts/bench-webp.sh                 # ROUNDS=7, inputs in /tmp/animbench
#   ROUNDS=3 SETS="small timer" Scripts/bench-webp.sh
#
# Inputs: OUT=/tmp/animbench bash ../shared/bench/make_inputs.sh (needs Pillow + numpy).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SHARED="${SHARED:-$ROOT/../shared}"
IN="${IN:-/tmp/animbench}"
WORK="${WORK:-/tmp/zoetrope-bench-webp}"
ROUNDS="${ROUNDS:-7}"
SETS="${SETS:-small timer big}"
SEEKS="${SEEKS:-40}"
declare -A K=([small]=100 [timer]=10 [big]=1)
mkdir -p "$WORK"

echo "== building (release): ZoetropeWebP, the Swift driver, the C reference" >&2
(cd "$ROOT" && swift build -c release --target ZoetropeWebP >&2)
B="$ROOT/.build/release"
swiftc -O -module-name WebPBench "$ROOT/Scripts/bench-webp.swift" -I "$B/Modules" -I "$ROOT/Sources/CWebP" \
  "$B"/Zoetrope.build/*.o "$B"/ZoetropeWebP.build/*.o -lwebp -lwebpdemux -lwebpmux -o "$WORK/bench-webp"
rm -rf "$WORK/ref" && cp -r "$SHARED/bench/ref" "$WORK/ref" && make -s -C "$WORK/ref" webp_anim >&2

RESULTS="$WORK/results.jsonl"
: > "$RESULTS"
for s in $SETS; do
  f="$IN/$s.webp"
  [[ -s "$f" ]] || { echo "missing $f (run make_inputs.sh)" >&2; exit 1; }
  k=${K[$s]:-5}
  for r in $(seq 1 "$ROUNDS"); do
    # rotate the order each round so no program always runs first
    progs=(c zt py)
    for i in 0 1 2; do
      p=${progs[$(( (i + r) % 3 ))]}
      case $p in
        c)  "$WORK/ref/webp_anim" -k "$k" "$f" >> "$RESULTS" ;;
        zt) "$WORK/bench-webp" -k "$k" "$f" >> "$RESULTS" ;;
        py) python3 "$SHARED/bench/pillow_decode.py" -k "$k" "$f" >> "$RESULTS" ;;
      esac
    done
    echo "  $s round $r/$ROUNDS" >&2
  done
done

python3 - "$RESULTS" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
names = {"webp-c": "C ref (WebPAnimDecoder)", "zoetrope-webp": "Zoetrope", "pillow": "Pillow"}
files = []
for r in rows:
    if r["file"] not in files: files.append(r["file"])
print()
print("| input | C ref fps | Zoetrope fps | Pillow fps | Zoetrope/C | Zoetrope/Pillow | first frame ms (C / Z / Pillow) | max RSS MB (C / Z) | checksums |")
print("|---|---:|---:|---:|---:|---:|---|---|---|")
for f in files:
    m, ff, rss, sums = {}, {}, {}, {}
    for d in names:
        rs = [r for r in rows if r["file"] == f and r["decoder"] == d]
        if not rs: continue
        m[d] = statistics.median(r["fps"] for r in rs)
        ff[d] = statistics.median(r["first_frame_ms"] for r in rs)
        rss[d] = statistics.median(r["maxrss_kb"] for r in rs) / 1024
        sums[d] = {r["checksum"] for r in rs}
    same = "identical" if len(set().union(*sums.values())) == 1 else "DIFFER: " + str(sums)
    name = f.rsplit("/", 1)[-1]
    print(f"| {name} | {m['webp-c']:.1f} | {m['zoetrope-webp']:.1f} | {m['pillow']:.1f} | "
          f"{m['zoetrope-webp']/m['webp-c']:.2f} | {m['zoetrope-webp']/m['pillow']:.2f} | "
          f"{ff['webp-c']:.2f} / {ff['zoetrope-webp']:.2f} / {ff['pillow']:.2f} | {rss['webp-c']:.1f} / {rss['zoetrope-webp']:.1f} | {same} |")
PY

echo
echo "== seeking: decodeFrame(at: t) after sitting on another random frame, vs decoding key(t)…t and 0…t one by one (medians, ms)"
for s in $SETS; do "$WORK/bench-webp" --seek "$SEEKS" "$IN/$s.webp"; done
