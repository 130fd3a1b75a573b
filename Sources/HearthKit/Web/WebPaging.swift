import Foundation
/// Previous and next links of a paged list, for templates (`{{#paging}}…{{/paging}}`).
public enum WebPaging {
    public static func links(page: Int, total: Int, size: Int) -> Any {
        let pages = max(1, (total + size - 1) / size)
        guard pages > 1 else { return false }  // a false section renders nothing
        var links: [String: Any] = ["page": page, "pages": pages]
        if page > 1 { links["previous"] = page - 1 }
        if page < pages { links["next"] = page + 1 }
        return links
    }
}

/// Counts in words for pages: "1 like", "2 likes", "0 comments".
public enum WebText {
    public static func counted(_ count: Int, _ word: String) -> String { Words.counted(count, word) }

    /// A value for a query string or a path segment: all but RFC 3986's unreserved characters escaped.
    public static func queryEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
