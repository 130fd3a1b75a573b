import HearthStore

/// How two people of a family are related, from its links alone (pure): by blood through their
/// nearest common ancestors (parent, grandparent, sibling, aunt, niece, cousin N times removed),
/// as partners, through a partner (in-laws), or as a step-relation (a parent's partner who is
/// not one's parent, a partner's child). A sibling link with no parent in the tree counts as
/// parents nobody entered.
public enum FamilyKinship {
    public enum Sex: Sendable { case female, male }

    /// The answer for "how is `b` related to `a`": `term` as in "b is a's TERM", the people the
    /// relation passes through, and the common ancestors of a blood relation (nil: none in the tree).
    public struct Relation: Sendable, Equatable {
        public var term: String
        /// For in-laws and step-relations: the partner it passes through.
        public var through: Int64?
        public var commonAncestors: [Int64]
    }

    /// Generations up from `a` and `b` to their nearest common ancestors (both 0: the same person).
    struct Blood: Equatable {
        var up: Int
        var down: Int
        var ancestors: [Int64]
        var half: Bool
    }

    public static func relation(of b: Int64, to a: Int64, links: [FamilyLink], sex: [Int64: Sex]) -> Relation? {
        guard a != b else { return nil }
        let graph = Graph(links)
        let word = { (neutral: String, female: String, male: String) -> String in
            switch sex[b] {
            case .female: female
            case .male: male
            case nil: neutral
            }
        }
        if let blood = graph.blood(a, b) {
            return Relation(
                term: term(blood, word), through: nil, commonAncestors: blood.ancestors.filter { !Graph.isStandIn($0) })
        }
        if graph.partners[a, default: []].contains(b) {
            return Relation(term: word("partner", "wife", "husband"), through: nil, commonAncestors: [])
        }
        // b's partner is a's blood relation: a child's partner is a child-in-law, a parent's partner a step-parent.
        for partner in graph.partners[b, default: []].sorted() {
            guard let blood = graph.blood(a, partner) else { continue }
            if blood.up == 1 && blood.down == 0 {
                return Relation(
                    term: word("step-parent", "stepmother", "stepfather"), through: partner, commonAncestors: [])
            }
            return Relation(
                term: term(blood, word) + "-in-law", through: partner,
                commonAncestors: blood.ancestors.filter { !Graph.isStandIn($0) })
        }
        // a's partner is b's blood relation: their parent is a's parent-in-law, their child a's stepchild.
        for partner in graph.partners[a, default: []].sorted() {
            guard let blood = graph.blood(partner, b) else { continue }
            if blood.up == 0 && blood.down == 1 {
                return Relation(
                    term: word("stepchild", "stepdaughter", "stepson"), through: partner, commonAncestors: [])
            }
            return Relation(
                term: term(blood, word) + "-in-law", through: partner,
                commonAncestors: blood.ancestors.filter { !Graph.isStandIn($0) })
        }
        return nil
    }

    /// The word for a blood relation `blood.up` generations up from a and `blood.down` down to b.
    static func term(_ blood: Blood, _ word: (String, String, String) -> String) -> String {
        func greats(_ n: Int) -> String { n <= 0 ? "" : String(repeating: "great-", count: n) }
        let (up, down) = (blood.up, blood.down)
        switch (up, down) {
        case (0, let d):
            return greats(d - 2)
                + (d == 1 ? word("child", "daughter", "son") : word("grandchild", "granddaughter", "grandson"))
        case (let u, 0):
            return greats(u - 2)
                + (u == 1 ? word("parent", "mother", "father") : word("grandparent", "grandmother", "grandfather"))
        case (1, 1):
            return (blood.half ? "half-" : "") + word("sibling", "sister", "brother")
        case (1, let d):
            return (d == 2 ? "" : greats(d - 3) + "grand") + word("niece or nephew", "niece", "nephew")
        case (let u, 1):
            return (u == 2 ? "" : greats(u - 3) + "great-") + word("aunt or uncle", "aunt", "uncle")
        default:
            let degree = min(up, down) - 1
            let removed = abs(up - down)
            let times =
                removed == 0
                ? "" : removed == 1 ? " once removed" : removed == 2 ? " twice removed" : " \(removed) times removed"
            return ordinal(degree) + " cousin" + times
        }
    }

    static func ordinal(_ n: Int) -> String {
        let words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
        return n >= 1 && n <= words.count ? words[n - 1] : "\(n)th"
    }

    /// The family's parent and partner links, with a stand-in parent for siblings entered
    /// without parents.
    struct Graph {
        /// Parents nobody entered (of siblings linked as such) are numbered from here up: never
        /// named as ancestors (people who are not users are small negative numbers).
        static let none: Int64 = .min
        static func isStandIn(_ id: Int64) -> Bool { id < none / 2 }
        var parents: [Int64: Set<Int64>] = [:]
        var partners: [Int64: Set<Int64>] = [:]

        init(_ links: [FamilyLink]) {
            var siblings: [(Int64, Int64)] = []
            for link in links {
                switch link.kind {
                case .parent: parents[link.to, default: []].insert(link.from)
                case .partner:
                    partners[link.from, default: []].insert(link.to)
                    partners[link.to, default: []].insert(link.from)
                case .sibling: siblings.append((link.from, link.to))
                }
            }
            // Siblings with no parent in common share one nobody entered (whom their ancestors
            // search reaches at one generation up).
            var standIns = Self.none
            for (x, y) in siblings where parents[x, default: []].isDisjoint(with: parents[y, default: []]) {
                let shared =
                    parents[x, default: []].first(where: Self.isStandIn)
                    ?? parents[y, default: []].first(where: Self.isStandIn)
                let parent =
                    shared
                    ?? {
                        standIns += 1
                        return standIns
                    }()
                parents[x, default: []].insert(parent)
                parents[y, default: []].insert(parent)
            }
        }

        /// Each ancestor of `id` with the fewest generations up to it (`id` itself at 0).
        func ancestors(_ id: Int64) -> [Int64: Int] {
            var found: [Int64: Int] = [id: 0]
            var frontier = [id]
            var depth = 0
            while !frontier.isEmpty, depth < 64 {
                depth += 1
                var next: [Int64] = []
                for person in frontier {
                    for parent in parents[person] ?? [] where found[parent] == nil {
                        found[parent] = depth
                        if !Self.isStandIn(parent) { next.append(parent) }
                    }
                }
                frontier = next
            }
            return found
        }

        /// The nearest common ancestors of a and b (fewest generations in all), if any.
        func blood(_ a: Int64, _ b: Int64) -> Blood? {
            let (mine, theirs) = (ancestors(a), ancestors(b))
            let shared = mine.keys.filter { theirs[$0] != nil }
            guard let best = shared.map({ mine[$0]! + theirs[$0]! }).min() else { return nil }
            let nearest = shared.filter { mine[$0]! + theirs[$0]! == best }
            let up = nearest.map { mine[$0]! }.min()!
            let closest = nearest.filter { mine[$0]! == up }.sorted()
            let down = theirs[closest[0]]!
            // Siblings sharing one parent while either has another: half-siblings.
            let half =
                up == 1 && down == 1 && closest.count == 1 && !Self.isStandIn(closest[0])
                && ((parents[a]?.count ?? 0) > 1 || (parents[b]?.count ?? 0) > 1)
            return Blood(up: up, down: down, ancestors: closest, half: half)
        }
    }
}
