import NIOCore
import NIOSSL

/// IRCv3 `sts`: with a TLS port, clients are told to use it and to keep to it for
/// `sts-duration` seconds. Not requestable (it is a policy, not a feature), so it is not in
/// `supportedCaps` and a `CAP REQ sts` is refused.
extension Core {
    /// The `sts` cap for this connection, when TLS listens and the client reads cap values
    /// (CAP LS 302): the port on plain TCP, the duration alone over TLS. A WebSocket client on
    /// the plain HTTP port is not told (a browser cannot move to the IRC-over-TLS port).
    func stsCap(_ client: Client, version: Int) -> [String] {
        let port = tlsListeningPort.load(ordering: .relaxed)
        guard port > 0, version >= 302 else { return [] }
        let duration = config.stsDuration
        if client.socket.isTLS { return ["sts=duration=\(duration)"] }
        if client.socket.handler?.webSocket == true { return [] }
        return ["sts=port=\(port),duration=\(duration)"]
    }
}

extension ClientSocket {
    /// The connection's TLS handler (on its loop), when it came over TLS.
    var tlsHandler: NIOSSLServerHandler? {
        guard case .channel(let channel) = self else { return nil }
        return try? channel.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
    }

    /// Whether the connection came over TLS (the IRC-over-TLS port, or wss://); on its loop.
    var isTLS: Bool { tlsHandler != nil }
}
