import Foundation

/// Built-in templates that are charts and diagrams: things compared, ranked or laid out.
extension BuiltinTemplate {
    static let diagrams: [BuiltinTemplate] = [
        BuiltinTemplate(
            name: "scale", summary: "a balance: one thing outweighs another",
            keywords: ["balance", "versus", "weigh", "this-vs-that", "compare"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.04, 0.02, 0.92, 0.16, align: .top, style: .dark),
                CaptionBox(0.02, 0.74, 0.38, 0.22, style: .dark), CaptionBox(0.6, 0.6, 0.38, 0.22, style: .dark),
            ],
            example: ["what keeps me up at night", "one awkward thing I said in 2012", "everything else"],
            draw: TemplateArt.scale),
        BuiltinTemplate(
            name: "expanding", summary: "three steps up a staircase: each idea loftier than the last",
            keywords: ["ladder", "stairs", "escalation", "three-panel", "brain"], width: 800, height: 900,
            boxes: (0..<3).map { CaptionBox(0.03, 0.03 + Double($0) / 3, 0.5, 0.27, style: .dark) },
            example: ["fixing the bug", "writing a test for it", "fixing the reason it happened"],
            draw: TemplateArt.expanding),
        BuiltinTemplate(
            name: "tiers", summary: "a tier list: four rows from best to worst",
            keywords: ["ranking", "tier-list", "rank", "best", "worst"], width: 800, height: 800,
            boxes: (0..<4).map { CaptionBox(0.2, 0.02 + Double($0) * 0.25, 0.77, 0.21, style: .dark) },
            example: ["coffee", "tea", "water", "decaf"], draw: TemplateArt.tiers),
        BuiltinTemplate(
            name: "venn", summary: "two overlapping circles and what they share",
            keywords: ["diagram", "overlap", "both", "circles"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.08, 0.36, 0.26, 0.28, style: .dark), CaptionBox(0.66, 0.36, 0.26, 0.28, style: .dark),
                CaptionBox(0.39, 0.38, 0.22, 0.24, style: .dark),
            ],
            example: ["cats", "programmers", "sleeping on keyboards"], draw: TemplateArt.venn),
        BuiltinTemplate(
            name: "exit-ramp", summary: "a road sign, two ways, and a car swerving for the exit",
            keywords: ["highway", "exit", "swerve", "car", "road"], width: 800, height: 700,
            boxes: [
                CaptionBox(0.07, 0.06, 0.38, 0.2), CaptionBox(0.55, 0.06, 0.38, 0.2),
                CaptionBox(0.3, 0.8, 0.5, 0.17, align: .bottom),
            ],
            example: ["finishing the project", "starting a new one", "me"], draw: TemplateArt.exitRamp),
        BuiltinTemplate(
            name: "pie-chart", summary: "a pie chart: a huge slice and a tiny one",
            keywords: ["chart", "pie", "statistics", "share", "graph"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.04, 0.02, 0.92, 0.15, align: .top, style: .dark),
                CaptionBox(0.62, 0.3, 0.35, 0.2, style: .dark), CaptionBox(0.62, 0.58, 0.35, 0.2, style: .dark),
            ],
            example: ["my time at work", "waiting for the build", "coding"], draw: TemplateArt.pieChart),
        BuiltinTemplate(
            name: "bell-curve", summary: "a bell curve: both ends agree, the middle overthinks",
            keywords: ["iq", "curve", "midwit", "statistics", "three"], width: 900, height: 600,
            boxes: [
                CaptionBox(0.02, 0.52, 0.27, 0.22, style: .dark), CaptionBox(0.33, 0.02, 0.34, 0.24, style: .dark),
                CaptionBox(0.71, 0.52, 0.27, 0.22, style: .dark),
            ],
            example: ["just restart it", "let me profile the memory of every process first", "just restart it"],
            draw: TemplateArt.bellCurve),
        BuiltinTemplate(
            name: "timeline", summary: "three moments on a timeline",
            keywords: ["history", "time", "then", "now", "three"], width: 900, height: 500,
            boxes: [
                CaptionBox(0.03, 0.06, 0.3, 0.3, style: .dark), CaptionBox(0.35, 0.64, 0.3, 0.3, style: .dark),
                CaptionBox(0.67, 0.06, 0.3, 0.3, style: .dark),
            ],
            example: ["learned to code", "got a job coding", "googling the same error"],
            draw: TemplateArt.timeline),
        BuiltinTemplate(
            name: "iceberg", summary: "the tip everyone sees and the depths below",
            keywords: ["depth", "hidden", "deep", "layers", "sea"], width: 800, height: 900,
            boxes: [
                CaptionBox(0.25, 0.02, 0.5, 0.12, style: .dark), CaptionBox(0.2, 0.38, 0.6, 0.16),
                CaptionBox(0.2, 0.68, 0.6, 0.16),
            ],
            example: ["it's a chat server", "it has a database", "it has its own IRC parser"],
            draw: TemplateArt.iceberg),
        BuiltinTemplate(
            name: "podium", summary: "first, second and third place",
            keywords: ["winner", "ranking", "medal", "first", "three"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.36, 0.5, 0.28, 0.2), CaptionBox(0.06, 0.64, 0.26, 0.2), CaptionBox(0.68, 0.72, 0.26, 0.18),
            ],
            example: ["sleeping", "snacks", "doing the thing"], draw: TemplateArt.podium),
        BuiltinTemplate(
            name: "summit", summary: "a flag on the peak, someone small at the bottom",
            keywords: ["mountain", "goal", "climb", "journey"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.52, 0.03, 0.45, 0.17, style: .dark), CaptionBox(0.03, 0.8, 0.6, 0.18, align: .bottom),
            ],
            example: ["inbox zero", "me on monday"], draw: TemplateArt.summit),
        BuiltinTemplate(
            name: "warning", summary: "a warning sign between two lines of text",
            keywords: ["caution", "danger", "sign", "alert"], width: 800, height: 700,
            boxes: [
                CaptionBox(0.04, 0.02, 0.92, 0.16, align: .top, style: .dark),
                CaptionBox(0.04, 0.8, 0.92, 0.18, align: .bottom, style: .dark),
            ],
            example: ["caution", "developer has not had coffee"], draw: TemplateArt.warning),
        BuiltinTemplate(
            name: "versus", summary: "two sides, face to face: red against blue",
            keywords: ["vs", "fight", "battle", "versus", "two-panel"], width: 800, height: 600,
            boxes: [CaptionBox(0.03, 0.3, 0.38, 0.4), CaptionBox(0.59, 0.3, 0.38, 0.4)],
            example: ["tabs", "spaces"], draw: TemplateArt.versus),
        BuiltinTemplate(
            name: "label-the-cat", summary: "a cat with three labelled parts",
            keywords: ["cat", "labels", "anatomy", "three", "labelled"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.03, 0.05, 0.3, 0.17, style: .dark), CaptionBox(0.67, 0.42, 0.3, 0.17, style: .dark),
                CaptionBox(0.03, 0.78, 0.3, 0.17, style: .dark),
            ],
            example: ["plotting", "fluff", "chaos"], draw: TemplateArt.labelTheCat),
    ]
}

