import Foundation
import GRDB
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore
import HearthTesting
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

@testable import HearthApps
@testable import HearthMedia
@testable import HearthServer

/// Uploads: bytes, sides and template names.
extension LimitCrossingTests {
    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    /// A real 64×48 PNG padded to exactly `size` bytes with private ancillary chunks, which
    /// decoders skip (each under libpng's 8 MB chunk limit).
    static func paddedPNG(to size: Int) -> Data {
        var png = [UInt8](Web.samplePNG(64, 48))
        let room = size - png.count
        let chunks = (room + 1_000_011) / 1_000_012
        let data = room - 12 * chunks
        var padding: [UInt8] = []
        for index in 0..<chunks {
            let length = data / chunks + (index < data % chunks ? 1 : 0)
            let body = Array("heRe".utf8) + [UInt8](repeating: 0x20, count: length)
            for shift in [24, 16, 8, 0] { padding.append(UInt8((length >> shift) & 0xFF)) }
            padding += body
            let crc = crc32(body)
            for shift in [24, 16, 8, 0] { padding.append(UInt8((crc >> UInt32(shift)) & 0xFF)) }
        }
        png.insert(contentsOf: padding, at: png.count - 12)  // before IEND
        return Data(png)
    }

    @Test func uploadBytesSidesAndTemplateNamesAtTheirLimitsAndOnePast() async throws {
        try await withServer { server in
            let bea = try await TestClient.user(server, "bea")
            let url = try await MemeTests.uploadLink(bea)
            func put(_ url: URL, _ body: Data) async throws -> (Int, String) {
                let (reply, response) = try await Web.fetch(url, method: "PUT", body: body)
                return (response.statusCode, String(decoding: reply, as: UTF8.self))
            }
            let mib = MediaLimits.maxUploadBytes / 1024 / 1024
            // The HTTP body: MediaRoutes.maxBodyBytes is read whole (then judged as a file); one byte more is not.
            var (status, text) = try await put(url, Data(count: MediaRoutes.maxBodyBytes + 1))
            #expect(status == 413 && text.contains("Not stored: the file is over \(mib) MiB."), "\(text)")
            (status, text) = try await put(url, Data(count: MediaRoutes.maxBodyBytes))
            #expect(
                status == 413
                    && text.contains("the file is \(MediaRoutes.maxBodyBytes / 1024) KiB; the limit is \(mib) MiB"),
                "\(text)")
            // The file: maxUploadBytes is stored, one byte more is refused (the link stays usable).
            let over = Self.paddedPNG(to: MediaLimits.maxUploadBytes + 1)
            #expect(over.count == MediaLimits.maxUploadBytes + 1)
            (status, text) = try await put(url, over)
            #expect(
                status == 413 && text.contains("the file is \((MediaLimits.maxUploadBytes + 1) / 1024) KiB"), "\(text)")
            #expect(MemeTests.mediaFiles(server).isEmpty)
            (status, text) = try await put(url, Self.paddedPNG(to: MediaLimits.maxUploadBytes))
            #expect(status == 201, "\(text)")
            try await bea.expect("Your picture ")

            // Sides: maxSide pixels is stored, one more is refused before decoding.
            let sides = try await MemeTests.uploadLink(bea)
            for (w, h) in [(MediaLimits.maxSide + 1, 1), (1, MediaLimits.maxSide + 1)] {
                (status, text) = try await put(sides, Data(GDImage(width: w, height: h).png()))
                #expect(status == 422 && text.contains("the image is \(w)×\(h) pixels"), "\(text)")
            }
            (status, text) = try await put(sides, Data(GDImage(width: MediaLimits.maxSide, height: 1).png()))
            #expect(status == 201, "\(text)")
            let short = String(text.split(separator: " ")[2])
            try await bea.expect("Your picture \(short)")

            // Template names.
            let name = String(repeating: "t", count: TemplateNames.maxLength)
            try await bea.send("!template add \(name)x \(short)")
            try await bea.expect("a template name has 2 to \(TemplateNames.maxLength) letters, digits or dashes")
            try await bea.send("!template add \(name) \(short)")
            try await bea.expect("Template \(name) is ready")
        }
    }
}
