import HearthKit
import HearthProtocol

extension Core {
    /// Commands listed per line of HELP.
    static let helpNamesPerLine = 10

    /// HELP (and HELPOP): the command table itself — every command, or one command's usage and
    /// rules — so it cannot drift from what the server answers. The bot's own help is `!help`.
    func help(_ client: Client, _ message: IRCMessage) {
        let subject = message.params.first.map { $0.uppercased() } ?? "*"
        if subject == "*" || subject == "INDEX" {
            let isOper = chat.withLock { state in state[client].isOper }
            let names = Self.ircCommands.values.filter { !$0.operatorOnly || isOper }.map(\.name).sorted()
            reply(client, .helpStart, subject, "Hearth answers these IRC commands (HELP <command> for one):")
            for start in stride(from: 0, to: names.count, by: Self.helpNamesPerLine) {
                let line = names[start..<min(start + Self.helpNamesPerLine, names.count)]
                reply(client, .helpText, subject, line.joined(separator: " "))
            }
            reply(client, .helpText, subject, "The bot \(Bot.nick) does the rest: /msg \(Bot.nick) help")
            reply(client, .endOfHelp, subject, "End of /HELP")
            return
        }
        guard let command = Self.ircCommands[subject] else {
            reply(client, .helpNotFound, subject, "No help available on this topic")
            return
        }
        reply(client, .helpStart, subject, command.usage ?? command.name)
        var rules: [String] = []
        if command.minParams > 0 { rules.append("needs at least \(command.minParams) parameter(s)") }
        if command.beforeRegistration { rules.append("works before registration") }
        if command.operatorOnly { rules.append("IRC operators only") }
        if !rules.isEmpty { reply(client, .helpText, subject, rules.joined(separator: "; ")) }
        reply(client, .endOfHelp, subject, "End of /HELP")
    }
}
