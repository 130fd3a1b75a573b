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

    /// Row (generation) and horizontal place of each person, in box widths from the left
    /// (`FamilyTreeLayout`, which the text tree reads too).
    public static func layout(people: [Person], parents: [(parent: Int64, child: Int64)], partners: [(Int64, Int64)])
        -> [Int64: (row: Int, x: Double)]
    {
        let layout = FamilyTreeLayout(people: people.map(\.id), parents: parents, partners: partners)
        var result: [Int64: (row: Int, x: Double)] = [:]
        for person in people { result[person.id] = layout.place(person.id) }
        return result
    }

    /// Device pixels per layout pixel: 2 keeps the picture sharp on a phone's screen (shown at
    /// half its pixel width).
    public static let defaultScale = 2

    /// The picture at `scale` device pixels per layout pixel (its size is `scale` times the
    /// layout's; a page shows it at the layout's width).
    public func draw(
        title: String, people: [Person], parents: [(parent: Int64, child: Int64)], partners: [(Int64, Int64)],
        scale: Int = 1
    ) -> GDImage {
        let s = max(1, scale)
        let places = Self.layout(people: people, parents: parents, partners: partners)
        let rows = (places.values.map(\.row).max() ?? 0) + 1
        let step = Double(Self.boxWidth + Self.gapX)
        let left = places.mapValues { s * (Self.margin + Int(($0.x * step).rounded())) }
        let (boxWidth, boxHeight, gapY, margin) = (
            s * Self.boxWidth, s * Self.boxHeight, s * Self.gapY, s * Self.margin
        )
        let width = max(s * 420, (left.values.max() ?? 0) + boxWidth + margin)
        let height = s * Self.titleHeight + margin + rows * boxHeight + (rows - 1) * gapY + margin
        let image = GDImage(width: width, height: height)
        image.fill(GDImage.color(250, 248, 242))
        image.text(
            title, font: fonts.primary, size: Double(20 * s), x: margin, y: 34 * s, color: GDImage.color(40, 40, 40))
        func box(_ id: Int64) -> (x: Int, y: Int)? {
            guard let place = places[id], let x = left[id] else { return nil }
            return (x, s * Self.titleHeight + margin + place.row * (boxHeight + gapY))
        }
        let line = GDImage.color(120, 110, 100)
        // Partners: a line between the boxes.
        for (a, b) in partners {
            guard let pa = box(a), let pb = box(b), places[a]!.row == places[b]!.row else { continue }
            let (left, right) = pa.x < pb.x ? (pa, pb) : (pb, pa)
            image.line(
                left.x + boxWidth, left.y + boxHeight / 2, right.x, right.y + boxHeight / 2,
                GDImage.color(200, 70, 90), thickness: 3 * s)
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
            let fromX = tops.map { $0.x + boxWidth / 2 }.reduce(0, +) / tops.count
            let fromY = (tops.map(\.y).max() ?? 0) + (tops.count > 1 ? boxHeight / 2 : boxHeight)
            let kidBoxes = kids.compactMap(box)
            guard let firstKid = kidBoxes.first else { continue }
            // Families' bars at slightly different heights, so they don't merge.
            let barY = firstKid.y - gapY / 2 + (index % 3 - 1) * 8 * s
            image.line(fromX, fromY, fromX, barY, line, thickness: 2 * s)
            let xs = kidBoxes.map { $0.x + boxWidth / 2 } + [fromX]
            image.line(xs.min()!, barY, xs.max()!, barY, line, thickness: 2 * s)
            for kid in kidBoxes {
                image.line(kid.x + boxWidth / 2, barY, kid.x + boxWidth / 2, kid.y, line, thickness: 2 * s)
            }
        }
        // Boxes with names on top of the lines.
        for person in people {
            guard let p = box(person.id) else { continue }
            image.rect(p.x + 3 * s, p.y + 3 * s, boxWidth, boxHeight, GDImage.color(215, 210, 200))
            image.rect(p.x, p.y, boxWidth, boxHeight, GDImage.color(255, 255, 255))
            image.rect(p.x, p.y, boxWidth, boxHeight, GDImage.color(90, 120, 90), filled: false)
            let name = WorldMap.fit(person.name, width: Self.boxWidth - 16, font: fonts)
            let nameBox = GDImage.measure(name, font: fonts.primary, size: Double(12 * s))
            image.text(
                name, font: fonts.primary, size: Double(12 * s), x: p.x + (boxWidth - Int(nameBox[2] - nameBox[0])) / 2,
                y: p.y + s * (person.note == nil ? 28 : 21),
                color: GDImage.color(30, 30, 30))
            if let note = person.note {
                let noteBox = GDImage.measure(note, font: fonts.primary, size: Double(9 * s))
                image.text(
                    note, font: fonts.primary, size: Double(9 * s),
                    x: p.x + (boxWidth - Int(noteBox[2] - noteBox[0])) / 2,
                    y: p.y + 37 * s,
                    color: GDImage.color(110, 110, 110))
            }
        }
        return image
    }
}
