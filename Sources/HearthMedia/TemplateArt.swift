import Foundation

/// The built-in template pictures, drawn from shapes with libgd: simple, recognisable
/// scenes made for Hearth (no third-party images, so no licences to track).
enum TemplateArt {
    typealias C = GDImage
    static let skin = C.color(241, 194, 150), ink = C.color(30, 30, 30), white = C.color(255, 255, 255)
    static let paper = C.color(250, 248, 240)

    static func gradient(
        _ image: GDImage, from top: (Int, Int, Int), to bottom: (Int, Int, Int), y0: Int = 0, y1: Int? = nil
    ) {
        let end = y1 ?? image.height
        for y in y0..<end {
            let t = Double(y - y0) / Double(max(1, end - y0 - 1))
            func mix(_ a: Int, _ b: Int) -> Int { Int(Double(a) + (Double(b) - Double(a)) * t) }
            image.rect(0, y, image.width, 1, C.color(mix(top.0, bottom.0), mix(top.1, bottom.1), mix(top.2, bottom.2)))
        }
    }

    /// A simple person: head, body and arms. Arm angles are degrees from straight down,
    /// outwards (180 is straight up).
    static func person(
        _ image: GDImage, x: Int, y: Int, scale: Double, shirt: Int32, leftArm: Double = 20, rightArm: Double = 20
    ) {
        func s(_ v: Double) -> Int { Int(v * scale) }
        image.rect(x - s(45), y + s(60), s(90), s(150), shirt)  // body
        image.ellipse(x, y + s(10), s(80), s(90), skin)  // head
        image.ellipse(x, y - s(25), s(84), s(34), C.color(90, 60, 40))  // hair
        image.ellipse(x - s(15), y + s(5), s(9), s(11), ink)
        image.ellipse(x + s(15), y + s(5), s(9), s(11), ink)
        for (side, angle) in [(-1.0, leftArm), (1.0, rightArm)] {
            let sx = x + Int(side * 45 * scale)
            let sy = y + s(70)
            let radians = angle * .pi / 180
            let ex = sx + Int(side * sin(radians) * 110 * scale)
            let ey = sy + Int(cos(radians) * 110 * scale)
            image.line(sx, sy, ex, ey, shirt, thickness: max(2, s(22)))
            image.ellipse(ex, ey, s(24), s(24), skin)
        }
    }

    static func sunset(_ image: GDImage) {
        gradient(image, from: (255, 140, 60), to: (255, 214, 150), y1: 380)
        image.ellipse(400, 380, 220, 220, C.color(255, 240, 200))
        gradient(image, from: (70, 110, 80), to: (30, 60, 45), y0: 380)
        image.polygon(
            [(0, 420), (180, 330), (360, 410), (520, 320), (800, 420), (800, 600), (0, 600)], C.color(50, 90, 60))
        image.polygon([(0, 500), (250, 440), (520, 500), (800, 450), (800, 600), (0, 600)], C.color(35, 65, 45))
    }

    static func nopeYep(_ image: GDImage) {
        image.fill(white)
        image.rect(0, 0, 400, 400, C.color(255, 220, 120))
        image.rect(0, 400, 400, 400, C.color(255, 200, 90))
        image.line(400, 0, 400, 800, ink, thickness: 4)
        image.line(0, 400, 800, 400, ink, thickness: 4)
        // Top: turning away, a hand up.
        person(image, x: 190, y: 110, scale: 1.1, shirt: C.color(200, 60, 40), leftArm: 20, rightArm: 160)
        image.line(300, 60, 360, 120, C.color(200, 30, 30), thickness: 12)
        image.line(360, 60, 300, 120, C.color(200, 30, 30), thickness: 12)
        // Bottom: pointing at the right panel, pleased.
        person(image, x: 190, y: 510, scale: 1.1, shirt: C.color(200, 60, 40), leftArm: 20, rightArm: 100)
        image.line(300, 470, 320, 495, C.color(30, 150, 60), thickness: 12)
        image.line(320, 495, 365, 440, C.color(30, 150, 60), thickness: 12)
    }

