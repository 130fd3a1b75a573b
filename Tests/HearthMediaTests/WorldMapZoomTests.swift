import Foundation
import Testing

@testable import HearthMedia

/// A map shows the part of the world around its markers, the whole world only when they are
/// spread over it. `HEARTH_RENDER_DIR` keeps the pictures to look at.
@Suite struct WorldMapZoomTests {
    typealias Viewport = WorldMap.Viewport
    static let paris = WorldMap.Marker(lat: 48.85, lon: 2.35, label: "Paris")
    static let london = WorldMap.Marker(lat: 51.5, lon: -0.12, label: "London")
    static let tokyo = WorldMap.Marker(lat: 35.68, lon: 139.69, label: "Tokyo")
    static let honolulu = WorldMap.Marker(lat: 21.31, lon: -157.86, label: "Honolulu")

    static func inside(_ marker: WorldMap.Marker, _ view: Viewport) -> Bool {
        let (x, y) = view.project(lat: marker.lat, lon: marker.lon, width: WorldMap.width, height: WorldMap.height)
        return (0..<WorldMap.width).contains(x) && (0..<WorldMap.height).contains(y)
    }

    @Test func oneOrTwoNearbyPlacesShowTheirRegion() {
        #expect(Viewport.around([]) == .world)
        let one = Viewport.around([Self.paris])
        #expect(one.span == Viewport.minimumSpan)
        #expect(Self.inside(Self.paris, one))
        let (x, y) = one.project(lat: 48.85, lon: 2.35, width: WorldMap.width, height: WorldMap.height)
        #expect(abs(x - WorldMap.width / 2) <= 1 && abs(y - WorldMap.height / 2) <= 1)  // in the middle
        let two = Viewport.around([Self.paris, Self.london])
        #expect(two.span == Viewport.minimumSpan && Self.inside(Self.london, two))
        // Far apart but not all over: the span they need, with the margin, not the world.
        let far = Viewport.around([Self.paris, Self.tokyo])
        #expect(far != .world && far.span < 360 && Self.inside(Self.paris, far) && Self.inside(Self.tokyo, far))
        #expect(abs(far.span - (139.69 - 2.35) * (1 + 2 * Viewport.margin)) < 0.001)
    }

    @Test func placesAcrossTheAntimeridianStayClose() {
        let view = Viewport.around([Self.tokyo, Self.honolulu])
        // Over the Pacific (62.5° apart that way), not the 297.5° the other way round.
        #expect(view.span < 100 && view.east > 180)
        #expect(Self.inside(Self.tokyo, view) && Self.inside(Self.honolulu, view))
        let tokyo = view.project(lat: Self.tokyo.lat, lon: Self.tokyo.lon, width: 1024, height: 512)
        let honolulu = view.project(lat: Self.honolulu.lat, lon: Self.honolulu.lon, width: 1024, height: 512)
        #expect(tokyo.x < honolulu.x)
    }

    @Test func placesAllOverTheWorldShowTheWorld() {
        let spread = [
            Self.paris, Self.tokyo, WorldMap.Marker(lat: -33.87, lon: 151.21, label: "Sydney"),
            WorldMap.Marker(lat: 40.71, lon: -74.0, label: "New York"),
            WorldMap.Marker(lat: -33.45, lon: -70.67, label: "Santiago"),
        ]
        #expect(Viewport.around(spread) == .world)
        // Near a pole the view stays on the globe.
        let north = Viewport.around([WorldMap.Marker(lat: 89, lon: 10, label: "pole")])
        #expect(north.north <= 90 && north.south >= -90)
    }

