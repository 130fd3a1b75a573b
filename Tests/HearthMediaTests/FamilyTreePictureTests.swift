import Foundation
import Testing

@testable import HearthMedia

@Suite struct FamilyTreePictureTests {
    /// Thirty people over four generations: rows by generation, couples side by side.
    static func bigFamily() -> ([FamilyTreePicture.Person], [(parent: Int64, child: Int64)], [(Int64, Int64)]) {
        var people: [FamilyTreePicture.Person] = []
        var parents: [(parent: Int64, child: Int64)] = []
        var partners: [(Int64, Int64)] = []
        var next: Int64 = 1
        func person(_ name: String) -> Int64 {
            defer { next += 1 }
            people.append(.init(id: next, name: name, note: next == 1 ? "founder" : nil))
            return next
        }
        let a = person("Grandma Rose")
        let b = person("Grandpa Tom")
        partners.append((a, b))
        for i in 0..<4 {
            let kid = person("Child \(i + 1)")
            parents += [(a, kid), (b, kid)]
            let spouse = person("Spouse \(i + 1)")
            partners.append((kid, spouse))
            for j in 0..<(i == 3 ? 2 : 3) {
                let grandkid = person("Grandchild \(i + 1).\(j + 1)")
                parents += [(kid, grandkid), (spouse, grandkid)]
                if j == 0 && i < 3 {
                    let baby = person("Baby \(i + 1)")
                    parents.append((grandkid, baby))
                }
            }
        }
        while people.count < 30 { _ = person("Cousin \(people.count)") }
        return (people, parents, partners)
    }

    @Test func generationsAreRowsCouplesSitTogetherAndParentsAreCentredOverTheirChildren() {
        let (people, parents, partners) = Self.bigFamily()
        #expect(people.count == 30)
        let layout = FamilyTreePicture.layout(people: people, parents: parents, partners: partners)
        for link in parents { #expect(layout[link.child]!.row == layout[link.parent]!.row + 1) }
        for (a, b) in partners {
            #expect(layout[a]!.row == layout[b]!.row)
            #expect(abs(layout[a]!.x - layout[b]!.x) == 1)
        }
        // No two boxes of a row overlap, and nobody is left of the margin.
        for row in Set(layout.values.map(\.row)) {
            let xs = layout.values.filter { $0.row == row }.map(\.x).sorted()
            for (a, b) in zip(xs, xs.dropFirst()) { #expect(b - a >= 1) }
        }
        #expect(layout.values.map(\.x).min() == 0)
        // Each couple's middle lies within the span of its children, so no line runs across
        // another family.
        for (a, b) in partners {
            let kids = parents.filter { $0.parent == a }.map(\.child)
            guard !kids.isEmpty else { continue }
            let middle = (layout[a]!.x + layout[b]!.x + 1) / 2
            let span = kids.map { layout[$0]!.x }
            #expect(middle >= span.min()! && middle <= span.max()! + 1, "\(people.first { $0.id == a }!.name)")
        }
        // Subtrees do not interleave: everyone under Child 1 is left of everyone under Child 2.
        func descendants(_ id: Int64) -> [Int64] {
            let kids = parents.filter { $0.parent == id }.map(\.child)
            return kids + kids.flatMap(descendants)
        }
        func id(_ name: String) -> Int64 { people.first { $0.name == name }!.id }
        let first = descendants(id("Child 1")).map { layout[$0]!.x }
        let second = descendants(id("Child 2")).map { layout[$0]!.x }
        #expect(first.max()! < second.min()!)
        let fonts = FontSet.installed()!
        let image = FamilyTreePicture(fonts: fonts).draw(
            title: "The Roses", people: people, parents: parents, partners: partners)
        #expect(
            image.height == FamilyTreePicture.titleHeight + 2 * FamilyTreePicture.margin + 4
                * FamilyTreePicture.boxHeight + 3 * FamilyTreePicture.gapY)
        if let dir = ProcessInfo.processInfo.environment["HEARTH_RENDER_DIR"] {
            try? Data(image.png(level: 1)).write(to: URL(fileURLWithPath: "\(dir)/family-tree.png"))
        }
    }

    /// At the default scale the picture has twice the pixels of its layout each way (a page
    /// shows it at half its width), so it stays sharp on a phone's screen.
    @Test func drawnAtTwiceTheDevicePixelsForPhones() throws {
        let fonts = try #require(FontSet.installed())
        let people = [(1, "bob"), (2, "alice"), (3, "cat"), (4, "Rose Smith")].map {
            FamilyTreePicture.Person(id: Int64($0.0), name: $0.1, note: $0.0 == 4 ? "1931–2019" : nil)
        }
        let parents: [(parent: Int64, child: Int64)] = [(1, 3), (2, 3), (4, 2)]
        let picture = FamilyTreePicture(fonts: fonts)
        let plain = picture.draw(title: "Smiths", people: people, parents: parents, partners: [(1, 2)])
        let sharp = picture.draw(
            title: "Smiths", people: people, parents: parents, partners: [(1, 2)],
            scale: FamilyTreePicture.defaultScale)
        #expect(FamilyTreePicture.defaultScale == 2)
        #expect(sharp.width == 2 * plain.width && sharp.height == 2 * plain.height)
        if let dir = ProcessInfo.processInfo.environment["HEARTH_RENDER_DIR"] {
            try? Data(sharp.png(level: 1)).write(to: URL(fileURLWithPath: "\(dir)/family-tree-2x.png"))
        }
    }
}
