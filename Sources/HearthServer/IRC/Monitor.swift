import HearthProtocol

/// MONITOR (IRCv3): a client names nicks and is told when they come online or go offline.
extension Core {
    /// Nicks one client may monitor (ISUPPORT MONITOR).
    static let monitorLimit = 100

    func monitor(_ client: Client, _ message: IRCMessage) {
        let sub = message.params[0].uppercased()
        let targets = (message.params.dropFirst().first ?? "").split(separator: ",").map(String.init).filter {
            !$0.isEmpty
        }
        withState { state, out in
            guard state.clients[client.id] != nil else { return }  // killed meanwhile
            switch sub {
            case "+":
                var added: [String] = []
                for (index, nick) in targets.enumerated() where IRCNames.isValidNick(nick) {
                    let key = IRCNames.fold(nick)
                    if client.monitoring.contains(key) { continue }
                    if client.monitoring.count >= Self.monitorLimit {
                        out.send(
                            client,
                            numeric(
                                client, .monListFull, String(Self.monitorLimit),
                                targets[index...].joined(separator: ","), "Monitor list is full"))
                        break
                    }
                    client.monitoring.insert(key)
                    state.watchers[key, default: []].insert(client.id)
                    added.append(nick)
                }
                sendMonitorStatus(&state, client, added, out: &out)
            case "-":
                for nick in targets { unwatch(&state, client, IRCNames.fold(nick)) }
            case "C":
                for key in client.monitoring { unwatch(&state, client, key) }
            case "L":
                let names = client.monitoring.sorted()
                for chunk in stride(from: 0, to: names.count, by: 20) {
                    out.send(
                        client,
                        numeric(client, .monList, names[chunk..<min(chunk + 20, names.count)].joined(separator: ",")))
                }
                out.send(client, numeric(client, .endOfMonList, "End of MONITOR list"))
            case "S":
                sendMonitorStatus(&state, client, client.monitoring.sorted(), out: &out)
            default:
                out.send(
                    client,
                    numeric(client, .unknownCommand, "MONITOR", "Unknown MONITOR subcommand \(sub) (use + - C L S)"))
            }
        }
    }

    private func unwatch(_ state: inout ChatState, _ client: Client, _ key: String) {
        client.monitoring.remove(key)
        state.watchers[key]?.remove(client.id)
        if state.watchers[key]?.isEmpty == true { state.watchers[key] = nil }
    }

    private func sendMonitorStatus(_ state: inout ChatState, _ client: Client, _ wanted: [String], out: inout Outbox) {
        var online: [String] = []
        var offline: [String] = []
        for nick in wanted {
            if let holder = state.nicks[IRCNames.fold(nick)], holder.registered {
                online.append(holder.prefix)
            } else {
                offline.append(nick)
            }
        }
        if !online.isEmpty { out.send(client, numeric(client, .monOnline, online.joined(separator: ","))) }
        if !offline.isEmpty { out.send(client, numeric(client, .monOffline, offline.joined(separator: ","))) }
    }

    /// Tells the watchers of `client`'s nick that it came online (or went offline).
    func announcePresence(
        _ state: inout ChatState, _ client: Client, online: Bool, nick: String? = nil, out: inout Outbox
    ) {
        let shown = nick ?? client.nick
        guard let ids = state.watchers[IRCNames.fold(shown)], !ids.isEmpty else { return }
        for id in ids {
            guard let watcher = state.clients[id] else { continue }
            out.send(
                watcher, online ? numeric(watcher, .monOnline, client.prefix) : numeric(watcher, .monOffline, shown))
        }
    }

    /// A departing client stops watching.
    func dropMonitors(_ state: inout ChatState, _ client: Client) {
        for key in client.monitoring { unwatch(&state, client, key) }
    }
}
