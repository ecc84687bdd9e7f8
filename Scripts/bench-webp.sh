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
decoders = ["webp-c", "zoetrope-webp", "pillow"]
files = []
for r in rows:
    if r["file"] not in files: files.append(r["file"])
def med(f, d, key):
    return statistics.median(key(r) for r in rows if r["file"] == f and r["decoder"] == d)
print()
print("Wall clock (fps = frames decoded per second, median of the rounds):")
print("| input | C ref fps | Zoetrope fps | Pillow fps | Zoetrope/C | Zoetrope/Pillow | first frame ms (C / Z / Pillow) | max RSS MB (C / Z / Pillow) | checksums |")
print("|---|---:|---:|---:|---:|---:|---|---|---|")
for f in files:
    m = {d: med(f, d, lambda r: r["fps"]) for d in decoders}
    ff = {d: med(f, d, lambda r: r["first_frame_ms"]) for d in decoders}
    rss = {d: med(f, d, lambda r: r["maxrss_kb"]) / 1024 for d in decoders}
    sums = {r["checksum"] for r in rows if r["file"] == f}
    same = "identical" if len(sums) == 1 else "DIFFER " + ",".join(sorted(sums))
    print(f"| {f.rsplit('/', 1)[-1]} | {m['webp-c']:.1f} | {m['zoetrope-webp']:.1f} | {m['pillow']:.1f} | "
          f"{m['zoetrope-webp']/m['webp-c']:.2f} | {m['zoetrope-webp']/m['pillow']:.2f} | "
          f"{ff['webp-c']:.2f} / {ff['zoetrope-webp']:.2f} / {ff['pillow']:.2f} | "
          f"{rss['webp-c']:.1f} / {rss['zoetrope-webp']:.1f} / {rss['pillow']:.1f} | {same} |")
print()
print("CPU time (frames per CPU-second of the whole process, median; less sensitive to other load):")
print("| input | C ref | Zoetrope | Pillow | Zoetrope/C | Zoetrope/Pillow |")
print("|---|---:|---:|---:|---:|---:|")
for f in files:
    c = {d: med(f, d, lambda r: r["frames"] * r["loops"] / max(r["cpu_s"], 1e-9)) for d in decoders}
    print(f"| {f.rsplit('/', 1)[-1]} | {c['webp-c']:.1f} | {c['zoetrope-webp']:.1f} | {c['pillow']:.1f} | "
          f"{c['zoetrope-webp']/c['webp-c']:.2f} | {c['zoetrope-webp']/c['pillow']:.2f} |")
PY

echo
echo "== seeking: decodeFrame(at: t) after sitting on another random frame, vs decoding key(t)…t and 0…t one by one (medians, ms)"
for s in $SETS; do "$WORK/bench-webp" --seek "$SEEKS" "$IN/$s.webp"; done

# Instructions executed (valgrind's callgrind): a count that does not move with the load
# other programs put on the machine. Per loop = (count at K2 loops - count at K1 loops) /
# (K2 - K1), so process start-up (Swift runtime vs plain C) cancels out; big.webp runs
# one loop only (start-up is noise next to 60 1080p frames). INSTR=0 skips this.
if [[ "${INSTR:-1}" == 1 ]] && command -v valgrind >/dev/null; then
  declare -A IK=([small]="2 12" [timer]="1 3" [big]="1")
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : *//p'; }
  echo
  echo "== instructions executed per decode of every frame (callgrind)"
  echo "| input | C ref | Zoetrope | Zoetrope/C |"
  echo "|---|---:|---:|---:|"
  for s in $SETS; do
    f="$IN/$s.webp"
    read -r k1 k2 <<<"${IK[$s]:-1}"
    if [[ -n "${k2:-}" ]]; then
      c=$(( ($(count "$WORK/ref/webp_anim" -k "$k2" "$f") - $(count "$WORK/ref/webp_anim" -k "$k1" "$f")) / (k2 - k1) ))
      z=$(( ($(count "$WORK/bench-webp" -k "$k2" "$f") - $(count "$WORK/bench-webp" -k "$k1" "$f")) / (k2 - k1) ))
    else
      c=$(count "$WORK/ref/webp_anim" -k 1 "$f"); z=$(count "$WORK/bench-webp" -k 1 "$f")
    fi
    python3 -c "print(f'| $s.webp | {$c:,} | {$z:,} | {$z/$c:.2f} |')"
  done
fi
