// swift-tools-version:6.0
// A measurement tool only (not part of the library): decodes every frame of an AVIF file
// K times with ZoetropeAVIF and prints the same JSON line as ../shared/bench/ref/harness.h.
import PackageDescription

let package = Package(
    name: "zoetrope-avif-bench",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Zoetrope", path: "../..")],
    targets: [
        .executableTarget(
            name: "zoetrope-avif-bench",
            dependencies: [.product(name: "Zoetrope", package: "Zoetrope"), .product(name: "ZoetropeAVIF", package: "Zoetrope")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
