import Foundation
import ZoetropeFuzzHarness

/// libFuzzer's own driver (from `-sanitize=fuzzer`), started from a Swift entry point.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// What every fuzz executable runs: libFuzzer's driver around one `FuzzTarget`.
///
/// SwiftPM links an executable with `main` aliased to `<module>_main` (so that tests can
/// import executables); with `-parse-as-library` there is no top-level code to provide it,
/// so each executable defines `<module>_main` itself and calls `main` here, which hands the
/// command line to libFuzzer. Each executable also defines `LLVMFuzzerTestOneInput`, so it
/// still links if SwiftPM stops aliasing `main` (libFuzzer's own `main` is then used).
public enum FuzzDriver {
    /// Runs libFuzzer with the process's arguments and `testOneInput` as the target; or, with
    /// `ZOETROPE_FUZZ_WRITE_SEEDS=DIR` set, writes the fixture seeds (`FuzzSeeds`) to `DIR` and exits.
    public static func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                            _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
        if let folder = ProcessInfo.processInfo.environment["ZOETROPE_FUZZ_WRITE_SEEDS"] {
            do {
                try FuzzSeeds.write(to: URL(fileURLWithPath: folder))
                return 0
            } catch {
                FileHandle.standardError.write(Data("could not write the fuzz seeds to \(folder): \(error)\n".utf8))
                return 1
            }
        }
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments, testOneInput)
    }

    /// Runs one input through `target`; a broken rule aborts so that libFuzzer keeps the input.
    public static func testOneInput(_ target: FuzzTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
        let outcome = target.run(bytes)
        if let problem = outcome.problem {
            fatalError("zoetrope fuzz target '\(target.rawValue)': \(problem)")
        }
        return 0
    }
}
