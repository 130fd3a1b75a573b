/// Where everyone of a family tree goes: the one layout the text tree (`!tree`) and the picture
/// (`!tree image`) are both drawn from, so they cannot disagree. Pure: ids in, places out.
///
/// A generation is a row (parents above their children, partners on one row). A unit is a
/// person with their partners on that row, side by side (a remarriage makes a unit of three:
/// the one who remarried in the middle). Each unit hangs under one unit of the row above — its
/// first member's with parents there — so the units form a forest; a tidy tree places each
/// unit centred over its children's units, and a family's subtree never overlaps another's.
public struct FamilyTreeLayout: Sendable {
    public struct Unit: Sendable, Equatable {
        /// Side by side, left to right.
        public var people: [Int64]
        public var row: Int
        /// The left edge, in box widths from the left margin.
        public var x: Double
        /// The unit it hangs under (nil: a root), and those hanging under it, left to right.
        public var parent: Int?
        public var children: [Int] = []
    }

    public private(set) var units: [Unit] = []
    /// Units with nobody above them, left to right.
    public private(set) var roots: [Int] = []
    /// Each person's unit.
    public private(set) var unitOf: [Int64: Int] = [:]
    /// Each person's parents among the people (however they are drawn).
    public private(set) var parentsOf: [Int64: [Int64]] = [:]
    public var rows: Int { (units.map(\.row).max() ?? -1) + 1 }

    /// A person's row and left edge.
    public func place(_ id: Int64) -> (row: Int, x: Double)? {
        guard let unit = unitOf[id], let offset = units[unit].people.firstIndex(of: id) else { return nil }
        return (units[unit].row, units[unit].x + Double(offset))
    }

    /// `people` in the order they should be met (the oldest members first); links naming
    /// someone not in `people` are ignored. Parent links must not form a cycle (the store
    /// refuses those); the passes are bounded all the same.
    public init(people: [Int64], parents: [(parent: Int64, child: Int64)], partners: [(Int64, Int64)]) {
        let known = Set(people)
        let parentLinks = parents.filter { known.contains($0.parent) && known.contains($0.child) && $0.0 != $0.1 }
        let couples = partners.filter { known.contains($0.0) && known.contains($0.1) && $0.0 != $0.1 }
        for link in parentLinks where !(parentsOf[link.child] ?? []).contains(link.parent) {
            parentsOf[link.child, default: []].append(link.parent)
        }
        var generation = Dictionary(people.map { ($0, 0) }, uniquingKeysWith: { a, _ in a })
        for _ in 0..<(people.count * 2 + 2) {
            var changed = false
            for link in parentLinks where generation[link.child]! < generation[link.parent]! + 1 {
                generation[link.child] = generation[link.parent]! + 1
                changed = true
            }
            for (a, b) in couples where generation[a] != generation[b] {
                let g = max(generation[a]!, generation[b]!)
                (generation[a], generation[b]) = (g, g)
                changed = true
            }
            if !changed { break }
        }
        var partnersOf: [Int64: [Int64]] = [:]
        for (a, b) in couples where generation[a] == generation[b] {
            if !(partnersOf[a] ?? []).contains(b) { partnersOf[a, default: []].append(b) }
            if !(partnersOf[b] ?? []).contains(a) { partnersOf[b, default: []].append(a) }
        }
        // Units: partners connected on a row, walked from an end so a chain reads in order.
        var seen: Set<Int64> = []
        for id in people where !seen.contains(id) {
            var component: [Int64] = []
            var queue = [id]
            seen.insert(id)
            while let next = queue.first {
                queue.removeFirst()
                component.append(next)
                for other in partnersOf[next] ?? [] where seen.insert(other).inserted { queue.append(other) }
            }
            let order = people.filter { component.contains($0) }
            let start = order.first { (partnersOf[$0] ?? []).count <= 1 } ?? order[0]
            var chain = [start]
            var walked: Set<Int64> = [start]
            while let last = chain.last,
                let next = (partnersOf[last] ?? []).first(where: { !walked.contains($0) })
            {
                chain.append(next)
                walked.insert(next)
            }
            chain += order.filter { !walked.contains($0) }
            for member in chain { unitOf[member] = units.count }
            units.append(Unit(people: chain, row: generation[id]!, x: 0))
        }
        let (parentsOf, unitOf) = (self.parentsOf, self.unitOf)
        for index in units.indices {
            let row = units[index].row
            let candidates = units[index].people.flatMap { parentsOf[$0] ?? [] }.map { unitOf[$0]! }
            if let above = candidates.first(where: { units[$0].row == row - 1 }) {
                units[index].parent = above
                units[above].children.append(index)
            }
        }
        placeUnits()
    }

    /// Places subtrees left to right; `edge` is the first free place on each row.
    private mutating func placeUnits() {
        var edge = Array(repeating: 0.0, count: rows)
        let spacing = 0.25  // between neighbouring units, so families read apart
        var units = self.units
        func shift(_ unit: Int, by delta: Double) {
            units[unit].x += delta
            let row = units[unit].row
            edge[row] = max(edge[row], units[unit].x + Double(units[unit].people.count) + spacing)
            for child in units[unit].children { shift(child, by: delta) }
        }
        func place(_ unit: Int) {
            let row = units[unit].row
            let size = Double(units[unit].people.count)
            let kids = units[unit].children
            for kid in kids { place(kid) }
            var wanted = edge[row]
            if let first = kids.first, let last = kids.last {
                wanted = (units[first].x + units[last].x + Double(units[last].people.count)) / 2 - size / 2
            }
            units[unit].x = max(wanted, edge[row])
            edge[row] = units[unit].x + size + spacing
            // Pushed right by the row's earlier units: its children follow, to stay under it.
            if units[unit].x > wanted { for kid in kids { shift(kid, by: units[unit].x - wanted) } }
        }
        var roots: [Int] = []
        for row in 0..<rows {
            for unit in units.indices where units[unit].row == row && units[unit].parent == nil {
                place(unit)
                roots.append(unit)
            }
        }
        // Nothing left of the margin (a centred parent may start before its row's edge).
        let leftmost = units.map(\.x).min() ?? 0
        for index in units.indices { units[index].x -= leftmost }
        self.units = units
        self.roots = roots
    }
}
