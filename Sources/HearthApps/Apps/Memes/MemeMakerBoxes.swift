/// The maker's "Place and style" fields of each text (`x1`, `y1`, `w1`, `h1`, `font1`, `color1`,
/// `outline1`, `align1`) as the options of `!meme SOURCE "text" --box x,y,w,h …`, so the form,
/// its preview and the chat command read them by one grammar (`MemeBoxOptions`).
extension MemeMaker {
    static let styleFields = ["font", "color", "outline", "align"]

    /// The texts up to the last one filled in or styled, with their options, as `!meme` takes
    /// them after the source word; nil when no text has any (then they go as `top | bottom`).
    static func placedTexts(_ fields: [String: String]) -> String? {
        let names = ["text", "x", "y", "w", "h"] + styleFields
        let count = (1...maxFields).last { n in names.contains { !(fields["\($0)\(n)"] ?? "").isEmpty } } ?? 1
        var any = false
        let parts = (1...count).map { n -> String in
            let text = caption(fields["text\(n)"]).replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"")
            var part = "\"\(text)\""
            let box = ["x", "y", "w", "h"].map { word(fields["\($0)\(n)"]) }
            if box.allSatisfy({ !$0.isEmpty }) { part += " --box " + box.joined(separator: ",") }
            for name in styleFields where !word(fields["\(name)\(n)"]).isEmpty {
                part += " --\(name) " + word(fields["\(name)\(n)"])
            }
            any = any || part.contains(" --")
            return part
        }
        return any ? parts.joined(separator: " ") : nil
    }

    /// A field as one option value: letters, digits, `#`, `.` and `-` only (a value cannot start another option).
    static func word(_ field: String?) -> String {
        String((field ?? "").filter { $0.isLetter || $0.isNumber || "#.-".contains($0) }.prefix(maxWordLength))
    }
}