    static func galaxyBrain(_ image: GDImage) {
        image.fill(white)
        for i in 0..<4 {
            let y = i * 250
            let glow = 40 + i * 70
            image.rect(400, y, 400, 250, C.color(min(255, glow / 3), min(255, glow / 3), min(255, glow)))
            image.line(0, y, 800, y, ink, thickness: 3)
            // A head in profile with a brain that grows and glows.
            image.ellipse(600, y + 135, 170, 190, C.color(210, 170, 140))
            let size = 60 + i * 25
            if i > 0 {
                image.ellipse(
                    600, y + 110, size + 40 * i, size + 30 * i, C.color(120 + i * 40, 160 + i * 30, 255, alpha: 60))
            }
            image.ellipse(600, y + 110, size, size * 3 / 4, C.color(240, 140 + i * 30, 170 + i * 25))
            for k in 0..<(i * 3) {
                let angle = Double(k) * 2 * .pi / Double(max(1, i * 3))
                image.line(
                    600, y + 110, 600 + Int(cos(angle) * Double(90 + 10 * i)),
                    y + 110 + Int(sin(angle) * Double(70 + 10 * i)),
                    C.color(255, 255, 200), thickness: 2)
            }
        }
        image.line(400, 0, 400, 1000, ink, thickness: 3)
    }

    static func shocked(_ image: GDImage) {
        gradient(image, from: (110, 150, 210), to: (60, 90, 160))
        image.ellipse(400, 330, 380, 440, skin)
        image.ellipse(400, 140, 390, 160, C.color(70, 50, 35))
        image.ellipse(320, 280, 90, 110, white)
        image.ellipse(480, 280, 90, 110, white)
        image.ellipse(320, 290, 34, 34, ink)
        image.ellipse(480, 290, 34, 34, ink)
        image.arc(320, 210, 100, 40, from: 200, to: 340, ink, thickness: 8)
        image.arc(480, 210, 100, 40, from: 200, to: 340, ink, thickness: 8)
        image.ellipse(400, 450, 110, 150, C.color(90, 20, 30))
        image.ellipse(400, 490, 70, 50, C.color(200, 80, 90))
    }

    static func distracted(_ image: GDImage) {
        image.fill(paper)
        gradient(image, from: (170, 210, 240), to: (230, 240, 250), y0: 150, y1: 420)
        image.rect(0, 420, 900, 180, C.color(170, 170, 160))
        person(image, x: 150, y: 230, scale: 1.0, shirt: C.color(200, 40, 80))
        person(image, x: 450, y: 220, scale: 1.05, shirt: C.color(60, 110, 190), leftArm: 10, rightArm: 60)
        person(image, x: 750, y: 230, scale: 1.0, shirt: C.color(40, 160, 110), leftArm: 60, rightArm: 10)
        // Who looks where.
        image.line(470, 215, 560, 200, C.color(220, 60, 60), thickness: 4)
        image.line(730, 225, 640, 215, C.color(220, 60, 60), thickness: 4)
    }

    static func twoButtons(_ image: GDImage) {
        image.fill(C.color(235, 235, 230))
        image.rect(40, 40, 720, 260, C.color(120, 120, 130))
        for cx in [215, 585] {
            image.ellipse(cx, 180, 290, 230, C.color(200, 30, 30))
            image.ellipse(cx, 170, 270, 210, C.color(240, 70, 60))
        }
        person(image, x: 400, y: 420, scale: 1.0, shirt: C.color(60, 60, 150), leftArm: 150, rightArm: 150)
        for (dx, dy) in [(-60, 380), (55, 370), (70, 430)] {
            image.ellipse(400 + dx, dy, 14, 22, C.color(120, 190, 255))
        }
    }

