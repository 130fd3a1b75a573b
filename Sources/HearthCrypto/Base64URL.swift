import Foundation

/// Base64url without padding (RFC 4648 §5), as Web Push keys, JWTs and subscriptions write bytes.
public enum Base64URL {
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The bytes, or nil for text that is not base64url (padding and standard base64's `+/` are
    /// accepted too: browsers and IRC clients differ).
    public static func decode(_ text: String) -> [UInt8]? {
        var plain = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        plain = plain.replacingOccurrences(of: "=", with: "")
        guard plain.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") }) else {
            return nil
        }
        plain += String(repeating: "=", count: (4 - plain.count % 4) % 4)
        return Data(base64Encoded: plain).map { [UInt8]($0) }
    }
}
