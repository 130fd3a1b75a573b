import CGD
import Foundation
import Synchronization

/// A world map (Natural Earth 1:110m, public domain; see MapData/README.md) in the
/// equirectangular projection, with numbered markers and a legend underneath. The map shows the
/// part of the world around its markers (`Viewport.around`), the whole world only when they
/// are spread over it.
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

    /// The part of the world a picture shows, in degrees, as wide as it is tall twice over (the
    /// picture's 2:1, so a degree is as many pixels each way). `east` may pass 180 when the view
    /// crosses the antimeridian (Tokyo and Hawaii).
    public struct Viewport: Sendable, Equatable {
        public var west: Double
        public var south: Double
        /// Degrees of longitude shown; latitude shows half as many.
        public var span: Double
        public var east: Double { west + span }
        public var north: Double { south + span / 2 }

        public static let world = Viewport(west: -180, south: -90, span: 360)
        /// The narrowest view (degrees of longitude): one place shows its country and neighbours,
        /// since the 1:110m coasts have no more detail than that.
        public static let minimumSpan = 24.0
        /// Room around the markers, as a share of how far apart they are.
        public static let margin = 0.2
        /// A view wider than this shows the whole world instead (hardly anything to gain).
        public static let worldBeyond = 270.0

        public init(west: Double, south: Double, span: Double) {
            (self.west, self.south, self.span) = (west, south, span)
        }

        /// The smallest view that holds every marker with a margin: longitudes are taken around
        /// the globe's largest empty gap, so places on both sides of the antimeridian stay close.
        public static func around(_ markers: [Marker]) -> Viewport {
            guard !markers.isEmpty else { return world }
            let lons = markers.map { normalized($0.lon) }.sorted()
            var (gap, after) = (lons[0] + 360 - lons[lons.count - 1], 0)
            for i in 1..<lons.count where lons[i] - lons[i - 1] > gap { (gap, after) = (lons[i] - lons[i - 1], i) }
            let lonSpan = 360 - gap
            let centreLon = lons[after] + lonSpan / 2
            let (south, north) = (markers.map(\.lat).min()!, markers.map(\.lat).max()!)
            var span = max(lonSpan, (north - south) * 2) * (1 + 2 * margin)
            span = max(span, minimumSpan)
            if span > worldBeyond { return world }
            let latSpan = span / 2
            let bottom = min(max((south + north) / 2 - latSpan / 2, -90), 90 - latSpan)
            return Viewport(west: centreLon - span / 2, south: bottom, span: span)
        }

        /// A longitude in -180..<180.
        static func normalized(_ lon: Double) -> Double {
            let l = (lon + 180).truncatingRemainder(dividingBy: 360)
            return (l < 0 ? l + 360 : l) - 180
        }

        /// Pixel of a coordinate in a picture of `width`×`height` showing this view.
        public func project(lat: Double, lon: Double, width: Int, height: Int) -> (x: Int, y: Int) {
            var l = lon
            while l < west { l += 360 }
            while l >= west + 360 { l -= 360 }
            return (
                Int(((l - west) / span * Double(width - 1)).rounded()),
                Int(((north - lat) / (span / 2) * Double(height - 1)).rounded())
            )
        }
    }

    /// The coasts as read (longitude, latitude), to draw any view.
    let coasts: [[(lon: Double, lat: Double)]]
    let fonts: FontSet
    private let base: GDImage

    /// The map, or nil when its data file is missing.
    public init?(fonts: FontSet) {
        _ = GDImage.setUp
        guard let url = Bundle.module.url(forResource: "world-110m", withExtension: "txt", subdirectory: "MapData"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return nil }
        var coasts: [[(lon: Double, lat: Double)]] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let points = line.split(separator: " ").compactMap { pair -> (lon: Double, lat: Double)? in
                let parts = pair.split(separator: ",")
                guard parts.count == 2, let lon = Double(parts[0]), let lat = Double(parts[1]) else { return nil }
                return (lon, lat)
            }
            if points.count >= 3 { coasts.append(points) }
        }
        self.coasts = coasts
        self.fonts = fonts
        base = Self.drawBase(coasts.map { $0.map { Self.project(lat: $0.lat, lon: $0.lon) } })
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

    /// The coasts of `view` (not the whole world), drawn at the picture's size: land, coast,
    /// and a graticule as fine as the view is narrow.
    func drawView(_ view: Viewport) -> GDImage {
        let (width, height) = (Self.width, Self.height)
        let image = GDImage(width: width, height: height)
        image.fill(Self.ocean)
        let scale = Double(width - 1) / view.span
        // Each ring where it falls in the view, and once more a turn of the globe either side.
        var shapes: [[(x: Int, y: Int)]] = []
        for ring in coasts {
            let (low, high) = (ring.map(\.lon).min()!, ring.map(\.lon).max()!)
            let (south, north) = (ring.map(\.lat).min()!, ring.map(\.lat).max()!)
            guard north >= view.south, south <= view.north else { continue }
            for turn in [-360.0, 0, 360] where high + turn >= view.west && low + turn <= view.east {
                shapes.append(
                    ring.map { point in
                        (
                            Int(((point.lon + turn - view.west) * scale).rounded()),
                            Int(((view.north - point.lat) * scale).rounded())
                        )
                    })
            }
        }
        for shape in shapes { image.polygon(shape.map { ($0.x, $0.y) }, Self.land) }
        for shape in shapes {
            var points = shape.map { gdPoint(x: Int32($0.x), y: Int32($0.y)) }
            gdImagePolygon(image.ptr, &points, Int32(points.count), Self.coast)
        }
        let step = view.span > 180 ? 30.0 : view.span > 60 ? 10.0 : 5.0
        let line = GDImage.color(150, 185, 215)
        for lon in stride(from: (view.west / step).rounded(.up) * step, through: view.east, by: step) {
            let x = Int32(((lon - view.west) * scale).rounded())
            gdImageDashedLine(image.ptr, x, 0, x, Int32(height - 1), line)
        }
        for lat in stride(from: (view.south / step).rounded(.up) * step, through: view.north, by: step) {
            let y = Int32(((view.north - lat) * scale).rounded())
            gdImageDashedLine(image.ptr, 0, y, Int32(width - 1), y, line)
        }
        return image
    }

    /// The map with a numbered marker per place and a legend; `title` heads the legend. It shows
    /// `view`, by default the part of the world around the markers.
    public func render(title: String, markers: [Marker], view: Viewport? = nil) -> GDImage {
        let view = view ?? Viewport.around(markers)
        let shown = Array(markers.prefix(Self.maxLegendLines))
        let rows = (shown.count + Self.legendColumns - 1) / Self.legendColumns + (markers.count > shown.count ? 1 : 0)
        let legendHeight = 40 + max(1, rows) * Self.legendLine + 10
        let image = GDImage(width: Self.width, height: Self.height + legendHeight)
        image.fill(GDImage.color(250, 250, 247))
        image.draw(view == .world ? base : drawView(view), x: 0, y: 0, width: Self.width, height: Self.height)
        // Markers, numbered, moved apart where they would cover each other (a thin line and a dot
        // keep the true place); the first ones drawn last so they stay on top.
        let places = markers.map { view.project(lat: $0.lat, lon: $0.lon, width: Self.width, height: Self.height) }
        let spots = Self.spread(places)
        for (place, spot) in zip(places, spots) where place != spot {
            image.line(place.x, place.y, spot.x, spot.y, Self.coast)
            image.ellipse(place.x, place.y, 7, 7, Self.marker)
        }
        for (index, (x, y)) in spots.enumerated().reversed() {
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

    /// Pixels between the centres of two markers that do not overlap (a marker is 22 px wide).
    static let markerSpacing = 24

    /// Where to draw markers at `points` so that none hides another: a marker within
    /// `markerSpacing` of an earlier group's first one joins that group, whose first marker stays
    /// on its place and the others go round it in rings (6 in the first, 12 in the next, …).
    static func spread(_ points: [(x: Int, y: Int)]) -> [(x: Int, y: Int)] {
        var groups: [(centre: (x: Int, y: Int), members: [Int])] = []
        for (index, point) in points.enumerated() {
            let near = groups.firstIndex { group in
                let (dx, dy) = (group.centre.x - point.x, group.centre.y - point.y)
                return dx * dx + dy * dy < markerSpacing * markerSpacing
            }
            if let near { groups[near].members.append(index) } else { groups.append((point, [index])) }
        }
        var spots = points
        for group in groups {
            var (ring, slot, capacity) = (0, 0, 1)
            for member in group.members {
                if slot == capacity { (ring, slot, capacity) = (ring + 1, 0, 6 * (ring + 1)) }
                let radius = Double(ring * markerSpacing)
                // Rings turned by half a slot each, so neighbouring rings do not line up.
                let angle = (Double(slot) + Double(ring % 2) / 2) / Double(capacity) * 2 * .pi - .pi / 2
                spots[member] = (
                    group.centre.x + Int((radius * cos(angle)).rounded()),
                    group.centre.y + Int((radius * sin(angle)).rounded())
                )
                slot += 1
            }
        }
        return spots
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

/// Great-circle distance in kilometres.
public func haversineKilometres(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
    let r = 6371.0
    let dLat = (b.lat - a.lat) * .pi / 180
    let dLon = (b.lon - a.lon) * .pi / 180
    let h =
        sin(dLat / 2) * sin(dLat / 2) + cos(a.lat * .pi / 180) * cos(b.lat * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * r * asin(min(1, h.squareRoot()))
}
