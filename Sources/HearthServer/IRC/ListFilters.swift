import Foundation
import HearthProtocol

/// LIST's ELIST filters (`ELIST=CMNTU`), comma-separated in its first parameter: channel names
/// and masks (`#c*n`, M), masks to leave out (`!*an1`, N), the number of users (`>5`, `<10`,
/// U), minutes since the channel was made (`C<60`: less than an hour ago, `C>60`) or its topic
/// set (`T<`, `T>`). A channel is listed when it matches a name or mask (if any were given),
/// no excluded mask, and every number.
struct ListFilters: Equatable {
    /// Masks (with `*` or `?`, kept or left out) one LIST may give: each is matched against
    /// every channel under the chat lock. Plain names are a set and cost nothing per channel.
    static let maxMasks = 8

    var names: [String] = []
    var excluded: [String] = []
    /// Plain names of `names`, folded: matched by a look-up, not a glob.
    private var exactNames: Set<String> = []
    private var maskNames: [String] = []
    var users: [Comparison] = []
    var createdMinutes: [Comparison] = []
    var topicMinutes: [Comparison] = []

    struct Comparison: Equatable {
        var below: Bool
        var value: Int

        func holds(_ number: Double) -> Bool { below ? number < Double(value) : number > Double(value) }
    }

    /// The filters of `parameter` ("" or none: every channel). An item that reads as neither a
    /// number filter nor a mask is taken as a channel name (it then matches no channel, as before).
    init(_ parameter: String?) {
        for item in (parameter ?? "").split(separator: ",").map(String.init) {
            if let comparison = Self.comparison(item) {
                users.append(comparison)
            } else if item.count > 1, let kind = item.first, kind == "C" || kind == "T",
                let comparison = Self.comparison(String(item.dropFirst()))
            {
                if kind == "C" { createdMinutes.append(comparison) } else { topicMinutes.append(comparison) }
            } else if item.hasPrefix("!"), item.count > 1 {
                excluded.append(String(item.dropFirst()))
            } else {
                names.append(item)
            }
        }
        for name in names {
            if Self.isMask(name) { maskNames.append(name) } else { exactNames.insert(IRCNames.fold(name)) }
        }
    }

    /// Whether more masks were given than `maxMasks` (LIST then refuses, listing nothing).
    var tooManyMasks: Bool { maskNames.count + excluded.filter(Self.isMask).count > Self.maxMasks }

    private static func isMask(_ item: String) -> Bool { item.contains("*") || item.contains("?") }

    /// `<N` or `>N` with N a whole number.
    private static func comparison(_ text: String) -> Comparison? {
        guard let sign = text.first, sign == "<" || sign == ">", let value = Int(text.dropFirst()), value >= 0 else {
            return nil
        }
        return Comparison(below: sign == "<", value: value)
    }

    /// Whether the channel passes, given its name, users, and when it was made and its topic set
    /// (nil: it has no topic, and a topic filter leaves it out).
    func admits(name: String, users count: Int, created: Date, topicSet: Date?, now: Date) -> Bool {
        if !names.isEmpty && !exactNames.contains(IRCNames.fold(name))
            && !maskNames.contains(where: { IRCNames.globMatch($0, name) })
        {
            return false
        }
        if excluded.contains(where: { IRCNames.globMatch($0, name) }) { return false }
        if !users.allSatisfy({ $0.holds(Double(count)) }) { return false }
        let minutes = { (date: Date) in now.timeIntervalSince(date) / 60 }
        if !createdMinutes.allSatisfy({ $0.holds(minutes(created)) }) { return false }
        if !topicMinutes.isEmpty {
            guard let topicSet, topicMinutes.allSatisfy({ $0.holds(minutes(topicSet)) }) else { return false }
        }
        return true
    }
}
