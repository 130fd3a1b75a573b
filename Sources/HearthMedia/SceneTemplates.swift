import Foundation

/// Built-in templates that are little scenes: people, signs, screens and pages.
extension BuiltinTemplate {
    static let scenes: [BuiltinTemplate] = [
        BuiltinTemplate(
            name: "two-doors", summary: "two doors with signs: which one?",
            keywords: ["choice", "doors", "pick", "dilemma"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.08, 0.05, 0.36, 0.15, style: .dark), CaptionBox(0.56, 0.05, 0.36, 0.15, style: .dark),
                CaptionBox(0.04, 0.8, 0.92, 0.18, align: .bottom),
            ],
            example: ["fix it properly", "add a comment saying TODO", "me at 5 pm on a friday"],
            draw: TemplateArt.twoDoors),
        BuiltinTemplate(
            name: "sign", summary: "someone proudly holding up a big sign",
            keywords: ["protest", "placard", "board", "announce"], width: 800, height: 600,
            boxes: [CaptionBox(0.2, 0.07, 0.6, 0.34, style: .dark), CaptionBox(0.04, 0.8, 0.92, 0.18, align: .bottom)],
            example: ["bring back IRC", "me, at every meeting"], draw: TemplateArt.sign),
        BuiltinTemplate(
            name: "text-message", summary: "a phone: a message and its reply",
            keywords: ["phone", "chat", "sms", "reply", "conversation"], width: 600, height: 800,
            boxes: [
                CaptionBox(0.14, 0.2, 0.5, 0.18, style: .dark),
                CaptionBox(0.36, 0.5, 0.5, 0.18, style: .dark, color: CaptionColor(255, 255, 255)),
            ],
            example: ["are you coming to dinner?", "one more commit"], draw: TemplateArt.textMessage),
        BuiltinTemplate(
            name: "conversation", summary: "two people, two speech bubbles",
            keywords: ["talk", "speech", "dialogue", "bubbles", "two"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.04, 0.05, 0.4, 0.26, style: .dark), CaptionBox(0.56, 0.05, 0.4, 0.26, style: .dark),
            ],
            example: ["did you test it?", "it compiled"], draw: TemplateArt.conversation),
        BuiltinTemplate(
            name: "thinking", summary: "someone with a big thought bubble",
            keywords: ["thought", "bubble", "idea", "daydream", "mind"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.41, 0.08, 0.5, 0.34, style: .dark), CaptionBox(0.03, 0.82, 0.55, 0.16, align: .bottom),
            ],
            example: ["what if the bug is in the compiler", "me, at 3 am"], draw: TemplateArt.thinking),
        BuiltinTemplate(
            name: "headline", summary: "a newspaper's front page: headline and subheading",
            keywords: ["news", "newspaper", "breaking", "press", "paper"], width: 700, height: 900,
            boxes: [
                CaptionBox(0.07, 0.13, 0.86, 0.2, style: .dark), CaptionBox(0.07, 0.65, 0.86, 0.1, style: .dark),
            ],
            example: ["local developer closes all tabs", "experts baffled"], draw: TemplateArt.headline),
        BuiltinTemplate(
            name: "certificate", summary: "an award certificate with a seal",
            keywords: ["award", "diploma", "prize", "achievement"], width: 900, height: 650,
            boxes: [
                CaptionBox(0.12, 0.14, 0.76, 0.16, style: .dark), CaptionBox(0.12, 0.42, 0.76, 0.2, style: .dark),
            ],
            example: ["certificate of survival", "for deploying on a friday"], draw: TemplateArt.certificate),
        BuiltinTemplate(
            name: "tombstone", summary: "here lies something: a gravestone at night",
            keywords: ["rip", "grave", "dead", "memorial", "gone"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.04, 0.02, 0.92, 0.17, align: .top), CaptionBox(0.35, 0.38, 0.3, 0.32, style: .dark),
            ],
            example: ["here lies", "my sleep schedule"], draw: TemplateArt.tombstone),
        BuiltinTemplate(
            name: "big-button", summary: "one big red button, very tempting",
            keywords: ["button", "press", "tempting", "red"], width: 800, height: 600,
            boxes: [
                CaptionBox(0.04, 0.02, 0.92, 0.18, align: .top, style: .dark), CaptionBox(0.3, 0.43, 0.4, 0.14),
            ],
            example: ["me, ten minutes before the release", "refactor everything"], draw: TemplateArt.bigButton),
        BuiltinTemplate(
            name: "draw-cards", summary: "a card that says do the thing — or draw 25",
            keywords: ["uno", "cards", "draw", "refuse", "stubborn"], width: 800, height: 700,
            boxes: [
                CaptionBox(0.09, 0.1, 0.36, 0.46, style: .dark), CaptionBox(0.52, 0.8, 0.45, 0.17, align: .bottom),
            ],
            example: ["write the docs or draw 25", "me, holding 200 cards"], draw: TemplateArt.drawCards),
        BuiltinTemplate(
            name: "always-has-been", summary: "in space: wait, it's all this? always has been",
            keywords: ["astronaut", "space", "earth", "realisation"], width: 900, height: 600,
            boxes: [CaptionBox(0.03, 0.03, 0.6, 0.2, align: .top), CaptionBox(0.52, 0.78, 0.45, 0.2, align: .bottom)],
            example: ["wait, it's all YAML?", "always has been"], draw: TemplateArt.alwaysHasBeen),
        BuiltinTemplate(
            name: "panic", summary: "three panels: panic, calm, panic again",
            keywords: ["panik", "kalm", "calm", "three-panel", "worry"], width: 800, height: 900,
            boxes: (0..<3).map { CaptionBox(0.03, 0.03 + Double($0) / 3, 0.55, 0.27, style: .dark) },
            example: ["the server is down", "it's a test server", "the tests run in production"],
            draw: TemplateArt.panic),
        BuiltinTemplate(
            name: "is-this", summary: "someone points at a butterfly and gets it wrong",
            keywords: ["butterfly", "pigeon", "confused", "wrong", "labels"], width: 900, height: 600,
            boxes: [
                CaptionBox(0.6, 0.04, 0.37, 0.16), CaptionBox(0.03, 0.04, 0.34, 0.14),
                CaptionBox(0.1, 0.78, 0.8, 0.2, align: .bottom),
            ],
            example: ["a warning", "me", "is this an error?"], draw: TemplateArt.isThis),
        BuiltinTemplate(
            name: "pointing", summary: "two look-alikes pointing at each other",
            keywords: ["same", "twins", "accuse", "blame", "two"], width: 900, height: 600,
            boxes: [CaptionBox(0.03, 0.03, 0.42, 0.2, align: .top), CaptionBox(0.55, 0.03, 0.42, 0.2, align: .top)],
            example: ["frontend", "backend"], draw: TemplateArt.pointing),
    ]
}

