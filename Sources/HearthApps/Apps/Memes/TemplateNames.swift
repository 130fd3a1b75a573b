import Foundation
import HearthCrypto
import HearthKit
import HearthMedia
import HearthStore

/// Names of users' and operators' templates.
public enum TemplateNames {
    public static let maxLength = 24

    public static func problem(_ name: String) -> String? {
        guard (2...maxLength).contains(name.count), name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            return "a template name has 2 to \(maxLength) letters, digits or dashes"
        }
        if BuiltinTemplate.named(name) != nil { return "\(name) is a built-in template; pick another name" }
        if name.allSatisfy(\.isHexDigit) && name.count >= PictureCommands.minIDPrefix {
            return "a template name must not look like a picture id"
        }
        return nil
    }
}
