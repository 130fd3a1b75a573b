import Foundation
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthProtocol
import HearthStore

/// `!register`, `!login`, `!logout`, `!whoami`, `!passwd`, `!rename`, `!recover`, `!resume`, `!account`
/// (and `!cert`, CertificateCommands.swift).
enum AccountCommands {
    static let group = "accounts"

    static func tokenLines(_ token: String) -> [String] {
        [
            "Your resume token (keep it secret): \(token)",
            "To stay logged in after a disconnect or restart: !resume TOKEN, or PASS TOKEN / SASL from an IRC client.",
        ]
    }

    static let register = BotCommand(
        "register", group: group, usage: "NAME PASSWORD [email] [phone] [INVITE-CODE]",
        summary: "create an account; shows one-time recovery codes", example: "!register alice s3cret-pass",
        arity: 2...5, secret: true
    ) { request in
        if let account = request.caller.account {
            throw BotError(
                "you are already logged in as \(account.name); !logout first to make another account",
                code: "ALREADY_AUTHENTICATED")
        }
        let words = request.words
        let name = words[0]
        let password = words[1]
        var email: String?
        var phone: String?
        var invite: String?
        for extra in words.dropFirst(2) {
            if FamilyCommands.looksLikeInvite(extra) {
                invite = extra
            } else if extra.contains("@") {
                if let problem = AccountService.emailProblem(extra) {
                    throw BotError(request.usageError(problem).message, code: "INVALID_EMAIL")
                }
                email = extra
            } else {
                let digits = extra.filter(\.isNumber)
                guard extra.count <= AccountService.maxPhoneLength, digits.count >= 5,
                    extra.allSatisfy({ $0.isNumber || "+-(). ".contains($0) })
                else { throw request.usageError("\"\(extra)\" is neither an email address nor a phone number") }
                phone = extra
            }
        }
        if let error = AccountService.nameError(name) { throw error }
        if let holder = request.presence.sessionUsing(nickKey: IRCNames.fold(name)),
            holder != request.caller.sessionID
        {
            throw BotError("someone online is using the nick \(name); pick another name", code: "ACCOUNT_EXISTS")
        }
        let services = request.services
        let accounts = services.accounts
        let address = request.caller.address
        // A family's or an operator's invite code lets a household sign up together from one
        // address; without one, an address makes only so many per hour.
        if let problem = accounts.passwordProblem(password) { throw BotError(problem, code: "WEAK_PASSWORD") }
        var pass: RegistrationPass?
        if let invite { pass = try await RegistrationPass.claim(services, code: invite, address: address) }
        if pass == nil, let wait = accounts.registrations.take(address) {
            let minutes = Int((wait / 60).rounded(.up))
            throw BotError(
                "\(accounts.registrations.limit) accounts were made from your address this hour; "
                    + "try again in \(minutes) min (or register with an invite code)",
                code: "TEMPORARILY_UNAVAILABLE")
        }
        let account: Stored<Account>
        let codes: [String]
        do {
            (account, codes) = try await accounts.register(name: name, password: password, email: email, phone: phone)
        } catch {
            // Nothing was made: the code or the address's quota is given back.
            if let pass { await pass.giveBack(services) } else { accounts.registrations.giveBack(address) }
            throw error
        }
        let me = AccountRef(id: account.id, name: account.name)
        accounts.throttle.markKnown(accountKey: account.nameKey, address: address)  // its owner's address
        let (token, hash) = try await accounts.issueToken(accountID: account.id)
        let joined = await pass?.use(services, me) ?? BotResponse([])
        var response = BotResponse(
            ["Welcome to Hearth, \(account.name)! Your account is ready and you are logged in."] + joined.lines,
            privateLines: [
                "Recovery codes — each works once with !recover if you forget your password. They are not shown again:",
                codes.joined(separator: "  "),
            ] + tokenLines(token),
            effects: try await services.loginEffects(me, tokenHash: hash) + joined.effects)
        response.secrets = BotResponse.Secrets(token: token, recoveryCodes: codes)
        return response
    }