extension TemplateArt {
    /// A rounded speech (or thought) bubble with a tail towards (tx, ty).
    static func bubble(
        _ image: GDImage, _ x: Int, _ y: Int, _ w: Int, _ h: Int, tail: (Int, Int), thought: Bool = false
    ) {
        let (cx, cy) = (x + w / 2, y + h / 2)
        if thought {
            for k in 1...3 {
                let px = cx + (tail.0 - cx) * (k + 3) / 7
                let py = cy + (tail.1 - cy) * (k + 3) / 7
                image.ellipse(px, py, 44 - k * 9, 36 - k * 8, ink)
                image.ellipse(px, py, 38 - k * 9, 30 - k * 8, white)
            }
        } else {
            image.polygon([(cx - 30, y + h - 10), (tail.0, tail.1), (cx + 20, y + h - 10)], ink)
            image.polygon([(cx - 24, y + h - 14), (tail.0 + 2, tail.1 - 6), (cx + 14, y + h - 14)], white)
        }
        image.ellipse(cx, cy, w + 6, h + 6, ink)
        image.ellipse(cx, cy, w, h, white)
    }

    static func twoDoors(_ image: GDImage) {
        image.fill(C.color(200, 190, 170))
        image.rect(0, 460, 800, 140, C.color(90, 70, 55))
        for x in [100, 480] {
            card(image, x - 40, 24, 300, 100)
            image.rect(x, 170, 220, 290, C.color(120, 70, 40))
            image.rect(x + 12, 182, 196, 130, C.color(140, 85, 50))
            image.rect(x + 12, 322, 196, 130, C.color(140, 85, 50))
            image.ellipse(x + 190, 330, 18, 18, C.color(230, 200, 80))
        }
    }

    static func sign(_ image: GDImage) {
        gradient(image, from: sky, to: (120, 170, 110), y1: 470)
        image.rect(0, 470, 800, 130, C.color(60, 100, 50))
        person(image, x: 400, y: 300, scale: 0.9, shirt: C.color(200, 60, 60), leftArm: 165, rightArm: 165)
        image.rect(300, 250, 14, 60, C.color(120, 80, 50))
        image.rect(486, 250, 14, 60, C.color(120, 80, 50))
        card(image, 150, 30, 500, 222)
    }

