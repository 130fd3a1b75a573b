import Foundation
import Synchronization

/// Place names → coordinates, offline: GeoNames' towns of more than 15,000 people
/// (MapData/places.tsv, CC BY 4.0) and the Natural Earth cities and countries Hearth knew first
/// (MapData/cities.txt, which keep their coordinates). Names are found with or without accents,
/// in any case; a name many towns share means the most populous, "NAME, COUNTRY" another.
public enum Gazetteer {
    public struct Place: Sendable, Equatable {
        public let name: String
        /// ISO 3166 code ("FR"), empty for a Natural Earth country or a place GeoNames lacks.
        public let country: String
        public let lat: Double
        public let lon: Double
        public let population: Int
        /// The IANA zone ("Europe/Paris"), nil when not known.
        public let timeZone: String?

        /// "Paris, FR": the name with what tells it from namesakes.
        public var qualifiedName: String { country.isEmpty ? name : "\(name), \(country)" }
    }

    public enum Lookup: Sendable, Equatable {
        /// The place meant, and namesakes elsewhere (most populous first, a few at most).
        case found(Place, namesakes: [Place])
        /// No such name; `elsewhere` are places of that name when a country was given that has none.
        case unknown(elsewhere: [Place])
    }

    /// Namesakes named in an answer.
    public static let maxNamesakes = 3

    struct Data: Sendable {
        var places: [Place] = []
        /// Folded name → places (indexes into `places`, most populous first).
        var byName: [String: [Int32]] = [:]
        /// Folded other names ("cologne") → places, looked up after the names.
        var byOtherName: [String: [Int32]] = [:]
        /// Folded Natural Earth name → its place (cities, then countries).
        var naturalEarth: [String: Place] = [:]
        /// Country code → name, and folded name or code → code.
        var countryNames: [String: String] = [:]
        var countryCodes: [String: String] = [:]
    }

