import Foundation
import HearthProtocol

/// One IRC command: its handler and the rules every command shares, checked in one place
/// before the handler runs — 451 before registration, 481 without operator status, 461 with
/// too few parameters (the first `minParams` must also be non-empty).
struct IRCCommand: Sendable {
    let name: String
    let minParams: Int
    /// Usable before registration (these also tell an IRC client from an `nc` user).
    let beforeRegistration: Bool
    let operatorOnly: Bool
    /// Usable before registration by a client that negotiated this cap (draft/pre-away's AWAY).
    let earlyWith: String?
    /// Shown after "Not enough parameters" when it helps.
    let usage: String?
    let run: @Sendable (Core, Client, IRCMessage) -> Void

    init(
        _ name: String, min minParams: Int = 0, early beforeRegistration: Bool = false, earlyWith: String? = nil,
        oper operatorOnly: Bool = false, usage: String? = nil,
        _ run: @escaping @Sendable (Core, Client, IRCMessage) -> Void
    ) {
        self.name = name
        self.minParams = minParams
        self.beforeRegistration = beforeRegistration
        self.earlyWith = earlyWith
        self.operatorOnly = operatorOnly
        self.usage = usage
        self.run = run
    }
}

extension Core {
    /// Every IRC command Hearth answers; anything else is 421.
    static let ircCommands: [String: IRCCommand] = Dictionary(
        uniqueKeysWithValues: [
            IRCCommand("CAP", early: true) { $0.cap($1, $2) },
            IRCCommand("NICK", early: true, usage: "NICK <nickname>") { $0.nick($1, $2) },
            IRCCommand("USER", min: 4, early: true, usage: "USER <username> 0 * :<realname>") { $0.user($1, $2) },
            IRCCommand("PASS", min: 1, early: true, usage: "PASS <account>:<password>") { $0.pass($1, $2) },
            IRCCommand("AUTHENTICATE", min: 1, early: true) { $0.authenticate($1, $2) },
            IRCCommand("REGISTER", min: 3, early: true, usage: "REGISTER <account|*> <email|*> <password>") {
                $0.register($1, $2)
            },
            IRCCommand("VERIFY", min: 2, early: true, usage: "VERIFY <account> <code>") { $0.verify($1, $2) },
            IRCCommand(
                "METADATA", min: 2, early: true, usage: "METADATA <target> GET|LIST|SET|CLEAR|SUB|UNSUB|SUBS|SYNC"
            ) {
                $0.metadata($1, $2)
            },
            IRCCommand("PING", early: true) { $0.ping($1, $2) },
            IRCCommand("PONG", early: true) { _, _, _ in },
            IRCCommand("QUIT", early: true) { $0.quit($1, reason: $2.params.first) },
            IRCCommand("BATCH", min: 1, usage: "BATCH +id draft/multiline target, or BATCH -id") { $0.batch($1, $2) },
            IRCCommand("PRIVMSG", usage: "PRIVMSG <target>[,<target>] :<text>") { $0.privmsg($1, $2) },
            IRCCommand("NOTICE", usage: "NOTICE <target>[,<target>] :<text>") { $0.privmsg($1, $2) },
            IRCCommand("TAGMSG", usage: "@<tags> TAGMSG <target>") { $0.tagmsg($1, $2) },
            IRCCommand("SETNAME", min: 1, usage: "SETNAME :<realname>") { $0.setname($1, $2) },
            IRCCommand("MONITOR", min: 1, usage: "MONITOR + <nick>[,<nick>] | - <nick> | C | L | S") {
                $0.monitor($1, $2)
            },
            IRCCommand("SEARCH", min: 1, usage: "SEARCH text=WORDS[;in=TARGET;from=NICK;after=T;before=T;limit=N]") {
                $0.search($1, $2)
            },
            IRCCommand("CHATHISTORY", usage: "CHATHISTORY LATEST|BEFORE|AFTER|AROUND|BETWEEN <target> ... <limit>") {
                $0.chathistory($1, $2)
            },
            IRCCommand("REDACT", min: 2, usage: "REDACT <target> <msgid> [:reason]") { $0.redact($1, $2) },
            IRCCommand("EDIT", min: 1, usage: "@draft/target-msgid=<msgid>;draft/edit-text=<text> EDIT <target>") {
                $0.edit($1, $2)
            },
            IRCCommand("MARKREAD", usage: "MARKREAD <target> [timestamp=<time>]") { $0.markread($1, $2) },
            IRCCommand("WEBPUSH", min: 1, usage: "WEBPUSH REGISTER <endpoint> <keys>") { $0.webpush($1, $2) },
            IRCCommand("JOIN", min: 1, usage: "JOIN <channel>[,<channel>] [<key>[,<key>]]") { $0.join($1, $2) },
            IRCCommand("PART", min: 1, usage: "PART <channel>[,<channel>] [:<reason>]") { $0.part($1, $2) },
            IRCCommand("TOPIC", min: 1, usage: "TOPIC <channel> [:<topic>]") { $0.topic($1, $2) },
            IRCCommand("NAMES", usage: "NAMES <channel>") { $0.names($1, $2) },
            IRCCommand("WHO", usage: "WHO <channel|nick>") { $0.who($1, $2) },
            IRCCommand("WHOIS", usage: "WHOIS <nick>") { $0.whois($1, $2) },
            IRCCommand("LIST", usage: "LIST [<channel>[,<channel>]]") { $0.list($1, $2) },
            IRCCommand("MODE", min: 1, usage: "MODE <channel|nick> [<modes> [<params>]]") { $0.mode($1, $2) },
            IRCCommand("KICK", min: 2, usage: "KICK <channel> <nick> [:<reason>]") { $0.kick($1, $2) },
            IRCCommand("INVITE", usage: "INVITE [<nick> <channel>]") { $0.inviteOrList($1, $2) },
            IRCCommand("AWAY", earlyWith: preAwayCap, usage: "AWAY [:<message>]") { $0.away($1, $2) },
            IRCCommand("ISUPPORT", earlyWith: extendedISupportCap) { $0.isupport($1, $2) },
            IRCCommand("RENAME", min: 2, usage: "RENAME <channel> <new name> [:<reason>]") { $0.rename($1, $2) },
            IRCCommand("KNOCK", min: 1, usage: "KNOCK <channel> [:<message>]") { $0.knock($1, $2) },
            IRCCommand("OPER", min: 2, usage: "OPER <name> <password>") { $0.oper($1, $2) },
            IRCCommand("MOTD") { core, client, _ in core.withState { state, out in core.motd(state, client, out: &out) }
            },
            IRCCommand("LUSERS") { core, client, _ in core.withState { core.lusers(&$0, client, out: &$1) } },
            IRCCommand("VERSION") { core, client, _ in
                core.reply(client, .version, core.version, core.serverName, "Hearth IRC server")
            },
            IRCCommand("TIME") { core, client, _ in
                core.reply(client, .time, core.serverName, Date().formatted(.iso8601))
            },
            IRCCommand("ISON", usage: "ISON <nick> [<nick>...]") { $0.ison($1, $2) },
            IRCCommand("USERHOST", min: 1, usage: "USERHOST <nick> [<nick>...]") { $0.userhost($1, $2) },
            IRCCommand("KILL", min: 1, oper: true, usage: "KILL <nick> [:<reason>]") { $0.kill($1, $2) },
            IRCCommand("CHGHOST", min: 2, oper: true, usage: "CHGHOST <nick> <host>") { $0.chghost($1, $2) },
            IRCCommand("HELP", usage: "HELP [<command>]") { $0.help($1, $2) },
            IRCCommand("WHOWAS", usage: "WHOWAS <nick> [<count>]") { $0.whowas($1, $2) },
            IRCCommand("INFO", usage: "INFO [<server>]") { $0.info($1, $2) },
            IRCCommand("ADMIN", usage: "ADMIN [<server>]") { $0.admin($1, $2) },
            IRCCommand("LINKS", usage: "LINKS [[<server>] <mask>]") { $0.links($1, $2) },
            IRCCommand("WALLOPS", min: 1, oper: true, usage: "WALLOPS :<text>") { $0.wallops($1, $2) },
            IRCCommand("HELPOP", usage: "HELPOP [<command>]") { $0.help($1, $2) },
            IRCCommand("REHASH", oper: true, usage: "REHASH") { $0.rehash($1, $2) },
            IRCCommand("NETSTATE", oper: true, usage: "NETSTATE [<channel>]") { $0.netstate($1, $2) },
            IRCCommand("UBAN", min: 1, oper: true, usage: "UBAN ADD|DEL|LIST|INFO [<target>]") { $0.uban($1, $2) },
            IRCCommand("KLINE", min: 1, oper: true, usage: "KLINE [<duration>] <mask> [:<reason>]") {
                $0.kline($1, $2)
            },
            IRCCommand("DLINE", min: 1, oper: true, usage: "DLINE [<duration>] <address> [:<reason>]") {
                $0.kline($1, $2)
            },
            IRCCommand("UNKLINE", min: 1, oper: true, usage: "UNKLINE <mask>") { $0.unkline($1, $2) },
            IRCCommand("UNDLINE", min: 1, oper: true, usage: "UNDLINE <address>") { $0.unkline($1, $2) },
        ].map { ($0.name, $0) })

