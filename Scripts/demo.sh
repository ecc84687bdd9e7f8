#!/usr/bin/env bash
# Sets up a fresh Debian machine (as root) and runs the tool's main job on the built-in demo.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bash Scripts/setup.sh
swift build -c release --product zoetrope
.build/release/zoetrope info --demo
.build/release/zoetrope frames --demo --output "${1:-/tmp/zoetrope-demo}"
echo "wrote the demo's frames to ${1:-/tmp/zoetrope-demo}"
# The main job: play it. In a terminal: space pauses, ←/→ step, +/− speed, q quits.
# Not a terminal (piped, CI): plays once and prints a summary.
.build/release/zoetrope play --demo
