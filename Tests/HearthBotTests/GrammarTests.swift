import Foundation
import HearthCrypto
import Testing

@testable import HearthBot

@Suite struct GrammarTests {
    @Test func parsesNameWordsAndRest() throws {
        let input = try #require(CommandLineInput.parse("!Meme drake \"top text\" | bottom", requireBang: true))
        #expect(input.name == "meme")
        #expect(input.words == ["drake", "top text", "|", "bottom"])
        #expect(input.rest == "drake \"top text\" | bottom")
        #expect(input.text(after: 1) == "\"top text\" | bottom")
    }

    @Test func bangIsOptionalInPrivate() {
        #expect(CommandLineInput.parse("help me", requireBang: true) == nil)
        #expect(CommandLineInput.parse("help me", requireBang: false)?.name == "help")
        #expect(CommandLineInput.parse("!", requireBang: true) == nil)
        #expect(CommandLineInput.parse("!!!", requireBang: true) == nil)
        #expect(CommandLineInput.parse("  !whoami  ", requireBang: true)?.words == [])
    }

    @Test func quotesAndEscapes() {
        #expect(CommandLineInput.splitWords(#"a "b c" "d \"e\"" """#) == ["a", "b c", #"d "e""#, ""])
        #expect(CommandLineInput.splitWords("unbalanced \"quote here") == ["unbalanced", "quote here"])
    }

    @Test func didYouMean() {
        let names = ["help", "login", "logout", "register", "recover", "rename"]
        #expect(Suggest.closest(to: "halp", in: names) == ["help"])
        #expect(Suggest.closest(to: "loign", in: names).first == "login")
        #expect(Suggest.closest(to: "reg", in: names) == ["register"])
        #expect(Suggest.closest(to: "zzzzzz", in: names).isEmpty)
        #expect(Suggest.distance("kitten", "sitting") == 3)
        #expect(Suggest.distance("ab", "ba") == 1)
    }
}

@Suite struct ThrottleTests {
    @Test func delaysStartAfterFreeFailuresAndDouble() {
        let throttle = LoginThrottle()
        let keys = ["addr:10.0.0.1", "acct:alice"]
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        for i in 0..<LoginThrottle.freeFailures {
            #expect(throttle.waitTime(keys: keys, now: t0) == nil, "attempt \(i) should be free")
            throttle.recordFailure(keys: keys, now: t0)
        }
        #expect(throttle.waitTime(keys: keys, now: t0) == LoginThrottle.baseDelay)
        throttle.recordFailure(keys: keys, now: t0)
        #expect(throttle.waitTime(keys: keys, now: t0) == LoginThrottle.baseDelay * 2)
        #expect(throttle.waitTime(keys: keys, now: t0.addingTimeInterval(LoginThrottle.baseDelay * 2 + 0.1)) == nil)
        // Forgotten after a quiet period; a success clears it at once.
        #expect(throttle.waitTime(keys: keys, now: t0.addingTimeInterval(LoginThrottle.forgetAfter + 1)) == nil)
        throttle.recordFailure(keys: keys, now: t0)
        throttle.recordSuccess(keys: keys)
        #expect(throttle.waitTime(keys: keys, now: t0) == nil)
    }

    @Test func delayIsCapped() {
        let throttle = LoginThrottle()
        let keys = ["acct:bob"]
        let t0 = Date(timeIntervalSince1970: 0)
        for _ in 0..<40 { throttle.recordFailure(keys: keys, now: t0) }
        #expect(throttle.waitTime(keys: keys, now: t0) == LoginThrottle.maxDelay)
    }

    @Test func addressesGetMoreFreeFailures() {
        let throttle = LoginThrottle()
        let t0 = Date(timeIntervalSince1970: 0)
        for _ in 0..<LoginThrottle.freeFailures { throttle.recordFailure(keys: ["addr:1.2.3.4"], now: t0) }
        #expect(throttle.waitTime(keys: ["addr:1.2.3.4"], now: t0) == nil)
    }
}

@Suite struct SecretTests {
    @Test func codesUseTheReadableAlphabet() {
        let code = SecretCodes.code(groups: 3)
        #expect(code.count == 14)
        let allowed = Set(SecretCodes.alphabet)
        #expect(code.filter { $0 != "-" }.allSatisfy { allowed.contains($0) })
        #expect(!SecretCodes.alphabet.contains("O") && !SecretCodes.alphabet.contains("0") && !SecretCodes.alphabet.contains("I"))
        #expect(SecretCodes.normalize("k7qp m2xd-9fwt") == "K7QPM2XD9FWT")
    }

