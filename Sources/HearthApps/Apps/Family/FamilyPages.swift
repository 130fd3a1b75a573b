import Foundation
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthProtocol
import HearthStore

/// The family app on the web: one family's page — its tree (the picture `!tree image` draws,
/// and the text of `!tree`), members, feed and places — for its signed-in members only, by
/// the same membership rule as every family command.
enum FamilyPages {
    /// "2 members · 4 people": members have accounts; people are everyone in the tree, the
    /// members and those who are not users (a member's own facts are not a second person).
    static func counts(_ members: [FamilyMember], _ people: [FamilyPerson]) -> String {
        let memberIDs = Set(members.map(\.accountId))
        let others = people.filter { person in person.accountId.map { !memberIDs.contains($0) } ?? true }.count
        let said = Words.counted(members.count, "member")
        return others == 0 ? said : said + " · " + Words.counted(members.count + others, "person", plural: "people")
    }

    static let family = WebPage("/family/:id", name: "family", template: FamilyTemplates.family) { request in
        let (viewer, family) = try await membersOnly(
            request, signIn: "A family's page is for its members: sign in to see it.",
            refused: "Only the members of a family see its page.")
        let store = request.services.store
        let now = request.services.clock.now()
        let members = try await store.familyMembers(family.id)
        let role = members.first { $0.accountId == viewer.id }?.role
        let manages = role == .founder || role == .admin
        let people = try await store.familyPeople(family.id)
        var values: [String: Any] = [
            "id": family.id, "name": family.name, "channel": FamilyCommands.channelName(family.id),
            "tree": try await FamilyCommands.treeLines(store, family, style: .plain).joined(separator: "\n"),
            "members": members.map { member -> [String: Any] in
                var row: [String: Any] = [
                    "name": member.name, "nameKey": IRCNames.fold(member.name),
                    "joined": member.joinedAt.formatted(.iso8601.year().month().day()),
                ]
                row["role"] = member.role.rawValue
                // The founder and admins make others admins or members again; the founder stays.
                if manages, member.role != .founder {
                    row["roleButton"] = [
                        "to": member.role == .admin ? "member" : "admin",
                        "label": member.role == .admin ? "Make member" : "Make admin",
                    ]
                }
                return row
            },
            "counts": counts(members, people),
        ]
        if let founder = try await store.account(id: family.founderId) { values["founder"] = founder.name }
        // People who are not users, and the households that left home from this family (a link
        // where the viewer is in them too: a household's page is its members').
        values["people"] = people.filter { $0.accountId == nil }.map {
            ["number": $0.id, "text": FamilyPeopleCommands.describe($0)] as [String: Any]
        }
        var households: [[String: Any]] = []
        for household in try await store.childFamilies(of: family.id) {
            var row: [String: Any] = ["id": household.id, "name": household.name]
            if try await FamilyCommands.isMember(store, viewer: viewer.id, of: household.id) { row["linked"] = true }
            if let founder = try await store.account(id: household.founderId) { row["founder"] = founder.name }
            households.append(row)
        }
        values["households"] = households
        values["families"] = try await switcher(store, viewer: viewer.id, current: family.id)
        values["maxPost"] = FamilyFeedCommands.maxPost
        values["maxComment"] = CommentCommands.maxCommentLength
        values["sharing"] = try await store.settings(viewer.id)["location"] == "on"
        if let picture = FamilyForms.picture(request.query) { values["picture"] = picture }
        if manages { (values["canImport"], values["manages"]) = (true, true) }
        values["export"] = FamilyFileCommands.exportPath(family, at: now)
        values["export7"] = FamilyFileCommands.exportPath(family, at: now, version: .v7)
        (values["maxImport"], values["maxPeople"]) = (FamilyGEDCOM.maxImportBytes / 1024, FamilyGEDCOM.maxImportPeople)
        let day = try await FamilyDays.zone(store, family).day(now)
        values["today"] = FamilyDays.spoken(String(day.suffix(5)))
        values["onThisDay"] = try await FamilyDays.onThisDay(
            store, family, monthDay: String(day.suffix(5)), year: Int(day.prefix(4)) ?? 0)

        // The feed, newest first, paged as `!famfeed` pages it.
        let (posts, total) = try await store.familyPosts(family.id, page: request.page)
        let liked = try await store.likedPosts(posts.map { $0.0.id }, accountID: viewer.id)
        var feed: [[String: Any]] = []
        for (post, author) in posts {
            var row: [String: Any] = [
                "id": post.id, "family": family.id, "author": author, "authorKey": IRCNames.fold(author),
                "text": post.text,
                "likes": post.likes, "commentsText": Words.counted(post.comments, "comment"),
                "ago": TimeText.ago(from: post.createdAt, to: now),
            ]
            // A pressed Like button undoes it, as a recipe's vote does.
            if liked.contains(post.id) { row["liked"] = true }
            if post.kind == "event", let date = post.eventDate { row["event"] = date }
            if let imageID = post.imageId, let image = try await store.image(id: imageID) {
                row["image"] = MediaLibrary.path(id: image.id, format: image.format)
            }
            if post.comments > 0 {
                let (comments, _) = try await store.comments(
                    kind: "post", targetID: post.id, page: 1, viewer: viewer.id)
                row["commentList"] = WebPartials.comments(comments, now: now)
            }
            feed.append(row)
        }
        (values["posts"], values["postCount"], values["hasPosts"]) = (feed, total, !feed.isEmpty)
        values["paging"] = WebPaging.links(page: request.page, total: total, size: StoreLimits.familyPostPageSize)

        // Places: each member's last one, for those sharing (`!where`), and on the map (`!map family`).
        let places = try await LocationCommands.places(store, family)
        values["places"] = places.map { entry -> [String: Any] in
            var row: [String: Any] = ["name": entry.name]
            if let location = entry.location { row["where"] = LocationCommands.describe(location, now: now) }
            return row
        }
        if let media = request.services.media {
            do {
                let tree = try await FamilyCommands.treePicture(
                    store, media: media, family, tree: try await FamilyTree.read(store, family))
                values["treeImage"] = MediaLibrary.path(id: tree.id, format: tree.format)
                // Drawn at FamilyTreePicture.defaultScale device pixels per CSS pixel: sharp on a phone.
                values["treeWidth"] = tree.width / FamilyTreePicture.defaultScale
            } catch {
                request.services.logger.warning("family tree picture not drawn: \(error)")  // no fonts: the text
            }
            do {
                let markers = LocationCommands.markers(places, now: now)
                if let map = try await LocationCommands.mapPicture(store, media: media, family, markers: markers) {
                    values["mapImage"] = MediaLibrary.path(id: map.id, format: map.format)
                }
            } catch {
                request.services.logger.warning("family map not drawn: \(error)")
            }
        }
        // No preview picture: the page is private, so a link to it shows nothing of it elsewhere.
        return WebContent(
            title: family.name, summary: "\(family.name): \(members.count) people, \(total) posts — family only.",
            values: values)
    }

