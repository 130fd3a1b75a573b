import Foundation
import HearthCrypto
import HearthProtocol
import HearthStore

/// Guest nicks for connections that have not logged in: `guest` and digits.
public enum GuestNames {
    public static func isGuest(_ nickKey: String) -> Bool {
        nickKey.hasPrefix("guest") && nickKey.count > 5 && nickKey.dropFirst(5).allSatisfy(\.isNumber)
    }

    public static func random() -> String {
        "guest\(1000 + Int(Sodium.randomUniform(99_000)))"
    }
}
