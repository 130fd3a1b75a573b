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

    /// Row and column of each person.
    public static func layout(people: [Person], parents: [(parent: Int64, child: Int64)], partners: [(Int64, Int64)]) -> [Int64: (row: Int, column: Int)] {
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
        var result: [Int64: (row: Int, column: Int)] = [:]
        let rows = (generation.values.max() ?? 0) + 1
        var position: [Int64: Double] = [:]
        for row in 0..<rows {
            // Units: a person, or a couple kept side by side; ordered under their parents.
            var units: [[Int64]] = []
            var placed: Set<Int64> = []
            for id in ids where generation[id] == row && !placed.contains(id) {
                var unit = [id]
                if let partner = partnerOf[id] { unit.append(partner) }
                placed.formUnion(unit)
                units.append(unit)
            }
            func center(_ unit: [Int64]) -> Double {
                let above = parentLinks.filter { unit.contains($0.child) }.compactMap { position[$0.parent] }
                return above.isEmpty ? Double(ids.firstIndex(of: unit[0])!) * 1000 : above.reduce(0, +) / Double(above.count)
            }
            units.sort { center($0) < center($1) }
            var column = 0
            for unit in units {
                for id in unit {
                    result[id] = (row, column)
                    position[id] = Double(column)
                    column += 1
                }
            }
        }
        return result
    }

    public func draw(title: String, people: [Person], parents: [(parent: Int64, child: Int64)], partners: [(Int64, Int64)]) -> GDImage {
        let places = Self.layout(people: people, parents: parents, partners: partners)
        let rows = (places.values.map(\.row).max() ?? 0) + 1
        // Left edges: row by row, each person as near the middle of their parents as the
        // people before them in the row allow.
        var left: [Int64: Int] = [:]
        let step = Self.boxWidth + Self.gapX
        for row in 0..<rows {
            var edge = Self.margin
            let inRow = places.filter { $0.value.row == row }.sorted { $0.value.column < $1.value.column }.map(\.key)
            for id in inRow {
                let above = parents.filter { $0.child == id }.compactMap { left[$0.parent] }
                var wanted = above.isEmpty ? edge : above.reduce(0, +) / above.count
                if above.count == 1 { wanted = above[0] }
                let x = max(edge, wanted)
                left[id] = x
                edge = x + step
            }
        }
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
            image.line(left.x + Self.boxWidth, left.y + Self.boxHeight / 2, right.x, right.y + Self.boxHeight / 2, GDImage.color(200, 70, 90), thickness: 3)
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
            for kid in kidBoxes { image.line(kid.x + Self.boxWidth / 2, barY, kid.x + Self.boxWidth / 2, kid.y, line, thickness: 2) }
        }
        // Boxes with names on top of the lines.
        for person in people {
            guard let p = box(person.id) else { continue }
            image.rect(p.x + 3, p.y + 3, Self.boxWidth, Self.boxHeight, GDImage.color(215, 210, 200))
            image.rect(p.x, p.y, Self.boxWidth, Self.boxHeight, GDImage.color(255, 255, 255))
            image.rect(p.x, p.y, Self.boxWidth, Self.boxHeight, GDImage.color(90, 120, 90), filled: false)
            let name = WorldMap.fit(person.name, width: Self.boxWidth - 16, font: fonts)
            let nameBox = GDImage.measure(name, font: fonts.primary, size: 12)
            image.text(name, font: fonts.primary, size: 12, x: p.x + (Self.boxWidth - Int(nameBox[2] - nameBox[0])) / 2, y: p.y + (person.note == nil ? 28 : 21),
                color: GDImage.color(30, 30, 30))
            if let note = person.note {
                let noteBox = GDImage.measure(note, font: fonts.primary, size: 9)
                image.text(note, font: fonts.primary, size: 9, x: p.x + (Self.boxWidth - Int(noteBox[2] - noteBox[0])) / 2, y: p.y + 37,
                    color: GDImage.color(110, 110, 110))
            }
        }
        return image
    }
}
