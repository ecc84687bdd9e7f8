#!/usr/bin/env bash
# Colour management's cost: tagged against untagged frames/s per format, on one thread and
# on the bulk path, beside Pillow with ImageCms doing the same conversion, in one run; then
# the matrix-shaper fast path's largest difference from lcms2 over every 8-bit RGB value
# for each profile, and both conversions' speed (zoetrope-colour-bench).
# Docs/Benchmarks.md, "Colour".
#
#   Scripts/bench-colour.sh                   # 3 rounds, 1 s per measurement
#   ROUNDS=5 MIN_TIME=2 Scripts/bench-colour.sh
#
# Inputs (made in WORK, 1024×768): a 12-frame APNG untagged and with an Adobe RGB (1998)
# iCCP (Scripts/chromium-colour.py --tag); WebP and AVIF copies of both made with
# `zoetrope convert` (which keeps the profile: WebP ICCP, AVIF colr prof); a JPEG of frame 0
# untagged and with a Display P3 ICC profile (Pillow, quality 90). Needs Python 3 with
# Pillow (`pip install pillow`). Medians of ROUNDS runs, each command on the untagged file
# and at once on the tagged one; the ratio of the medians and the median of the rounds' ratios.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"
export ROUNDS="${ROUNDS:-3}" MIN_TIME="${MIN_TIME:-1}"
WORK="${WORK:-$(mktemp -d /tmp/bench-colour.XXXXXX)}"
mkdir -p "$WORK"
export WORK

echo "== building zoetrope and zoetrope-colour-bench (release)" >&2
(cd "$ROOT" && swift build -c release --product zoetrope 2>&1 | grep -E "error|warning:" >&2 || true)
(cd "$ROOT" && swift build -c release --product zoetrope-colour-bench 2>&1 | grep -E "error|warning:" >&2 || true)
export ZOETROPE="$ROOT/.build/release/zoetrope" COLOUR_BENCH="$ROOT/.build/release/zoetrope-colour-bench"
[[ -x "$ZOETROPE" && -x "$COLOUR_BENCH" ]] || { echo "the release build failed" >&2; exit 1; }
python3 -c "import PIL" 2>/dev/null || { echo "needs Pillow: pip install pillow" >&2; exit 1; }

exec python3 "$ROOT/Scripts/bench_colour.py"
