import HearthTesting
import Testing

/// MODE on one's own nick: flags change together, unknown letters are named, +o is OPER's.
@Suite struct UserModeTests {
    @Test func severalModesAtOnceAndUnknownOnesNamed() async throws {
        try await withServer {
            $0.operators = ["root": "t0p-secret"]
        } run: { server in
            let ann = try await TestClient.irc(server, nick: "ann")
            // +o is gained with OPER only, -B changes nothing (not set), i twice is once.
            try await ann.send("MODE ann +iwo-B+Zi")
            try await ann.expect(" 501 ann :Unknown MODE flag Z")
            try await ann.expect("MODE ann :+iw")
            try await ann.send("MODE ann")
            try await ann.expect(" 221 ann :+iw")
            try await ann.send("OPER root t0p-secret")
            try await ann.expectNumeric("381")
            try await ann.send("MODE ann -o-w+B")
            try await ann.expect("MODE ann :-ow+B")
            try await ann.send("MODE ann")
            try await ann.expect(" 221 ann :+Bi")
        }
    }
}
