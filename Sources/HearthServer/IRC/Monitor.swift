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
                    if state[client].monitoring.contains(key) { continue }
                    if state[client].monitoring.count >= Self.monitorLimit {
                        out.send(
                            client,
                            numeric(
                                state,
                                client, .monListFull, String(Self.monitorLimit),
                                targets[index...].joined(separator: ","), "Monitor list is full"))
                        break
                    }
                    state[client].monitoring.insert(key)
                    state.watchers[key, default: []].insert(client.id)
                    added.append(nick)
                }
                sendMonitorStatus(&state, client, added, out: &out)
            case "-":
                for nick in targets { unwatch(&state, client, IRCNames.fold(nick)) }
            case "C":
                for key in state[client].monitoring { unwatch(&state, client, key) }
            case "L":
                let names = state[client].monitoring.sorted()
                for chunk in stride(from: 0, to: names.count, by: 20) {
                    out.send(
                        client,
                        numeric(
                            state, client, .monList, names[chunk..<min(chunk + 20, names.count)].joined(separator: ","))
                    )
                }
                out.send(client, numeric(state, client, .endOfMonList, "End of MONITOR list"))
            case "S":
                sendMonitorStatus(&state, client, state[client].monitoring.sorted(), out: &out)
            default:
                out.send(
                    client,
                    numeric(
                        state, client, .unknownCommand, "MONITOR", "Unknown MONITOR subcommand \(sub) (use + - C L S)"))
            }
        }
    }

    private func unwatch(_ state: inout ChatState, _ client: Client, _ key: String) {
        state[client].monitoring.remove(key)
        state.watchers[key]?.remove(client.id)
        if state.watchers[key]?.isEmpty == true { state.watchers[key] = nil }
    }

    private func sendMonitorStatus(_ state: inout ChatState, _ client: Client, _ wanted: [String], out: inout Outbox) {
        var online: [String] = []
        var offline: [String] = []
        for nick in wanted {
            if let holder = state.nicks[IRCNames.fold(nick)], state[holder].registered {
                online.append(state[holder].prefix)
            } else {
                offline.append(nick)
            }
        }
        if !online.isEmpty { out.send(client, numeric(state, client, .monOnline, online.joined(separator: ","))) }
        if !offline.isEmpty { out.send(client, numeric(state, client, .monOffline, offline.joined(separator: ","))) }
    }

    /// Tells the watchers of `client`'s nick that it came online (or went offline).
    func announcePresence(
        _ state: inout ChatState, _ client: Client, online: Bool, nick: String? = nil, out: inout Outbox
    ) {
        let shown = nick ?? state[client].nick
        guard let ids = state.watchers[IRCNames.fold(shown)], !ids.isEmpty else { return }
        for id in ids {
            guard let watcher = state.clients[id] else { continue }
            out.send(
                watcher,
                online
                    ? numeric(state, watcher, .monOnline, state[client].prefix)
                    : numeric(state, watcher, .monOffline, shown))
        }
    }

    /// A departing client stops watching.
    func dropMonitors(_ state: inout ChatState, _ client: Client) {
        for key in state[client].monitoring { unwatch(&state, client, key) }
    }
}