    @Test func tokensAreRandomAndRecognised() {
        let a = SecretCodes.resumeToken(), b = SecretCodes.resumeToken()
        #expect(a != b)
        #expect(SecretCodes.looksLikeResumeToken(a))
        #expect(!SecretCodes.looksLikeResumeToken("hrt_short"))
        #expect(Sodium.hashSecret(a) != a)
        #expect(Sodium.hashSecret(a).count == 64)
    }

    @Test func argon2idHashesVerify() throws {
        let cost = PasswordHash.Cost(opsLimit: 1, memLimit: 8192 * 8)
        let hash = try #require(PasswordHash.hash("pässwörd", cost: cost))
        #expect(hash.hasPrefix("$argon2id$"))
        #expect(PasswordHash.verify("pässwörd", hash: hash))
        #expect(!PasswordHash.verify("password", hash: hash))
        #expect(!PasswordHash.verify("x", hash: "not-a-hash"))
    }
}

@Suite struct ThrottleBookingTests {
    @Test func parallelAttemptsAreBookedBeforeTheyFinish() {
        let throttle = LoginThrottle()
        let keys = ["acct:carol"]
        let t0 = Date(timeIntervalSince1970: 0)
        var allowed = 0
        // Ten guesses started at once: only the free ones get through.
        for _ in 0..<10 where throttle.begin(keys: keys, now: t0) == nil { allowed += 1 }
        #expect(allowed == LoginThrottle.freeFailures)
        throttle.recordSuccess(keys: keys)
        #expect(throttle.begin(keys: keys, now: t0) == nil)
    }

    @Test func nickServLinesBecomeAccountCommands() {
        #expect(NickServAlias.translate("IDENTIFY pw", nick: "amy") == "login amy pw")
        #expect(NickServAlias.translate("identify bob pw", nick: "amy") == "login bob pw")
        #expect(NickServAlias.translate("REGISTER pw a@b.c", nick: "amy") == "register amy pw a@b.c")
        #expect(NickServAlias.translate("help", nick: "amy") == "help")
    }
}

@Suite struct ThrottleAttemptTests {
    @Test func oneAccountCannotBeGuessedInParallelButOneAddressMayLogInToMany() {
        let throttle = LoginThrottle()
        var started = 0
        for _ in 0..<10 {
            if case .success = throttle.start(accountKey: "dora", address: "10.0.0.9") { started += 1 }
        }
        #expect(started == LoginThrottle.freeFailures)
        // Sixteen people behind one address log in to their own accounts at once.
        var attempts: [LoginThrottle.Attempt] = []
        for i in 0..<16 {
            guard case .success(let attempt) = throttle.start(accountKey: "user\(i)", address: "10.0.0.10") else {
                Issue.record("attempt \(i) refused")
                continue
            }
            attempts.append(attempt)
        }
        for attempt in attempts { throttle.finish(attempt, success: true) }
        // Real failures from an address add up.
        for i in 0..<(LoginThrottle.freeFailures * 4) {
            if case .success(let attempt) = throttle.start(accountKey: "x\(i)", address: "10.0.0.11") {
                throttle.finish(attempt, success: false)
            }
        }
        guard case .failure(let refusal) = throttle.start(accountKey: "fresh", address: "10.0.0.11") else {
            Issue.record("address with many failures was not slowed down")
            return
        }
        #expect(refusal.seconds >= 1)
    }
}

@Suite struct TimeTextTests {
    @Test func spans() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(TimeText.ago(from: now.addingTimeInterval(-5), to: now) == "just now")
        #expect(TimeText.ago(from: now.addingTimeInterval(-12 * 60), to: now) == "12 min ago")
        #expect(TimeText.ago(from: now.addingTimeInterval(-3 * 3600), to: now) == "3 h ago")
        #expect(TimeText.ago(from: now.addingTimeInterval(-30 * 3600), to: now) == "yesterday")
        #expect(TimeText.ago(from: now.addingTimeInterval(-5 * 86_400), to: now) == "5 days ago")
        #expect(TimeText.ago(from: now.addingTimeInterval(60), to: now) == "just now")
    }
}

@Suite struct SettingTests {
    @Test func valuesAreCheckedAndNormalised() throws {
        let tz = try #require(Setting.named("TZ"))
        #expect((try? tz.validate("Europe/Paris").get()) == "Europe/Paris")
        #expect((try? tz.validate("Nowhere/Land").get()) == nil)
        let color = try #require(Setting.named("color"))
        #expect((try? color.validate("ON").get()) == "on")
        #expect(UserSettings(stored: [:]).notify)
        #expect(!UserSettings(stored: ["notify": "off"]).notify)
        #expect(Style(kind: .irc).bold("x") == "\u{2}x\u{2}")
        #expect(Style.plain.bold("x") == "x")
    }
}