    @Test func aZoomedMapDrawsTheCoastsWhereTheyAre() throws {
        let fonts = try #require(FontSet.installed())
        let map = try #require(WorldMap(fonts: fonts))
        let markers = [Self.paris, Self.london]
        let view = Viewport.around(markers)
        let image = map.render(title: "Where ann opened fortune cookies", markers: markers)
        #expect(image.width == WorldMap.width && image.height > WorldMap.height)
        func at(_ lat: Double, _ lon: Double) -> Int32 {
            let (x, y) = view.project(lat: lat, lon: lon, width: WorldMap.width, height: WorldMap.height)
            return image.pixel(x, y)
        }
        #expect(at(46.5, 2.5) == WorldMap.land)  // the middle of France
        #expect(at(45.5, -4.5) == WorldMap.ocean)  // the Bay of Biscay
        let paris = view.project(lat: 48.85, lon: 2.35, width: WorldMap.width, height: WorldMap.height)
        #expect(image.pixel(paris.x + 6, paris.y) == WorldMap.marker)  // Paris's marker, beside its number
        let pacific = map.render(title: "Pacific", markers: [Self.tokyo, Self.honolulu])
        let pview = Viewport.around([Self.tokyo, Self.honolulu])
        let (x, y) = pview.project(lat: 36.5, lon: 138.5, width: WorldMap.width, height: WorldMap.height)
        #expect(pacific.pixel(x, y) == WorldMap.land)  // Honshu
        if let dir = ProcessInfo.processInfo.environment["HEARTH_RENDER_DIR"] {
            try Data(image.png(level: 1)).write(to: URL(fileURLWithPath: "\(dir)/map-zoomed-paris.png"))
            try Data(pacific.png(level: 1)).write(to: URL(fileURLWithPath: "\(dir)/map-zoomed-pacific.png"))
        }
    }

    /// Markers at one place (or a few pixels apart) go round the first one instead of under it.
    @Test func markersThatWouldCoverEachOtherAreSpreadApart() throws {
        let spacing = WorldMap.markerSpacing
        func apart(_ spots: [(x: Int, y: Int)]) -> Bool {
            for i in spots.indices {
                for j in spots.indices where j > i {
                    let (dx, dy) = (spots[i].x - spots[j].x, spots[i].y - spots[j].y)
                    if dx * dx + dy * dy < (spacing - 2) * (spacing - 2) { return false }
                }
            }
            return true
        }
        let far = [(x: 100, y: 100), (x: 300, y: 100)]
        #expect(WorldMap.spread(far).map(\.x) == [100, 300])  // nothing to move
        for count in [2, 7, 19, 40] {
            let same = [(x: Int, y: Int)](repeating: (500, 250), count: count)
            let spots = WorldMap.spread(same)
            #expect(spots[0] == (500, 250) && apart(spots), "\(count) markers")
        }
        let close = [(x: 500, y: 250), (x: 505, y: 252), (x: 700, y: 300), (x: 498, y: 247)]
        let spots = WorldMap.spread(close)
        #expect(spots[0] == (500, 250) && spots[2] == (700, 300) && apart(spots))

        // Drawn: marker 2 (Versailles, beside Paris) has its own red disc away from Paris's.
        let fonts = try #require(FontSet.installed())
        let map = try #require(WorldMap(fonts: fonts))
        let markers = [
            Self.paris, WorldMap.Marker(lat: 48.80, lon: 2.13, label: "Versailles"),
            WorldMap.Marker(lat: 48.86, lon: 2.34, label: "Paris again"), Self.london,
        ]
        let view = Viewport.around(markers)
        let image = map.render(title: "Around Paris", markers: markers)
        let placed = WorldMap.spread(
            markers.map { view.project(lat: $0.lat, lon: $0.lon, width: WorldMap.width, height: WorldMap.height) })
        #expect(apart(placed))
        for spot in placed { #expect(image.pixel(spot.x + 6, spot.y) == WorldMap.marker) }
        if let dir = ProcessInfo.processInfo.environment["HEARTH_RENDER_DIR"] {
            try Data(image.png(level: 1)).write(to: URL(fileURLWithPath: "\(dir)/map-spread-paris.png"))
        }
    }
}
