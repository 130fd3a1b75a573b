import Foundation
import HearthCrypto
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthProtocol
import HearthStore

/// Sharing where you are with your family: `!loc`, `!where`, `!map family`.
enum LocationCommands {
    /// A shared place older than this is marked stale.
    static let staleAfter: TimeInterval = 24 * 3600

    static let loc = BotCommand(
        "loc", group: FamilyCommands.group, usage: "LAT,LON [LABEL] · on · off",
        summary: "share where you are with your family (or stop)",
        example: "!loc 48.85,2.35 home", arity: 1...Int.max, requiresLogin: true
    ) { request in
        let me = try request.account()
        let store = request.services.store
        switch request.words[0].lowercased() {
        case "on", "off":
            try await store.setSetting(me.id, key: "location", value: request.words[0].lowercased())
            return BotResponse([
                request.words[0].lowercased() == "on"
                    ? "Location sharing is on: your family sees your last place (!where)."
                    : "Location sharing is off: nobody sees where you are."
            ])
        default:
            guard request.settings?["location"] == "on" else {
                throw BotError("location sharing is off — !loc on first (then your family sees your last place)")
            }
            await Gazetteer.loaded()  // suspends, never blocks a pool thread on the first read
            let place = try PlaceInput.parse("@" + request.input.text(after: 0))
            try await store.shareLocation(
                accountID: me.id,
                SharedLocation(lat: place.lat, lon: place.lon, label: place.name, at: request.services.clock.now()))
            return BotResponse([
                "Shared: \(place.name ?? String(format: "%.3f,%.3f", place.lat, place.lon)). !where shows your "
                    + "family's places."
            ])
        }
    }

    /// Family members' last places, for those who share them.
    static func places(_ request: BotRequest) async throws -> (
        Stored<FamilyRecord>, [(name: String, location: SharedLocation?)]
    ) {
        let (_, family) = try await FamilyCommands.current(request)
        return (family, try await places(request.services.store, family))
    }

    /// Each member's last place, nil for those not sharing (`!where`, `!map family`, the web page).
    static func places(_ store: Store, _ family: Stored<FamilyRecord>) async throws -> [(
        name: String, location: SharedLocation?
    )] {
        var result: [(String, SharedLocation?)] = []
        for member in try await store.familyMembers(family.id) {
            let sharing = try await store.settings(member.accountId)["location"] == "on"
            result.append((member.name, sharing ? try await store.lastLocation(accountID: member.accountId) : nil))
        }
        return result
    }

    static func markers(_ places: [(name: String, location: SharedLocation?)], now: Date) -> [WorldMap.Marker] {
        places.compactMap { entry in
            entry.location.map {
                WorldMap.Marker(lat: $0.lat, lon: $0.lon, label: "\(entry.name) — \(describe($0, now: now))")
            }
        }
    }

    /// The family's places on the world map (nil when nobody shares one), drawn once per content
    /// and kept: `!map family` and the family's web page show the same picture.
    static func mapPicture(
        _ store: Store, media: MediaLibrary, _ family: Stored<FamilyRecord>, markers: [WorldMap.Marker]
    ) async throws -> ImageRecord? {
        guard !markers.isEmpty else { return nil }
        let title = "\(family.name): last shared places"
        let key = FortuneCommands.worldMapKey("family-map", family.id, title, markers)
        return try await FortuneCommands.cachedPicture(store, media: media, key: key) {
            try await media.worldMap(title: title, markers: markers, ownerID: family.founderId)
        }
    }

    static func describe(_ location: SharedLocation, now: Date) -> String {
        let place = location.label ?? String(format: "%.3f,%.3f", location.lat, location.lon)
        let stale = now.timeIntervalSince(location.at) > staleAfter ? " (stale)" : ""
        return "\(place) · \(TimeText.ago(from: location.at, to: now))\(stale)"
    }

    static let where_ = BotCommand(
        "where", group: FamilyCommands.group, summary: "where your family members last said they were",
        example: "!where",
        arity: 0...0, requiresLogin: true
    ) { request in
        let (family, places) = try await places(request)
        let now = request.services.clock.now()
        return BotResponse(
            ["\(request.style.bold(family.name)):"]
                + places.map { entry in
                    "\(entry.name) — " + (entry.location.map { describe($0, now: now) } ?? "not sharing")
                })
    }

    static let map = BotCommand(
        "map", group: FamilyCommands.group, usage: "family",
        summary: "a world map with your family members' last places",
        example: "!map family", arity: 1...1, requiresLogin: true
    ) { request in
        guard request.words[0].lowercased() == "family" else { throw request.usageError("only !map family so far") }
        let (family, places) = try await places(request)
        let media = try PictureCommands.media(request)
        let markers = LocationCommands.markers(places, now: request.services.clock.now())
        guard let image = try await mapPicture(request.services.store, media: media, family, markers: markers) else {
            return BotResponse(["Nobody in \(family.name) shares a place yet — !loc on, then !loc LAT,LON."])
        }
        return BotResponse([
            "\(request.style.bold("\(family.name) on the map")) (\(markers.count) of \(places.count)): "
                + "\(media.url(image))"
                + FamilyCommands.pageLink(request, family)
        ])
    }

    static let all: [BotCommand] = [loc, where_, map]
}
