import Foundation
import HearthCrypto
import HearthMedia
import HearthStore

/// Page numbers for list commands.
public enum Paging {
    /// Highest page number a list command accepts.
    public static let maxPage = 10_000

    public static func page(_ request: BotRequest, _ word: String?) throws -> Int {
        guard let word else { return 1 }
        guard let page = Int(word), page >= 1, page <= maxPage else {
            throw request.usageError("\(word) is not a page number")
        }
        return page
    }

    public static func pages(_ total: Int, _ size: Int) -> Int { max(1, (total + size - 1) / size) }

    public static func footer(_ request: BotRequest, page: Int, total: Int, size: Int, command: String) -> [String] {
        let count = pages(total, size)
        guard count > 1 else { return [] }
        return [request.style.dim("page \(page) of \(count)" + (page < count ? " — more: \(command) \(page + 1)" : ""))]
    }
}
