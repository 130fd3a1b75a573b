import CGD

/// A family tree as a picture: one row per generation (parents above their children),
/// partners side by side joined by a line, and lines from parents down to their children.
public struct FamilyTreePicture: Sendable {
    public struct Person: Sendable {
        public var id: Int64
        public var name: String
        public var note: String?
        public init(id: Int64, name: String, note: String? = nil) { (self.id, self.name, self.note) = (id, name, note) }
    }

    public static let boxWidth = 150
    public static let boxHeight = 46
    public static let gapX = 24
    public static let gapY = 70
    public static let margin = 30
    public static let titleHeight = 50

    let fonts: FontSet

    public init(fonts: FontSet) {
        _ = GDImage.setUp
        self.fonts = fonts
    }

    /// Row (generation) and horizontal place of each person, in box widths from the left.
    /// A tidy tree: a person or a couple is a unit, each unit sits centred over its
    /// children's units, and a family's subtree never overlaps another's.
    public static func layout(people: [Person], parents: [(parent: Int64, child: Int64)], partners: [(Int64, Int64)])
        -> [Int64: (row: Int, x: Double)]
    {
        let ids = people.map(\.id)
        let known = Set(ids)
        let parentLinks = parents.filter { known.contains($0.parent) && known.contains($0.child) }
        let couples = partners.filter { known.contains($0.0) && known.contains($0.1) }
        var generation = Dictionary(uniqueKeysWithValues: ids.map { ($0, 0) })
        // Children below parents, partners on one row; bounded, since links have no cycles.
        for _ in 0..<(ids.count * 2 + 2) {
            var changed = false
            for link in parentLinks where generation[link.child]! < generation[link.parent]! + 1 {
                generation[link.child] = generation[link.parent]! + 1
                changed = true
            }
            for (a, b) in couples where generation[a] != generation[b] {
                let g = max(generation[a]!, generation[b]!)
                generation[a] = g
                generation[b] = g
                changed = true
            }
            if !changed { break }
        }
        var partnerOf: [Int64: Int64] = [:]
        for (a, b) in couples where partnerOf[a] == nil && partnerOf[b] == nil && generation[a] == generation[b] {
            partnerOf[a] = b
            partnerOf[b] = a
        }
        // Units in people's order; a unit's parent unit is that of its first member's first
        // parent on the row just above.
        var units: [[Int64]] = []
        var unitOf: [Int64: Int] = [:]
        for id in ids where unitOf[id] == nil {
            let unit = [id] + (partnerOf[id].map { [$0] } ?? [])
            for member in unit { unitOf[member] = units.count }
            units.append(unit)
        }
        func row(_ unit: Int) -> Int { generation[units[unit][0]]! }
        var parentUnit: [Int: Int] = [:]
        var childUnits: [[Int]] = Array(repeating: [], count: units.count)
        for (index, unit) in units.enumerated() {
            let above = unit.lazy.flatMap { member in parentLinks.filter { $0.child == member } }
                .map { unitOf[$0.parent]! }.first { row($0) == row(index) - 1 }
            if let above {
                parentUnit[index] = above
                childUnits[above].append(index)
            }
        }
        // Place subtrees left to right; `edge` is the first free place on each row.
        let rows = (generation.values.max() ?? 0) + 1
        var edge = Array(repeating: 0.0, count: rows)
        var x: [Double] = Array(repeating: 0, count: units.count)
        let spacing = 0.25  // between neighbouring units, so families read apart
        func shift(_ unit: Int, by delta: Double) {
            x[unit] += delta
            edge[row(unit)] = max(edge[row(unit)], x[unit] + Double(units[unit].count) + spacing)
            for child in childUnits[unit] { shift(child, by: delta) }
        }
        func place(_ unit: Int) {
            let r = row(unit)
            let size = Double(units[unit].count)
            let kids = childUnits[unit]
            for kid in kids { place(kid) }
            var wanted = edge[r]
            if let first = kids.first, let last = kids.last {
                wanted = (x[first] + x[last] + Double(units[last].count)) / 2 - size / 2
            }
            x[unit] = max(wanted, edge[r])
            edge[r] = x[unit] + size + spacing
            // Pushed right by the row's earlier units: its children follow, to stay under it.
            if x[unit] > wanted { for kid in kids { shift(kid, by: x[unit] - wanted) } }
        }
        for r in 0..<rows {
            for unit in units.indices where row(unit) == r && parentUnit[unit] == nil { place(unit) }
        }
        // Nothing left of the margin (a centred parent may start before its row's edge).
        let leftmost = x.min() ?? 0
        var result: [Int64: (row: Int, x: Double)] = [:]
        for (index, unit) in units.enumerated() {
            for (offset, id) in unit.enumerated() { result[id] = (row(index), x[index] - leftmost + Double(offset)) }
        }
        return result
    }

