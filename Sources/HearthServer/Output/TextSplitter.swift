import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// Splits long bot lines at spaces so each fits in one IRC message.
enum TextSplitter {
    static let maxBytes = 400

    static func split(_ text: String, maxBytes: Int = TextSplitter.maxBytes) -> [String] {
        var result: [String] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(rawLine)
            while line.utf8.count > maxBytes {
                var cut = IRCMessage.truncate(line, toBytes: maxBytes)
                if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > cut.count / 2 {
                    cut = String(cut[..<space])
                }
                result.append(cut)
                line = String(line.dropFirst(cut.count).drop { $0 == " " })
            }
            result.append(line)
        }
        return result
    }
}
