import HearthKit
import HearthStore

/// A family as an indented text tree: couples side by side ("alice ⚭ bob"), their children
/// below, siblings noted. Everyone appears once; people with no parent in the family start
/// their own branch.
public enum FamilyTreeText {
    public static func render(members: [FamilyMember], links: [FamilyLink]) -> [String] {
        let names = Dictionary(uniqueKeysWithValues: members.map { ($0.accountId, $0.name) })
        var children: [Int64: [Int64]] = [:]
        var parents: [Int64: [Int64]] = [:]
        var partners: [Int64: [Int64]] = [:]
        var siblings: [Int64: [Int64]] = [:]
        for link in links where names[link.from] != nil && names[link.to] != nil {
            switch link.kind {
            case .parent:
                children[link.from, default: []].append(link.to)
                parents[link.to, default: []].append(link.from)
            case .partner:
                partners[link.from, default: []].append(link.to)
                partners[link.to, default: []].append(link.from)
            case .sibling:
                siblings[link.from, default: []].append(link.to)
                siblings[link.to, default: []].append(link.from)
            }
        }
        func name(_ id: Int64) -> String { names[id] ?? "?" }
        var shown: Set<Int64> = []
        var lines: [String] = []
        func place(_ id: Int64, indent: String, branch: String) {
            guard shown.insert(id).inserted else { return }
            let couple = [id] + (partners[id] ?? []).filter { !shown.contains($0) }.sorted { name($0) < name($1) }
            for partner in couple.dropFirst() { shown.insert(partner) }
            var line = indent + branch + couple.map(name).joined(separator: " ⚭ ")
            let sibs = (siblings[id] ?? []).filter { parents[$0] == nil || parents[id] == nil }.map(name).sorted()
            if !sibs.isEmpty { line += "  (sibling of \(sibs.joined(separator: ", ")))" }
            lines.append(line)
            let kids = Set(couple.flatMap { children[$0] ?? [] }).filter { !shown.contains($0) }.sorted {
                name($0) < name($1)
            }
            let childIndent = indent + (branch.isEmpty ? "" : (branch == "└─ " ? "   " : "│  "))
            for (index, kid) in kids.enumerated() {
                place(kid, indent: childIndent, branch: index == kids.count - 1 ? "└─ " : "├─ ")
            }
        }
        // Roots: nobody above them in this family; the oldest members first.
        for member in members where parents[member.accountId] == nil { place(member.accountId, indent: "", branch: "") }
        for member in members where !shown.contains(member.accountId) {
            place(member.accountId, indent: "", branch: "")
        }
        return lines
    }
}
