import Foundation
import HearthCrypto
import HearthMedia

/// Built-in templates' previews: public pictures whose ids come from the template's name, so a
/// page can link them without drawing anything; each is drawn on its first request
/// (`MediaRoutes`), not while the page that shows forty of them is being made.
extension MediaLibrary {
    /// The preview's id. The version changes when the drawings do, so no old preview is shown.
    static func templatePreviewID(_ name: String) -> String {
        String(Sodium.hashSecret("template-preview/v2/\(name)").prefix(32))
    }

    /// Each built-in template by its preview's id.
    private static let previewTemplates: [String: BuiltinTemplate] = Dictionary(
        uniqueKeysWithValues: BuiltinTemplate.all.map { (templatePreviewID($0.name), $0) })

    /// Where `template`'s preview is, drawn or not yet.
    public func templatePreviewURL(_ template: BuiltinTemplate) -> String {
        url(id: Self.templatePreviewID(template.name), format: "png")
    }

    /// The built-in template whose preview has `id`, if any.
    public func previewTemplate(id: String) -> BuiltinTemplate? { Self.previewTemplates[id] }

    /// Draws the missing previews of `templates` side by side on the pool (the maker shows them
    /// all at once: its page waits for them, so the browser finds every picture there).
    public func drawTemplatePreviews(_ templates: [BuiltinTemplate]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for template in templates { group.addTask { try await self.drawTemplatePreview(template) } }
            try await group.waitForAll()
        }
    }

    /// Draws `template`'s preview with its example captions unless it is on disk already.
    public func drawTemplatePreview(_ template: BuiltinTemplate) async throws {
        let id = Self.templatePreviewID(template.name)
        guard !FileManager.default.fileExists(atPath: fileURL(id: id, format: "png").path), let renderer else {
            return
        }
        try await run {
            let picture = template.picture()
            renderer.caption(picture, boxes: template.boxes, captions: template.example)
            _ = try self.write(picture.fitted(maxSide: 480).png(level: 3), id: id, format: .png)
        }
    }
}
