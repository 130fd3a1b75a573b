import Foundation
import HearthCrypto
import HearthProtocol
import HearthStore

/// Clients are often set up to send `IDENTIFY password` to NickServ on connect; Hearth's
/// bot understands those lines as the matching account commands.
public enum NickServAlias {
    public static func translate(_ text: String, nick: String) -> String {
        let words = CommandLineInput.splitWords(text)
        guard let verb = words.first?.lowercased() else { return text }
        switch (verb, words.count) {
        case ("identify", 2): return "login \(nick) \(words[1])"
        case ("identify", 3): return "login \(words[1]) \(words[2])"
        case ("register", 2...3): return "register \(nick) " + words.dropFirst().joined(separator: " ")
        default: return text
        }
    }
}
