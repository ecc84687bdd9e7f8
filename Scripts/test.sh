#!/usr/bin/env bash
# Sets up a fresh Debian machine (as root) and runs every test: the suites that use threads
# under the thread sanitizer first (its own build in .build/tsan), then the whole suite
# without it (whose summary is the last line).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bash Scripts/setup.sh
if swift build --build-tests 2>&1 | tee /tmp/zoetrope-build.log | grep -E "warning:|error:"; then
  echo "the build printed warnings or errors (full log: /tmp/zoetrope-build.log)" >&2
  exit 1
fi
# The thread-sanitizer pass runs the suites whose code runs on more than one thread: the core
# (player, clocks, buffers, shared cache), the codecs (bulk and incremental decoding, the
# pipelines) and loading. It skips, with reason: the tool's tests (command-line parsing and
# output around the same decoding and encoding paths the codec suites run), the corpus conformance and the fuzz
# regressions (hundreds of files decoded the same way the codec suites decode on threads;
# most of a whole-suite TSan pass's time), and the zero-drift soak (1,000 loops on one thread
# with a ManualClock). All of them run in the plain pass below.
swift test --sanitize=thread --scratch-path .build/tsan \
  --skip 'ZoetropeCLITests\.|ZoetropeConformanceTests\.|ZoetropeFuzzTests\.|zeroDrift'
swift test
