#!/usr/bin/env bash
# Sets up a fresh Debian machine (as root) and runs every test: the suites that use threads
# under the thread sanitizer first (its own build in .build/tsan), then the whole suite
# without it. Each pass runs its tests in groups, one process per group; the last lines are
# every group's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bash Scripts/setup.sh
if swift build --build-tests 2>&1 | tee /tmp/zoetrope-build.log | grep -E "warning:|error:"; then
  echo "the build printed warnings or errors (full log: /tmp/zoetrope-build.log)" >&2
  exit 1
fi

# The tests that talk to a server on loopback run in a process of their own. On Linux,
# URLSession's transfers and callbacks and Process's exit notices run on Dispatch's global
# pool, a few threads on a 2-core machine; the tool's end-to-end tests and the long
# synchronous suites hold those threads for minutes on a busy machine, and a download that
# waits behind them meets its inactivity timeout. Every suite that starts a
# LoopbackHTTPServer or loads a URL belongs here (checked below).
network='ZoetropeLoadingTests\.|ZoetropeCodecsTests\.(LoadingTests|DisplayOwnershipTests|TypedErrorAndCancellationTests)/|ZoetropeTestSupportTests\.LoopbackHTTPServerTests/'
# The tool's end-to-end tests (each runs the binary and waits for it) run in a third.
tool='ZoetropeCLITests\.'
# The busy-machine scenarios spin a thread on every core until their main-actor scenarios
# end. Beside the rest of a pass they wait behind its tests for the main actor and the
# pool, spinning all the while: the whole pass then ran at half speed for as long as it
# lasted (12 to 30 minutes under the thread sanitizer). Alone they take seconds.
busy='BusyMachineTests/|/theSampleViewGetsItsFramesInOrderWhileEveryCoreIsBusy'

summaries=/tmp/zoetrope-test-summaries.log
: > "$summaries"
run() {
  local label=$1; shift
  echo "=== $label"
  swift test "$@" 2>&1 | tee /tmp/zoetrope-test-run.log
  grep -E "^. Test run with" /tmp/zoetrope-test-run.log | sed "s/^/$label: /" >> "$summaries" || true
}

# Every suite outside the loading and tool targets that starts a server or loads a URL is
# one the network group names.
misplaced=$(awk '
  FNR == 1 { suite = "" }
  match($0, /^(@[A-Za-z]+ )*@Suite[^{]* struct [A-Za-z0-9_]+/) {
    line = substr($0, RSTART, RLENGTH); sub(/.* struct /, "", line); suite = line
  }
  /LoopbackHTTPServer\(|AnimatedImageLoader\(|\.load\(from:/ {
    split(FILENAME, parts, "/"); print parts[2] "." suite "/"
  }' $(find Tests -name '*.swift' -not -path 'Tests/ZoetropeLoadingTests/*' -not -path 'Tests/ZoetropeCLITests/*') \
  | sort -u | grep -Ev "^($network)" || true)
if [ -n "$misplaced" ]; then
  echo "suites that use the network but are not in test.sh's network group:" >&2
  echo "$misplaced" >&2
  exit 1
fi

# The thread-sanitizer pass runs the suites whose code runs on more than one thread: the core
# (player, clocks, buffers, shared cache), the codecs (bulk and incremental decoding, the
# pipelines) and loading. It skips, with reason: the tool's tests (command-line parsing and
# output around the same decoding and encoding paths the codec suites run), the corpus
# conformance and the fuzz regressions (hundreds of files decoded the same way the codec
# suites decode on threads; most of a whole-suite TSan pass's time), and the zero-drift soak
# (1,000 loops on one thread with a ManualClock). All of them run in the plain pass below.
run "thread sanitizer, core and codecs" --sanitize=thread --scratch-path .build/tsan \
  --skip "$tool|$network|$busy|ZoetropeConformanceTests\.|ZoetropeFuzzTests\.|zeroDrift"
run "thread sanitizer, loopback network" --sanitize=thread --scratch-path .build/tsan --skip-build --filter "$network"
run "thread sanitizer, busy machine" --sanitize=thread --scratch-path .build/tsan --skip-build --filter "$busy"
run "core, codecs, conformance and fuzz regressions" --skip-build --skip "$tool|$network|$busy"
run "loopback network" --skip-build --filter "$network"
run "busy machine" --skip-build --filter "$busy"
run "the tool" --skip-build --filter "$tool"
echo "=== summaries"
cat "$summaries"
