import Foundation
import Testing

@testable import HearthMedia

/// The templates Hearth ships: at least 40, each described, findable, with an example for every
/// box, boxes inside the picture and its licence recorded.
@Suite struct BuiltinTemplateTests {
    static let minimum = 40

    @Test func atLeastFortyDescribedTemplatesWithTheirLicence() {
        let all = BuiltinTemplate.all
        #expect(all.count >= Self.minimum)
        #expect(Set(all.map(\.name)).count == all.count, "names are unique")
        for template in all {
            #expect(BuiltinTemplate.named(template.name)?.summary == template.summary)
            #expect(!template.summary.isEmpty && !template.keywords.isEmpty, "\(template.name)")
            #expect(template.example.count == template.boxes.count, "\(template.name): an example for every box")
            #expect(template.licence == BuiltinTemplate.drawnForHearth, "\(template.name)")
            for box in template.boxes {
                #expect(box.x >= 0 && box.y >= 0 && box.x + box.w <= 1.0001 && box.y + box.h <= 1.0001)
            }
            let picture = template.picture()
            #expect(picture.width == template.width && picture.height == template.height)
        }
    }
}
