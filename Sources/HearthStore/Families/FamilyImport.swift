import Foundation

/// People and ties brought into a family at once (a GEDCOM file), written by one store call in
/// one transaction: thousands of single-row transactions took minutes on a loaded PostgreSQL.
/// People and ties name each other by the file's own keys (`xref`, "@I1@").
public enum FamilyImport {
    public struct Person: Sendable, Equatable {
        public var xref: String
        public var name: String
        public var sex, born, bornPlace, died, diedPlace: String?

        public init(
            xref: String, name: String, sex: String? = nil, born: String? = nil, bornPlace: String? = nil,
            died: String? = nil, diedPlace: String? = nil
        ) {
            (self.xref, self.name, self.sex, self.born, self.bornPlace) = (xref, name, sex, born, bornPlace)
            (self.died, self.diedPlace) = (died, diedPlace)
        }
    }

    public struct Tie: Sendable, Equatable {
        public var from, to: String
        public var kind: FamilyLinkKind
        public var date, place: String?

        public init(from: String, to: String, kind: FamilyLinkKind, date: String? = nil, place: String? = nil) {
            (self.from, self.to, self.kind, self.date, self.place) = (from, to, kind, date, place)
        }
    }

    /// What the import did: the tree id of every person of the file (new or found already),
    /// how many people were added, ties added (new relationships), and ties refused (someone
    /// would be their own ancestor).
    public struct Outcome: Sendable, Equatable {
        public var ids: [String: Int64]
        public var peopleAdded: Int
        public var tiesAdded: Int
        public var refused: Int

        public init(ids: [String: Int64], peopleAdded: Int, tiesAdded: Int, refused: Int) {
            (self.ids, self.peopleAdded, self.tiesAdded, self.refused) = (ids, peopleAdded, tiesAdded, refused)
        }
    }

    /// An empty text is no text, so both engines store the same (PostgreSQL's arrays carry none
    /// as an empty text).
    static func text(_ value: String?) -> String? { value?.isEmpty == true ? nil : value }

    /// Rows one INSERT writes at most: a large import is a few statements, each well inside the
    /// database's statement timeout.
    public static let batchRows = 1000

    /// What an engine writes, decided from what it read under the family's lock: `init`
    /// finds the file's people already in the tree and checks the limit, the engine inserts
    /// `rows` and hands back their numbers (`added`), then `links` decides the ties.
    public struct Plan: Sendable {
        /// Tree ids by xref: of people found, then of people added.
        public private(set) var ids: [String: Int64]
        /// The person rows to insert, in the file's order (`FamilyImport.text`).
        public let rows: [FamilyPerson]
        let fresh: [Person]
        /// Every tree id of the family: what `FamilyRules.link` checks both ends against.
        var everyone: Set<Int64>

        /// `members` are the family's, `people` all its people (a member's own facts give their
        /// birth date). Someone already in the tree has the same name (any case) and birth date.
        public init(
            _ file: [Person], familyID: Int64, members: [FamilyMember], people: [FamilyPerson], by accountID: Int64?,
            now: Date
        ) throws {
            func key(_ name: String, _ born: String?) -> String { name.lowercased() + "\u{0}" + (born ?? "") }
            let born = Dictionary(
                people.compactMap { p in p.accountId.map { ($0, p.born) } }, uniquingKeysWith: { a, _ in a })
            var existing: [String: Int64] = [:]
            for member in members { existing[key(member.name, born[member.accountId] ?? nil)] = member.accountId }
            let unclaimed = people.filter { $0.accountId == nil }
            for person in unclaimed { existing[key(person.name, person.born)] = person.treeID }
            var (ids, fresh): ([String: Int64], [Person]) = ([:], [])
            for person in file {
                if let id = existing[key(person.name, person.born)] {
                    ids[person.xref] = id
                } else {
                    fresh.append(person)
                }
            }
            guard people.count + fresh.count <= FamilyPersonRules.maxPeople else {
                throw FamilyPersonError.tooManyToImport(held: people.count, adding: fresh.count)
            }
            rows = fresh.map {
                FamilyPerson(
                    familyId: familyID, name: $0.name, sex: FamilyImport.text($0.sex), born: FamilyImport.text($0.born),
                    bornPlace: FamilyImport.text($0.bornPlace), died: FamilyImport.text($0.died),
                    diedPlace: FamilyImport.text($0.diedPlace),
                    addedBy: accountID, createdAt: now)
            }
            (self.ids, self.fresh) = (ids, fresh)
            everyone = Set(members.map(\.accountId)).union(unclaimed.map(\.treeID))
        }

        /// The numbers the engine gave `rows`, in their order.
        public mutating func added(_ numbers: [Int64]) {
            precondition(numbers.count == fresh.count, "one number per row")
            for (person, number) in zip(fresh, numbers) {
                ids[person.xref] = FamilyPerson.treeID(person: number)
                everyone.insert(FamilyPerson.treeID(person: number))
            }
        }

        /// The ties' links (`FamilyImport.links`) given the family's `links` as read.
        public func links(_ ties: [Tie], after links: [FamilyLink]) throws -> (
            links: [FamilyLink], outcome: Outcome
        ) {
            let decided = try FamilyImport.links(ties, ids: ids, members: everyone, links: links)
            return (
                decided.links,
                Outcome(ids: ids, peopleAdded: rows.count, tiesAdded: decided.added, refused: decided.refused)
            )
        }
    }

    /// The links to write for the file's ties, in order, each decided by `FamilyRules.link` as
    /// `link` decides one: a tie naming someone not in the file, or someone to themselves, is
    /// skipped; a parent tie that would make a cycle with the family's `links` or a tie kept
    /// before it is refused. A tie given twice is one link (its later date and place win, as a
    /// partner link given again takes them). `members`: every tree id of the family.
    public static func links(
        _ ties: [Tie], ids: [String: Int64], members: Set<Int64>, links: [FamilyLink]
    ) throws -> (links: [FamilyLink], added: Int, refused: Int) {
        var parents = FamilyRules.parents(links)
        // Counted as before: a pair of people once per parent tie, once for partner or sibling.
        func pair(_ link: FamilyLink) -> [Int64] { [link.from, link.to, link.kind == .parent ? 0 : 1] }
        var had = Set(links.map(pair))
        var kept: [FamilyLink] = []
        var index: [FamilyLink: Int] = [:]
        var (added, refused) = (0, 0)
        for tie in ties {
            guard let from = ids[tie.from], let to = ids[tie.to], from != to else { continue }
            let ancestors = tie.kind == .parent ? FamilyRules.ancestors(of: from, parents: parents) : []
            let link: FamilyLink
            do {
                link = try FamilyRules.link(
                    from: from, to: to, kind: tie.kind, members: members, ancestorsOfFrom: ancestors,
                    date: text(tie.date), place: text(tie.place))
            } catch FamilyError.wouldCycle {
                refused += 1
                continue
            }
            if link.kind == .parent { parents[link.to, default: []].insert(link.from) }
            let bare = FamilyLink(from: link.from, to: link.to, kind: link.kind)
            if let at = index[bare] {
                kept[at].date = link.date ?? kept[at].date
                kept[at].place = link.place ?? kept[at].place
            } else {
                index[bare] = kept.count
                kept.append(link)
            }
            if had.insert(pair(link)).inserted { added += 1 }
        }
        return (kept, added, refused)
    }
}
