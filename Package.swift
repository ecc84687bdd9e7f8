// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Zoetrope",
    // Apple platforms: the first releases with the Synchronization module (Mutex, Atomic),
    // which the core uses for its locks. Linux needs nothing more than Swift 6.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Zoetrope", targets: ["Zoetrope"]),
        .library(name: "ZoetropeGIF", targets: ["ZoetropeGIF"]),
        .library(name: "ZoetropeAPNG", targets: ["ZoetropeAPNG"]),
        .library(name: "ZoetropeWebP", targets: ["ZoetropeWebP"]),
        .library(name: "ZoetropeAVIF", targets: ["ZoetropeAVIF"]),
        .library(name: "ZoetropeJPEG", targets: ["ZoetropeJPEG"]),
        .library(name: "ZoetropeColor", targets: ["ZoetropeColor"]),
        .library(name: "ZoetropeEncoding", targets: ["ZoetropeEncoding"]),
        .library(name: "ZoetropeLoading", targets: ["ZoetropeLoading"]),
        .library(name: "ZoetropeUI", targets: ["ZoetropeUI"]),
        .library(name: "ZoetropeCodecs", targets: ["ZoetropeCodecs"]),
        .library(name: "ZoetropeQuality", targets: ["ZoetropeQuality"]),
        .library(name: "ZoetropeTesting", targets: ["ZoetropeTesting"]),
        .executable(name: "zoetrope", targets: ["ZoetropeTool"]),
        .executable(name: "zoetrope-fetch", targets: ["zoetrope-fetch"]),
        .plugin(name: "AuditAnimations", targets: ["AuditAnimations"]),
        .executable(name: "zoetrope-player-bench", targets: ["zoetrope-player-bench"]),
        .executable(name: "zoetrope-decode-bench", targets: ["zoetrope-decode-bench"]),
    ],
    targets: [
        // Core: contracts, compositing, timing, playback. No C dependency.
        .target(name: "Zoetrope"),
        // Writing files: the encoder and writer protocols every codec's encoder adopts,
        // their options, and whole-animation conversion (`AnimatedImage.encoded(with:)`,
        // `AnimationConversion`). Apart from the core, which only decodes and plays.
        .target(name: "ZoetropeEncoding", dependencies: ["Zoetrope"]),

        // System libraries: Debian's -dev packages, or Homebrew's formulae on macOS.
        .systemLibrary(
            name: "CGIF",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        // libavif's headers only: libavif.pc's cflags carry -DAVIF_DLL, which SwiftPM refuses
        // with a warning on every build, and the headers are in the default include path. The
        // library is not linked: CZoetropeAVIF opens it on first use (it brings ~25 libraries
        // of AV1 codecs that would lengthen every process's start; README, Platforms).
        .systemLibrary(
            name: "CAVIF",
            providers: [.apt(["libavif-dev"]), .brew(["libavif"])]
        ),
        // libjpeg-turbo's TurboJPEG API (JPEG stills).
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]
        ),
        // Little CMS 2: colour management (ZoetropeColor).
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]
        ),
        .target(name: "CZoetropeAVIF", dependencies: ["CAVIF"],
                linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // libjpeg-turbo's libjpeg API (jpeglib.h, libjpeg-dev), for decoding a tagged JPEG in
        // bands of rows whose colour is converted as the next band decodes.
        .target(name: "CZoetropeJPEGBands", linkerSettings: [.linkedLibrary("jpeg")]),

        // A file's declared colour (ICC profile, code points, cHRM/gAMA) to sRGB over lcms2:
        // the transform every coder hands its compositor.
        .target(name: "ZoetropeColor", dependencies: ["Zoetrope", "CLCMS2", "CZoetropeColorKernels"]),
        // The matrix-shaper fast path's RGBA8 kernels, chosen by the processor at run time.
        .target(name: "CZoetropeColorKernels"),

        // One module per format; each knows the core, ZoetropeColor and its C library only.
        .target(name: "ZoetropeGIF", dependencies: ["Zoetrope", "ZoetropeEncoding", "ZoetropeColor", "CGIF"]),
        // libpng's full read API behind a C function whose setjmp keeps libpng's longjmp
        // out of Swift frames (ZoetropeAPNG's per-frame decoder).
        .target(name: "CZoetropePNG", dependencies: ["CPNG"]),
        .target(name: "ZoetropeAPNG", dependencies: ["Zoetrope", "ZoetropeEncoding", "ZoetropeColor", "CPNG", "CZoetropePNG"]),
        .target(name: "ZoetropeWebP", dependencies: ["Zoetrope", "ZoetropeEncoding", "ZoetropeColor", "CWebP"]),
        .target(name: "ZoetropeAVIF", dependencies: ["Zoetrope", "ZoetropeEncoding", "ZoetropeColor", "CAVIF", "CZoetropeAVIF"]),
        // libjpeg-turbo's libjpeg API for the incremental source: a suspending source manager
        // and buffered-image mode, its errors caught by setjmp in C.
        .target(name: "CZoetropeJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "ZoetropeJPEG", dependencies: ["Zoetrope", "ZoetropeColor", "CTurboJPEG", "CZoetropeJPEG", "CZoetropeJPEGBands"]),

        // The one list of built-in coders (`CoderRegistry.builtInCoders()`,
        // `registerBuiltInCoders()`): FoundationEssentials only, so the tool can use it.
        .target(
            name: "ZoetropeBuiltInCoders",
            dependencies: ["Zoetrope", "ZoetropeGIF", "ZoetropeAPNG", "ZoetropeWebP", "ZoetropeAVIF", "ZoetropeJPEG"]
        ),
        // URLs to images and views: requests, coalescing, transfer, the HTTP cache rules, the
        // memory and disk caches, the view call. Full Foundation (URLSession), no codec.
        // libcurl (libcurl4-openssl-dev): the loader's transport on Linux, where it reads each
        // piece of a body only as the loader takes it (FoundationNetworking reads ahead).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "ZoetropeLoading", dependencies: ["Zoetrope", .target(name: "CCurl", condition: .when(platforms: [.linux]))]),
        // What an application's views and process wire in beside the player: the content
        // controller a view holds, the frame-callback API, uniform timelines for fixed-rate
        // platform APIs, and the Linux memory-pressure monitor.
        .target(name: "ZoetropeUI", dependencies: ["Zoetrope"]),
        // The core, the codecs, loading and view support behind one import, registered with one call.
        .target(
            name: "ZoetropeCodecs",
            dependencies: ["Zoetrope", "ZoetropeColor", "ZoetropeEncoding", "ZoetropeGIF", "ZoetropeAPNG", "ZoetropeWebP", "ZoetropeAVIF",
                           "ZoetropeJPEG", "ZoetropeBuiltInCoders", "ZoetropeLoading", "ZoetropeUI"]
        ),
        // Quality metrics over decoded frames (AnimationComparison, SSIMULACRA2): what
        // `zoetrope compare` and `convert --target-quality` use, for applications too.
        .target(name: "ZoetropeQuality", dependencies: ["Zoetrope"]),
        // The built-in countdown sample (`DemoAnimation`, `package`): the tool's `--demo`, the
        // player benchmark's workload and the tests' fixture. Not a product.
        .target(name: "ZoetropeDemo", dependencies: ["Zoetrope"]),
        // Simulated decode time and refresh patterns (SimulatedDecodeExecutor, RefreshPattern):
        // deterministic players for tests, `zoetrope trace` and the headless examples.
        .target(name: "ZoetropeTesting", dependencies: ["Zoetrope"]),
        // CPU time and resident memory of the process: the one reader the tool's `bench`
        // and the benchmark executables share. Not a product.
        .target(name: "ZoetropeProcessStats"),

        // The command-line tool: a client like any application.
        .executableTarget(
            name: "ZoetropeTool",
            dependencies: ["Zoetrope", "ZoetropeColor", "ZoetropeEncoding", "ZoetropeGIF", "ZoetropeAPNG", "ZoetropeWebP", "ZoetropeAVIF",
                           "ZoetropeBuiltInCoders", "ZoetropeProcessStats", "ZoetropeQuality", "ZoetropeDemo", "ZoetropeTesting"]
        ),

        // What `zoetrope` runs for an http(s) argument: the body through AnimatedImageLoader on
        // standard output as it arrives. A process of its own so the tool does not link
        // FoundationNetworking and libcurl's tree, which every start of it would pay for.
        .executableTarget(name: "zoetrope-fetch", dependencies: ["ZoetropeCodecs"]),

        // `swift package audit-animations`: the animated images in a package, via `zoetrope audit`.
        .plugin(
            name: "AuditAnimations",
            capability: .command(
                intent: .custom(verb: "audit-animations",
                                description: "List the animated images in the package: format, frames, plays, delays, decoded size, warnings")
            ),
            dependencies: ["ZoetropeTool"]
        ),

        // Decoding speed of every format side by side with ../shared/bench's C decoders and
        // Pillow (Scripts/bench-decoders.sh, Docs/Benchmarks.md).
        .executableTarget(
            name: "zoetrope-decode-bench",
            dependencies: ["Zoetrope", "ZoetropeGIF", "ZoetropeAPNG", "ZoetropeWebP", "ZoetropeAVIF", "ZoetropeBuiltInCoders",
                           "ZoetropeProcessStats"],
            path: "Benchmarks/ZoetropeDecodeBench"
        ),

        // The matrix-shaper colour fast path against lcms2: the largest difference over every
        // 8-bit RGB value and both conversions' speed, per profile (Scripts/bench-colour.sh).
        .executableTarget(
            name: "zoetrope-colour-bench",
            dependencies: ["Zoetrope", "ZoetropeColor", "ZoetropeColorTestSupport"],
            path: "Benchmarks/ZoetropeColourBench"
        ),

        // Decoding while the file arrives against decoding the whole file (CPU per input).
        .executableTarget(
            name: "zoetrope-incremental-bench",
            dependencies: ["Zoetrope", "ZoetropeGIF", "ZoetropeAPNG", "ZoetropeWebP", "ZoetropeAVIF"],
            path: "Benchmarks/ZoetropeIncrementalBench"
        ),

        // AnimatedImageLoader against a loopback server: memory-cache hits, a disk-cache hit's
        // first frame against the local file, 64 requests for 8 URLs against plain URLSession
        // (Docs/Benchmarks.md, "Loading").
        .executableTarget(
            name: "zoetrope-loader-bench",
            dependencies: ["ZoetropeCodecs", "ZoetropeTestSupport"],
            path: "Benchmarks/ZoetropeLoaderBench"
        ),

        // Many players on one timer clock: CPU, late frames, memory (Scripts/bench-player.sh).
        .executableTarget(
            name: "zoetrope-player-bench",
            dependencies: ["Zoetrope", "ZoetropeDemo", "ZoetropeProcessStats"],
            path: "Benchmarks/ZoetropePlayerBench"
        ),

        // One small executable per seed player, runnable headless (Scripts/run-examples.sh),
        // and the tool that writes their fixtures with the project's own encoders.
        .executableTarget(name: "MakeExampleFixtures", dependencies: ["ZoetropeCodecs"], path: "Examples/MakeExampleFixtures"),
        .executableTarget(name: "DisplayLinkPlayer", dependencies: ["ZoetropeCodecs", "ZoetropeTesting"], path: "Examples/DisplayLinkPlayer"),
        .executableTarget(name: "FrameCallbackPlayer", dependencies: ["ZoetropeCodecs", "ZoetropeTesting"], path: "Examples/FrameCallbackPlayer"),
        .executableTarget(name: "StillOrAnimatedView", dependencies: ["ZoetropeCodecs", "ZoetropeTesting"], path: "Examples/StillOrAnimatedView"),
        .executableTarget(name: "FixedIntervalPlayer", dependencies: ["ZoetropeCodecs"], path: "Examples/FixedIntervalPlayer"),
        .executableTarget(name: "ReusableCellView", dependencies: ["ZoetropeCodecs", "ZoetropeTesting"], path: "Examples/ReusableCellView"),
        // An application's view (a @MainActor view as the display), run on the main actor; AppViewSampleTests runs it too.
        .executableTarget(name: "AppViewSample", dependencies: ["ZoetropeCodecs"], path: "Examples/AppViewSample"),
        .executableTarget(name: "PlayWhileDownloading", dependencies: ["ZoetropeCodecs", "ZoetropeTesting"], path: "Examples/PlayWhileDownloading"),
        // A loading view (AnimatedImageLoader from a view), run by ZoetropeLoadingTests against a loopback server.
        .executableTarget(name: "LoadingViewSample", dependencies: ["ZoetropeCodecs"], path: "Examples/LoadingViewSample"),

        // Reference ICC profiles made with lcms2 directly, for the colour tests.
        .target(name: "ZoetropeColorTestSupport", dependencies: ["CLCMS2"], path: "Tests/ZoetropeColorTestSupport"),
        // Shared test helpers, by folder: Contracts/ (the checkers every codec runs),
        // Conformance/ (the corpus harness), Fixtures/ (byte writers), Network/ (the loopback
        // HTTP server), Waiting/ (the one wait, busy threads). Tested by ZoetropeTestSupportTests.
        .target(
            name: "ZoetropeTestSupport",
            dependencies: ["Zoetrope", "CTurboJPEG"],
            path: "Tests/ZoetropeTestSupport"
        ),
        .testTarget(name: "ZoetropeTestSupportTests", dependencies: ["Zoetrope", "ZoetropeGIF", "ZoetropeAPNG", "ZoetropeTestSupport"]),
        .testTarget(name: "ZoetropeTests", dependencies: ["Zoetrope", "ZoetropeEncoding", "ZoetropeUI", "ZoetropeDemo", "ZoetropeTesting", "ZoetropeTestSupport"]),
        .testTarget(name: "ZoetropeUITests", dependencies: ["ZoetropeUI"]),
        .testTarget(name: "ZoetropeQualityTests", dependencies: ["ZoetropeQuality"]),
        .testTarget(name: "ZoetropeGIFTests", dependencies: ["ZoetropeEncoding", "ZoetropeGIF", "ZoetropeTestSupport"]),
        .testTarget(name: "ZoetropeAPNGTests", dependencies: ["ZoetropeEncoding", "ZoetropeAPNG", "ZoetropeColor", "CLCMS2", "ZoetropeColorTestSupport",
                                                        "ZoetropeTestSupport", "ZoetropeTesting"]),
        .testTarget(name: "ZoetropeColorTests", dependencies: ["ZoetropeColor", "CLCMS2", "ZoetropeColorTestSupport", "ZoetropeTestSupport"]),
        .testTarget(name: "ZoetropeWebPTests", dependencies: ["ZoetropeEncoding", "ZoetropeWebP", "ZoetropeTestSupport"]),
        .testTarget(name: "ZoetropeAVIFTests", dependencies: ["ZoetropeEncoding", "ZoetropeAVIF", "ZoetropeTestSupport"]),
        .testTarget(
            name: "ZoetropeJPEGTests",
            dependencies: ["ZoetropeJPEG", "ZoetropeColor", "CTurboJPEG", "ZoetropeColorTestSupport", "ZoetropeTestSupport"]),
        .testTarget(
            name: "ZoetropeConformanceTests",
            dependencies: ["ZoetropeGIF", "ZoetropeAPNG", "ZoetropeWebP", "ZoetropeAVIF", "ZoetropeDemo", "ZoetropeTestSupport"]
        ),
        .testTarget(name: "ZoetropeCodecsTests", dependencies: ["ZoetropeCodecs", "ZoetropeBuiltInCoders", "ZoetropeTestSupport", "AppViewSample"]),
        // AnimatedImageLoader against a real HTTP server on loopback (ZoetropeTestSupport's).
        .testTarget(name: "ZoetropeLoadingTests", dependencies: ["ZoetropeLoading", "ZoetropeCodecs", "ZoetropeTestSupport", "LoadingViewSample"]),
        .testTarget(name: "ZoetropeCLITests", dependencies: ["ZoetropeEncoding", "ZoetropeTool", "zoetrope-fetch", "ZoetropeCodecs", "CTurboJPEG", "ZoetropeColorTestSupport",
                                                   "ZoetropeQuality", "ZoetropeDemo", "ZoetropeTestSupport"]),
        // Fuzz regressions, corpus truncation and mutation, fuzz seeds. Its Harness/ folder is
        // also the fuzz targets' harness (Fuzz/Package.swift links it), so both run one path.
        .testTarget(
            name: "ZoetropeFuzzTests",
            dependencies: ["ZoetropeEncoding", "ZoetropeGIF", "ZoetropeAPNG", "ZoetropeWebP", "ZoetropeAVIF", "ZoetropeJPEG", "CTurboJPEG", "ZoetropeTestSupport",
                           "ZoetropeLoading", "ZoetropeColor", "CLCMS2"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