    static func changeMyMind(_ image: GDImage) {
        gradient(image, from: (150, 200, 120), to: (90, 150, 80))
        person(image, x: 150, y: 200, scale: 1.2, shirt: C.color(70, 90, 140), leftArm: 30, rightArm: 80)
        image.rect(140, 460, 620, 30, C.color(120, 80, 50))
        image.rect(170, 490, 20, 110, C.color(100, 70, 40))
        image.rect(710, 490, 20, 110, C.color(100, 70, 40))
        image.polygon([(220, 300), (660, 300), (660, 460), (220, 460)], paper)
        image.rect(220, 300, 440, 160, ink, filled: false)
        image.ellipse(600, 450, 60, 24, C.color(230, 230, 240))
    }

    static func thisIsFine(_ image: GDImage) {
        image.fill(C.color(240, 190, 90))
        image.rect(0, 420, 800, 180, C.color(160, 110, 60))
        for i in 0..<9 {
            let x = i * 100 + 20
            image.polygon([(x - 40, 600), (x, 380 + (i % 3) * 30), (x + 40, 600)], C.color(240, 90, 20, alpha: 20))
            image.polygon([(x - 20, 600), (x, 460 + (i % 2) * 30), (x + 20, 600)], C.color(255, 200, 40, alpha: 20))
        }
        image.rect(0, 0, 800, 120, C.color(90, 80, 80, alpha: 40))
        image.ellipse(400, 330, 170, 150, C.color(220, 160, 70))  // the calm one
        image.ellipse(330, 280, 60, 90, C.color(150, 90, 40))
        image.ellipse(470, 280, 60, 90, C.color(150, 90, 40))
        image.ellipse(375, 320, 16, 16, ink)
        image.ellipse(425, 320, 16, 16, ink)
        image.arc(400, 350, 60, 30, from: 20, to: 160, ink, thickness: 4)
        image.rect(300, 400, 200, 140, C.color(230, 170, 80))
        image.rect(530, 420, 60, 60, white)  // a mug
    }

    static func success(_ image: GDImage) {
        gradient(image, from: (150, 200, 250), to: (240, 220, 170), y1: 420)
        image.rect(0, 420, 800, 180, C.color(240, 220, 170))
        image.ellipse(400, 300, 300, 320, skin)
        image.ellipse(350, 270, 26, 20, ink)
        image.ellipse(450, 270, 26, 20, ink)
        image.arc(400, 350, 120, 50, from: 10, to: 170, ink, thickness: 6)
        image.ellipse(400, 500, 260, 200, C.color(40, 130, 70))
        image.ellipse(560, 420, 90, 90, skin)  // the fist
        image.line(560, 420, 520, 500, skin, thickness: 30)
        image.arc(560, 415, 70, 40, from: 200, to: 340, C.color(200, 150, 110), thickness: 3)
    }

    static func think(_ image: GDImage) {
        gradient(image, from: (60, 60, 80), to: (120, 110, 100))
        image.ellipse(400, 300, 300, 360, C.color(150, 100, 70))
        image.ellipse(400, 140, 290, 120, ink)
        image.ellipse(345, 270, 40, 22, white)
        image.ellipse(455, 270, 40, 22, white)
        image.ellipse(350, 272, 16, 16, ink)
        image.ellipse(460, 272, 16, 16, ink)
        image.arc(400, 370, 110, 40, from: 10, to: 170, ink, thickness: 6)
        image.line(650, 600, 590, 270, C.color(150, 100, 70), thickness: 44)  // finger to the temple
        image.ellipse(585, 250, 40, 40, C.color(150, 100, 70))
        image.rect(200, 470, 400, 130, C.color(230, 230, 230))
    }

