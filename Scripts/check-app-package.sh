#!/usr/bin/env bash
# Builds the app view sample (Examples/AppViewSample) the way an app would: in a package of its
# own that depends on Zoetrope by path, in Swift 6 language mode, and fails on any warning;
# then runs it on the examples' animated fixture. The loading view sample
# (Examples/LoadingViewSample) is built the same way, in a second target of that package (it
# needs an HTTP server to run: ZoetropeLoadingTests runs it against a loopback one). A separate build of the whole package
# (about 20 s to a few minutes on 2 cores); .ci/run runs it, Scripts/test.sh does not.
#
#   Scripts/check-app-package.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/app/Sources/SampleApp" "$work/app/Sources/LoadingApp"
cp Examples/AppViewSample/*.swift "$work/app/Sources/SampleApp/"
cp Examples/LoadingViewSample/*.swift "$work/app/Sources/LoadingApp/"
cat > "$work/app/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "SampleApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "$root")],
    targets: [.executableTarget(name: "SampleApp",
                                dependencies: [.product(name: "ZoetropeCodecs", package: "$(basename "$root")")]),
              .executableTarget(name: "LoadingApp",
                                dependencies: [.product(name: "ZoetropeCodecs", package: "$(basename "$root")")])],
    swiftLanguageModes: [.v6]
)
SWIFT
if (cd "$work/app" && swift build 2>&1) | tee "$work/build.log" | grep -E "warning:|error:"; then
  echo "check-app-package: the sample's package printed warnings or errors" >&2
  exit 1
fi
cat "$work"/app/Sources/*/*.swift | grep -vE '^\s*//' | grep -qE "@unchecked|nonisolated\(unsafe\)|@preconcurrency" && {
  echo "check-app-package: the sample uses an escape hatch" >&2; exit 1; }
swift build --product MakeExampleFixtures >/dev/null
"$(swift build --show-bin-path)/MakeExampleFixtures" "$work/fixtures" >/dev/null
out=$("$work/app/.build/debug/SampleApp" "$work/fixtures/animated.png")
echo "$out"
grep -qE '^[1-9][0-9]* (true|false)$' <<<"$(head -1 <<<"$out")" || {
  echo "check-app-package: no frame reached the @MainActor view" >&2; exit 1; }
echo "check-app-package: the sample builds by path in Swift 6 with no warning and runs"
