import Foundation
import Testing

@testable import HearthMedia

@Suite struct RenderSmokeTests {
    @Test func everyTemplateRenders() throws {
        let fonts = try #require(FontSet.installed())
        let renderer = MemeRenderer(fonts: fonts)
        let dir = ProcessInfo.processInfo.environment["HEARTH_RENDER_DIR"]
        for template in BuiltinTemplate.all {
            let image = template.picture()
            renderer.caption(image, boxes: template.boxes, captions: template.example)
            if let dir {
                try Data(image.png(level: 1)).write(to: URL(fileURLWithPath: "\(dir)/\(template.name).png"))
                // Long and non-ASCII captions too, to look at.
                for (suffix, caption) in [
                    (
                        "long",
                        "when the meeting could have been an email but it was a two hour workshop with breakout rooms"
                    ), ("intl", "Ünïcödé déjà vu — 日本語 — Привет"),
                ] {
                    let other = template.picture()
                    renderer.caption(
                        other, boxes: template.boxes, captions: Array(repeating: caption, count: template.boxes.count))
                    try Data(other.png(level: 1)).write(
                        to: URL(fileURLWithPath: "\(dir)/\(template.name)-\(suffix).png"))
                }
            }
        }
    }
}

@Suite struct CloneTests {
    @Test func cloneThenCaption() throws {
        let fonts = try #require(FontSet.installed())
        let renderer = MemeRenderer(fonts: fonts)
        let base = BuiltinTemplate.named("sunset")!.picture().fitted(maxSide: MediaLimits.memeSide)
        let copy = base.clone()
        renderer.caption(copy, boxes: CaptionBox.classic, captions: ["a", "b"])
        #expect(!copy.jpeg().isEmpty)
    }
}
