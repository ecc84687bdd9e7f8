import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeWebP

/// WebP sources keep the `FrameSource` contract (`FrameSourceContract`).
@Suite struct WebPContractTests {
    @Test(arguments: [
        DecodingOptions.default, DecodingOptions(pixelFormat: .rgba8Premultiplied),
        DecodingOptions(targetSize: PixelSize(width: 3, height: 3)),
    ])
    func keyFramesAtSeveralPointsKeepTheContract(options: DecodingOptions) throws {
        let contract = FrameSourceContract(coder: WebPCoder(), data: try WebPRandomAccessTests.makeFile(), options: options)
        #expect(contract.violations() == [])
    }

    @Test func independentFramesDecodedStraightIntoTheBufferKeepTheContract() throws {
        let contract = FrameSourceContract(coder: WebPCoder(), data: try WebPRandomAccessTests.independentFrames())
        #expect(contract.violations() == [])
    }
}
