import ZoetropeFuzzDriver
import ZoetropeFuzzHarness

/// The input function: one input through `FuzzTarget.colour`.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.testOneInput(.colour, data, size)
}

/// The entry point SwiftPM links as `main` (see `FuzzDriver`).
@_cdecl("FuzzColour_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.main(argc, argv, testOneInput)
}
