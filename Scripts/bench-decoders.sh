#!/usr/bin/env bash
# Decoding speed of every format, side by side in one run: Zoetrope (zoetrope-decode-bench,
# release build) against the reference C decoders (../shared/bench/ref, built from a copy)
# and Pillow (../shared/bench/pillow_decode.py). All three measure the same thing
# (ref/harness.h): every frame to a full RGBA canvas, a fresh decoder per loop, every frame
# checksummed the same way, so equal checksums mean identical pixels.
#
#   Scripts/bench-decoders.sh                         # small timer big × gif png webp avif
#   ROUNDS=3 INPUTS="timer" FORMATS="gif webp" Scripts/bench-decoders.sh
#
# Environment:
#   IN        inputs (default /tmp/animbench; make them with
#             OUT=/tmp/animbench bash ../shared/bench/make_inputs.sh, needs Pillow + numpy)
#   INPUTS    "small timer big"        FORMATS  "gif png webp avif"
#   ROUNDS    rounds per input (default 5); the three programs alternate in each round, in
#             an order rotated every round, and the table quotes medians
#   K_SMALL K_TIMER K_BIG   loops per process (default 50, 5, 1), the same -k for all three
#   THREADS   passed as -t to the C ref and Zoetrope (default: each decoder's own default)
#   LOAD=N    a loaded run: N busy-loop processes (`while :; do :; done`) run for the timed
#             rounds, so N cores are taken (LOAD=1 on two cores: the other core busy); the
#             table is labelled "loaded". LOAD=0 (default) is labelled "quiet", even though
#             other users of the machine are not stopped: the load average is printed too
#   BASE=path another zoetrope-decode-bench (say, a build of the previous commit) run in the
#             same rounds: a "Zoetrope base" column and an after/before ratio
#   MMAP=1    also runs Zoetrope with --mmap (a fourth column set, "zoetrope-mmap")
#   BULK=0    skips the bulk path (zoetrope-decode-bench --bulk: frame data decoded on worker
#             threads, compositing in order, at the default thread count, or BULK_THREADS);
#             by default it runs in every round beside the others and gets its own table
#   SEEKS     random seeks per input for the seek table (default 20; 0 skips it)
#   SEEK_INPUTS  inputs the seek table covers (default "small timer"; big is slow from 0)
#   CALLGRIND=1  instructions per loop (valgrind), C ref vs Zoetrope, small and timer only
#   WORK      scratch directory (default: a new /tmp/bench-decoders.XXXXXX, kept: raw JSON)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SHARED="${SHARED:-$ROOT/../shared}"
IN="${IN:-/tmp/animbench}"
INPUTS="${INPUTS:-small timer big}"
FORMATS="${FORMATS:-gif png webp avif}"
ROUNDS="${ROUNDS:-5}"
SEEKS="${SEEKS:-20}"
SEEK_INPUTS="${SEEK_INPUTS:-small timer}"
WORK="${WORK:-$(mktemp -d /tmp/bench-decoders.XXXXXX)}"
declare -A K=([small]="${K_SMALL:-50}" [timer]="${K_TIMER:-5}" [big]="${K_BIG:-1}")
declare -A REFPROG=([gif]=gif_anim [png]=apng_anim [webp]=webp_anim [avif]=avif_anim)
mkdir -p "$WORK"

for s in $INPUTS; do
  for x in $FORMATS; do
    [[ -s "$IN/$s.$x" ]] || { echo "missing $IN/$s.$x: run OUT=$IN bash $SHARED/bench/make_inputs.sh" >&2; exit 1; }
    [[ -n "${REFPROG[$x]:-}" ]] || { echo "unknown format $x (gif png webp avif)" >&2; exit 2; }
  done
done
python3 -c "import PIL, numpy" 2>/dev/null || { echo "Pillow + numpy needed: pip install pillow numpy" >&2; exit 1; }

