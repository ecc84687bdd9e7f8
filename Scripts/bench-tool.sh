#!/usr/bin/env bash
# `zoetrope bench` side by side with the reference C decoders and Pillow from
# ../shared/bench, in one run, alternating the three, ROUNDS rounds; prints the median
# frames/s of each and the ratios. Checks that the bench command measures what the
# decoder benchmarks measure (every frame to a full RGBA canvas, a fresh decoder per pass).
#
#   Scripts/bench-tool.sh [INPUT...]     (default: /tmp/animbench/{timer,small}.{gif,png,webp,avif})
#   ROUNDS=5 Scripts/bench-tool.sh
# Needs: a release build (swift build -c release), /tmp/animbench (see ../shared/bench/README.md),
# python3 with Pillow and numpy for the Pillow column (skipped when missing).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$root/../shared/bench}
rounds=${ROUNDS:-3}
tool=${TOOL:-$root/.build/release/zoetrope}
[ -x "$tool" ] || { echo "bench-tool: build first: swift build -c release" >&2; exit 2; }
ref=${REF_DIR:-/tmp/zoetrope-tool-ref}
if [ ! -x "$ref/gif_anim" ]; then
    rm -rf "$ref" && cp -r "$shared/ref" "$ref" && chmod -R u+w "$ref" && make -s -C "$ref" >/dev/null
fi
inputs=("$@")
[ ${#inputs[@]} -gt 0 ] || inputs=(/tmp/animbench/{timer,small}.{gif,png,webp,avif})
pillow=1
python3 -c "import PIL, numpy" 2>/dev/null || pillow=0

python3 - "$tool" "$ref" "$shared/pillow_decode.py" "$rounds" "$pillow" "${inputs[@]}" <<'PY'
import json, statistics, subprocess, sys
tool, ref, pillow_py, rounds, pillow, inputs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5] == "1", sys.argv[6:]
progs = {"gif": "gif_anim", "png": "apng_anim", "webp": "webp_anim", "avif": "avif_anim"}
def last_json(out):
    return json.loads([l for l in out.splitlines() if l.startswith("{")][-1])
print(f"{'input':28} {'zoetrope bench':>15} {'C ref':>10} {'Pillow':>10} {'vs C':>7} {'vs Pillow':>9}   (median fps of {rounds} rounds)")
for path in inputs:
    ext = path.rsplit(".", 1)[-1]
    z, c, p = [], [], []
    for _ in range(rounds):
        out = subprocess.run([tool, "bench", path, "--json", "--no-policies", "--min-time", "1"], capture_output=True, text=True, check=True).stdout
        z.append(json.loads(out)[0]["framesPerSecond"])
        out = subprocess.run([f"{ref}/{progs[ext]}", "-k", "20", path], capture_output=True, text=True, check=True).stdout
        c.append(last_json(out)["fps"])
        if pillow:
            out = subprocess.run(["python3", pillow_py, "-k", "5", path], capture_output=True, text=True, check=True).stdout
            p.append(last_json(out)["fps"])
    zm, cm = statistics.median(z), statistics.median(c)
    pm = statistics.median(p) if p else float("nan")
    print(f"{path:28} {zm:15.1f} {cm:10.1f} {pm:10.1f} {zm / cm:7.2f} {zm / pm:9.2f}")
PY
