import HearthTesting
import Testing

/// `INVITE` with no parameters lists one's invitations (336 each, then 337).
@Suite struct InviteListTests {
    @Test func inviteWithoutParametersListsTheInvitations() async throws {
        try await withServer { server in
            let foo = try await TestClient.irc(server, nick: "foo")
            let bar = try await TestClient.irc(server, nick: "bar")
            try await bar.send("INVITE")
            try await bar.expect(" 337 bar :End of /INVITE list")
            for channel in ["#chan", "#attic"] {
                try await foo.send("JOIN \(channel)")
                try await foo.expectNumeric("366")
                try await foo.send("INVITE bar \(channel)")
                try await foo.expect(" 341 foo bar :\(channel)")
            }
            try await bar.send("INVITE")
            try await bar.expect(" 336 bar :#attic")
            try await bar.expect(" 336 bar :#chan")
            try await bar.expect(" 337 bar :End of /INVITE list")
            try await bar.send("JOIN #chan")
            try await bar.expectNumeric("366")
            try await bar.send("INVITE")
            try await bar.expect(" 336 bar :#attic")
            try await bar.expectNoLine(containing: "#chan", before: " 337 bar")
            try await bar.send("INVITE foo")
            try await bar.expect(" 461 bar INVITE :Not enough parameters")
        }
    }
}
