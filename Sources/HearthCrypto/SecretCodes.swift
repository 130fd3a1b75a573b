/// Random secrets that people read, type or paste: resume tokens, recovery codes and
/// invite codes. The alphabet has no look-alikes (no 0/O, 1/I/L, U).
public enum SecretCodes {
    public static let alphabet = Array("ABCDEFGHJKMNPQRSTVWXYZ23456789")

    /// Groups of random characters joined by '-', e.g. `K7QP-M2XD-9FWT`.
    public static func code(groups: Int, size: Int = 4) -> String {
        (0..<groups).map { _ in
            String((0..<size).map { _ in alphabet[Int(Sodium.randomUniform(UInt32(alphabet.count)))] })
        }.joined(separator: "-")
    }

    /// A resume token: `hrt_` followed by 160 random bits in hex.
    public static func resumeToken() -> String {
        "hrt_" + Sodium.hex(Sodium.randomBytes(20))
    }

    public static func looksLikeResumeToken(_ text: String) -> Bool {
        text.hasPrefix("hrt_") && text.utf8.count == 44
    }

    /// Upper-cases and strips spaces and dashes, so `k7qp m2xd` matches `K7QP-M2XD`.
    public static func normalize(_ code: String) -> String {
        String(code.uppercased().filter { $0 != "-" && $0 != " " })
    }
}
