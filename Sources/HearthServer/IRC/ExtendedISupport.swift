import HearthProtocol

/// draft/extended-isupport: the ISUPPORT command answers with the 005 lines, also before
/// registration for a client that negotiated the cap; with `batch` too, every 005 (the welcome's
/// as well) comes in a draft/isupport batch.
extension Core {
    static let extendedISupportCap = "draft/extended-isupport"

    func isupport(_ client: Client, _ message: IRCMessage) {
        withState { state, out in sendISupport(state, client, out: &out) }
    }

    /// The 005 lines, in a batch when the client asked for both caps.
    func sendISupport(_ state: ChatState, _ client: Client, out: inout Outbox) {
        let batch =
            state[client].caps.contains(Self.extendedISupportCap)
            ? openBatch(state, client, type: "draft/isupport", params: [], out: &out) : nil
        for line in isupportLines {
            var reply = numeric(state, client, .isupport, params: line + ["are supported by this server"])
            if let batch { reply.tags = [IRCTag("batch", batch)] }
            out.send(client, reply)
        }
        closeBatch(client, batch, out: &out)
    }
}
