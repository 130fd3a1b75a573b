import Foundation
import Testing

@testable import HearthMedia

/// Uploads are recognised by content, and refused before decoding when they are cut off,
/// too big or declare too many pixels.
@Suite struct ImageProbeTests {
    static func sample(_ w: Int = 64, _ h: Int = 48) -> GDImage {
        let image = GDImage(width: w, height: h)
        image.fill(GDImage.color(200, 100, 50))
        return image
    }

    @Test(arguments: ImageFormat.allCases)
    func everyFormatIsRecognisedWithItsSize(format: ImageFormat) throws {
        let image = Self.sample()
        let bytes: [UInt8]
        switch format {
        case .png: bytes = image.png()
        case .jpeg: bytes = image.jpeg()
        case .gif: bytes = image.gif()
        case .webp: bytes = image.webp()
        }
        let probe = try ImageProbe.inspect(bytes)
        #expect(probe == ImageProbe(format: format, width: 64, height: 48))
        let decoded = try #require(GDImage.decode(bytes, format: format))
        #expect(decoded.width == 64 && decoded.height == 48)
        // Cut in half, it is refused as incomplete.
        #expect(throws: ImageProbe.Problem.truncated) { try ImageProbe.inspect(Array(bytes.prefix(bytes.count / 2))) }
    }

    @Test func notAnImageIsRefused() {
        #expect(throws: ImageProbe.Problem.notAnImage) { try ImageProbe.inspect(Array("hello, this is text".utf8)) }
        #expect(throws: ImageProbe.Problem.notAnImage) { try ImageProbe.inspect([]) }
    }

    /// A small PNG that declares 30000×30000 pixels (a decompression bomb) is refused
    /// from its header, without decoding.
    @Test func decompressionBombIsRefused() throws {
        var bytes = Self.sample(8, 8).png()
        func put32(_ value: Int, at offset: Int) {
            for i in 0..<4 { bytes[offset + i] = UInt8((value >> (24 - 8 * i)) & 0xFF) }
        }
        put32(30000, at: 16)
        put32(30000, at: 20)
        #expect(throws: ImageProbe.Problem.tooManyPixels(width: 30000, height: 30000)) { try ImageProbe.inspect(bytes) }
        // Just inside and just outside the pixel limit.
        let side = Int(Double(MediaLimits.maxPixels).squareRoot())
        put32(side, at: 16)
        put32(side, at: 20)
        #expect((try? ImageProbe.inspect(bytes)) != nil)
        put32(side + 1, at: 20)
        put32(side + 1, at: 16)
        #expect(throws: ImageProbe.Problem.tooManyPixels(width: side + 1, height: side + 1)) {
            try ImageProbe.inspect(bytes)
        }
    }

    @Test func oversizedFileIsRefused() {
        let big = [UInt8](repeating: 0, count: MediaLimits.maxUploadBytes + 1)
        #expect(throws: ImageProbe.Problem.tooBig(bytes: MediaLimits.maxUploadBytes + 1)) {
            try ImageProbe.inspect(big)
        }
    }
}
