import HearthKit

/// `!help` and `!help COMMAND`.
enum HelpCommands {
    static let all: [BotCommand] = [
        BotCommand(
            "help", group: "help", usage: "[COMMAND]", summary: "list commands, or explain one",
            example: "!help register", arity: 0...1
        ) { request in
            let bot = request.bot
            if let word = request.words.first {
                let name = word.hasPrefix("!") ? String(word.dropFirst()).lowercased() : word.lowercased()
                guard let command = bot.commands[name] else {
                    let suggestions = Suggest.closest(to: name, in: Array(bot.commands.keys))
                    let hint =
                        suggestions.isEmpty
                        ? "" : " — did you mean \(suggestions.map { "!\($0)" }.joined(separator: " or "))?"
                    throw BotError("no command !\(name)\(hint)")
                }
                var lines = ["\(command.usageLine) — \(command.summary)", "example: \(command.example)"]
                if command.requiresLogin { lines.append("(you need to be logged in)") }
                if command.secret { lines.append("(send it privately: in a channel it is never shown to others)") }
                if !command.secretSubcommands.isEmpty {
                    let names = command.secretSubcommands.sorted().map { "!\(command.name) \($0)" }.joined(
                        separator: " and ")
                    lines.append("(send \(names) privately: in a channel they are never shown to others)")
                }
                return BotResponse(lines)
            }
            var lines = ["Hearth commands — type !help COMMAND for details:"]
            for group in bot.groupOrder {
                let names = bot.commands.values.filter { $0.group == group }.map(\.name).sorted()
                if names.isEmpty { continue }
                lines.append("  \(group): " + names.map { "!\($0)" }.joined(separator: " "))
            }
            lines.append(
                "  chat: /join #channel, /msg NICK TEXT, /part, /who, /list, /quit (plain mode) or your "
                    + "client's commands"
            )
            return BotResponse(lines)
        }
    ]
}
