import Foundation
import HearthKit
import HearthMedia

/// A place as a command gives it (`!fortune @…`, `!loc …`): `@LAT,LON [name]`, or a town's name
/// found in the gazetteer (`@Lyon`, `@zurich`, `@Paris, US`).
struct PlaceInput: Sendable {
    let lat: Double
    let lon: Double
    /// The name kept with the place (nil: bare coordinates).
    let name: String?
    /// Other places of that name and how to choose one, when there are any.
    let note: String?

    static let maxNameLength = 60
    /// Names offered when one is not known.
    static let maxSuggestions = 3

    /// `text` starts with "@".
    static func parse(_ text: String) throws -> PlaceInput {
        let body = text.dropFirst()  // "@"
        let words = body.split(separator: " ", maxSplits: 1).map(String.init)
        let head = words.first ?? ""
        let parts = head.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
            guard (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw BotError(
                    "\(head) is off the globe: latitude goes from -90 to 90 and longitude from -180 to 180 — e.g. "
                        + "@48.85,2.35 Paris"
                )
            }
            let name = words.count > 1 ? String(words[1].prefix(maxNameLength)) : nil
            return PlaceInput(lat: lat, lon: lon, name: name, note: nil)
        }
        if head.contains(where: { $0.isNumber }) && head.contains(",") {
            throw BotError(
                "\"\(head)\" is not a place: use @LAT,LON with numbers, e.g. @48.85,2.35 Paris, or a city like @Paris")
        }
        let name = String(body).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw BotError("where? Use @LAT,LON (e.g. @48.85,2.35) or a city (e.g. @Paris)") }
        return try named(String(name.prefix(maxNameLength)))
    }

    /// A town by name; namesakes are named in the note, unknown names get suggestions.
    static func named(_ name: String) throws -> PlaceInput {
        switch Gazetteer.find(name) {
        case .found(let place, let namesakes):
            // Chosen with a country ("Paris, US"): keep the country with the name.
            let qualified = name.contains(",") && !place.name.contains(",")
            var note: String?
            if !namesakes.isEmpty {
                let others = namesakes.map(\.qualifiedName).joined(separator: "; ")
                note = "\(place.name): \(describe(place)); also \(others) — say e.g. @\(namesakes[0].qualifiedName)."
            }
            return PlaceInput(
                lat: place.lat, lon: place.lon, name: qualified ? place.qualifiedName : place.name, note: note)
        case .unknown(let elsewhere):
            if let comma = name.lastIndex(of: ","), !elsewhere.isEmpty {
                let country = name[name.index(after: comma)...].trimmingCharacters(in: .whitespaces)
                throw BotError(
                    "I know no \(name[..<comma]) in \(country) — there is "
                        + elsewhere.map(\.qualifiedName).joined(separator: ", "))
            }
            if let comma = name.lastIndex(of: ","), Gazetteer.lookup(String(name[..<comma])) != nil {
                let country = name[name.index(after: comma)...].trimmingCharacters(in: .whitespaces)
                throw BotError(
                    "I don't know the country \(country) — give its code or name, e.g. @Paris, FR or @Paris, France")
            }
            let guesses = suggestions(for: name)
            let guess = guesses.isEmpty ? "." : " — did you mean \(guesses.joined(separator: " or "))?"
            throw BotError(
                "I don't know a place called \(name)\(guess) You may give coordinates, e.g. @48.85,2.35 \(name)")
        }
    }

    /// "the one in France (2.1 M people)": which of its namesakes a place is.
    static func describe(_ place: Gazetteer.Place) -> String {
        let country = Gazetteer.countryName(place.country).map { " in \($0)" } ?? ""
        guard place.population > 0 else { return "the one\(country)" }
        let people =
            place.population >= 1_000_000
            ? String(format: "%.1f M", Double(place.population) / 1_000_000)
            : "\(place.population / 1000)k"
        return "the one\(country) (\(people) people)"
    }

    /// Known names spelt about like `name`, closest first, then the most populous.
    static func suggestions(for name: String) -> [String] {
        let key = Gazetteer.fold(name)
        guard key.count >= 3 else { return [] }
        let allowed = key.count <= 4 ? 1 : 2
        let scored = Gazetteer.names(near: key, slack: allowed).compactMap { candidate -> (Int, Int, String)? in
            let distance = Suggest.distance(key, candidate.key)
            return distance <= allowed ? (distance, -candidate.place.population, candidate.place.name) : nil
        }
        var seen: Set<String> = []
        return scored.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.map(\.2).filter { seen.insert($0).inserted }
            .prefix(maxSuggestions).map { $0 }
    }
}
