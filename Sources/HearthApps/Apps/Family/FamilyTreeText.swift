import HearthKit
import HearthMedia
import HearthStore

/// A family as an indented text tree, read from the same `FamilyTreeLayout` as the picture:
/// each unit (a person with their partners, "alice ⚭ bob") on a line, the units below it
/// indented under it, roots left to right. Everyone appears once; a parent whose child hangs
/// under another unit (in-laws) says so, as does a sibling with no parent in common.
public enum FamilyTreeText {
    /// Someone in the tree: a member (their account's id) or a person who is not a user.
    public struct Node: Sendable, Equatable {
        public var id: Int64
        public var name: String
        public init(id: Int64, name: String) { (self.id, self.name) = (id, name) }
    }

    public static func render(members: [FamilyMember], links: [FamilyLink]) -> [String] {
        render(members.map { Node(id: $0.accountId, name: $0.name) }, links: links)
    }

    public static func render(_ nodes: [Node], links: [FamilyLink]) -> [String] {
        let names = Dictionary(nodes.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let links = links.filter { names[$0.from] != nil && names[$0.to] != nil }
        let layout = layout(nodes.map(\.id), links)
        func name(_ id: Int64) -> String { names[id] ?? "?" }
        var siblings: [Int64: [Int64]] = [:]
        for link in links where link.kind == .sibling {
            siblings[link.from, default: []].append(link.to)
            siblings[link.to, default: []].append(link.from)
        }
        func notes(_ unit: FamilyTreeLayout.Unit) -> String {
            var notes: [String] = []
            let below = Set(unit.children.flatMap { layout.units[$0].people })
            for person in unit.people {
                // Siblings shown side by side under one unit need no note.
                let above = unit.parent
                let sibs = (siblings[person] ?? []).filter {
                    above == nil || layout.unitOf[$0].flatMap { layout.units[$0].parent } != above
                }
                if !sibs.isEmpty {
                    notes.append("\(name(person)) sibling of \(sibs.map(name).sorted().joined(separator: ", "))")
                }
                let elsewhere = links.filter { $0.kind == .parent && $0.from == person && !below.contains($0.to) }
                if !elsewhere.isEmpty {
                    notes.append(
                        "\(name(person)) parent of \(elsewhere.map { name($0.to) }.sorted().joined(separator: ", "))")
                }
            }
            // One person alone needs not be named again in their own note.
            if unit.people.count == 1 { notes = notes.map { String($0.dropFirst(name(unit.people[0]).count + 1)) } }
            return notes.isEmpty ? "" : "  (\(notes.joined(separator: "; ")))"
        }
        var lines: [String] = []
        func place(_ index: Int, indent: String, branch: String) {
            let unit = layout.units[index]
            lines.append(indent + branch + unit.people.map(name).joined(separator: " ⚭ ") + notes(unit))
            let childIndent = indent + (branch.isEmpty ? "" : (branch == "└─ " ? "   " : "│  "))
            let kids = unit.children.sorted { layout.units[$0].x < layout.units[$1].x }
            for (number, kid) in kids.enumerated() {
                place(kid, indent: childIndent, branch: number == kids.count - 1 ? "└─ " : "├─ ")
            }
        }
        for root in layout.roots { place(root, indent: "", branch: "") }
        return lines
    }

    /// The one layout of a family's people and links (the picture draws the same).
    public static func layout(_ ids: [Int64], _ links: [FamilyLink]) -> FamilyTreeLayout {
        FamilyTreeLayout(
            people: ids, parents: links.filter { $0.kind == .parent }.map { ($0.from, $0.to) },
            partners: links.filter { $0.kind == .partner }.map { ($0.from, $0.to) })
    }
}