    static func textMessage(_ image: GDImage) {
        image.fill(C.color(60, 60, 70))
        image.rect(40, 20, 520, 760, ink)
        image.rect(60, 80, 480, 640, white)
        image.ellipse(300, 750, 40, 40, C.color(90, 90, 100))
        image.rect(60, 80, 480, 50, C.color(235, 235, 240))
        image.ellipse(120, 105, 30, 30, C.color(150, 180, 220))
        image.rect(70, 150, 330, 170, C.color(225, 225, 230))  // theirs
        image.polygon([(70, 300), (55, 330), (100, 320)], C.color(225, 225, 230))
        image.rect(200, 390, 330, 170, C.color(40, 130, 250))  // mine
        image.polygon([(530, 540), (545, 570), (500, 560)], C.color(40, 130, 250))
    }

    static func conversation(_ image: GDImage) {
        gradient(image, from: (250, 240, 220), to: (230, 210, 180))
        image.rect(0, 500, 800, 100, C.color(150, 120, 90))
        person(image, x: 200, y: 300, scale: 0.9, shirt: C.color(60, 120, 200), rightArm: 60)
        person(image, x: 600, y: 300, scale: 0.9, shirt: C.color(220, 120, 40), leftArm: 60)
        bubble(image, 20, 20, 340, 170, tail: (200, 250))
        bubble(image, 440, 20, 340, 170, tail: (600, 250))
    }

    static func thinking(_ image: GDImage) {
        gradient(image, from: (70, 80, 120), to: (30, 30, 50))
        for k in 0..<30 { image.ellipse((k * 137) % 800, (k * 89) % 300, 4, 4, C.color(255, 255, 220)) }
        person(image, x: 180, y: 330, scale: 0.9, shirt: C.color(120, 80, 160), leftArm: 20, rightArm: 140)
        bubble(image, 300, 20, 460, 250, tail: (220, 300), thought: true)
    }

    static func headline(_ image: GDImage) {
        image.fill(C.color(245, 240, 225))
        image.rect(30, 20, 640, 70, ink)  // the masthead
        image.rect(50, 40, 600, 30, C.color(245, 240, 225), filled: false)
        image.line(30, 100, 670, 100, ink, thickness: 2)
        image.rect(40, 320, 620, 250, C.color(170, 165, 155))  // the photo
        image.polygon([(40, 570), (260, 400), (420, 520), (520, 450), (660, 570)], C.color(120, 115, 105))
        image.ellipse(540, 380, 60, 60, C.color(220, 215, 200))
        for row in 0..<5 {
            for col in 0..<2 {
                image.rect(50 + col * 320, 700 + row * 36, col == 1 && row == 4 ? 150 : 280, 12, C.color(150, 145, 135))
            }
        }
    }

    static func certificate(_ image: GDImage) {
        image.fill(C.color(250, 244, 220))
        image.rect(20, 20, 860, 610, C.color(160, 120, 40), filled: false)
        image.rect(30, 30, 840, 590, C.color(160, 120, 40), filled: false)
        image.rect(36, 36, 828, 578, C.color(200, 160, 70), filled: false)
        image.line(200, 500, 420, 500, ink, thickness: 2)  // signature lines
        image.line(480, 500, 700, 500, ink, thickness: 2)
        image.polygon([(720, 520), (700, 620), (740, 590), (780, 620), (760, 520)], C.color(180, 30, 40))
        image.ellipse(740, 500, 120, 120, C.color(212, 175, 55))
        image.ellipse(740, 500, 90, 90, C.color(235, 200, 90))
    }

    static func tombstone(_ image: GDImage) {
        gradient(image, from: (20, 25, 60), to: (60, 60, 100), y1: 480)
        image.ellipse(680, 110, 90, 90, C.color(240, 240, 210))
        image.rect(0, 480, 800, 120, C.color(40, 80, 40))
        image.ellipse(400, 230, 300, 200, C.color(150, 150, 155))
        image.rect(250, 230, 300, 280, C.color(150, 150, 155))
        image.ellipse(400, 230, 270, 175, C.color(180, 180, 185))
        image.rect(265, 230, 270, 265, C.color(180, 180, 185))
        image.rect(180, 500, 440, 40, C.color(120, 90, 60))
        for x in stride(from: 200, to: 620, by: 60) { image.ellipse(x, 500, 30, 16, C.color(230, 90, 120)) }
    }

    static func bigButton(_ image: GDImage) {
        image.fill(C.color(230, 230, 235))
        image.rect(0, 130, 800, 470, C.color(60, 65, 75))
        image.polygon([(220, 600), (290, 420), (510, 420), (580, 600)], C.color(120, 125, 135))  // pedestal
        image.ellipse(400, 380, 380, 150, C.color(140, 20, 20))
        image.ellipse(400, 350, 360, 140, C.color(220, 40, 40))
        image.ellipse(360, 330, 120, 30, C.color(255, 120, 120))
        image.ellipse(660, 200, 70, 80, skin)  // a hand, hovering
        image.line(660, 200, 760, 130, skin, thickness: 40)
        image.line(632, 220, 600, 250, skin, thickness: 18)
    }

