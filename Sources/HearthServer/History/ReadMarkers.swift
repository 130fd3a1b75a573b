import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// MARKREAD (IRCv3 draft/read-marker): how far an account has read a channel or a
/// conversation, kept in SQLite and synced to all its connections that enabled the cap.
extension Core {
    static let readMarkerCap = "draft/read-marker"

    /// Targets a guest's session keeps markers for (a guest's last only as long as the connection).
    static let guestReadMarkers = 200

    func markread(_ client: Client, _ message: IRCMessage) {
        func fail(_ code: String, _ params: [String], _ text: String) {
            withState { _, out in
                out.send(
                    client,
                    IRCMessage(source: serverName, command: "FAIL", params: ["MARKREAD", code] + params + [text]))
            }
        }
        guard let target = message.params.first, !target.isEmpty else {
            fail("NEED_MORE_PARAMS", [], "MARKREAD <target> [timestamp=<time>]")
            return
        }
        var requested: Date?
        if message.params.count > 1 {
            guard case .time(let parsed)?? = Self.parseRef(message.params[1]) else {
                fail("INVALID_PARAMS", [target], "Use timestamp=YYYY-MM-DDThh:mm:ss.sssZ")
                return
            }
            requested = parsed
        }
        let date = requested
        let key = IRCNames.fold(target)
        guard let account = chat.withLock({ state in state[client].account }) else {
            withState { state, out in
                var stored = state[client].readMarkers[key]
                if let date, stored.map({ $0 < date }) ?? true,
                    stored != nil || state[client].readMarkers.count < Self.guestReadMarkers
                {
                    state[client].readMarkers[key] = date
                    stored = date
                }
                sendReadMarker(client, target, stored, out: &out)
            }
            return
        }
        let store = self.store
        later(
            client,
            { () -> Date? in
                if let date { return try? await store.advanceReadMarker(accountID: account.id, target: key, to: date) }
                return try? await store.readMarker(accountID: account.id, target: key)
            }
        ) { stored in
            self.withState { state, out in
                // A new marker reaches every connection of the account that asked for the cap.
                let sessions =
                    date == nil
                    ? []
                    : state.clients.values.filter {
                        state[$0].account?.id == account.id && state[$0].caps.contains(Self.readMarkerCap)
                    }
                self.sendReadMarker(client, target, stored, to: sessions, out: &out)
            }
        }
    }

    /// MARKREAD to the asking client and to `others`.
    func sendReadMarker(
        _ client: Client, _ target: String, _ stored: Date?, to others: [Client] = [], out: inout Outbox
    ) {
        let value = stored.map { "timestamp=" + MessageStamp.time($0) } ?? "*"
        let marker = IRCMessage(source: serverName, command: "MARKREAD", params: [target, value])
        out.send(others.contains { $0 === client } ? others : others + [client], marker)
    }

    /// After a join that did not fetch it: the account's read marker for the channel, for
    /// clients with the cap (a guest's was sent with the join).
    func sendReadMarker(_ client: Client, channelName: String) {
        guard
            let account = chat.withLock({ state in
                state[client].caps.contains(Self.readMarkerCap) ? state[client].account : nil
            })
        else {
            return
        }
        let store = self.store
        let key = IRCNames.fold(channelName)
        later(client, { try? await store.readMarker(accountID: account.id, target: key) }) { stored in
            self.withState { _, out in self.sendReadMarker(client, channelName, stored, out: &out) }
        }
    }
}
