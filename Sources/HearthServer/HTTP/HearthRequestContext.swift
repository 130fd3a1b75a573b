import Foundation
import HTTPTypes
import HearthCrypto
import HearthKit
import HearthMedia
import HearthProtocol
import HearthStore
import Hummingbird
import NIOCore

/// Requests know who sent them (login throttling counts failures per address).
struct HearthRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The connection's other end (the proxy, behind one).
    var peer: String { HearthServer.peerAddress(remoteAddress) ?? "http" }

    /// Who sent the request, for every per-address limit: the peer, or behind a listed proxy
    /// the visitor it names (`HTTPProxies.client`).
    func client(_ request: Request, _ proxies: HTTPProxies) -> String {
        guard !proxies.isEmpty, let name = HTTPField.Name(proxies.header.rawValue) else { return peer }
        return proxies.client(peer: peer, values: request.headers[values: name])
    }
}
