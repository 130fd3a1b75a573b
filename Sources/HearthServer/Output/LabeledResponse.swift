import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// labeled-response: when a labeled command has been answered completely, its replies go out
/// as one message with the label, a `labeled-response` batch, or an `ACK`.
extension Core {
    func finishLabel(_ client: Client) {
        guard let label = client.label else { return }
        let replies = client.labeledReplies
        client.label = nil
        client.labeledReplies = []
        withState { out in
            switch replies.count {
            case 0:
                out.send(
                    client, IRCMessage(tags: [IRCTag("label", label)], source: serverName, command: "ACK", params: []))
            case 1:
                var reply = replies[0]
                reply.tags.insert(IRCTag("label", label), at: 0)
                out.send(client, reply)
            default:
                let id = MessageStamp.msgid()
                out.send(
                    client,
                    IRCMessage(
                        tags: [IRCTag("label", label)], source: serverName, command: "BATCH",
                        params: ["+" + id, "labeled-response"]))
                for var reply in replies {
                    // Lines already inside a batch of their own (CHATHISTORY) keep that one.
                    if !reply.tags.contains(where: { $0.key == "batch" }) {
                        reply.tags.insert(IRCTag("batch", id), at: 0)
                    }
                    out.send(client, reply)
                }
                out.send(client, IRCMessage(source: serverName, command: "BATCH", params: ["-" + id]))
            }
        }
    }
}