    static let data: Data = {
        var data = Data()
        if let url = Bundle.module.url(forResource: "places", withExtension: "tsv", subdirectory: "MapData"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        {
            load(text, into: &data)
        }
        if let url = Bundle.module.url(forResource: "cities", withExtension: "txt", subdirectory: "MapData"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        {
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let parts = line.split(separator: "\t")
                guard parts.count == 3, let lat = Double(parts[1]), let lon = Double(parts[2]) else { continue }
                let key = fold(String(parts[0]))
                guard data.naturalEarth[key] == nil else { continue }
                // The GeoNames town of that name nearby tells its country, people and zone.
                let twin = data.byName[key]?.lazy.map { data.places[Int($0)] }.first {
                    abs($0.lat - lat) < 0.5 && abs($0.lon - lon) < 0.5
                }
                data.naturalEarth[key] = Place(
                    name: String(parts[0]), country: twin?.country ?? "", lat: lat, lon: lon,
                    population: twin?.population ?? 0, timeZone: twin?.timeZone)
            }
        }
        return data
    }()

    static func load(_ text: String, into data: inout Data) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            if parts.count == 3, parts[0] == "C" {
                let (code, name) = (String(parts[1]), String(parts[2]))
                data.countryNames[code] = name
                data.countryCodes[fold(name)] = code
                data.countryCodes[code.lowercased()] = code
                continue
            }
            guard parts.count == 9, parts[0] == "P", let lat = Double(parts[4]), let lon = Double(parts[5]) else {
                continue
            }
            let index = Int32(data.places.count)
            data.places.append(
                Place(
                    name: String(parts[1]), country: String(parts[3]), lat: lat, lon: lon,
                    population: Int(parts[6]) ?? 0, timeZone: parts[7].isEmpty ? nil : String(parts[7])))
            // The ASCII spelling is the key (the file's rows come most populous first).
            let key = fold(String(parts[2].isEmpty ? parts[1] : parts[2]))
            data.byName[key, default: []].append(index)
            for other in parts[8].split(separator: "|") {
                data.byOtherName[fold(String(other)), default: []].append(index)
            }
        }
    }

    /// Letters that diacritic folding leaves alone, spelt as the conversion script spells them.
    static let asciiLetters: [Character: String] = [
        "ø": "o", "ł": "l", "ß": "ss", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
        "ħ": "h", "ə": "e", "’": "'", "‘": "'", "ʻ": "'", "ʼ": "'", "ʿ": "'", "ʾ": "'", "–": "-",
    ]

    /// A name as looked up: lower case, no accents, hyphens and underscores as spaces, spaces squeezed.
    public static func fold(_ name: String) -> String {
        let plain = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out = ""
        for character in plain {
            if let ascii = asciiLetters[character] {
                out += ascii
            } else if character == "-" || character == "_" {
                out += " "
            } else {
                out.append(character)
            }
        }
        return out.split(separator: " ").joined(separator: " ")
    }

    /// The place `text` names: "Lyon", "lyon", "Zurich", "Paris, US", "Paris, United States".
    public static func find(_ text: String) -> Lookup {
        let data = data
        let key = fold(text)
        if let place = data.naturalEarth[key] {
            let namesakes = (data.byName[key] ?? []).map { data.places[Int($0)] }.filter {
                $0.country != place.country
            }
            return .found(place, namesakes: Array(namesakes.prefix(maxNamesakes)))
        }
        if let found = data.byName[key] ?? data.byOtherName[key] {
            let places = found.map { data.places[Int($0)] }
            return .found(places[0], namesakes: Array(places.dropFirst().prefix(maxNamesakes)))
        }
        // "NAME, COUNTRY": the country as a code or a name.
        if let comma = key.lastIndex(of: ",") {
            let name = key[..<comma].trimmingCharacters(in: .whitespaces)
            let country = key[key.index(after: comma)...].trimmingCharacters(in: .whitespaces)
            if let code = data.countryCodes[country] {
                let places = ((data.byName[name] ?? []) + (data.byOtherName[name] ?? [])).map {
                    data.places[Int($0)]
                }
                if let place = places.first(where: { $0.country == code }) {
                    let namesakes = places.filter { $0.country != code && $0.name == place.name }
                    return .found(place, namesakes: Array(namesakes.prefix(maxNamesakes)))
                }
                return .unknown(elsewhere: Array(places.prefix(maxNamesakes)))
            }
        }
        return .unknown(elsewhere: [])
    }

    /// The place `name` names, or nil (the most populous of namesakes).
    public static func lookup(_ name: String) -> Place? {
        if case .found(let place, _) = find(name) { return place }
        return nil
    }

    /// A country's name from its code ("FR" → "France").
    public static func countryName(_ code: String) -> String? { data.countryNames[code] }

    /// Names spelt about like `key` (a folded name), to suggest: the towns' and Natural Earth's,
    /// folded, each with its most populous place. Only names within `slack` letters of its length
    /// that start with its first or second letter.
    public static func names(near key: String, slack: Int = 2) -> [(key: String, place: Place)] {
        let data = data
        var result: [(key: String, place: Place)] = []
        let length = key.count
        // A slip is seldom in the first letter: only names that start alike (or with the first
        // two letters swapped) are weighed, a tenth of them or less.
        let starts = Set([key.first, key.dropFirst().first].compactMap { $0 })
        func near(_ name: String) -> Bool {
            abs(name.count - length) <= slack && name.first.map { starts.contains($0) } == true
        }
        for (name, places) in data.byName where near(name) {
            result.append((name, data.places[Int(places[0])]))
        }
        for (name, place) in data.naturalEarth where near(name) && data.byName[name] == nil {
            result.append((name, place))
        }
        return result
    }

    /// Reads the towns now, on a thread of its own (about a second in a debug build), so the
    /// first place asked for does not wait for them. Not on the async pool: there the read held
    /// one of its threads and a first lookup waiting for it held another — on two cores, every
    /// task of the process stood still until it was done (a loaded CI machine: 20 s).
    public static func warmUp() {
        let first = loading.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        Thread.detachNewThread {
            _ = data.places.count
            let waiting = loading.withLock { state in
                state.done = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for waiter in waiting { waiter.resume() }
        }
    }

    /// Returns once the towns are read, suspending meanwhile: a lookup before then would block
    /// its thread of the async pool on the read (a `static let`), and with a few at once the pool.
    public static func loaded() async {
        warmUp()
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done = loading.withLock { state in
                if !state.done { state.waiting.append(waiter) }
                return state.done
            }
            if done { waiter.resume() }
        }
    }

    private static let loading = Mutex(Loading())

    private struct Loading {
        var started = false
        var done = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    public static var count: Int { data.places.count }
}
