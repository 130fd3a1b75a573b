/// When a cookie or points are given, written once for every engine: the caller decided on
/// what it saw last (`after`), and the engine, holding the account still, gives only if that
/// is still the latest — otherwise a concurrent open got there first.
public enum FortuneRules {
    /// A cookie is opened only while the account's latest cookie (`latest`, nil if none) is
    /// the one the caller saw.
    public static func mayOpen(latest: Int64?, after: Int64?) -> Bool {
        latest == nil || latest == after
    }

    /// Points of a kind are given only while the latest day they were given for is the one
    /// the caller saw.
    public static func mayAddPoints(latest: LocalDay?, after: LocalDay?) -> Bool {
        latest?.day == after?.day
    }
}

extension FortuneRecord {
    /// Where the cookie was opened, shared as the account's last location, when it said.
    public var sharedLocation: SharedLocation? {
        guard let lat, let lon else { return nil }
        return SharedLocation(lat: lat, lon: lon, label: place, at: openedAt)
    }
}
