#if os(Linux)
    import Foundation
    import Glibc
    import HearthTesting
    import NIOCore
    import Testing

    /// Every accepted IRC connection has keepalive (a vanished peer is found) and no Nagle delay,
    /// on both I/O layers: the epoll listener sets them once on the listening socket, which Linux
    /// hands on to each accepted one (`ListenerOptions.accepted`).
    @Suite struct AcceptedSocketOptionsTests {
        @Test func anAcceptedConnectionHasKeepaliveAndNoDelay() async throws {
            try await withServer { server in
                let client = try await TestClient.irc(server, nick: "ann")
                let port = try #require(client.channel.localAddress?.port)
                // The server runs in this process: its end is the socket whose peer is our port.
                let fd = try #require(Self.socket(peerPort: port))
                #expect(Self.option(fd, SOL_SOCKET, SO_KEEPALIVE) == 1)
                #expect(Self.option(fd, Int32(IPPROTO_TCP), TCP_NODELAY) == 1)
                await client.close()
            }
        }

        /// This process's descriptor whose TCP peer is 127.0.0.1:`peerPort`.
        static func socket(peerPort: Int) -> Int32? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return names.compactMap(Int32.init).first { fd in
                var address = sockaddr_in()
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                let found = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
                }
                return found == 0 && Int32(address.sin_family) == AF_INET
                    && Int(UInt16(bigEndian: address.sin_port)) == peerPort
            }
        }

        static func option(_ fd: Int32, _ level: Int32, _ name: Int32) -> Int32 {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, level, name, &value, &length)
            return value
        }
    }
#endif
