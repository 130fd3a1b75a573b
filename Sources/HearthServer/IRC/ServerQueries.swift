import Foundation
import HearthKit
import HearthProtocol

/// WHOWAS, INFO, ADMIN, LINKS and WALLOPS.
extension Core {
    /// Remembers a user leaving a nick (a QUIT or a NICK change).
    func rememberNick(_ state: inout ChatState, _ client: Client, nick: String? = nil) {
        guard state[client].registered, !state[client].isPlain || state[client].account != nil else { return }
        state.whowas.record(
            WhowasLog.Entry(
                nick: nick ?? state[client].nick, user: state[client].user, host: state[client].host,
                realname: state[client].realname,
                server: client.remote?.server ?? serverName, account: state[client].account?.name, leftAt: Date()))
    }

    func whowas(_ client: Client, _ message: IRCMessage) {
        guard let target = message.params.first, !target.isEmpty else {
            reply(client, .noNicknameGiven, "No nickname given")
            return
        }
        let limit = message.params.count > 1 ? Int(message.params[1]) ?? 0 : 0
        withState { state, out in
            let found = state.whowas.lookup(target, limit: limit)
            if found.isEmpty {
                out.send(client, numeric(state, client, .wasNoSuchNick, target, "There was no such nickname"))
            }
            for entry in found {
                out.send(
                    client, numeric(state, client, .whowasUser, entry.nick, entry.user, entry.host, "*", entry.realname)
                )
                out.send(
                    client,
                    numeric(state, client, .whoisServer, entry.nick, entry.server, entry.leftAt.formatted(.iso8601)))
                if let account = entry.account {
                    out.send(client, numeric(state, client, .whoisAccount, entry.nick, account, "was logged in as"))
                }
            }
            out.send(client, numeric(state, client, .endOfWhowas, target, "End of WHOWAS"))
        }
    }

    /// Whether `target` (INFO's or LINKS' server) names this server or a node of its network.
    func isOurServer(_ target: String) -> Bool {
        let folded = target.lowercased()
        let names = [serverName] + (network.map { Array($0.peerServers.values) } ?? [])
        return names.contains { IRCNames.globMatch(folded, $0.lowercased()) }
    }

    func info(_ client: Client, _ message: IRCMessage) {
        if let target = message.params.first, !isOurServer(target) {
            reply(client, .noSuchServer, target, "No such server")
            return
        }
        let lines = [
            "Hearth \(HearthVersion.number): a chat server for nc, IRC clients and bots, with a built-in social bot",
            "(memes, a daily fortune cookie, recipes and family trees).",
            "Written in Swift on SwiftNIO; data in SQLite or PostgreSQL; passwords hashed with libsodium's Argon2id;",
            "pictures drawn with libgd.",
            "Started \(startedAt.formatted(.iso8601)) as \(serverName)"
                + (network.map { ", node \($0.name) of a network" } ?? "") + ".",
            "The bot \(Bot.nick) answers /msg \(Bot.nick) help; HELP lists the IRC commands.",
        ]
        withState { state, out in
            for line in lines { out.send(client, numeric(state, client, .info, line)) }
            out.send(client, numeric(state, client, .endOfInfo, "End of /INFO list"))
        }
    }

    /// ADMIN: who runs this server. Hearth keeps no contact address; operators are reached on IRC.
    func admin(_ client: Client, _ message: IRCMessage) {
        if let target = message.params.first, !isOurServer(target) {
            reply(client, .noSuchServer, target, "No such server")
            return
        }
        withState { state, out in
            out.send(client, numeric(state, client, .adminMe, serverName, "Administrative info"))
            out.send(client, numeric(state, client, .adminLoc1, config.description))
            out.send(client, numeric(state, client, .adminLoc2, "Network \(config.networkName)"))
            out.send(client, numeric(state, client, .adminEmail, "Ask an IRC operator (WHO * shows them with *)"))
        }
    }

    /// LINKS: this server, and every other node of its network (one hop away: they share the database).
    func links(_ client: Client, _ message: IRCMessage) {
        let mask = message.params.last ?? "*"
        var servers = [(serverName, 0)]
        if let network { servers += network.peerServers.values.sorted().map { ($0, 1) } }
        withState { state, out in
            for (server, hops) in servers where IRCNames.globMatch(mask.lowercased(), server.lowercased()) {
                out.send(client, numeric(state, client, .links, server, serverName, "\(hops) \(config.description)"))
            }
            out.send(client, numeric(state, client, .endOfLinks, mask, "End of /LINKS list"))
        }
    }

    /// WALLOPS: an operator's message to every user with mode +w (the sender sees it too).
    func wallops(_ client: Client, _ message: IRCMessage) {
        let text = message.params[0]
        withState { state, out in
            let line = userMessage(state, client, "WALLOPS", [text])
            let readers = state.clients.values.filter {
                state[$0].registered && (state[$0].wallops || $0 === client) && !state[$0].isPlain
            }
            out.send(Array(readers), line)
        }
    }

    /// REHASH (operators): reads the configuration file again, as SIGHUP does, and says what
    /// changed, what needs a restart, or why nothing did.
    func rehash(_ client: Client, _ message: IRCMessage) {
        reply(client, .rehashing, config.configFile ?? "-", "Rehashing")
        guard rehashHook.isListening else {
            withState { state, out in
                notice(state, client, "REHASH: this server was started without a configuration file", out: &out)
            }
            return
        }
        rehashHook(client)
    }
}