    static func plan(_ image: GDImage) {
        image.fill(paper)
        for (col, row) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let x = col * 400
            let y = row * 300
            image.rect(x + 20, y + 30, 300, 210, white)
            image.rect(x + 20, y + 30, 300, 210, ink, filled: false)
            image.line(x + 90, y + 240, x + 60, y + 295, C.color(120, 80, 50), thickness: 6)
            image.line(x + 250, y + 240, x + 280, y + 295, C.color(120, 80, 50), thickness: 6)
            let shocked = (col, row) == (1, 1)
            image.ellipse(x + 360, y + 150, 60, 70, C.color(200, 200, 190))
            image.ellipse(x + 350, y + 145, 10, shocked ? 16 : 8, ink)
            image.rect(x + 335, y + 185, 50, 100, C.color(40, 40, 40))
        }
        image.line(400, 0, 400, 600, ink, thickness: 3)
        image.line(0, 300, 800, 300, ink, thickness: 3)
    }

    static func stonks(_ image: GDImage) {
        image.fill(C.color(10, 20, 60))
        for x in stride(from: 0, to: 800, by: 50) { image.line(x, 0, x, 600, C.color(30, 45, 100)) }
        for y in stride(from: 0, to: 600, by: 50) { image.line(0, y, 800, y, C.color(30, 45, 100)) }
        let points = [(40, 480), (160, 420), (260, 450), (380, 330), (480, 360), (600, 210), (740, 120)]
        for (a, b) in zip(points, points.dropFirst()) {
            image.line(a.0, a.1, b.0, b.1, C.color(60, 220, 90), thickness: 10)
        }
        image.polygon([(700, 100), (770, 90), (750, 160)], C.color(60, 220, 90))
        image.ellipse(250, 330, 150, 170, C.color(230, 230, 235))
        image.rect(185, 400, 130, 160, C.color(40, 40, 60))
        image.ellipse(225, 320, 14, 14, ink)
        image.ellipse(275, 320, 14, 14, ink)
    }

    static func oneDoesNot(_ image: GDImage) {
        gradient(image, from: (90, 80, 70), to: (40, 35, 30))
        image.polygon([(420, 600), (620, 180), (800, 600)], C.color(60, 40, 30))
        image.polygon([(560, 300), (620, 180), (680, 300)], C.color(240, 100, 40, alpha: 30))
        image.ellipse(300, 320, 240, 290, C.color(210, 170, 140))
        image.ellipse(300, 210, 260, 140, C.color(60, 45, 30))
        image.rect(175, 230, 30, 240, C.color(60, 45, 30))
        image.rect(395, 230, 30, 240, C.color(60, 45, 30))
        image.ellipse(255, 300, 30, 16, ink)
        image.ellipse(345, 300, 30, 16, ink)
        image.line(255, 400, 345, 400, ink, thickness: 5)
        image.line(190, 430, 170, 520, skin, thickness: 26)  // the gesture
        image.ellipse(170, 520, 40, 50, skin)
        image.rect(180, 470, 240, 130, C.color(70, 60, 50))
    }

    static func beforeAfter(_ image: GDImage) {
        image.fill(paper)
        gradient(image, from: (200, 230, 255), to: (240, 250, 255), y1: 420)
        image.rect(0, 420, 900, 140, paper)
        // Left: a tidy little plant. Right: the same, overgrown and on fire.
        image.rect(150, 300, 140, 110, C.color(190, 100, 60))
        image.line(220, 300, 220, 200, C.color(40, 140, 60), thickness: 8)
        image.ellipse(200, 210, 50, 30, C.color(60, 180, 80))
        image.ellipse(245, 230, 50, 30, C.color(60, 180, 80))
        image.rect(610, 300, 140, 110, C.color(190, 100, 60))
        for k in 0..<8 {
            image.line(680, 300, 560 + k * 35, 80 + (k % 3) * 30, C.color(40, 140, 60), thickness: 8)
            image.ellipse(560 + k * 35, 80 + (k % 3) * 30, 50, 34, C.color(60, 180, 80))
        }
        image.polygon([(720, 300), (760, 190), (800, 300)], C.color(240, 90, 20, alpha: 20))
        image.line(450, 0, 450, 560, ink, thickness: 4)
    }
}
