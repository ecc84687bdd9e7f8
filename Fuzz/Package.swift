// swift-tools-version:6.0
// Zoetrope's libFuzzer targets, in a package of their own so that the main package never
// builds them: they only link with `-sanitize=fuzzer` (libFuzzer provides the driver) and
// they are compiled with `-parse-as-library`, which the main package's executables
// (top-level code in main.swift) do not accept. Build and run them with Scripts/fuzz.sh;
// Docs/Fuzzing.md explains the layout.
import PackageDescription

/// The main package, through a symbolic link to `..`: SwiftPM names a path dependency after
/// its folder, and the checkout's own folder name is not known here (it may even be `fuzz`,
/// this package's name).
let zoetrope = "zoetrope-package"

let codecs: [Target.Dependency] = [
    .product(name: "Zoetrope", package: zoetrope),
    .product(name: "ZoetropeGIF", package: zoetrope),
    .product(name: "ZoetropeAPNG", package: zoetrope),
    .product(name: "ZoetropeWebP", package: zoetrope),
    .product(name: "ZoetropeAVIF", package: zoetrope),
    .product(name: "ZoetropeJPEG", package: zoetrope),
    .product(name: "ZoetropeColor", package: zoetrope),
    .product(name: "ZoetropeEncoding", package: zoetrope),
    .product(name: "ZoetropeLoading", package: zoetrope),
]

/// One executable per fuzz target (Sources/<name>/<name>.swift), named after `FuzzTarget`.
let fuzzTargets = [
    "FuzzGIF", "FuzzAPNG", "FuzzWebP", "FuzzAVIF", "FuzzJPEG", "FuzzRegistry",
    "FuzzGIFIndex", "FuzzAPNGChunks", "FuzzAVIFContainer", "FuzzWebPChunks", "FuzzIncremental", "FuzzJPEGIncremental",
    "FuzzEncode", "FuzzConvert", "FuzzDiskCacheEntry", "FuzzHTTPHeaders", "FuzzColour",
]

let package = Package(
    name: "ZoetropeFuzz",
    platforms: [.macOS(.v15)],
    products: fuzzTargets.map { .executable(name: $0, targets: [$0]) },
    dependencies: [.package(path: zoetrope)],
    targets: [
        // The main package's test-support target (fixture writers for the seeds): a symbolic
        // link to Tests/ZoetropeTestSupport, which is not a product of the main package. The
        // FrameSource contract checker, the bulk-decoding check, the busy threads and the
        // loopback server (Network/) need the core's `package` API (`Locked`, `NativeThread`), which
        // another package cannot see, as do the compositing cases (the package's compositor);
        // the progressive-JPEG fixture needs libjpeg-turbo's module, which the main package
        // does not export. No fuzz target uses them.
        .target(name: "ZoetropeTestSupport", dependencies: [.product(name: "Zoetrope", package: zoetrope)],
                exclude: ["Contracts/FrameSourceContract.swift", "Contracts/BulkDecodingCheck.swift",
                          "Waiting/BusyThreads.swift", "Network", "Fixtures/ProgressiveJPEG.swift",
                          "Fixtures/CompositingCase.swift"]),
        // The open/info/decode/seek path, the parser entry points and the seeds: a symbolic
        // link to Tests/ZoetropeFuzzTests/Harness, which the regression test compiles too.
        .target(name: "ZoetropeFuzzHarness", dependencies: codecs + ["ZoetropeTestSupport"]),
        // libFuzzer's driver behind a Swift entry point.
        .target(name: "ZoetropeFuzzDriver", dependencies: ["ZoetropeFuzzHarness"]),
    ] + fuzzTargets.map {
        .executableTarget(name: $0, dependencies: ["ZoetropeFuzzDriver", "ZoetropeFuzzHarness"])
    },
    swiftLanguageModes: [.v6]
)
