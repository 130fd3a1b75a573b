import Foundation
import HearthMedia
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP as the tests use it: links in bot replies, requests over a plain socket, pictures.
public enum Web {
    /// The first http link in a line.
    public static func link(in line: String) throws -> URL {
        let word = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") })
        return try #require(URL(string: String(word)))
    }

    /// One HTTP/1.1 request over a plain socket, as curl would send it (URLSession on Linux
    /// waits for credentials on a 401 instead of returning it).
    public static func fetch(_ url: URL, method: String = "GET", body: Data? = nil, headers: [String: String] = [:])
        async throws -> (Data, HTTPResponse)
    {
        let (data, response, _) = try await fetchWithCookies(url, method: method, body: body, headers: headers)
        return (data, response)
    }

    /// `fetch`, with every `Set-Cookie` header of the answer (they repeat, so `fields` keeps one).
    public static func fetchWithCookies(
        _ url: URL, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> (Data, HTTPResponse, [String]) {
        let port = try #require(url.port)
        let target = url.path + (url.query.map { "?" + $0 } ?? "")
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (key, value) in headers { head += "\(key): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        let request = Data((head + "\r\n").utf8) + (body ?? Data())
        // On a thread of its own: a blocking socket must not hold one of the few threads
        // Swift concurrency (and so the server under test) runs on.
        let raw = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, Error>) in
            Thread { continuation.resume(with: Result { try RawHTTP.exchange(port: port, request) }) }.start()
        }
        let split = try #require(raw.firstRange(of: Data("\r\n\r\n".utf8)))
        let lines = String(decoding: raw[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var fields: [String: String] = [:]
        var cookies: [String] = []
        for line in lines.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                let (name, value) = (
                    line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                )
                fields[name] = value
                if name == "set-cookie" { cookies.append(value) }
            }
        }
        return (Data(raw[split.upperBound...]), HTTPResponse(statusCode: status, fields: fields), cookies)
    }

    public struct HTTPResponse {
        public let statusCode: Int
        public let fields: [String: String]
        public func value(forHTTPHeaderField name: String) -> String? { fields[name.lowercased()] }
    }

    /// A small picture, as a phone would upload it.
    public static func samplePNG(_ w: Int = 320, _ h: Int = 240) -> Data {
        let image = GDImage(width: w, height: h)
        image.fill(GDImage.color(30, 160, 90))
        image.rect(w / 4, h / 4, w / 2, h / 2, GDImage.color(250, 250, 250))
        return Data(image.png())
    }

    /// The colours of `sampleGIF`'s frames, in turn.
    public static let gifColours = [(200, 30, 30), (30, 160, 60), (40, 60, 200), (120, 40, 160)]

    /// An animated GIF of solid frames (`gifColours` in turn), each shown `frame + 4` hundredths.
    public static func sampleGIF(frames: Int = 8, _ w: Int = 200, _ h: Int = 150) -> Data {
        let pictures = (0..<frames).map { i in
            let picture = GDImage(width: w, height: h)
            let (r, g, b) = gifColours[i % gifColours.count]
            picture.fill(GDImage.color(r, g, b))
            return picture
        }
        return Data(AnimatedGIF.encode(pictures, delays: (0..<frames).map { $0 + 4 }))
    }
}

/// A blocking TCP exchange with a local server: send everything, read until it closes.
public enum RawHTTP {
    public static func exchange(port: Int, _ request: Data) throws -> Data {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // Long: a 500-person GEDCOM import on a loaded CI machine's PostgreSQL pass took over 20 s,
        // and a read that times out returns nothing (the test then saw an empty answer).
        var timeout = timeval(tv_sec: 90, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var sent = 0
        let bytes = [UInt8](request)
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }  // the server may answer (413) and close before reading it all
            sent += n
        }
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            result.append(contentsOf: buffer[0..<n])
        }
        return result
    }
}
