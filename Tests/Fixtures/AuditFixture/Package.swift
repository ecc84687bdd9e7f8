// swift-tools-version:6.0
// A package with animated images in it, for testing the `audit-animations` plugin:
//   swift package --package-path Tests/Fixtures/AuditFixture audit-animations
// The images are written by Scripts/make-audit-fixtures.py.
import PackageDescription

let package = Package(
    name: "AuditFixture",
    dependencies: [.package(name: "Zoetrope", path: "../../..")],
    targets: [
        .target(name: "AuditFixture", resources: [.copy("Resources")])
    ]
)
