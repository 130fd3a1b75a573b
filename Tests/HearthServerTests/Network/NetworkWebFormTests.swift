import Foundation
import HearthTesting
import Testing

/// A web form acts on the account's connections on every node, as its chat command does: signing
/// out everywhere, changing the password or deleting the account, posted to node alpha, logs out
/// the account's chat connection on beta (with the line chat gives) and ends its web session there.
@Suite(.serialized) struct NetworkWebFormTests {
    /// A node's HTTP port, from the line it prints when it starts.
    static func httpPort(_ node: NetworkTests.Node) throws -> Int {
        let output = node.process.output
        let range = try #require(output.range(of: "http://localhost:"), "no HTTP port in: \(output)")
        return try #require(Int(output[range.upperBound...].prefix { $0.isNumber }))
    }

    @Test(arguments: ["signout-all", "password", "delete"])
    func aFormPostedToOneNodeEndsTheSessionsOnAnother(form: String) async throws {
        try await NetworkTests.withNodes(["alpha", "beta"]) { nodes in
            let (alpha, beta) = (nodes[0], nodes[1])
            let phone = try await NetworkTests.user("ann", on: beta)
            try await phone.send("PRIVMSG hearth :!register ann s3cret-pass")
            try await phone.expect("PRIVMSG ann :Welcome")
            let onBeta = WebBrowser(port: try Self.httpPort(beta))
            #expect(try await onBeta.signIn("ann").status == 303)
            #expect(try await onBeta.get("/settings").status == 200)
            let onAlpha = WebBrowser(port: try Self.httpPort(alpha))
            #expect(try await onAlpha.signIn("ann").status == 303)
            #expect(try await onAlpha.get("/settings").status == 200)

            let answer: WebBrowser.Page
            switch form {
            case "signout-all": answer = try await onAlpha.post("/signout/all", form: [:])
            case "password":
                answer = try await onAlpha.post(
                    "/settings/password",
                    form: ["old": "s3cret-pass", "password": "n3w-s3cret-pass", "password2": "n3w-s3cret-pass"])
            default:
                answer = try await onAlpha.post(
                    "/settings/delete", form: ["confirm": "ann", "password": "s3cret-pass"])
            }
            #expect(answer.status == 303, "\(answer.body)")

            // The chat connection on beta is logged out as chat logs it out.
            try await phone.expect("You were logged out from another connection.")
            try await phone.send("PRIVMSG hearth :!whoami")
            try await phone.expect("not logged in")
            // The web session on beta ended too.
            #expect(try await onBeta.get("/settings").status == 401)
            await phone.close()
        }
    }
}