extension TemplateArt {
    static let sky = (200, 225, 245)

    /// A white card with a dark edge (where dark captions go).
    static func card(_ image: GDImage, _ x: Int, _ y: Int, _ w: Int, _ h: Int, fill: Int32 = white) {
        image.rect(x, y, w, h, fill)
        image.rect(x, y, w, h, ink, filled: false)
        image.rect(x + 1, y + 1, w - 2, h - 2, ink, filled: false)
    }

    static func scale(_ image: GDImage) {
        gradient(image, from: sky, to: (245, 245, 240))
        image.polygon([(330, 560), (470, 560), (430, 520), (370, 520)], C.color(110, 80, 50))
        image.rect(392, 190, 16, 340, C.color(130, 95, 60))
        image.line(140, 250, 660, 170, C.color(130, 95, 60), thickness: 12)  // the beam, tipped left
        image.ellipse(400, 205, 34, 34, C.color(200, 160, 60))
        for (x, top, pan) in [(140, 250, 400), (660, 170, 320)] {
            image.line(x, top, x - 90, pan, ink, thickness: 2)
            image.line(x, top, x + 90, pan, ink, thickness: 2)
            image.ellipse(x, pan, 220, 36, C.color(200, 160, 60))
        }
        image.rect(80, 300, 120, 92, C.color(90, 90, 100))  // the heavy thing
        image.ellipse(660, 302, 40, 36, C.color(220, 80, 80))  // the light one
    }

