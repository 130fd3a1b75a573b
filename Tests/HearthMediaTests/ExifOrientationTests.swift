import Foundation
import Testing

@testable import HearthMedia

/// A phone stores a portrait photo's pixels sideways with an EXIF orientation tag; Hearth drops
/// the tag when it re-encodes, so it turns the pixels upright first.
@Suite struct ExifOrientationTests {
    static let red = GDImage.color(255, 0, 0)
    static let blue = GDImage.color(0, 0, 255)

    /// A 40×20 JPEG, red on its left half and blue on its right, tagged with `orientation`
    /// (big- or little-endian TIFF), as a camera writes it: APP1 right after SOI.
    static func photo(orientation: Int, littleEndian: Bool = false) -> [UInt8] {
        let image = GDImage(width: 40, height: 20)
        image.rect(0, 0, 20, 20, red)
        image.rect(20, 0, 20, 20, blue)
        let jpeg = image.jpeg(quality: 95)
        func u16(_ v: Int) -> [UInt8] {
            littleEndian ? [UInt8(v & 255), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 255)]
        }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        let tiff: [UInt8] =
            (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
            + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0] + u32(0)
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 255)] + body
        return Array(jpeg.prefix(2)) + app1 + Array(jpeg.dropFirst(2))
    }

    /// Whether a decoded pixel is (nearly: JPEG) this colour.
    static func near(_ pixel: Int32, _ color: Int32) -> Bool {
        let channels = [16, 8, 0].map { (Int(pixel) >> $0 & 255, Int(color) >> $0 & 255) }
        return channels.allSatisfy { abs($0.0 - $0.1) < 60 }
    }

    @Test func theTagIsReadInEitherByteOrder() {
        for orientation in 1...8 {
            #expect(ExifOrientation.read(Self.photo(orientation: orientation)) == orientation)
            #expect(ExifOrientation.read(Self.photo(orientation: orientation, littleEndian: true)) == orientation)
        }
        #expect(ExifOrientation.read(GDImage(width: 4, height: 4).jpeg()) == 1)  // no tag
        #expect(ExifOrientation.read(Self.photo(orientation: 9)) == 1)  // not an orientation
        #expect(ExifOrientation.read(Array(Self.photo(orientation: 6).prefix(20))) == 1)  // cut inside the tag
    }

    /// A portrait taken with the phone upright (tag 6: turn right): upright after re-encoding,
    /// 20×40 with the stored left half (red) on top; tag 8 turns left (red below).
    @Test func aPhoneLeftSidewaysComesOutUpright() throws {
        for (orientation, top, bottom) in [(6, Self.red, Self.blue), (8, Self.blue, Self.red)] {
            let bytes = Self.photo(orientation: orientation)
            let probe = try ImageProbe.inspect(bytes)
            let stored = try #require(probe.reencode(bytes))
            #expect(stored.width == 20 && stored.height == 40)
            let image = try #require(GDImage.decode(stored.bytes, format: .jpeg))
            #expect(Self.near(image.pixel(10, 5), top) && Self.near(image.pixel(10, 34), bottom))
            // The tag is gone with the rest of the metadata.
            #expect(ExifOrientation.read(stored.bytes) == 1)
        }
        // Tag 3 (upside down): blue on the left; 1 as stored.
        let flipped = try #require(
            try ImageProbe.inspect(Self.photo(orientation: 3)).reencode(Self.photo(orientation: 3)))
        let image = try #require(GDImage.decode(flipped.bytes, format: .jpeg))
        #expect(flipped.width == 40 && Self.near(image.pixel(5, 10), Self.blue))
    }

    /// Every orientation maps the stored corners where EXIF says.
    @Test func everyOrientationPutsTheFirstStoredPixelInItsCorner() {
        let image = GDImage(width: 3, height: 2)
        image.fill(0)
        image.rect(0, 0, 1, 1, Self.red)  // the stored top-left pixel
        // Where it shows once upright: (x, y) in the turned picture.
        let corners: [Int: (Int, Int)] = [
            1: (0, 0), 2: (2, 0), 3: (2, 1), 4: (0, 1), 5: (0, 0), 6: (1, 0), 7: (1, 2), 8: (0, 2),
        ]
        for (orientation, (x, y)) in corners {
            let turned = image.oriented(orientation)
            #expect(turned.pixel(x, y) == Self.red, "orientation \(orientation)")
            #expect((turned.width, turned.height) == (orientation >= 5 ? (2, 3) : (3, 2)))
        }
    }
}