    static let login = BotCommand(
        "login", group: group, usage: "NAME PASSWORD", summary: "log in; gives a resume token",
        example: "!login alice s3cret-pass", arity: 2...2, secret: true
    ) { request in
        let accounts = request.services.accounts
        let account = try await accounts.checkPassword(
            name: request.words[0], password: request.words[1], address: request.caller.address)
        let (token, hash) = try await accounts.issueToken(accountID: account.id)
        return BotResponse(
            ["You are logged in as \(account.name)."], privateLines: tokenLines(token),
            effects: try await request.services.loginEffects(
                AccountRef(id: account.id, name: account.name), tokenHash: hash))
    }

    static let resume = BotCommand(
        "resume", group: group, usage: "TOKEN", summary: "log back in with a resume token",
        example: "!resume hrt_3f9c…", arity: 1...1, secret: true
    ) { request in
        let accounts = request.services.accounts
        let (account, hash) = try await accounts.checkToken(request.words[0], address: request.caller.address)
        return BotResponse(
            ["Welcome back, \(account.name) — you are logged in."],
            effects: try await request.services.loginEffects(
                AccountRef(id: account.id, name: account.name), tokenHash: hash))
    }

    static let logout = BotCommand(
        "logout", group: group, usage: "[all]", summary: "log out here, or everywhere with all",
        example: "!logout all", arity: 0...1, requiresLogin: true
    ) { request in
        let account = try request.account()
        let store = request.services.store
        if let word = request.words.first {
            guard word.lowercased() == "all" else { throw request.usageError("unknown option \(word)") }
            try await store.revokeAllTokens(accountID: account.id)
            return BotResponse(
                ["You are logged out everywhere; all your resume tokens are revoked."],
                effects: [.logoutEverywhere(accountID: account.id)])
        }
        if let hash = request.caller.tokenHash { try await store.revokeToken(tokenHash: hash) }
        return BotResponse(["You are logged out; this connection's resume token is revoked."], effects: [.logout])
    }

    static let whoami = BotCommand(
        "whoami", group: group, summary: "who you are logged in as", example: "!whoami", arity: 0...0
    ) { request in
        let caller = request.caller
        let mode = caller.isIRC ? "IRC" : "plain"
        // Never show the address in a channel.
        let from = caller.channel == nil ? ", from \(caller.address)" : ""
        guard let ref = caller.account, let account = try await request.services.store.account(id: ref.id) else {
            return BotResponse([
                "You are \(caller.nick), not logged in (\(mode) mode\(from)). !register NAME PASSWORD or "
                    + "!login NAME PASSWORD."
            ])
        }
        let since = account.createdAt.formatted(.iso8601.year().month().day())
        return BotResponse([
            "You are \(caller.nick), logged in as \(account.name) (account since \(since)), \(mode) mode\(from)."
        ])
    }

    static let passwd = BotCommand(
        "passwd", group: group, usage: "OLD NEW", summary: "change your password (other devices are logged out)",
        example: "!passwd s3cret-pass n3w-s3cret", arity: 2...2, requiresLogin: true, secret: true
    ) { request in
        let ref = try request.account()
        let accounts = request.services.accounts
        if let problem = request.services.accounts.passwordProblem(request.words[1]) { throw BotError(problem) }
        _ = try await accounts.checkPassword(
            name: ref.name, password: request.words[0], address: request.caller.address)
        try await accounts.setPassword(accountID: ref.id, password: request.words[1])
        try await request.services.store.revokeAllTokens(accountID: ref.id)
        // A lost phone's address must not stay exempt from the account's ceiling; this one is.
        accounts.throttle.forgetKnown(accountKey: IRCNames.fold(ref.name))
        accounts.throttle.markKnown(accountKey: IRCNames.fold(ref.name), address: request.caller.address)
        let (token, tokenHash) = try await accounts.issueToken(accountID: ref.id)
        var response = BotResponse(
            [
                "Password changed. Your other connections are logged out and old resume tokens no longer work; "
                    + "here is a new one."
            ],
            privateLines: tokenLines(token),
            effects: [.logoutEverywhere(accountID: ref.id, keep: request.caller.sessionID)]
                + (try await request.services.loginEffects(ref, tokenHash: tokenHash)))
        response.secrets.token = token
        return response
    }