    static func expanding(_ image: GDImage) {
        image.fill(white)
        for row in 0..<3 {
            let y = row * 300
            let glow = 60 + row * 80
            image.rect(440, y, 360, 300, C.color(255, 240 - row * 30, 200 - glow / 2))
            for step in 0..<3 {  // three steps up to the right
                image.rect(460 + step * 100, y + 250 - step * 60, 100, 50 + step * 60, C.color(150, 130, 110))
            }
            let top = y + 250 - row * 60
            person(image, x: 510 + row * 100, y: top - 150, scale: 0.6, shirt: C.color(60, 110, 190))
            for ray in 0..<(row * 4) {
                let angle = Double(ray) * .pi / Double(max(1, row * 4 - 1)) + .pi
                image.line(
                    510 + row * 100, top - 150, 510 + row * 100 + Int(cos(angle) * 110),
                    top - 150 + Int(sin(angle) * 90), C.color(255, 200, 40), thickness: 4)
            }
            image.line(0, y, 800, y, ink, thickness: 3)
        }
        image.line(440, 0, 440, 900, ink, thickness: 3)
    }

    static func tiers(_ image: GDImage) {
        image.fill(C.color(40, 40, 45))
        let colors = [(255, 127, 127), (255, 191, 127), (255, 223, 127), (191, 255, 127)]
        for (row, color) in colors.enumerated() {
            let y = row * 200
            image.rect(0, y + 4, 140, 192, C.color(color.0, color.1, color.2))
            image.rect(150, y + 4, 650, 192, C.color(245, 245, 245))
            for star in 0..<(4 - row) {  // more stars, better tier
                let cx = 40 + (star % 2) * 60
                let cy = y + 60 + (star / 2) * 80
                image.polygon(
                    (0..<10).map { k in
                        let r = k % 2 == 0 ? 26.0 : 11.0
                        let a = Double(k) * .pi / 5 - .pi / 2
                        return (cx + Int(cos(a) * r), cy + Int(sin(a) * r))
                    }, C.color(90, 60, 20))
            }
        }
    }

    static func venn(_ image: GDImage) {
        image.fill(paper)
        image.ellipse(290, 320, 420, 420, C.color(80, 140, 230, alpha: 70))
        image.ellipse(510, 320, 420, 420, C.color(240, 180, 60, alpha: 70))
        image.ellipse(290, 320, 420, 420, C.color(40, 80, 160), filled: false)
        image.ellipse(510, 320, 420, 420, C.color(170, 110, 20), filled: false)
    }

    static func exitRamp(_ image: GDImage) {
        gradient(image, from: sky, to: (230, 240, 250), y1: 330)
        image.rect(0, 330, 800, 370, C.color(90, 150, 80))
        image.polygon([(260, 700), (380, 330), (440, 330), (560, 700)], C.color(80, 80, 85))  // straight on
        image.polygon([(480, 700), (430, 330), (470, 330), (800, 520), (800, 700)], C.color(80, 80, 85))  // the exit
        image.line(410, 700, 410, 340, C.color(250, 250, 250), thickness: 6)
        image.rect(40, 20, 720, 210, C.color(20, 110, 60))  // the sign
        image.rect(48, 28, 704, 194, white, filled: false)
        image.line(400, 30, 400, 220, white, thickness: 3)
        image.rect(200, 230, 12, 100, C.color(120, 120, 120))
        image.rect(590, 230, 12, 100, C.color(120, 120, 120))
        // The car, swerving right.
        image.polygon([(430, 540), (520, 500), (570, 580), (480, 620)], C.color(200, 40, 40))
        image.polygon([(455, 545), (510, 520), (530, 550), (475, 575)], C.color(170, 210, 240))
        for (x, y) in [(445, 600), (540, 560), (470, 530), (560, 510)] { image.ellipse(x, y, 24, 24, ink) }
    }

