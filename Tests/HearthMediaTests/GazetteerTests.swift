import Foundation
import Testing

@testable import HearthMedia

/// Towns by name from GeoNames (issue 40): accents or not, any case, namesakes, "NAME, COUNTRY",
/// and the Natural Earth places Hearth knew before still where they were.
@Suite struct GazetteerTests {
    static func place(_ name: String) throws -> (Gazetteer.Place, [Gazetteer.Place]) {
        guard case .found(let place, let namesakes) = Gazetteer.find(name) else {
            Issue.record("\(name) not found")
            throw CancellationError()
        }
        return (place, namesakes)
    }

    @Test func tensOfThousandsOfTownsWithTheirCountryPeopleAndZone() throws {
        #expect(Gazetteer.count > 30_000)
        let (lyon, _) = try Self.place("Lyon")
        #expect(lyon.name == "Lyon" && lyon.country == "FR" && lyon.timeZone == "Europe/Paris")
        #expect(abs(lyon.lat - 45.75) < 0.1 && abs(lyon.lon - 4.85) < 0.1 && lyon.population > 400_000)
        #expect(Gazetteer.countryName("FR") == "France")
        // A town of 20,000 people.
        let (small, _) = try Self.place("brignoles")
        #expect(small.country == "FR")
    }

    @Test func namesAreFoundWithAccentsOrWithoutInAnyCase() throws {
        for spelling in ["Zürich", "Zurich", "zurich", "ZÜRICH", "  zürich "] {
            #expect(try Self.place(spelling).0.country == "CH", "\(spelling)")
        }
        for spelling in ["Łódź", "Lodz", "lódz"] { #expect(try Self.place(spelling).0.country == "PL") }
        #expect(try Self.place("saint etienne").0.name == "Saint-Étienne")
        #expect(try Self.place("Saint_Étienne").0.name == "Saint-Étienne")
        // Another name GeoNames lists for a large town: Cologne is Köln.
        #expect(try Self.place("Cologne").0.name == "Köln")
        #expect(Gazetteer.lookup("Narnia") == nil && Gazetteer.lookup("Atlantis")?.country == "ZA")
    }

    @Test func aSharedNameMeansTheMostPopulousAndACountryChoosesAnother() throws {
        let (paris, namesakes) = try Self.place("Paris")
        #expect(paris.country == "FR")
        #expect(namesakes.map(\.qualifiedName).contains("Paris, US"))
        for chosen in ["Paris, US", "paris, us", "Paris, United States", "Paris,US"] {
            let (texas, _) = try Self.place(chosen)
            #expect(texas.country == "US" && texas.lat < 40, "\(chosen)")
        }
        #expect(try Self.place("Paris, France").0.country == "FR")
        // Springfield, US is one of many: still the most populous.
        let springfields = Gazetteer.data.byName["springfield"]!.map { Gazetteer.data.places[Int($0)] }
        #expect(try Self.place("Springfield").0 == springfields.max { $0.population < $1.population })
        // A name the country has none of: the places of that name elsewhere.
        guard case .unknown(let elsewhere) = Gazetteer.find("Lyon, JP") else {
            Issue.record("Lyon in Japan")
            return
        }
        #expect(elsewhere.map(\.country) == ["FR"])
        #expect(Gazetteer.find("Paris, Narnia") == .unknown(elsewhere: []))
        #expect(Gazetteer.maxNamesakes == 3 && namesakes.count <= Gazetteer.maxNamesakes)
    }

    /// The ~240 Natural Earth cities and 175 countries answer as before: same coordinates.
    @Test func theNaturalEarthPlacesKeepTheirCoordinates() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/HearthMedia/MapData/cities.txt")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count > 400)
        var seen: Set<String> = []
        for line in lines {
            let parts = line.split(separator: "\t")
            guard seen.insert(Gazetteer.fold(String(parts[0]))).inserted else { continue }  // the first one wins
            let found = try #require(Gazetteer.lookup(String(parts[0])), "\(parts[0])")
            #expect(found.name == String(parts[0]) && found.lat == Double(parts[1]) && found.lon == Double(parts[2]))
        }
        // Countries are countries, not a town of that name.
        let jordan = try Self.place("Jordan").0
        #expect(abs(jordan.lat - 31) < 2 && abs(jordan.lon - 36) < 2)
        // Those GeoNames knows too carry its country.
        #expect(try Self.place("Tokyo").0.country == "JP")
    }
}