echo "== building: zoetrope-decode-bench (release), the C references (a copy of $SHARED/bench/ref)" >&2
(cd "$ROOT" && swift build -c release --product zoetrope-decode-bench 2>&1 | grep -E "error|warning:" >&2 || true)
Z="$ROOT/.build/release/zoetrope-decode-bench"
[[ -x "$Z" ]] || { echo "zoetrope-decode-bench did not build" >&2; exit 1; }
rm -rf "$WORK/ref" && cp -r "$SHARED/bench/ref" "$WORK/ref" && chmod -R u+w "$WORK/ref"
make -s -C "$WORK/ref" >/dev/null
PILLOW="$SHARED/bench/pillow_decode.py"

tflag=()
[[ -n "${THREADS:-}" ]] && tflag=(-t "$THREADS")
RESULTS="$WORK/results.jsonl"
: > "$RESULTS"
# Context switches per process (voluntary: waits such as thread hand-offs; involuntary:
# preempted), from GNU time when it is there, added to each JSON line.
TIMECMD=()
[[ -x /usr/bin/time ]] && TIMECMD=(/usr/bin/time -f "CSW %w %c" -o "$WORK/time.txt")
run() { # [--tag NAME] program...
  local line csw tag=""
  if [[ "$1" == --tag ]]; then tag="$2"; shift 2; fi
  if line="$("${TIMECMD[@]}" "$@" | tail -1)" && [[ "$line" == "{"* ]]; then
    if [[ ${#TIMECMD[@]} -gt 0 ]] && csw="$(grep '^CSW ' "$WORK/time.txt")"; then
      read -r _ v i <<<"$csw"
      line="${line%\}},\"vcsw\":$v,\"ivcsw\":$i}"
    fi
    [[ -n "$tag" ]] && line="${line%\}},\"variant\":\"$tag\"}"
    echo "$line" >> "$RESULTS"
  else
    echo "FAILED: $*" >&2
  fi
}
LOAD="${LOAD:-0}"
LOADPIDS=()
stop_load() { if ((${#LOADPIDS[@]})); then kill "${LOADPIDS[@]}" 2>/dev/null || true; wait "${LOADPIDS[@]}" 2>/dev/null || true; LOADPIDS=(); fi; }
trap stop_load EXIT
if (( LOAD > 0 )); then
  for _ in $(seq 1 "$LOAD"); do bash -c 'while :; do :; done' & LOADPIDS+=($!); done
  sleep 1
fi
RUNLABEL="quiet"
(( LOAD > 0 )) && RUNLABEL="loaded ($LOAD busy-loop process(es) on $(nproc) cores)"
progs=(c zt py)
[[ "${BULK:-1}" == 1 ]] && progs+=(ztb)
bflag=()
[[ -n "${BULK_THREADS:-}" ]] && bflag=(-t "$BULK_THREADS")
[[ "${MMAP:-0}" == 1 ]] && progs+=(ztm)
if [[ -n "${BASE:-}" ]]; then
  [[ -x "$BASE" ]] || { echo "BASE=$BASE is not an executable" >&2; exit 1; }
  progs+=(ztbase)
fi
LOADSTART="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $RUNLABEL: $ROUNDS rounds; inputs: $INPUTS; formats: $FORMATS; load: $LOADSTART" >&2
for r in $(seq 1 "$ROUNDS"); do
  for s in $INPUTS; do
    k="${K[$s]:-3}"
    for x in $FORMATS; do
      f="$IN/$s.$x"
      n=${#progs[@]}
      for i in $(seq 0 $((n - 1))); do
        case ${progs[$(( (i + r) % n ))]} in
          c)   run "$WORK/ref/${REFPROG[$x]}" -k "$k" "${tflag[@]}" "$f" ;;
          zt)  run "$Z" -k "$k" "${tflag[@]}" "$f" ;;
          ztm) run "$Z" -k "$k" "${tflag[@]}" --mmap "$f" ;;
          ztb) run "$Z" -k "$k" "${bflag[@]}" --bulk "$f" ;;
          ztbase) run --tag base "$BASE" -k "$k" "${tflag[@]}" "$f" ;;
          py)  run python3 "$PILLOW" -k "$k" "$f" ;;
        esac
      done
    done
  done
  echo "  round $r/$ROUNDS done ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))" >&2
done
LOADEND="$(cut -d' ' -f1-3 /proc/loadavg)"
stop_load

SEEKLOG="$WORK/seek.jsonl"
: > "$SEEKLOG"
if (( SEEKS > 0 )); then
  echo "== seeking: $SEEKS random targets per input" >&2
  for s in $SEEK_INPUTS; do
    [[ " $INPUTS " == *" $s "* ]] || continue
    for x in $FORMATS; do run_seek=$("$Z" --seek "$SEEKS" "${tflag[@]}" "$IN/$s.$x") && echo "$run_seek" >> "$SEEKLOG"; done
  done
fi

CGLOG="$WORK/callgrind.txt"
: > "$CGLOG"
if [[ "${CALLGRIND:-0}" == 1 ]]; then
  command -v valgrind >/dev/null || { echo "CALLGRIND=1 needs valgrind" >&2; exit 1; }
  echo "== callgrind: instructions per loop (count at 3 loops - count at 1 loop) / 2" >&2
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : *//p'; }
  for s in $INPUTS; do
    [[ "$s" == big ]] && continue
    for x in $FORMATS; do
      f="$IN/$s.$x"
      c=$(( ($(count "$WORK/ref/${REFPROG[$x]}" -k 3 -t 1 "$f") - $(count "$WORK/ref/${REFPROG[$x]}" -k 1 -t 1 "$f")) / 2 ))
      z=$(( ($(count "$Z" -k 3 -t 1 "$f") - $(count "$Z" -k 1 -t 1 "$f")) / 2 ))
      echo "$s.$x $c $z" >> "$CGLOG"
    done
  done
fi

python3 - "$RESULTS" "$SEEKLOG" "$CGLOG" "$RUNLABEL" "$LOADSTART" "$LOADEND" <<'PY'
import json, os, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
seeks = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
cg = [l.split() for l in open(sys.argv[3]) if l.strip()]

def who(r):
    d = r["decoder"]
    if d.endswith("-c"): return "c"
    if d == "pillow": return "pil"
    if r.get("variant") == "base": return "zbase"
    if r.get("bulk"): return "zb"
    return "zm" if r.get("mmap") else "z"

def per_loop_cpu(r):
    # Zoetrope: its loops only (loop_cpu_s); Pillow's cpu_s counts its loops only; the C
    # programs' cpu_s is the whole process, whose start-up is well under a millisecond.
    return r.get("loop_cpu_s", r["cpu_s"]) / r["loops"]

files = []
by = {}
for r in rows:
    f = r["file"]
    if f not in files: files.append(f)
    by.setdefault((f, who(r)), []).append(r)
med = lambda rs, key: statistics.median(key(r) for r in rs)
cols = [c for c in ("c", "zbase", "z", "zm", "pil") if any(k[1] == c for k in by)]
names = {"c": "C ref", "zbase": "Zoetrope base", "z": "Zoetrope", "zm": "Zoetrope mmap", "pil": "Pillow"}

print()
print(f"Run: {sys.argv[4]}; load average at start {sys.argv[5]}, at end {sys.argv[6]}.")
print("Medians of %d rounds; fps = frames decoded per wall-clock second (K loops), cpu = CPU ms per loop"
      % max((len(v) for v in by.values()), default=0))
print("(one decode of every frame), rss = peak resident MiB of the process, 1st frame = cold time to")
print("the first frame in a fresh process (read + open + decode). Z/C and Z/Pil:")
print("fps ratios (above 1: Zoetrope faster); cpu Z/C: CPU ratio (below 1: Zoetrope cheaper).")
print()
base = "zbase" in cols
hdr = "| input | K | " + " | ".join(f"{names[c]} fps" for c in cols) + (" | base/C | Z/base" if base else "") + " | Z/C | Z/Pil | cpu ms C / Z / Pil | cpu Z/C | rss MiB C / Z / Pil | 1st frame ms C / Z / Pil | checksums |"
print(hdr)
print("|" + "---|" * (hdr.count("|") - 1))
for f in files:
    g = {c: by.get((f, c), []) for c in cols}
    if not all(g.get(c) for c in ("c", "z", "pil")):
        print(f"| {os.path.basename(f)} | missing runs: " + ", ".join(c for c in ("c", "z", "pil") if not g.get(c)) + " |")
        continue
    fps = {c: med(g[c], lambda r: r["fps"]) for c in cols if g[c]}
    cpu = {c: med(g[c], per_loop_cpu) * 1e3 for c in cols if g[c]}
    rss = {c: med(g[c], lambda r: r["maxrss_kb"]) / 1024 for c in cols if g[c]}
    first = {c: med(g[c], lambda r: r["first_frame_ms"]) for c in cols if g[c]}
    sums = {c: {r["checksum"] for r in g[c]} for c in cols if g[c]}
    if all(s == sums["c"] and len(s) == 1 for s in sums.values()):
        same = "identical"
    elif sums["z"] == sums["c"] and len(sums["c"]) == 1:
        same = "C = Zoetrope; Pillow differs"
    elif sums["z"] == sums["pil"] and len(sums["z"]) == 1:
        same = "Zoetrope = Pillow; C differs"
    else:
        same = "DIFFER " + " ".join(f"{c}:{','.join(sorted(v))}" for c, v in sums.items())
    print(f"| {os.path.basename(f)} | {g['z'][0]['loops']} | " + " | ".join(f"{fps[c]:.1f}" for c in cols)
          + (f" | {fps['zbase'] / fps['c']:.2f} | {fps['z'] / fps['zbase']:.2f}" if base and "zbase" in fps else " | – | –" if base else "")
          + f" | {fps['z'] / fps['c']:.2f} | {fps['z'] / fps['pil']:.2f}"
          + f" | {cpu['c']:.2f} / {cpu['z']:.2f} / {cpu['pil']:.2f} | {cpu['z'] / cpu['c']:.2f}"
          + f" | {rss['c']:.1f} / {rss['z']:.1f} / {rss['pil']:.1f}"
          + f" | {first['c']:.2f} / {first['z']:.2f} / {first['pil']:.2f} | {same} |")

if any("vcsw" in r for r in rows):
    print()
    print("Threads asked for (-t; -1 = the decoder's default, the C ref's is the CPUs in its affinity mask)")
    print("and context switches per process (GNU time, medians): voluntary = waits (thread hand-offs,")
    print("I/O), involuntary = preempted. A decoder with more runnable threads gets more CPU time on")
    print("a loaded machine, so compare fps ratios only between equal thread counts.")
    print()
    print("| input | threads C / Z | voluntary C / Z | involuntary C / Z |")
    print("|---|---|---|---|")
    for f in files:
        g = {c: [r for r in by.get((f, c), []) if "vcsw" in r] for c in ("c", "z")}
        if not all(g.values()): continue
        print(f"| {os.path.basename(f)} | {g['c'][0]['threads']} / {g['z'][0]['threads']}"
              f" | {med(g['c'], lambda r: r['vcsw']):.0f} / {med(g['z'], lambda r: r['vcsw']):.0f}"
              f" | {med(g['c'], lambda r: r['ivcsw']):.0f} / {med(g['z'], lambda r: r['ivcsw']):.0f} |")

if "zm" in cols:
    print()
    print("Zoetrope --mmap (the file mapped, Data .alwaysMapped, instead of read; mapped pages that")
    print("were touched count in the peak RSS as well):")
    print()
    print("| input | fps | vs C | vs read | cpu ms | rss MiB | 1st frame ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for f in files:
        g = {c: by.get((f, c), []) for c in ("c", "z", "zm")}
        if not all(g.values()): continue
        fz = med(g["zm"], lambda r: r["fps"])
        print(f"| {os.path.basename(f)} | {fz:.1f} | {fz / med(g['c'], lambda r: r['fps']):.2f} | {fz / med(g['z'], lambda r: r['fps']):.2f}"
              f" | {med(g['zm'], per_loop_cpu) * 1e3:.2f} | {med(g['zm'], lambda r: r['maxrss_kb']) / 1024:.1f}"
              f" | {med(g['zm'], lambda r: r['first_frame_ms']):.2f} |")

if any(k[1] == "zb" for k in by):
    print()
    print("Bulk path (zoetrope-decode-bench --bulk: GIF/PNG/WebP frame data decoded on worker threads,")
    print("compositing in order; AVIF decodes one frame after another as in the one-frame path), same rounds:")
    print()
    print("| input | threads | bulk fps | vs C | vs Zoetrope 1-frame | vs Pillow | cpu ms | rss MiB | checksum = C |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for f in files:
        g = {c: by.get((f, c), []) for c in ("c", "z", "zb", "pil")}
        if not all(g.values()): continue
        fb = med(g["zb"], lambda r: r["fps"])
        same = {r["checksum"] for r in g["zb"]} == {r["checksum"] for r in g["c"]}
        print(f"| {os.path.basename(f)} | {g['zb'][0]['threads']} | {fb:.1f} | {fb / med(g['c'], lambda r: r['fps']):.2f}"
              f" | {fb / med(g['z'], lambda r: r['fps']):.2f} | {fb / med(g['pil'], lambda r: r['fps']):.2f}"
              f" | {med(g['zb'], per_loop_cpu) * 1e3:.2f} | {med(g['zb'], lambda r: r['maxrss_kb']) / 1024:.1f}"
              f" | {'yes' if same else 'NO'} |")

zfloor = [r["rss_start_kb"] for r in rows if who(r) in ("z", "zm") and r.get("rss_start_kb", -1) > 0]
if zfloor:
    print()
    print(f"Zoetrope's process floor before reading any file (Swift runtime + Foundation): "
          f"{statistics.median(zfloor) / 1024:.1f} MiB (rss_start_kb, median).")

# GIF peak memory: the whole file in memory + 3 canvases (composited, previous-disposal
# save, caller's buffer) + 16 MiB of slack must hold the peak.
for f in files:
    if os.path.basename(f) != "big.gif": continue
    for c in ("z", "zm"):
        zs = by.get((f, c), [])
        if not zs: continue
        canvas_kb = zs[0]["w"] * zs[0]["h"] * 4 / 1024
        budget = os.path.getsize(f) / 1024 + 3 * canvas_kb + 16 * 1024
        peak = max(r["maxrss_kb"] for r in zs)
        floor = min(r["rss_start_kb"] for r in zs)
        print()
        print(f"GIF peak memory ({names[c]}, big.gif, {os.path.getsize(f) / 2**20:.1f} MiB file, "
              f"{zs[0]['w']}x{zs[0]['h']} canvas): peak RSS {peak / 1024:.1f} MiB (max of {len(zs)} runs), "
              f"{(peak - floor) / 1024:.1f} MiB above the process floor of {floor / 1024:.1f} MiB; "
              f"budget file + 3 canvases + 16 MiB = {budget / 1024:.1f} MiB: "
              + ("within" if peak <= budget else "OVER") + ".")

if seeks:
    print()
    print("Random access (zoetrope-decode-bench --seek): decodeFrame(at: t) after sitting on another")
    print("random frame, vs a fresh source decoding 0...t; best of 3 per target, medians in ms.")
    print()
    print("| input | frames | key frames | seeks | seek ms | from frame 0 ms | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for s in seeks:
        kf = s["key_frames"] if s["key_frames"] is not None else "–"
        print(f"| {os.path.basename(s['file'])} | {s['frames']} | {kf} | {s['seeks']} | {s['seek_median_ms']:.2f} | "
              f"{s['from_start_median_ms']:.2f} | {s['speedup']:.1f}× |")

if cg:
    print()
    print("Instructions per loop (callgrind, -t 1, (3 loops − 1 loop) / 2: start-up cancels out):")
    print()
    print("| input | C ref | Zoetrope | Z/C |")
    print("|---|---:|---:|---:|")
    for name, c, z in cg:
        print(f"| {name} | {int(c):,} | {int(z):,} | {int(z) / int(c):.2f} |")
PY
echo
echo "raw JSON lines: $RESULTS"