    static func drawCards(_ image: GDImage) {
        image.fill(C.color(40, 120, 80))
        for k in 0..<6 {  // the pile
            image.rect(560 + k * 6, 420 - k * 10, 160, 220, ink)
            image.rect(564 + k * 6, 424 - k * 10, 152, 212, C.color(200, 40, 40))
        }
        person(image, x: 620, y: 220, scale: 0.9, shirt: C.color(240, 200, 60), leftArm: 120, rightArm: 20)
        image.rect(40, 40, 340, 380, ink)  // the card held up
        image.rect(50, 50, 320, 360, C.color(220, 40, 40))
        image.ellipse(210, 230, 300, 340, white)
    }

    static func astronaut(_ image: GDImage, x: Int, y: Int, pointing: Bool) {
        let suit = C.color(235, 235, 240)
        image.rect(x - 50, y + 60, 100, 160, suit)
        image.ellipse(x, y, 130, 130, suit)
        image.ellipse(x - 10, y + 5, 90, 70, C.color(230, 170, 60))  // visor, facing left
        image.line(x - 45, y + 90, x - (pointing ? 140 : 60), y + (pointing ? 70 : 200), suit, thickness: 30)
        if pointing { image.rect(x - 175, y + 60, 40, 12, ink) }  // something held out
    }

    static func alwaysHasBeen(_ image: GDImage) {
        image.fill(C.color(5, 5, 20))
        for k in 0..<80 { image.ellipse((k * 211) % 900, (k * 97) % 600, 3, 3, C.color(255, 255, 230)) }
        image.ellipse(120, 560, 760, 760, C.color(30, 90, 200))
        image.polygon([(0, 330), (140, 260), (260, 330), (200, 460), (60, 420)], C.color(60, 150, 70))
        image.polygon([(300, 380), (420, 330), (470, 450), (360, 520)], C.color(60, 150, 70))
        astronaut(image, x: 560, y: 230, pointing: false)
        astronaut(image, x: 780, y: 190, pointing: true)
    }

    static func face(_ image: GDImage, _ cx: Int, _ cy: Int, worried: Bool) {
        image.ellipse(cx, cy, 200, 220, C.color(250, 210, 80))
        let eye = worried ? 34 : 14
        image.ellipse(cx - 40, cy - 30, eye, worried ? 40 : 8, ink)
        image.ellipse(cx + 40, cy - 30, eye, worried ? 40 : 8, ink)
        if worried {
            image.ellipse(cx, cy + 50, 60, 50, ink)
            image.line(cx - 70, cy - 80, cx - 20, cy - 65, ink, thickness: 5)
            image.line(cx + 70, cy - 80, cx + 20, cy - 65, ink, thickness: 5)
        } else {
            image.arc(cx, cy + 30, 90, 40, from: 10, to: 170, ink, thickness: 5)
        }
    }

    static func panic(_ image: GDImage) {
        image.fill(white)
        for row in 0..<3 {
            let y = row * 300
            let calm = row == 1
            image.rect(480, y, 320, 300, calm ? C.color(150, 210, 160) : C.color(240, 120, 110))
            face(image, 640, y + 150, worried: !calm)
            image.line(0, y, 800, y, ink, thickness: 3)
        }
        image.line(480, 0, 480, 900, ink, thickness: 3)
    }

    static func isThis(_ image: GDImage) {
        gradient(image, from: (130, 100, 160), to: (70, 50, 100))
        image.rect(0, 440, 900, 160, C.color(60, 40, 70))
        person(image, x: 220, y: 200, scale: 1.1, shirt: C.color(230, 200, 90), leftArm: 20, rightArm: 105)
        let wing = C.color(250, 160, 40)
        image.polygon([(690, 230), (620, 160), (610, 240)], wing)
        image.polygon([(690, 230), (770, 160), (780, 240)], wing)
        image.polygon([(690, 235), (640, 300), (680, 290)], wing)
        image.polygon([(690, 235), (740, 300), (700, 290)], wing)
        image.line(690, 200, 690, 280, ink, thickness: 6)
    }

    static func pointing(_ image: GDImage) {
        gradient(image, from: (150, 110, 70), to: (90, 60, 40))
        image.rect(0, 470, 900, 130, C.color(70, 50, 35))
        person(image, x: 250, y: 230, scale: 1.0, shirt: C.color(200, 30, 40), leftArm: 20, rightArm: 95)
        person(image, x: 650, y: 230, scale: 1.0, shirt: C.color(200, 30, 40), leftArm: 95, rightArm: 20)
    }
}