    /// The signed-in viewer and the family of the path's id, which they are in: else a sign-in
    /// page (401, saying `signIn`), "no such family" (404) or `refused` (403).
    static func membersOnly(_ request: WebRequest, signIn: String, refused: String) async throws
        -> (viewer: AccountRef, family: Stored<FamilyRecord>)
    {
        let id = try request.id()
        let viewer = try request.signedIn(signIn)
        let store = request.services.store
        guard let family = try await FamilyCommands.visibleFamily(store, viewer: viewer.id, id) else {
            if try await store.family(id: id) == nil { throw WebRefusal.notFound("There is no family #\(id).") }
            throw WebRefusal.forbidden(refused)
        }
        return (viewer, family)
    }

    /// The viewer's families as links, the one shown marked (switching is following a link).
    static func switcher(_ store: Store, viewer: Int64, current: Int64) async throws -> [[String: Any]] {
        try await store.families(of: viewer).reversed().map { family in
            var row: [String: Any] = ["id": family.id, "name": family.name]
            if family.id == current { row["current"] = true }
            return row
        }
    }

    /// The family's gallery: every picture posted to its feed, newest first, for its members.
    static let photos = WebPage("/family/:id/photos", name: "family-photos", template: FamilyTemplates.photos) {
        request in
        let (viewer, family) = try await membersOnly(
            request, signIn: "A family's pictures are for its members: sign in to see them.",
            refused: "Only the members of a family see its pictures.")
        let store = request.services.store
        var pictures: [[String: Any]] = []
        for (post, author) in try await store.familyPicturePosts(family.id, limit: maxGallery) {
            guard let imageID = post.imageId, let image = try await store.image(id: imageID) else { continue }
            pictures.append([
                "post": post.id, "author": author, "text": post.text,
                "image": MediaLibrary.path(id: image.id, format: image.format),
            ])
        }
        let values: [String: Any] = [
            "id": family.id, "name": family.name, "pictures": pictures,
            "hasPictures": !pictures.isEmpty,
            "families": try await switcher(store, viewer: viewer.id, current: family.id),
        ]
        return WebContent(
            title: "\(family.name): pictures", summary: "\(family.name)'s pictures — family only.",
            values: values)
    }

    /// The most pictures the gallery shows (the newest).
    static let maxGallery = 200

    /// The family's tree as a GEDCOM file (`!family export`), for its members: 5.5.1, or 7.0
    /// with `?version=7`.
    static let gedcom = WebPicture("/family/:id/tree.ged") { request in
        let (_, family) = try await membersOnly(
            request, signIn: "A family's tree is for its members: sign in to download it.",
            refused: "Only the members of a family download its tree.")
        let version = request.query["version"].flatMap(FamilyGEDCOM.Version.init(word:)) ?? .v551
        let text = try await FamilyFileCommands.file(
            request.services.store, family, now: request.services.clock.now(), version: version)
        return WebPicture.Drawn(bytes: Array(text.utf8), contentType: "text/plain; charset=utf-8")
    }
}
