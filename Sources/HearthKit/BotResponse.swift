import Foundation
import HearthStore

/// A command's answer: lines for where it was asked, lines only the caller may see, effects.
public struct BotResponse: Sendable {
    public var lines: [String]
    /// Secrets (tokens, recovery codes) always go to the caller privately.
    public var privateLines: [String]
    public var effects: [SessionEffect]
    /// Set when the command failed: an IRCv3 standard-replies code (clients with the
    /// `standard-replies` cap get `FAIL <command> <code> :<line>`).
    public var failure: Failure?
    /// The line a plain-mode user typed while an app collected their lines was chat after all
    /// (the app said so in `lines`): the server says it in their current channel.
    public var lineIsChat = false
    /// The secrets among `privateLines`, for a web form that keeps them apart (the session
    /// cookie, the page of recovery codes) instead of reading them out of text.
    public var secrets = Secrets()

    public struct Secrets: Sendable, Equatable {
        public var token: String?
        public var recoveryCodes: [String] = []
        public init(token: String? = nil, recoveryCodes: [String] = []) {
            (self.token, self.recoveryCodes) = (token, recoveryCodes)
        }
    }
    /// The web page of what the command made (`/m/12`): a form that ran it goes there.
    public var madePage: String?

    public struct Failure: Sendable, Equatable {
        public var command: String
        public var code: String
    }

    public init(_ lines: [String] = [], privateLines: [String] = [], effects: [SessionEffect] = []) {
        self.lines = lines
        self.privateLines = privateLines
        self.effects = effects
    }

    /// Every line to the caller alone (an answer whose readers in a channel may not see it).
    public var privately: BotResponse {
        var response = self
        response.privateLines = lines + privateLines
        response.lines = []
        return response
    }

    public static func failed(_ line: String, command: String, code: String) -> BotResponse {
        var response = BotResponse([line])
        response.failure = Failure(command: command.uppercased(), code: code)
        return response
    }
}
