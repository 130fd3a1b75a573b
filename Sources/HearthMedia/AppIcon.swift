import Foundation

/// Hearth's icon: a flame on a dark square, the same drawing as `svg` (the favicon) in PNG for
/// the web app manifest and home screens. The flame sits inside the middle 80%, so a platform
/// that masks icons to a circle keeps all of it.
public enum AppIcon {
    /// The drawing on a 64×64 grid (SVG path data of the outer and inner flames).
    public static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">\
        <rect width="64" height="64" fill="#1c1917"/>\
        <path d="M32 9C40 20 49 28 49 40A17 17 0 0 1 15 40C15 28 24 20 32 9Z" fill="#f97316"/>\
        <path d="M32 26C36 32 40 36 40 43A8 8 0 0 1 24 43C24 36 28 32 32 26Z" fill="#facc15"/>\
        </svg>
        """

    /// The icon as PNG, `side` pixels square (drawn at 4× and scaled down, for smooth edges).
    public static func png(side: Int) -> [UInt8] {
        let big = side * 4
        let image = GDImage(width: big, height: big)
        let unit = Double(big) / 64
        image.fill(GDImage.color(0x1C, 0x19, 0x17))
        image.polygon(flame(top: 9, width: 17, centre: 40, unit: unit), GDImage.color(0xF9, 0x73, 0x16))
        image.polygon(flame(top: 26, width: 8, centre: 43, unit: unit), GDImage.color(0xFA, 0xCC, 0x15))
        return image.scaled(width: side, height: side).png(level: 9)
    }

    /// The outline of one flame of `svg`: a point at (32, top), curves down to a half circle of
    /// radius `width` centred at (32, centre), in pixels.
    static func flame(top: Double, width: Double, centre: Double, unit: Double) -> [(Int, Int)] {
        let steps = 48
        let sides = 32 + width
        var points: [(Double, Double)] = []
        // Right side: cubic from the tip to the circle's right end (controls as in `svg`).
        let (c1, c2) = ((32 + width / 2, top + (centre - top) * 0.35), (sides, centre - (centre - top) * 0.4))
        for step in 0...steps {
            let t = Double(step) / Double(steps)
            let u = 1 - t
            let x = u * u * u * 32 + 3 * u * u * t * c1.0 + 3 * u * t * t * c2.0 + t * t * t * sides
            let y = u * u * u * top + 3 * u * u * t * c1.1 + 3 * u * t * t * c2.1 + t * t * t * centre
            points.append((x, y))
        }
        // The half circle below, right to left.
        for step in 1..<steps {
            let angle = Double.pi * Double(step) / Double(steps)
            points.append((32 + width * cos(angle), centre + width * sin(angle)))
        }
        // The left side mirrors the right.
        points += points.prefix(steps + 1).reversed().map { (64 - $0.0, $0.1) }
        return points.map { (Int(($0.0 * unit).rounded()), Int(($0.1 * unit).rounded())) }
    }
}
