#!/usr/bin/env bash
# Every fast path against the plain path, in the same run: for each path and each bench
# input it applies to, zoetrope-decode-bench (release) runs with the standard tuning and
# with that one path switched off (--plain PATH); then, for inputs below a path's size
# threshold, with the threshold at zero (--force PATH) against the standard tuning, which
# shows what the threshold keeps out. Variants alternate, one process per run; the table
# gives the medians, the gain (plain / fast: above 1, the path pays) and CPU.
# Docs/Benchmarks.md, "Fast paths against the plain path".
#
#   Scripts/bench-fast-paths.sh                 # opens map the file, as AnimatedImage(contentsOf:) does
#   ROUNDS=11 PATHS="gif-two-step first-frame-beside-walk" Scripts/bench-fast-paths.sh
#
# Environment:
#   IN      the bench inputs (default /tmp/animbench; make them with
#           python3 ../shared/bench/gen_inputs.py /tmp/animbench timer small big)
#   ROUNDS  runs of each variant (default 7)
#   PATHS   the paths to measure (default: all of them; parallel-color runs on copies of
#           timer/small/big.png with an Adobe RGB iCCP, made in WORK)
#   WORK    scratch directory (default: a new /tmp/bench-fast-paths.XXXXXX, kept: raw JSON)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
IN="${IN:-/tmp/animbench}"
ROUNDS="${ROUNDS:-7}"
PATHS="${PATHS:-gif-two-step first-frame-beside-walk gif-parallel-scan avif-second-thread bulk-workers parallel-color}"
WORK="${WORK:-$(mktemp -d /tmp/bench-fast-paths.XXXXXX)}"
mkdir -p "$WORK"
export PATH="/opt/swift/usr/bin:$PATH"

# use|path|input|how|metric: use "uses" (as the standard tuning takes it) or "below" (under
# its threshold, forced); "open STOP" times one open (--open), "bulk K" a bulk run of K loops.
cases=(
    "uses|gif-two-step|big.gif|open first|first_frame_ms"
    "uses|gif-two-step|timer.gif|open first|first_frame_ms"
    "uses|first-frame-beside-walk|big.png|open first|first_frame_ms"
    "uses|gif-parallel-scan|big.gif|open info|info_ms"
    "uses|avif-second-thread|big.avif|open all|all_ms"
    "uses|bulk-workers|timer.gif|bulk 5|decode_s"
    "uses|bulk-workers|timer.png|bulk 5|decode_s"
    "uses|bulk-workers|timer.webp|bulk 5|decode_s"
    "uses|bulk-workers|big.gif|bulk 1|decode_s"
    "uses|bulk-workers|big.png|bulk 1|decode_s"
    "uses|bulk-workers|big.webp|bulk 1|decode_s"
    "below|gif-two-step|small.gif|open first|first_frame_ms"
    "below|gif-parallel-scan|timer.gif|open info|info_ms"
    "below|first-frame-beside-walk|timer.png|open first|first_frame_ms"
    "below|avif-second-thread|timer.avif|open all|all_ms"
    "below|bulk-workers|small.gif|bulk 50|decode_s"
    "below|bulk-workers|small.png|bulk 50|decode_s"
    "below|bulk-workers|small.webp|bulk 50|decode_s"
    # Tagged copies (an Adobe RGB iCCP, Scripts/chromium-colour.py --tag), made in $WORK.
    "uses|parallel-color|timer-adobe.png|open all|all_ms"
    "uses|parallel-color|big-adobe.png|open all|all_ms"
    "uses|parallel-color|big-adobe.png|bulk 1|decode_s"
    "below|parallel-color|small-adobe.png|open all|all_ms"
)

for c in "${cases[@]}"; do
    IFS='|' read -r _ _ input _ _ <<<"$c"
    input=${input/-adobe/}
    [[ -s "$IN/$input" ]] || { echo "missing $IN/$input: python3 ../shared/bench/gen_inputs.py $IN timer small big" >&2; exit 1; }
done
for name in timer small big; do
    [[ " $PATHS " == *" parallel-color "* ]] || break
    python3 "$ROOT/Scripts/chromium-colour.py" --tag "$IN/$name.png" "$WORK/$name-adobe.png"
done

echo "== building zoetrope-decode-bench (release)" >&2
(cd "$ROOT" && swift build -c release --product zoetrope-decode-bench 2>&1 | grep -E "error|warning:" >&2 || true)
Z="$ROOT/.build/release/zoetrope-decode-bench"
[[ -x "$Z" ]] || { echo "zoetrope-decode-bench did not build" >&2; exit 1; }

RESULTS="$WORK/results.jsonl"
: >"$RESULTS"
echo "== $ROUNDS rounds, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start" >&2
for c in "${cases[@]}"; do
    IFS='|' read -r use path input how metric <<<"$c"
    [[ " $PATHS " == *" $path "* ]] || continue
    read -r kind arg <<<"$how"
    if [[ "$kind" == open ]]; then args=(--open "$arg" --mmap); else args=(--bulk -k "$arg"); fi
    for ((r = 0; r < ROUNDS; r++)); do
        # The order alternates, so neither variant always runs first.
        if ((r % 2 == 0)); then variants=(fast plain); else variants=(plain fast); fi
        for v in "${variants[@]}"; do
            tuning=()
            [[ "$use" == uses && "$v" == plain ]] && tuning=(--plain "$path")
            [[ "$use" == below && "$v" == fast ]] && tuning=(--force "$path")
            file="$IN/$input"
            [[ "$input" == *-adobe.png ]] && file="$WORK/$input"
            line=$("$Z" "${args[@]}" "${tuning[@]}" "$file" | tail -1)
            echo "{\"case\":\"$use|$path|$input|$how\",\"variant\":\"$v\",\"metric\":\"$metric\",\"result\":$line}" >>"$RESULTS"
        done
    done
    echo "   $use $path $input done" >&2
done
echo "== load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; raw JSON: $RESULTS" >&2

python3 - "$RESULTS" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    r = d["result"]
    value = r[d["metric"]]
    if d["metric"] == "decode_s":
        value = value / r["loops"] * 1e3  # ms per loop
    cpu = r.get("loop_cpu_s", r.get("cpu_s"))
    if d["metric"] == "decode_s":
        cpu = cpu / r["loops"]
    rows.setdefault(d["case"], {"metric": d["metric"]}).setdefault(d["variant"], []).append((value, cpu))
print("| path | input | threshold | measured | fast ms | plain ms | gain | CPU ms fast / plain |")
print("|---|---|---|---|---:|---:|---:|---:|")
names = {"first_frame_ms": "first frame", "info_ms": "open to frame count", "all_ms": "every frame, in order", "decode_s": "bulk run, per loop"}
for case, v in rows.items():
    use, path, inp, _ = case.split("|")
    f = statistics.median(x for x, _ in v["fast"]); p = statistics.median(x for x, _ in v["plain"])
    cf = statistics.median(c for _, c in v["fast"]) * 1e3; cp = statistics.median(c for _, c in v["plain"]) * 1e3
    where = "above" if use == "uses" else "below (forced)"
    print(f"| {path} | {inp} | {where} | {names[v['metric']]} | {f:.1f} | {p:.1f} | {p / f:.2f}× | {cf:.0f} / {cp:.0f} |")
PY
