#!/usr/bin/env bash
# Sets up a fresh Debian machine (as root) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bash Scripts/setup.sh
swift build --build-tests 2>&1 | tee /tmp/zoetrope-build.log | grep -E "warning:|error:" && { echo "build printed warnings or errors" >&2; exit 1; } || true
swift test
