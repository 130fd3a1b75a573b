import HearthKit

/// A family's tree, feed and places are its members' (docs/SECURITY.md): a family command said
/// in a channel other than the family's own is answered to the caller privately, so nobody
/// else in that channel reads it.
enum FamilyPrivacy {
    /// `!tree` subcommands about families other than the channel's (the caller's list, a switch,
    /// a new household): private even in a family's channel.
    static let beyondTheChannel: Set<String> = ["families", "use", "new", "independent"]

    /// The commands, each answering privately wherever the family's members are not the only readers.
    static func keptInFamily(_ commands: [BotCommand]) -> [BotCommand] {
        commands.map { command in
            var kept = command
            let handler = command.handler
            kept.handler = { request in
                guard let channel = request.caller.channel, !answersInChannel(request, channel) else {
                    return try await handler(request)
                }
                var asked = request
                // Said where no family lives: run as if said privately (links and codes included).
                if FamilyCommands.familyID(channel: channel) == nil { asked.caller.channel = nil }
                return try await handler(asked).privately
            }
            return kept
        }
    }

    /// The answer to `request` about `familyID`'s things (a post's comments), privately unless
    /// said in that family's channel.
    static func kept(_ response: BotResponse, _ request: BotRequest, familyID: Int64) -> BotResponse {
        guard let channel = request.caller.channel, FamilyCommands.familyID(channel: channel) != familyID else {
            return response
        }
        return response.privately
    }

    /// Whether the answer may go to `channel`: it is the family's own channel and the command
    /// names no other family.
    static func answersInChannel(_ request: BotRequest, _ channel: String) -> Bool {
        guard let here = FamilyCommands.familyID(channel: channel) else { return false }
        if request.command.name == "tree", let sub = request.words.first?.lowercased(), beyondTheChannel.contains(sub) {
            return false
        }
        return request.words.allSatisfy { FamilyCommands.familyID(channel: $0).map { $0 == here } ?? true }
    }
}
