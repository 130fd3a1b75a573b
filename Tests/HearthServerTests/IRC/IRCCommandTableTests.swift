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
}
