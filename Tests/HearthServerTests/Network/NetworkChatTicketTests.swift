import Foundation
import HearthTesting
import Testing

/// The web chat's ticket behind a balancer: the page asks one node for it (`POST /chat/ticket`)
/// and its WebSocket may reach another, which must take it, once.
@Suite(.serialized) struct NetworkChatTicketTests {
    @Test func aTicketOneNodeGaveSignsTheChatInOnAnotherOnce() async throws {
        try await NetworkTests.withNodes(["alpha", "beta"]) { nodes in
            let (alpha, beta) = (nodes[0], nodes[1])
            let phone = try await NetworkTests.user("ann", on: alpha)
            try await phone.send("PRIVMSG hearth :!register ann s3cret-pass")
            try await phone.expect("PRIVMSG ann :Welcome")
            let web = WebBrowser(port: try NetworkWebFormTests.httpPort(alpha))
            #expect(try await web.signIn("ann").status == 303)
            let secret = try #require(try await ChatSignInTests.ticket(web).ticket)
            let chat = try await ChatSignInTests.sasl(port: beta.port, nick: "ann_", "ann", secret)
            try await chat.expectNumeric("903")
            // Used on beta: alpha does not take it again.
            let again = try await ChatSignInTests.sasl(port: alpha.port, nick: "ann__", "ann", secret)
            try await again.expect("the chat's sign-in ticket is used or expired")
            await phone.close()
        }
    }
}
