#!/usr/bin/env bash
# Sets up a fresh Debian machine (as root) and runs every test: the player's tests under
# the thread sanitizer first, then the whole suite (whose summary is the last line).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bash Scripts/setup.sh
if swift build --build-tests 2>&1 | tee /tmp/zoetrope-build.log | grep -E "warning:|error:"; then
  echo "the build printed warnings or errors (full log: /tmp/zoetrope-build.log)" >&2
  exit 1
fi
# The zero-drift test replays 1,000 loops at four refresh rates: minutes under TSan, and
# it exercises no thread that the other player tests do not.
swift test --sanitize=thread --scratch-path .build/tsan --filter "Playback|Buffering" --skip zeroDrift
swift test
