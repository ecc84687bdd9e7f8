#!/usr/bin/env bash
# Fails on any swift-format finding in Sources/ and Tests/ (the configuration is
# .swift-format at the root; `swift format format -i -p -r Sources Tests` fixes what it can).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift format lint --strict --parallel --recursive Sources Tests
echo "check-format: Sources/ and Tests/ are formatted"
