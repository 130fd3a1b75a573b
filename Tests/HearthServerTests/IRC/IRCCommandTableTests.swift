import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// The IRC command table's shared rules, for every command in it: 461 from one place,
/// 451 before registration, 481 for operator commands, 421 for what is not in the table.
@Suite struct IRCCommandTableTests {
    @Test func everyCommandGetsTheSharedChecks() async throws {
        try await withServer { server in
            let early = try await server.connect()
            try await early.send("CAP LS 302")  // an IRC client, not nc
            for command in Core.ircCommands.values where !command.beforeRegistration {
                try await early.send("\(command.name) x y z w")
                try await early.expect(" 451 * :You have not registered")
            }
            let c = try await TestClient.irc(server, nick: "tabby")
            for command in Core.ircCommands.values.sorted(by: { $0.name < $1.name }) where command.minParams > 0 {
                // Too few, and enough but the last one needed empty.
                let short = Array(repeating: "p", count: command.minParams - 1)
                for params in [short, short + [":"]] {
                    try await c.send(([command.name] + params).joined(separator: " "))
                    let code = command.operatorOnly ? "481" : "461"
                    let reply = try await c.expectNumeric(code)
                    if code == "461" {
                        #expect(reply.contains(" 461 tabby \(command.name) :Not enough parameters"), "\(reply)")
                    }
                }
            }
            try await c.send("FROBNICATE now")
            try await c.expect(" 421 tabby FROBNICATE :Unknown command")
            try await c.sync()
        }
    }

    /// HELP is the table: every command a user may send is listed, one command shows its
    /// usage and rules, operator commands stay out of a user's list, unknown topics get 524.
    @Test func helpIsDerivedFromTheTable() async throws {
        try await withServer { server in
            let c = try await TestClient.irc(server, nick: "helen")
            try await c.send("HELP")
            try await c.expect(" 704 helen * :Hearth answers these IRC commands")
            var listed: Set<String> = []
            while true {
                let line = try await c.expect("a HELP line") { $0.contains(" 705 helen * :") || $0.contains(" 706 ") }
                if line.contains(" 706 ") { break }
                let text = line.components(separatedBy: " 705 helen * :")[1]
                if !text.contains("/msg") { listed.formUnion(text.split(separator: " ").map(String.init)) }
            }
            let expected = Set(Core.ircCommands.values.filter { !$0.operatorOnly }.map(\.name))
            #expect(listed == expected)
            #expect(!listed.contains("KILL"))

            try await c.send("HELP join")
            try await c.expect(" 704 helen JOIN :JOIN <channel>[,<channel>] [<key>[,<key>]]")
            try await c.expect(" 705 helen JOIN :needs at least 1 parameter(s)")
            try await c.expect(" 706 helen JOIN :End of /HELP")
            try await c.send("HELPOP frobnicate")
            try await c.expect(" 524 helen FROBNICATE :No help available on this topic")
        }
    }
}
