#!/usr/bin/env bash
# Multi-player benchmark: 1, 8, 32, 64 players of the demo at 60 Hz on the TimerClock for
# 10 s each, of one image (shared frame cache) and of distinct images.
# Source: Benchmarks/ZoetropePlayerBench (the zoetrope-player-bench product).
# Usage: Scripts/bench-player.sh [--seconds S] [--players 1,8,32,64] [--workers N]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product zoetrope-player-bench >/dev/null
exec .build/release/zoetrope-player-bench "$@"
