/// The meme formats Hearth ships. Each picture is drawn with libgd by `TemplateArt` (made
/// for Hearth, no third-party images); the caption boxes are data, here and in the files of
/// `diagrams` and `scenes`.
public struct BuiltinTemplate: Sendable {
    /// The licence of every picture drawn here: they are Hearth's own code.
    public static let drawnForHearth = "drawn for Hearth by its code; same licence as Hearth"

    public let name: String
    public let summary: String
    /// Words `!templates WORD` finds it by.
    public let keywords: [String]
    public let width: Int
    public let height: Int
    public let boxes: [CaptionBox]
    public let example: [String]
    let draw: @Sendable (GDImage) -> Void
    /// Where the picture comes from and under which terms.
    public var licence = drawnForHearth

    public func picture() -> GDImage {
        let image = GDImage(width: width, height: height)
        draw(image)
        return image
    }

    public static let all: [BuiltinTemplate] = originals + diagrams + scenes

    static let originals: [BuiltinTemplate] = [
        BuiltinTemplate(
            name: "sunset", summary: "a captioned photo: top and bottom text over a landscape",
            keywords: ["photo", "classic", "landscape"], width: 800, height: 600, boxes: CaptionBox.classic,
            example: ["when the build is green", "on the first try"], draw: TemplateArt.sunset),
        BuiltinTemplate(
            name: "nope-yep", summary: "two panels: turning away from one thing, pointing at another",
            keywords: ["drake", "no", "yes", "prefer", "two-panel"], width: 800, height: 800,
            boxes: [
                CaptionBox(0.52, 0.04, 0.45, 0.42, style: .dark), CaptionBox(0.52, 0.54, 0.45, 0.42, style: .dark),
            ],
            example: ["writing docs later", "writing docs now"], draw: TemplateArt.nopeYep),
        BuiltinTemplate(
            name: "galaxy-brain", summary: "four panels: an idea escalating as the brain glows brighter",
            keywords: ["brain", "expanding", "escalation", "four-panel"], width: 800, height: 1000,
            boxes: (0..<4).map { CaptionBox(0.03, 0.02 + Double($0) * 0.25, 0.47, 0.21, style: .dark) },
            example: ["printf debugging", "a debugger", "a profiler", "reading the code"], draw: TemplateArt.galaxyBrain
        ),
        BuiltinTemplate(
            name: "shocked", summary: "a reaction face, mouth wide open",
            keywords: ["reaction", "surprised", "face", "wow"], width: 800, height: 600, boxes: CaptionBox.classic,
            example: ["the tests passed", "without changing anything"], draw: TemplateArt.shocked),
        BuiltinTemplate(
            name: "distracted", summary: "labelled parts: someone eyeing a new thing while the old one glares",
            keywords: ["labels", "boyfriend", "three", "labelled"], width: 900, height: 600,
            boxes: [
                CaptionBox(0.03, 0.04, 0.28, 0.2, style: .dark), CaptionBox(0.36, 0.04, 0.28, 0.2, style: .dark),
                CaptionBox(0.69, 0.04, 0.28, 0.2, style: .dark),
            ],
            example: ["new framework", "me", "the project I started"], draw: TemplateArt.distracted),
        BuiltinTemplate(
            name: "two-buttons", summary: "two buttons, one sweating person who must press one",
            keywords: ["buttons", "choice", "dilemma", "sweating"], width: 800, height: 800,
            boxes: [
                CaptionBox(0.1, 0.1, 0.34, 0.16, style: .dark), CaptionBox(0.56, 0.1, 0.34, 0.16, style: .dark),
                CaptionBox(0.04, 0.78, 0.92, 0.2, align: .bottom),
            ],
            example: ["ship it", "write tests", "me at 5 pm"], draw: TemplateArt.twoButtons),
        BuiltinTemplate(
            name: "change-my-mind", summary: "a sign on a table: state your opinion",
            keywords: ["opinion", "sign", "debate", "table"], width: 800, height: 600,
            boxes: [CaptionBox(0.3, 0.52, 0.5, 0.2, style: .dark), CaptionBox(0.04, 0.02, 0.92, 0.2, align: .top)],
            example: ["tabs are better than spaces", "change my mind"], draw: TemplateArt.changeMyMind),
        BuiltinTemplate(
            name: "this-is-fine", summary: "sitting calmly in a room on fire",
            keywords: ["fire", "fine", "calm", "dog"], width: 800, height: 600, boxes: CaptionBox.classic,
            example: ["production is down", "this is fine"], draw: TemplateArt.thisIsFine),
        BuiltinTemplate(
            name: "success", summary: "a small fist of victory",
            keywords: ["win", "kid", "victory", "fist"], width: 800, height: 600, boxes: CaptionBox.classic,
            example: ["fixed the bug", "before the standup"], draw: TemplateArt.success),
        BuiltinTemplate(
            name: "think", summary: "tapping a temple: a clever (or not) idea",
            keywords: ["smart", "idea", "temple", "roll-safe"], width: 800, height: 600, boxes: CaptionBox.classic,
            example: ["can't have merge conflicts", "if you never merge"], draw: TemplateArt.think),
        BuiltinTemplate(
            name: "plan", summary: "four panels: a plan on an easel that goes wrong at the last step",
            keywords: ["gru", "plan", "easel", "four-panel"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.07, 0.08, 0.34, 0.3, style: .dark), CaptionBox(0.57, 0.08, 0.34, 0.3, style: .dark),
                CaptionBox(0.07, 0.58, 0.34, 0.3, style: .dark), CaptionBox(0.57, 0.58, 0.34, 0.3, style: .dark),
            ],
            example: ["write the code", "run the tests", "tests fail", "tests fail"], draw: TemplateArt.plan),
        BuiltinTemplate(
            name: "stonks", summary: "a chart going up (or down) and a bottom line",
            keywords: ["chart", "graph", "money", "up"], width: 800, height: 600, boxes: CaptionBox.classic,
            example: ["bought more RAM", "stonks"], draw: TemplateArt.stonks),
        BuiltinTemplate(
            name: "one-does-not", summary: "a solemn warning: one does not simply…",
            keywords: ["simply", "warning", "mountain"], width: 800, height: 600, boxes: CaptionBox.classic,
            example: ["one does not simply", "deploy on a friday"], draw: TemplateArt.oneDoesNot),
        BuiltinTemplate(
            name: "before-after", summary: "two panels side by side: how it started, how it's going",
            keywords: ["comparison", "started", "going", "two-panel"], width: 900, height: 560,
            boxes: [CaptionBox(0.02, 0.78, 0.46, 0.2, style: .dark), CaptionBox(0.52, 0.78, 0.46, 0.2, style: .dark)],
            example: ["how it started", "how it's going"], draw: TemplateArt.beforeAfter),
    ]

    public static func named(_ name: String) -> BuiltinTemplate? {
        all.first { $0.name == name.lowercased() }
    }
}
