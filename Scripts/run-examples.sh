#!/usr/bin/env bash
# Builds the examples (Examples/, one executable per playing pattern), writes their fixtures
# with the project's own encoders, runs each headless and checks what it prints.
#
#   Scripts/run-examples.sh            # after Scripts/setup.sh; PATH must reach swift
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

examples=(MakeExampleFixtures DisplayLinkPlayer FrameCallbackPlayer StillOrAnimatedView FixedIntervalPlayer ReusableCellView AppViewSample
          PlayWhileDownloading LoadingViewSample)   # LoadingViewSample is built only: it needs an HTTP server (ZoetropeLoadingTests runs it)
for e in "${examples[@]}"; do
  swift build --product "$e" 2>&1 | tee -a /tmp/zoetrope-examples-build.log | grep -E "warning:|error:" && {
    echo "run-examples: building $e printed warnings or errors" >&2; exit 1; }
done
bin=$(swift build --show-bin-path)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin/MakeExampleFixtures" "$dir"

failures=0
# check NAME OUTPUT LINE...: every LINE must appear in OUTPUT as a whole line.
check() {
  local name=$1 output=$2; shift 2
  for line in "$@"; do
    if ! grep -qxF -- "$line" <<<"$output"; then
      echo "run-examples: $name did not print: $line" >&2
      failures=$((failures + 1))
    fi
  done
  echo "run-examples: $name ok ($(wc -l <<<"$output") lines)"
}

out=$("$bin/DisplayLinkPlayer" "$dir/animated.png")
check DisplayLinkPlayer "$out" \
  "frame 3: stored 10.5 ms, browser 10.5 ms, imageIO 100 ms" \
  "preferred refresh: 10 Hz (tick 100 ms)" \
  "clock's preferred refresh while playing: 10 Hz" \
  "t=0 ms: frame 0" "t=100 ms: frame 1" "t=300 ms: frame 2" "t=400 ms: frame 3" "t=500 ms: frame 0" "t=900 ms: frame 3" \
  "finished, resting on the last frame" \
  "state finished, plays completed 2" \
  "low power: state showingPoster, frame 0"

out=$("$bin/FrameCallbackPlayer" "$dir/animated.png")
check FrameCallbackPlayer "$out" \
  "frame 0: 8×8, centre RGBA [255, 0, 0, 255]" \
  "frame 3: 8×8, centre RGBA [255, 255, 255, 255]" \
  "finished after 2 plays"
[ "$(grep -c '^frame ' <<<"$out")" = 8 ] || { echo "run-examples: FrameCallbackPlayer did not deliver 8 frames" >&2; failures=$((failures + 1)); }

out=$("$bin/StillOrAnimatedView" "$dir/animated.png" "$dir/still.png" "$dir/animated.png")
check StillOrAnimatedView "$out" \
  "animated.png: animation of 4 frames, playing; on show: frame 0, 5 animation frames shown so far" \
  "still.png: still 8×8; on show: the still" \
  "animated.png: animation of 4 frames, playing; on show: frame 0, 10 animation frames shown so far"

out=$("$bin/FixedIntervalPlayer" "$dir/animated.png")
check FixedIntervalPlayer "$out" \
  "name: 4 frames, interval 100 ms, frames [0, 1, 1, 2, 3], one play 500 ms" \
  "data: 4 frames, interval 100 ms, frames [0, 1, 1, 2, 3], one play 500 ms" \
  "url: 4 frames, interval 100 ms, frames [0, 1, 1, 2, 3], one play 500 ms" \
  "missing: no resource named 'no-such-image' in the bundle at $dir (tried .gif, .png, .apng, .webp, .avif, .avifs, .jpg, .jpeg, .jpe, .jfif, .jif)"

out=$("$bin/ReusableCellView" "$dir/animated.png" "$dir/still.png")
check ReusableCellView "$out" \
  "row 0 animated.png: animating true, frame 1" \
  "row 0 animated.png: stopped, animating false, frame 1" \
  "row 0 animated.png: resumed, animating true, frame 2" \
  "row 0 reused: player released, display empty" \
  "row 1 still.png: animating false, frame still" \
  "row 1 reused: player released, display empty"

# The app view sample: a @MainActor view shown frames through the shared clock.
# Its first line is "<frames shown in 1 s> <isAnimating>": 2 plays of 410.5 ms end within
# the second on an idle machine ("8 false"); only the shape is checked, as it is timing.
out=$("$bin/AppViewSample" "$dir/animated.png")
check AppViewSample "$out" \
  "0 100 ms 8×8" "1 200 ms 8×8" "2 100 ms 8×8" "3 10.5 ms 8×8" \
  "unrecognized image format (no registered coder matches the content; first bytes: 6e 6f 74 20 61 6e 20 69)"
grep -qE '^[1-9][0-9]* (true|false)$' <<<"$(head -1 <<<"$out")" || {
  echo "run-examples: AppViewSample showed no frame on the main actor" >&2; failures=$((failures + 1)); }
grep -qE '^10 ms \[0, 0, .*, 3, 3\]$' <<<"$out" || {
  echo "run-examples: AppViewSample did not print the timeline" >&2; failures=$((failures + 1)); }

# Playing while downloading, 4 bytes every 10 ms: frame 0 shows once it has arrived, the
# player waits at the download edge (each late frame then gets its whole duration), and
# the first loop comes only after the last byte.
out=$("$bin/PlayWhileDownloading" "$dir/animated.png" 4)
check PlayWhileDownloading "$out" \
  "t=0 ms: waiting for frame 0" "t=390 ms: frame 0 (1 arrived)" "t=490 ms: waiting for frame 1" \
  "t=580 ms: frame 1 (2 arrived)" "t=780 ms: frame 2 (3 arrived)" "t=880 ms: waiting for frame 3" \
  "t=890 ms: all 365 bytes in, 4 frames" "t=900 ms: frame 3 (4 arrived)" "t=920 ms: play 1 completed" \
  "t=920 ms: frame 0 (4 arrived)" "t=1330 ms: finished" "state finished, plays completed 2, stalls 3"

if [ "$failures" -gt 0 ]; then
  echo "run-examples: $failures expected line(s) missing" >&2
  exit 1
fi
echo "run-examples: all ${#examples[@]} examples built and ran as expected"
