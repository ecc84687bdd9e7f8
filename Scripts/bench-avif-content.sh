#!/usr/bin/env bash
# aom's screen-content tools against its default tuning: for each input and quality, the
# bytes, the pooled PSNR against the source (zoetrope compare) and the CPU seconds (user +
# system) of one `zoetrope convert` per tuning. Docs/Benchmarks.md, "AVIF of palette sources".
#   bash Scripts/bench-avif-content.sh /tmp/animbench/small.gif [more inputs...]
#   QUALITIES="70 lossless" SPEED=6 bash Scripts/bench-avif-content.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product zoetrope >/dev/null
zoetrope=.build/release/zoetrope
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for input in "$@"; do
  for q in ${QUALITIES:-50 60 70 80 90 lossless}; do
    for content in natural screen; do
      file="$out/$content.avif"
      if [ "$q" = lossless ]; then quality=(--lossless); else quality=(--quality "$q"); fi
      cpu=$( { /usr/bin/time -f "%U %S" "$zoetrope" convert "$input" "$file" --format avif "${quality[@]}" \
               --speed "${SPEED:-6}" --content "$content" --quiet >/dev/null; } 2>&1 | tail -1 | awk '{print $1 + $2}')
      # compare exits 1 when the two differ, as a lossy file does.
      psnr=$({ "$zoetrope" compare "$input" "$file" --json || true; } | python3 -c "import json, sys; print(json.load(sys.stdin)['pooledPSNR'])")
      echo "$(basename "$input") q=$q $content bytes=$(stat -c %s "$file") psnr=$psnr cpu=$cpu"
    done
  done
done
