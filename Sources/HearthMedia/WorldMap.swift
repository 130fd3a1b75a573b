import CGD
import Foundation
import Synchronization

/// A world map (Natural Earth 1:110m, public domain; see MapData/README.md) in the
/// equirectangular projection, with numbered markers and a legend underneath.
public struct WorldMap: Sendable {
    public struct Marker: Sendable {
        public var lat: Double
        public var lon: Double
        public var label: String
        public init(lat: Double, lon: Double, label: String) { (self.lat, self.lon, self.label) = (lat, lon, label) }
    }

    public static let width = 1024
    public static let height = 512
    /// Legend lines shown (the rest are summed up in one line).
    public static let maxLegendLines = 30
    static let legendColumns = 2
    static let legendLine = 20

    let rings: [[(x: Int, y: Int)]]
    let fonts: FontSet
    private let base: GDImage

    /// The map, or nil when its data file is missing.
    public init?(fonts: FontSet) {
        _ = GDImage.setUp
        guard let url = Bundle.module.url(forResource: "world-110m", withExtension: "txt", subdirectory: "MapData"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return nil }
        var rings: [[(x: Int, y: Int)]] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let points = line.split(separator: " ").compactMap { pair -> (x: Int, y: Int)? in
                let parts = pair.split(separator: ",")
                guard parts.count == 2, let lon = Double(parts[0]), let lat = Double(parts[1]) else { return nil }
                return Self.project(lat: lat, lon: lon)
            }
            if points.count >= 3 { rings.append(points) }
        }
        self.rings = rings
        self.fonts = fonts
        base = Self.drawBase(rings)
    }

    /// Pixel of a coordinate on the map.
    public static func project(lat: Double, lon: Double) -> (x: Int, y: Int) {
        (Int(((lon + 180) / 360 * Double(width - 1)).rounded()), Int(((90 - lat) / 180 * Double(height - 1)).rounded()))
    }

    public static let ocean = GDImage.color(170, 205, 235)
    public static let land = GDImage.color(238, 232, 214)
    public static let coast = GDImage.color(110, 120, 130)
    public static let marker = GDImage.color(210, 40, 50)

    static func drawBase(_ rings: [[(x: Int, y: Int)]]) -> GDImage {
        let image = GDImage(width: width, height: height)
        image.fill(ocean)
        for ring in rings { image.polygon(ring.map { ($0.x, $0.y) }, land) }
        for ring in rings {
            var points = ring.map { gdPoint(x: Int32($0.x), y: Int32($0.y)) }
            gdImagePolygon(image.ptr, &points, Int32(points.count), coast)
        }
        // Graticule every 30°.
        for lon in stride(from: -150, through: 150, by: 30) {
            let x = project(lat: 0, lon: Double(lon)).x
            gdImageDashedLine(image.ptr, Int32(x), 0, Int32(x), Int32(height - 1), GDImage.color(150, 185, 215))
        }
        for lat in stride(from: -60, through: 60, by: 30) {
            let y = project(lat: Double(lat), lon: 0).y
            gdImageDashedLine(image.ptr, 0, Int32(y), Int32(width - 1), Int32(y), GDImage.color(150, 185, 215))
        }
        return image
    }

    /// The map with a numbered marker per place and a legend; `title` heads the legend.
    public func render(title: String, markers: [Marker]) -> GDImage {
        let shown = Array(markers.prefix(Self.maxLegendLines))
        let rows = (shown.count + Self.legendColumns - 1) / Self.legendColumns + (markers.count > shown.count ? 1 : 0)
        let legendHeight = 40 + max(1, rows) * Self.legendLine + 10
        let image = GDImage(width: Self.width, height: Self.height + legendHeight)
        image.fill(GDImage.color(250, 250, 247))
        image.draw(base, x: 0, y: 0, width: Self.width, height: Self.height)
        // Markers, numbered; the first ones drawn last so they stay on top.
        for (index, marker) in markers.enumerated().reversed() {
            let (x, y) = Self.project(lat: marker.lat, lon: marker.lon)
            image.ellipse(x, y, 22, 22, GDImage.color(255, 255, 255))
            image.ellipse(x, y, 18, 18, Self.marker)
            let number = String(index + 1)
            let size = number.count > 2 ? 8.0 : 10.0
            let box = GDImage.measure(number, font: fonts.primary, size: size)
            image.text(
                number, font: fonts.primary, size: size, x: x - Int(box[2] - box[0]) / 2, y: y + Int(size * 0.36),
                color: GDImage.color(255, 255, 255))
        }
        image.text(title, font: fonts.primary, size: 15, x: 14, y: Self.height + 26, color: GDImage.color(30, 30, 30))
        let columnWidth = (Self.width - 28) / Self.legendColumns
        for (index, marker) in shown.enumerated() {
            let x = 14 + (index % Self.legendColumns) * columnWidth
            let y = Self.height + 40 + (index / Self.legendColumns) * Self.legendLine + 12
            image.ellipse(x + 8, y - 5, 16, 16, Self.marker)
            let number = String(index + 1)
            let box = GDImage.measure(number, font: fonts.primary, size: 9)
            image.text(
                number, font: fonts.primary, size: 9, x: x + 8 - Int(box[2] - box[0]) / 2, y: y - 1,
                color: GDImage.color(255, 255, 255))
            image.text(
                Self.fit(marker.label, width: columnWidth - 34, font: fonts), font: fonts.primary, size: 12, x: x + 22,
                y: y,
                color: GDImage.color(40, 40, 40))
        }
        if markers.count > shown.count {
            let y =
                Self.height + 40 + (shown.count + Self.legendColumns - 1) / Self.legendColumns * Self.legendLine + 12
            image.text(
                "… and \(markers.count - shown.count) more", font: fonts.primary, size: 12, x: 14, y: y,
                color: GDImage.color(90, 90, 90))
        }
        return image
    }

    /// `text`, cut with an ellipsis to fit `width` pixels at 12 px.
    static func fit(_ text: String, width: Int, font fonts: FontSet) -> String {
        func w(_ s: String) -> Int {
            let b = GDImage.measure(s, font: fonts.primary, size: 12)
            return Int(b[2] - b[0])
        }
        if w(text) <= width { return text }
        var cut = text
        while !cut.isEmpty && w(cut + "…") > width { cut.removeLast() }
        return cut + "…"
    }
}

/// Place names → coordinates, offline (Natural Earth populated places and countries).
public enum Gazetteer {
    private static let places: [String: (name: String, lat: Double, lon: Double)] = {
        guard let url = Bundle.module.url(forResource: "cities", withExtension: "txt", subdirectory: "MapData"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [:] }
        var result: [String: (String, Double, Double)] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t")
            guard parts.count == 3, let lat = Double(parts[1]), let lon = Double(parts[2]) else { continue }
            let key = normalize(String(parts[0]))
            if result[key] == nil { result[key] = (String(parts[0]), lat, lon) }
        }
        return result
    }()

    static func normalize(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(
            in: .whitespaces)
    }

    public static func lookup(_ name: String) -> (name: String, lat: Double, lon: Double)? {
        places[normalize(name.replacingOccurrences(of: "_", with: " "))]
    }

    public static var count: Int { places.count }
}

/// Great-circle distance in kilometres.
public func haversineKilometres(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
    let r = 6371.0
    let dLat = (b.lat - a.lat) * .pi / 180
    let dLon = (b.lon - a.lon) * .pi / 180
    let h =
        sin(dLat / 2) * sin(dLat / 2) + cos(a.lat * .pi / 180) * cos(b.lat * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * r * asin(min(1, h.squareRoot()))
}
