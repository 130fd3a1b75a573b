/// A keyset page is read one row past its size: that row only says whether there is more.
/// Both engines page people and the feed this way.
public enum KeysetPage {
    /// The rows to ask for (the LIMIT) for a page of `size`.
    public static func rowsToRead(_ size: Int) -> Int { size + 1 }

    /// The page shown out of what was read, and whether anything is left after it.
    public static func split<T>(_ rows: [T], size: Int) -> (page: [T], more: Bool) {
        (Array(rows.prefix(size)), rows.count > size)
    }
}

extension PeoplePage {
    /// The page of the names read (`KeysetPage.rowsToRead(StoreLimits.peoplePageSize)` of
    /// them): the next page starts after the last name shown.
    public init(read names: [String]) {
        let (shown, more) = KeysetPage.split(names, size: StoreLimits.peoplePageSize)
        self.init(names: shown, next: more ? shown.last : nil)
    }
}
