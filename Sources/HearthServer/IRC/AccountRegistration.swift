import HearthAccounts
import HearthKit
import HearthProtocol

/// `draft/account-registration`: `REGISTER <account|*> <email|*> <password>` runs the bot's
/// `!register` for the connection — the same name, password and email rules, the same
/// accounts-per-address limit, the same recovery codes — and logs it in as SASL would.
/// The recovery codes come back as `NOTE REGISTER RECOVERY_CODES` (they are shown once).
/// Hearth sends no mail, so nothing waits for `VERIFY`: an account is usable at once.
extension Core {
    static let accountRegistrationCap = "draft/account-registration"

    /// The cap's value (CAP LS 302): whether REGISTER works before connecting, and that any
    /// free name may be asked for, not only the nick.
    var accountRegistrationCapValue: String {
        var flags = ["custom-account-name"]
        if config.registerBeforeConnect { flags.insert("before-connect", at: 0) }
        if config.registerEmailRequired { flags.append("email-required") }
        return Self.accountRegistrationCap + "=" + flags.joined(separator: ",")
    }

    func register(_ client: Client, _ message: IRCMessage) {
        let (me, caller) = chat.withLock { state in (state[client], state.caller(client)) }
        let asked = message.params[0]
        let ownNick = me.registered ? me.nick : client.wantedNick
        let name = asked == "*" ? ownNick ?? "*" : asked
        @Sendable func fail(_ code: String, _ text: String) {
            withState { _, out in
                out.send(
                    client, IRCMessage(source: serverName, command: "FAIL", params: ["REGISTER", code, name, text]))
            }
        }
        guard name != "*" else { return fail("NEED_NICK", "Choose a nick first, or name the account") }
        guard me.registered || config.registerBeforeConnect else {
            return fail("COMPLETE_CONNECTION_REQUIRED", "Finish connecting first, then REGISTER")
        }
        let email = message.params[1] == "*" ? nil : message.params[1]
        if email == nil, config.registerEmailRequired {
            return fail("INVALID_EMAIL", "This server needs an email address for a new account")
        }
        // (Checked here too: `!register` would read a word without "@" as a phone number.)
        if let email, let problem = AccountService.emailProblem(email) { return fail("INVALID_EMAIL", problem) }
        let words = [name, message.params[2]] + (email.map { [$0] } ?? [])
        later(client, { [bot] in await bot.run("register", words: words, caller: caller, presence: self) }) {
            response in
            if let failure = response.failure {
                return fail(failure.code, response.lines.first ?? "Registration failed")
            }
            guard let (account, tokenHash) = response.effects.lazy.compactMap(Self.loginOf).first else {
                return fail("TEMPORARILY_UNAVAILABLE", "Registration failed; nothing was made")
            }
            self.protocolLogin(client, account, tokenHash: tokenHash, effects: response.effects)
            let codes = response.secrets.recoveryCodes.joined(separator: " ")
            self.withState { _, out in
                out.send(
                    client,
                    IRCMessage(
                        source: self.serverName, command: "REGISTER",
                        params: ["SUCCESS", account.name, response.lines.first ?? "Account registered"]))
                out.send(
                    client,
                    IRCMessage(
                        source: self.serverName, command: "NOTE",
                        params: [
                            "REGISTER", "RECOVERY_CODES", account.name,
                            "Recovery codes, each works once with !recover; not shown again: \(codes)",
                        ]))
            }
        }
    }

    /// `VERIFY <account> <code>`: Hearth sends no verification codes, so there is none to check.
    func verify(_ client: Client, _ message: IRCMessage) {
        withState { _, out in
            out.send(
                client,
                IRCMessage(
                    source: serverName, command: "FAIL",
                    params: [
                        "VERIFY", "INVALID_CODE", message.params[0],
                        "This server sends no verification codes: REGISTER makes a usable account at once",
                    ]))
        }
    }

    private static func loginOf(_ effect: SessionEffect) -> (AccountRef, String?)? {
        if case .login(let account, let tokenHash) = effect { return (account, tokenHash) }
        return nil
    }
}
