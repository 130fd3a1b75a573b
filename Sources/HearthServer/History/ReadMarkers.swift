import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// MARKREAD (IRCv3 draft/read-marker): how far an account has read a channel or a
/// conversation, kept in SQLite and synced to all its connections that enabled the cap.
extension Core {
    static let readMarkerCap = "draft/read-marker"

    func markread(_ client: Client, _ message: IRCMessage) {
        let target = message.params[0]
        guard let account = lock.withLock({ client.account }) else {
            withState {
                $0.send(
                    client,
                    IRCMessage(
                        source: serverName, command: "FAIL",
                        params: ["MARKREAD", "ACCOUNT_REQUIRED", target, "Log in to keep read markers"]))
            }
            return
        }
        var requested: Date?
        if message.params.count > 1 {
            guard case .time(let parsed)?? = Self.parseRef(message.params[1]) else {
                withState {
                    $0.send(
                        client,
                        IRCMessage(
                            source: serverName, command: "FAIL",
                            params: ["MARKREAD", "INVALID_PARAMS", target, "Use timestamp=YYYY-MM-DDThh:mm:ss.sssZ"]))
                }
                return
            }
            requested = parsed
        }
        let date = requested
        let key = IRCNames.fold(target)
        let store = self.store
        later(
            client,
            { () -> Date? in
                if let date { return try? await store.advanceReadMarker(accountID: account.id, target: key, to: date) }
                return try? await store.readMarker(accountID: account.id, target: key)
            }
        ) { stored in
            self.withState { out in
                let value = stored.map { "timestamp=" + MessageStamp.time($0) } ?? "*"
                let marker = IRCMessage(source: self.serverName, command: "MARKREAD", params: [target, value])
                if date == nil {
                    out.send(client, marker)
                } else {
                    // Every connection of the account that asked for the cap learns the new marker.
                    let sessions = self.clients.values.filter {
                        $0.account?.id == account.id && $0.caps.contains(Self.readMarkerCap)
                    }
                    out.send(sessions.contains { $0 === client } ? sessions : sessions + [client], marker)
                }
            }
        }
    }

    /// After a join: the account's read marker for the channel, for clients with the cap.
    func sendReadMarker(_ client: Client, channelName: String) {
        guard let account = lock.withLock({ client.caps.contains(Self.readMarkerCap) ? client.account : nil }) else {
            return
        }
        let store = self.store
        let key = IRCNames.fold(channelName)
        later(client, { try? await store.readMarker(accountID: account.id, target: key) }) { stored in
            self.withState { out in
                let value = stored.map { "timestamp=" + MessageStamp.time($0) } ?? "*"
                out.send(
                    client, IRCMessage(source: self.serverName, command: "MARKREAD", params: [channelName, value]))
            }
        }
    }
}
