import ZoetropeFuzzDriver
import ZoetropeFuzzHarness

/// The input function: one input through `FuzzTarget.jpegIncremental`.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.testOneInput(.jpegIncremental, data, size)
}

/// The entry point SwiftPM links as `main` (see `FuzzDriver`).
@_cdecl("FuzzJPEGIncremental_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.main(argc, argv, testOneInput)
}