    /// A filled slice of a circle from `from` to `to` degrees (clockwise from 3 o'clock).
    static func slice(_ image: GDImage, _ cx: Int, _ cy: Int, _ r: Double, from: Double, to: Double, _ color: Int32) {
        var points = [(cx, cy)]
        for degree in stride(from: from, through: to, by: 2) {
            let a = degree * .pi / 180
            points.append((cx + Int(cos(a) * r), cy + Int(sin(a) * r)))
        }
        image.polygon(points, color)
    }

    static func pieChart(_ image: GDImage) {
        image.fill(white)
        slice(image, 270, 350, 200, from: -90, to: 250, C.color(70, 130, 200))
        slice(image, 270, 350, 200, from: 250, to: 270, C.color(240, 120, 60))
        image.ellipse(270, 350, 400, 400, ink, filled: false)
        image.rect(445, 210, 40, 40, C.color(70, 130, 200))
        image.rect(445, 378, 40, 40, C.color(240, 120, 60))
    }

    static func bellCurve(_ image: GDImage) {
        image.fill(white)
        var points: [(Int, Int)] = [(20, 560)]
        for x in stride(from: 20, through: 880, by: 10) {
            let t = (Double(x) - 450) / 150
            points.append((x, 560 - Int(exp(-t * t / 2) * 380)))
        }
        points.append((880, 560))
        image.polygon(points, C.color(170, 200, 240))
        for (a, b) in zip(points.dropFirst(), points.dropFirst(2).dropLast()) {
            image.line(a.0, a.1, b.0, b.1, C.color(40, 70, 140), thickness: 4)
        }
        image.line(20, 562, 880, 562, ink, thickness: 3)
        for x in [300, 600] { image.line(x, 560, x, 240, C.color(120, 120, 120), thickness: 2) }
        // Who stands where: calm at the ends, worried in the middle.
        for (x, smile) in [(130, true), (450, false), (770, true)] {
            let y = x == 450 ? 400 : 500
            image.ellipse(x, y, 70, 70, skin)
            image.ellipse(x - 12, y - 6, 8, 8, ink)
            image.ellipse(x + 12, y - 6, 8, 8, ink)
            image.arc(
                x, y + (smile ? 10 : 22), 30, 16, from: smile ? 10 : 190, to: smile ? 170 : 350, ink, thickness: 3)
        }
    }

    static func timeline(_ image: GDImage) {
        image.fill(paper)
        image.line(40, 250, 840, 250, ink, thickness: 8)
        image.polygon([(840, 225), (880, 250), (840, 275)], ink)
        for (x, up) in [(150, true), (450, false), (750, true)] {
            image.line(x, 250, x, up ? 185 : 315, ink, thickness: 3)
            image.ellipse(x, 250, 36, 36, C.color(220, 80, 60))
        }
    }

    static func iceberg(_ image: GDImage) {
        gradient(image, from: sky, to: (235, 245, 255), y1: 200)
        gradient(image, from: (60, 130, 190), to: (5, 20, 50), y0: 200)
        image.polygon([(330, 200), (390, 140), (420, 150), (470, 200)], C.color(245, 250, 255))
        image.polygon(
            [(330, 200), (470, 200), (640, 420), (700, 700), (560, 880), (240, 880), (110, 650), (170, 400)],
            C.color(150, 200, 230, alpha: 50))
        image.line(0, 200, 800, 200, C.color(230, 240, 255), thickness: 3)
    }