    /// Commands an IRC client may send before registration. A first line starting with one
    /// of these (upper-case, as clients send them) selects IRC mode; anything else is plain.
    static let preRegistration: Set<String> = Set(ircCommands.values.filter(\.beforeRegistration).map(\.name))

    /// Looks the command up and applies the shared rules; the handler runs only if all pass.
    func dispatch(_ client: Client, _ message: IRCMessage, route: LineRoute) {
        let known = Self.ircCommands[message.command]
        let (registered, isOper) = (route.registered, route.isOper)
        if !registered && known?.beforeRegistration != true && !negotiated(client, known?.earlyWith) {
            reply(client, .notRegistered, "You have not registered")
            return
        }
        guard let command = known else {
            reply(client, .unknownCommand, message.command, "Unknown command")
            return
        }
        if command.operatorOnly && !isOper {
            reply(client, .noPrivileges, "Permission Denied — you're not an IRC operator")
            return
        }
        let given = message.params.prefix(command.minParams)
        if given.count < command.minParams || given.contains(where: \.isEmpty) {
            reply(
                client, .needMoreParams, command.name, "Not enough parameters" + (command.usage.map { ": \($0)" } ?? "")
            )
            return
        }
        command.run(self, client, message)
    }

    /// Whether `client` negotiated `cap` (nil: no cap lets the command in early).
    private func negotiated(_ client: Client, _ cap: String?) -> Bool {
        guard let cap else { return false }
        return chat.withLock { $0[client].caps.contains(cap) }
    }

    func ping(_ client: Client, _ message: IRCMessage) {
        guard let token = message.params.first else {
            reply(client, .noOrigin, "No origin specified")
            return
        }
        withState { _, out in
            out.send(client, IRCMessage(source: serverName, command: "PONG", params: [serverName, token]))
        }
    }
}