    static let rename = BotCommand(
        "rename", group: group, usage: "NEWNAME", summary: "change your account name (and nick)",
        example: "!rename alice2", arity: 1...1, requiresLogin: true
    ) { request in
        let ref = try request.account()
        let name = request.words[0]
        if let error = AccountService.nameError(name) { throw error }
        let key = IRCNames.fold(name)
        if let holder = request.presence.sessionUsing(nickKey: key), holder != request.caller.sessionID,
            key != IRCNames.fold(ref.name)
        {
            throw BotError("someone online is using the nick \(name); pick another name", code: "ACCOUNT_EXISTS")
        }
        do {
            try await request.services.store.rename(accountID: ref.id, to: name, nameKey: key)
        } catch StoreError.nameTaken {
            throw BotError("the name \(name) is taken; pick another")
        }
        // Known addresses are kept by name: whoever takes the old name gets none of them.
        request.services.throttle.forgetKnown(accountKey: IRCNames.fold(ref.name))
        return BotResponse(
            ["Your account is now called \(name)."], effects: [.renamed(accountID: ref.id, newName: name)])
    }

    static let recover = BotCommand(
        "recover", group: group, usage: "NAME CODE NEWPASSWORD",
        summary: "set a new password with a recovery code", example: "!recover alice K7QP-M2XD-9FWT n3w-s3cret",
        arity: 3...3, secret: true
    ) { request in
        let (name, code, password) = (request.words[0], request.words[1], request.words[2])
        if let problem = request.services.accounts.passwordProblem(password) { throw BotError(problem) }
        let services = request.services
        let attempt = try await AccountService.start(
            services.throttle, accountKey: IRCNames.fold(name), address: request.caller.address)
        var verdict: Bool?
        defer { services.throttle.finish(attempt, success: verdict) }
        let consumed = try await services.store.consumeRecoveryCode(
            nameKey: IRCNames.fold(name), codeHashes: services.codes.candidates(SecretCodes.normalize(code)))
        verdict = consumed != nil
        guard let account = consumed else {
            throw BotError("that name and recovery code don't match (or the code was used already)")
        }
        try await services.accounts.setPassword(accountID: account.id, password: password)
        try await services.store.revokeAllTokens(accountID: account.id)
        services.throttle.forgetKnown(accountKey: account.nameKey)  // a thief's address is not exempt
        services.throttle.markKnown(accountKey: account.nameKey, address: request.caller.address)
        let left = try await services.store.unusedRecoveryCodes(accountID: account.id)
        let (token, tokenHash) = try await services.accounts.issueToken(accountID: account.id)
        var response = BotResponse(
            [
                "Password reset for \(account.name); you are logged in. \(left) recovery "
                    + "code\(left == 1 ? "" : "s") left."
            ],
            privateLines: tokenLines(token),
            effects: [.logoutEverywhere(accountID: account.id)]
                + (try await services.loginEffects(
                    AccountRef(id: account.id, name: account.name), tokenHash: tokenHash)))
        response.secrets.token = token
        return response
    }

    static let account = BotCommand(
        "account", group: group, usage: "delete PASSWORD", summary: "delete your account and everything only yours",
        example: "!account delete s3cret-pass", arity: 2...2, requiresLogin: true, secret: true
    ) { request in
        let ref = try request.account()
        guard request.words[0].lowercased() == "delete" else {
            throw request.usageError("unknown action \(request.words[0])")
        }
        _ = try await request.services.accounts
            .checkPassword(name: ref.name, password: request.words[1], address: request.caller.address)
        let images = try await request.services.store.imageIDs(ownerID: ref.id)
        let deletion = try await request.services.store.deleteAccount(id: ref.id)
        request.services.media?.delete(ids: images + deletion.renders)  // the files of their pictures and memes
        request.services.throttle.forgetKnown(accountKey: IRCNames.fold(ref.name))
        // The account is gone whatever an app's part does: its connections are logged out.
        return BotResponse(
            ["Your account \(ref.name) and everything that was only yours are deleted. Goodbye!"],
            effects: [.logoutEverywhere(accountID: ref.id), .accountGone(accountID: ref.id)]
                + (await request.services.deletionEffects(ref, deletion)))
    }

    static let all = [register, login, resume, logout, whoami, passwd, rename, recover, account, cert]
}
