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
            if let dir { try Data(image.png(level: 1)).write(to: URL(fileURLWithPath: "\(dir)/\(template.name).png")) }
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