    public func draw(
        title: String, people: [Person], parents: [(parent: Int64, child: Int64)], partners: [(Int64, Int64)]
    ) -> GDImage {
        let places = Self.layout(people: people, parents: parents, partners: partners)
        let rows = (places.values.map(\.row).max() ?? 0) + 1
        let step = Double(Self.boxWidth + Self.gapX)
        let left = places.mapValues { Self.margin + Int(($0.x * step).rounded()) }
        let width = max(420, (left.values.max() ?? 0) + Self.boxWidth + Self.margin)
        let height = Self.titleHeight + Self.margin + rows * Self.boxHeight + (rows - 1) * Self.gapY + Self.margin
        let image = GDImage(width: width, height: height)
        image.fill(GDImage.color(250, 248, 242))
        image.text(title, font: fonts.primary, size: 20, x: Self.margin, y: 34, color: GDImage.color(40, 40, 40))
        func box(_ id: Int64) -> (x: Int, y: Int)? {
            guard let place = places[id], let x = left[id] else { return nil }
            return (x, Self.titleHeight + Self.margin + place.row * (Self.boxHeight + Self.gapY))
        }
        let line = GDImage.color(120, 110, 100)
        // Partners: a line between the boxes.
        for (a, b) in partners {
            guard let pa = box(a), let pb = box(b), places[a]!.row == places[b]!.row else { continue }
            let (left, right) = pa.x < pb.x ? (pa, pb) : (pb, pa)
            image.line(
                left.x + Self.boxWidth, left.y + Self.boxHeight / 2, right.x, right.y + Self.boxHeight / 2,
                GDImage.color(200, 70, 90), thickness: 3)
        }
        // Children: from their parents (the middle of a couple) down to them.
        var childrenOf: [[Int64]: [Int64]] = [:]
        for child in Set(parents.map(\.child)) {
            let theirs = parents.filter { $0.child == child }.map(\.parent).sorted()
            childrenOf[theirs, default: []].append(child)
        }
        for (index, (group, kids)) in childrenOf.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }).enumerated() {
            let tops = group.compactMap(box)
            guard !tops.isEmpty else { continue }
            let fromX = tops.map { $0.x + Self.boxWidth / 2 }.reduce(0, +) / tops.count
            let fromY = (tops.map(\.y).max() ?? 0) + (tops.count > 1 ? Self.boxHeight / 2 : Self.boxHeight)
            let kidBoxes = kids.compactMap(box)
            guard let firstKid = kidBoxes.first else { continue }
            // Families' bars at slightly different heights, so they don't merge.
            let barY = firstKid.y - Self.gapY / 2 + (index % 3 - 1) * 8
            image.line(fromX, fromY, fromX, barY, line, thickness: 2)
            let xs = kidBoxes.map { $0.x + Self.boxWidth / 2 } + [fromX]
            image.line(xs.min()!, barY, xs.max()!, barY, line, thickness: 2)
            for kid in kidBoxes {
                image.line(kid.x + Self.boxWidth / 2, barY, kid.x + Self.boxWidth / 2, kid.y, line, thickness: 2)
            }
        }
        // Boxes with names on top of the lines.
        for person in people {
            guard let p = box(person.id) else { continue }
            image.rect(p.x + 3, p.y + 3, Self.boxWidth, Self.boxHeight, GDImage.color(215, 210, 200))
            image.rect(p.x, p.y, Self.boxWidth, Self.boxHeight, GDImage.color(255, 255, 255))
            image.rect(p.x, p.y, Self.boxWidth, Self.boxHeight, GDImage.color(90, 120, 90), filled: false)
            let name = WorldMap.fit(person.name, width: Self.boxWidth - 16, font: fonts)
            let nameBox = GDImage.measure(name, font: fonts.primary, size: 12)
            image.text(
                name, font: fonts.primary, size: 12, x: p.x + (Self.boxWidth - Int(nameBox[2] - nameBox[0])) / 2,
                y: p.y + (person.note == nil ? 28 : 21),
                color: GDImage.color(30, 30, 30))
            if let note = person.note {
                let noteBox = GDImage.measure(note, font: fonts.primary, size: 9)
                image.text(
                    note, font: fonts.primary, size: 9, x: p.x + (Self.boxWidth - Int(noteBox[2] - noteBox[0])) / 2,
                    y: p.y + 37,
                    color: GDImage.color(110, 110, 110))
            }
        }
        return image
    }
}
