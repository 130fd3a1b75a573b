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
}
