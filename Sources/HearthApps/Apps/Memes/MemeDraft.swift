import Foundation
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthStore

/// What a meme is made of, decided in one place for `!meme` and the web maker's preview: the
/// picture a source word names for this person, its caption boxes, the captions, the text size.
struct MemeDraft {
    var base: MediaLibrary.MemeBase
    var boxes: [CaptionBox]
    var captions: [String]
    var scale: Double

    /// `top | bottom` as captions, each within `MediaLimits.maxCaptionBytes`.
    static func captions(_ text: String) throws -> [String] {
        let captions = text.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return try checked(captions)
    }

    /// `captions`, or the error that names the first over `MediaLimits.maxCaptionBytes`.
    static func checked(_ captions: [String]) throws -> [String] {
        if let long = captions.first(where: { $0.utf8.count > MediaLimits.maxCaptionBytes }) {
            throw BotError(
                "\"\(long.prefix(20))…\" is too long: a text may have \(MediaLimits.maxCaptionBytes) bytes")
        }
        return captions
    }

    /// The draft for `source` (a built-in template, one of the person's or a global template,
    /// or one of their uploads by id prefix), or the error `!meme` answers.
    static func make(
        source: String, captions: [String], options: [MemeBoxOptions] = [], for me: AccountRef, store: Store,
        settings: UserSettings?
    ) async throws -> MemeDraft {
        let (base, own) = try await picture(source, for: me, store: store)
        // Each text in its own box, changed by its options; a text past the picture's boxes needs a --box.
        let boxes = try captions.indices.map { i in
            let options = i < options.count ? options[i] : MemeBoxOptions()
            guard let box = options.applied(to: i < own.count ? own[i] : nil) else {
                throw BotError(
                    "\(source) has \(Words.counted(own.count, "text")); you gave \(captions.count)"
                        + " — separate them with |, or place the others with --box x,y,w,h")
            }
            return box
        }
        let scale = MemeCommands.textScales[settings?["textsize"] ?? "normal"] ?? 1
        return MemeDraft(base: base, boxes: boxes, captions: captions, scale: scale)
    }

    /// The picture a source word names for this person, with its caption boxes.
    static func picture(_ source: String, for me: AccountRef, store: Store) async throws
        -> (MediaLibrary.MemeBase, [CaptionBox])
    {
        if let builtin = BuiltinTemplate.named(source) { return (.builtin(builtin), builtin.boxes) }
        if let own = try await store.templates(for: me.id).first(where: { $0.nameKey == source.lowercased() }),
            let image = try await store.image(id: own.imageId)
        {
            let boxes = (try? JSONDecoder().decode([CaptionBox].self, from: Data(own.boxes.utf8))) ?? CaptionBox.classic
            return (.stored(image), boxes)
        }
        if source.allSatisfy(\.isHexDigit) && source.count >= PictureCommands.minIDPrefix {
            return (.stored(try await PictureCommands.ownUpload(store, me, source)), CaptionBox.classic)
        }
        let close = Suggest.closest(to: source.lowercased(), in: BuiltinTemplate.all.map(\.name))
        let hint = close.isEmpty ? "!templates lists them" : "did you mean \(close.joined(separator: " or "))?"
        throw BotError("there is no template or picture \"\(source)\" — \(hint)")
    }
}
