import HearthTesting
import Testing

/// A server ban set on one node holds on every node: the others read it from the store when the
/// UBAN reaches them, end who it matches there and refuse them from then on.
@Suite struct NetworkServerBanTests {
    @Test func aBanSetOnOneNodeEndsAndRefusesAUserOfAnother() async throws {
        try await NetworkTests.withNodes(["alpha", "beta"]) { nodes in
            let (alpha, beta) = (nodes[0], nodes[1])
            let bob = try await NetworkTests.user("bob", on: beta)
            let oper = try await NetworkTests.user("oper", on: alpha)
            try await oper.send("OPER root \(NetworkTests.operatorPassword)")
            try await oper.expectNumeric("381")
            try await oper.send("UBAN ADD bob!*@* :flooding")
            try await oper.expect("NOTICE oper :Banned bob!*@* (mask) — flooding")
            try await bob.expect(" 465 bob :You are banned from this server: flooding")
            try await bob.expectClosed()
            let again = try await TestClient.connect(port: beta.port)
            for line in ["NICK bob", "USER bob 0 * :Bob"] { try await again.send(line) }
            try await again.expect(" 465 bob :You are banned from this server: flooding")
            try await oper.send("UBAN DEL bob!*@*")
            try await oper.expect("NOTICE oper :Removed the ban on bob!*@*")
            await oper.close()
        }
    }
}