    static func podium(_ image: GDImage) {
        gradient(image, from: (40, 40, 80), to: (90, 70, 120))
        image.rect(300, 290, 200, 310, C.color(212, 175, 55))  // first
        image.rect(40, 370, 240, 230, C.color(170, 170, 180))  // second
        image.rect(520, 420, 240, 180, C.color(176, 110, 60))  // third
        // The winners, arms up; first place tallest.
        for (x, top, size) in [(400, 290, 0.75), (160, 370, 0.65), (640, 420, 0.6)] {
            person(
                image, x: x, y: top - Int(210 * size), scale: size, shirt: C.color(80, 150, 220), leftArm: 160,
                rightArm: 160)
        }
    }

    static func summit(_ image: GDImage) {
        gradient(image, from: (120, 170, 230), to: (220, 235, 250), y1: 480)
        image.polygon([(0, 600), (330, 120), (430, 230), (520, 170), (800, 600)], C.color(110, 100, 95))
        image.polygon([(280, 190), (330, 120), (380, 190), (350, 180), (320, 200)], white)
        image.line(330, 122, 330, 40, ink, thickness: 4)
        image.polygon([(332, 40), (395, 58), (332, 76)], C.color(220, 40, 40))
        image.rect(0, 470, 800, 130, C.color(60, 90, 50))
        person(image, x: 700, y: 470, scale: 0.3, shirt: C.color(230, 120, 30), leftArm: 150, rightArm: 30)
    }

    static func warning(_ image: GDImage) {
        image.fill(C.color(250, 245, 230))
        image.polygon([(400, 140), (620, 530), (180, 530)], ink)
        image.polygon([(400, 175), (585, 510), (215, 510)], C.color(255, 205, 0))
        image.polygon([(385, 270), (415, 270), (408, 420), (392, 420)], ink)
        image.ellipse(400, 462, 32, 32, ink)
    }

    static func versus(_ image: GDImage) {
        image.polygon([(0, 0), (460, 0), (340, 600), (0, 600)], C.color(200, 40, 50))
        image.polygon([(460, 0), (800, 0), (800, 600), (340, 600)], C.color(40, 80, 200))
        image.ellipse(400, 300, 150, 150, C.color(255, 210, 40))
        image.ellipse(400, 300, 150, 150, ink, filled: false)
        image.polygon([(410, 240), (370, 310), (400, 310), (385, 365), (430, 285), (400, 285)], ink)  // a spark
    }

    static func labelTheCat(_ image: GDImage) {
        image.fill(C.color(235, 230, 220))
        image.rect(0, 470, 800, 130, C.color(170, 130, 90))
        let fur = C.color(230, 140, 50)
        for degree in stride(from: -90, through: 90, by: 10) {  // the tail, curled up
            let a = Double(degree) * .pi / 180
            image.ellipse(560 + Int(cos(a) * 110), 420 + Int(sin(a) * 100), 24, 24, fur)
        }
        image.ellipse(430, 390, 260, 200, fur)  // body
        image.ellipse(360, 260, 170, 150, fur)  // head
        image.polygon([(290, 230), (300, 150), (345, 200)], fur)
        image.polygon([(430, 230), (420, 150), (375, 200)], fur)
        image.ellipse(330, 255, 22, 28, C.color(90, 160, 60))
        image.ellipse(390, 255, 22, 28, C.color(90, 160, 60))
        image.ellipse(330, 255, 6, 22, ink)
        image.ellipse(390, 255, 6, 22, ink)
        image.polygon([(352, 290), (368, 290), (360, 300)], C.color(220, 120, 130))
        for side in [-1, 1] { image.line(360 + side * 20, 298, 360 + side * 90, 290, ink) }
        image.ellipse(430, 420, 120, 90, C.color(250, 220, 170))  // belly
        // Pointers from each label to its part.
        card(image, 24, 30, 240, 102)
        card(image, 536, 252, 240, 102)
        card(image, 24, 468, 240, 102)
        image.line(264, 100, 320, 200, ink, thickness: 3)
        image.line(536, 300, 500, 380, ink, thickness: 3)
        image.line(264, 520, 560, 500, ink, thickness: 3)
    }
}
