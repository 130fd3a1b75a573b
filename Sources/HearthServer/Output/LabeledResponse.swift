import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// labeled-response, from start to end. A labeled line starts capturing (`beginLabel`); while
/// the client's own code runs (`Client.capturing`, also after async work: `resumeLabel`),
/// `Outbox` keeps what it sends that client in `Client.labeledReplies`; when the line has been
/// answered completely (`ConnectionHandler`), `finishLabel` sends the replies as one message
/// with the label, a `labeled-response` batch, or an `ACK`.
extension Core {
    func beginLabel(_ client: Client, _ message: IRCMessage) {
        guard let label = message.tag("label"),
            chat.withLock({ state in
                state[client].registered && state[client].caps.contains("labeled-response")
                    && state[client].caps.contains("batch")
            })
        else { return }
        client.label = label
        client.capturing = true
    }

    /// Back on the event loop after async work for a labeled line: capture again.
    func resumeLabel(_ client: Client, labeled: Bool) {
        client.capturing = labeled && client.label != nil
    }

    func finishLabel(_ client: Client) {
        guard let label = client.label else { return }
        let replies = client.labeledReplies
        client.label = nil
        client.labeledReplies = []
        withState { _, out in
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
