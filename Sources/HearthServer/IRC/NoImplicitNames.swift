import HearthProtocol

/// no-implicit-names: a client that negotiated it gets no NAMES reply after its JOIN (it asks
/// with NAMES when it wants the list: a mobile client in many channels connects faster).
extension Core {
    static let noImplicitNamesCap = "no-implicit-names"

    /// The NAMES reply that follows a JOIN, unless `client` opted out.
    func sendImplicitNames(_ state: inout ChatState, _ client: Client, _ channel: ChannelState, out: inout Outbox) {
        guard !state[client].caps.contains(Self.noImplicitNamesCap) else { return }
        sendNames(&state, client, channel, out: &out)
    }
}
