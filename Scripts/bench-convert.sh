#!/usr/bin/env bash
# Conversion benchmark: `zoetrope convert` side by side with the tools people use, in one run,
# on the same inputs: output bytes, wall time, peak memory (max RSS) and PSNR against the
# source frames (every output decoded by Zoetrope, frames aligned by time, RGBA premultiplied).
#
#   Scripts/bench-convert.sh                       # inputs from $IN (default /tmp/animbench)
#   IN=/tmp/animbench ROUNDS=3 Scripts/bench-convert.sh
#   SETS="timer small" Scripts/bench-convert.sh    # skip the 1920x1080 input
#   EXTRAS=0 SETS=big ROUNDS=1 Scripts/bench-convert.sh   # only big.gif (no photo12, no corpus)
#   TASKS="webp gif" Scripts/bench-convert.sh     # only GIF→WebP lossless and GIF→GIF races
#   TASKS=gifcurve Scripts/bench-convert.sh       # lossy GIF against gifsicle along both curves
#
# Inputs: ../shared/bench/make_inputs.sh makes timer/big/small.{gif,png,webp,avif}; this script
# also cuts 12 frames of big.png down to 480x270 ("photo12", photographic frames for GIF
# output) and converts every animated GIF of the visible corpus (../shared/corpus).
# Tools (Debian): webp (gif2webp, img2webp), libavif-bin (avifenc), imagemagick, gifsicle,
# ffmpeg; Python 3 with Pillow, numpy and pyvips (`pip install pyvips-binary pyvips`: the
# libvips sharp's users get). Times and CPU (user + system) are medians of ROUNDS runs,
# commands alternating.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
IN="${IN:-/tmp/animbench}"
ROUNDS="${ROUNDS:-3}"
SETS="${SETS:-timer big small}"
CORPUS="${CORPUS:-$HERE/../shared/corpus}"
WORK="$(mktemp -d /tmp/bench-convert.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

# The tool as it would be shipped: the Swift runtime linked in, so that its start-up (half
# of a small conversion otherwise) is not what the table compares (Docs/CLI.md).
(cd "$HERE" && swift build -c release --product zoetrope --static-swift-stdlib --scratch-path "$HERE/.build/static" >/dev/null)
TOOL="$HERE/.build/static/release/zoetrope"
for t in gif2webp img2webp avifenc gifsicle ffmpeg /usr/bin/convert; do
  command -v "$t" >/dev/null || { echo "bench-convert: $t missing (apt install webp libavif-bin imagemagick gifsicle ffmpeg)" >&2; exit 1; }
done
python3 -c 'import PIL, numpy, pyvips' || { echo "bench-convert: needs Pillow, numpy and pyvips (pip install pyvips-binary pyvips)" >&2; exit 1; }

exec python3 "$HERE/Scripts/bench_convert.py" "$TOOL" "$IN" "$WORK" "$ROUNDS" "$CORPUS" $SETS
