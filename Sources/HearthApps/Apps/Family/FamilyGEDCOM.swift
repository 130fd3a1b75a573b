import Foundation
import HearthStore

/// A family's tree as a GEDCOM 5.5.1 or 7.0 file and back: everyone in it (members and people who are
/// not users) as INDI records with their name, sex, birth and death; partners and parents as
/// FAM records. Partners are a FAM's two spouses (with its MARR); a child's parents who are not
/// partners are each in a FAM of their own with the child; siblings linked without parents in
/// the tree share a FAM with no spouses. Siblings who share their parents' FAM are siblings by it.
enum FamilyGEDCOM {
    /// Bytes one import takes: room for `maxImportPeople` as programs write them, with their
    /// notes and sources (the family page sends the file as a file, `WebAction.fileLimit`).
    static let maxImportBytes = 1024 * 1024
    /// People one import may add (the family's own limit, `FamilyPersonRules.maxPeople`, holds too).
    static let maxImportPeople = 500

    /// The standard an export follows. 7.0 (gedcom.io) is UTF-8 only with a byte order mark,
    /// has no CHAR, FILE or GEDC.FORM in its header and no CONC lines (a value is one line
    /// however long); the records Hearth writes are otherwise the same in both.
    enum Version: String, CaseIterable, Sendable {
        case v551 = "5.5.1"
        case v7 = "7.0"

        /// As a command or the file's address names it: `5.5.1`, `5`, `7`, `7.0`.
        init?(word: String) {
            switch word.lowercased() {
            case "5.5.1", "5", "551": self = .v551
            case "7.0", "7", "70": self = .v7
            default: return nil
            }
        }
    }

    // MARK: export

    static func export(
        _ tree: FamilyTree, familyName: String, submitter: String, now: Date, version: Version = .v551
    ) -> String {
        let ids = tree.members.map(\.accountId) + tree.unclaimed.map(\.treeID)
        let xref = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, "I\($0 + 1)") })
        // A pair in the order of the people's records, whatever numbers the store gave them.
        let position = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        func ordered(_ a: Int64, _ b: Int64) -> [Int64] { position[a]! < position[b]! ? [a, b] : [b, a] }
        var families: [(spouses: [Int64], children: [Int64], marriage: FamilyLink?)] = []
        // Partners, with the children of both.
        var parentsOf: [Int64: [Int64]] = [:]
        for link in tree.links where link.kind == .parent { parentsOf[link.to, default: []].append(link.from) }
        var usedParentLinks: Set<[Int64]> = []
        for link in tree.links where link.kind == .partner && xref[link.from] != nil && xref[link.to] != nil {
            let children = ids.filter { child in
                let parents = parentsOf[child] ?? []
                return parents.contains(link.from) && parents.contains(link.to)
            }
            for child in children {
                usedParentLinks.insert([link.from, child])
                usedParentLinks.insert([link.to, child])
            }
            families.append((ordered(link.from, link.to), children, link))
        }
        // A parent's other children: one FAM per parent.
        for parent in ids {
            let children = ids.filter {
                (parentsOf[$0] ?? []).contains(parent) && !usedParentLinks.contains([parent, $0])
            }
            if !children.isEmpty { families.append(([parent], children, nil)) }
        }
        // Siblings the FAMs above do not make siblings already.
        let familiesOfChild = Dictionary(
            grouping: families.indices.flatMap { i in families[i].children.map { ($0, i) } }
        ) {
            $0.0
        }.mapValues { Set($0.map(\.1)) }
        for link in tree.links where link.kind == .sibling && xref[link.from] != nil && xref[link.to] != nil {
            let shared = (familiesOfChild[link.from] ?? []).intersection(familiesOfChild[link.to] ?? [])
            if shared.isEmpty { families.append(([], ordered(link.from, link.to), nil)) }
        }

        var records: [GEDCOM.Node] = [
            header(familyName: familyName, now: now, version: version),
            GEDCOM.Node("SUBM", xref: "U1", children: [GEDCOM.Node("NAME", submitter)]),
        ]
        func famRefs(_ id: Int64, spouse: Bool) -> [GEDCOM.Node] {
            families.indices.filter { (spouse ? families[$0].spouses : families[$0].children).contains(id) }.map {
                GEDCOM.Node(spouse ? "FAMS" : "FAMC", "@F\($0 + 1)@")
            }
        }
        for id in ids {
            var node = GEDCOM.Node("INDI", xref: xref[id])
            node.children.append(GEDCOM.Node("NAME", tree.name(id).replacingOccurrences(of: "/", with: " ")))
            let facts = tree.facts(id)
            if let sex = facts?.sex { node.children.append(GEDCOM.Node("SEX", sex)) }
            if let event = event("BIRT", facts?.born, facts?.bornPlace) { node.children.append(event) }
            if let event = event("DEAT", facts?.died, facts?.diedPlace) { node.children.append(event) }
            node.children += famRefs(id, spouse: false) + famRefs(id, spouse: true)
            records.append(node)
        }
        let sex = tree.sex
        for (index, family) in families.enumerated() {
            var node = GEDCOM.Node("FAM", xref: "F\(index + 1)")
            // HUSB and WIFE by sex where known; otherwise the first HUSB, the second WIFE.
            var spouses = family.spouses
            if spouses.count == 2, sex[spouses[0]] == .female || sex[spouses[1]] == .male { spouses.reverse() }
            for (slot, id) in spouses.enumerated() {
                let tag = spouses.count == 1 ? (sex[id] == .female ? "WIFE" : "HUSB") : (slot == 0 ? "HUSB" : "WIFE")
                node.children.append(GEDCOM.Node(tag, "@\(xref[id]!)@"))
            }
            node.children += family.children.map { GEDCOM.Node("CHIL", "@\(xref[$0]!)@") }
            if let marriage = family.marriage, let event = event("MARR", marriage.date, marriage.place) {
                node.children.append(event)
            }
            records.append(node)
        }
        records.append(GEDCOM.Node("TRLR"))
        var lines: [String] = []
        let split = version == .v551 ? GEDCOM.maxValueOnLine : nil
        for record in records { GEDCOM.write(record, splittingAt: split, into: &lines) }
        // 7.0: "The first character in each data stream should be U+FEFF, the byte-order mark."
        return (version == .v7 ? "\u{FEFF}" : "") + lines.joined(separator: "\n") + "\n"
    }

    /// HEAD as each version has it: 5.5.1 names the file and its character set; 7.0 has
    /// neither (UTF-8 is the only one) and GEDC holds only VERS.
    static func header(familyName: String, now: Date, version: Version) -> GEDCOM.Node {
        var head = GEDCOM.Node(
            "HEAD",
            children: [
                GEDCOM.Node("SOUR", "HEARTH", children: [GEDCOM.Node("NAME", "Hearth")]),
                GEDCOM.Node("DATE", GEDCOMDate.write(day(now))),
                GEDCOM.Node("SUBM", "@U1@"),
            ])
        switch version {
        case .v551:
            head.children += [
                GEDCOM.Node("FILE", familyName + ".ged"),
                GEDCOM.Node("GEDC", children: [GEDCOM.Node("VERS", "5.5.1"), GEDCOM.Node("FORM", "LINEAGE-LINKED")]),
                GEDCOM.Node("CHAR", "UTF-8"),
            ]
        case .v7:
            // GEDC comes first, as the standard's examples have it.
            head.children.insert(GEDCOM.Node("GEDC", children: [GEDCOM.Node("VERS", "7.0")]), at: 0)
        }
        return head
    }

    static func event(_ tag: String, _ date: String?, _ place: String?) -> GEDCOM.Node? {
        guard date != nil || place != nil else { return nil }
        var node = GEDCOM.Node(tag)
        if let date { node.children.append(GEDCOM.Node("DATE", GEDCOMDate.write(date))) }
        if let place { node.children.append(GEDCOM.Node("PLAC", place)) }
        return node
    }

    static func day(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day())
    }

    // MARK: import

    /// What a file holds of what Hearth keeps, and what it did not keep.
    struct Plan {
        /// What the store imports (`FamilyStore.importFamily`), as read.
        typealias Person = FamilyImport.Person
        typealias Tie = FamilyImport.Tie
        var people: [Person] = []
        var ties: [Tie] = []
        /// Dates kept as their first date (ABT, BEF, BET … AND …), and dates not kept (phrases).
        var approximated = 0
        var droppedDates = 0
        /// Names and places cut to Hearth's lengths.
        var shortened = 0
        /// Tags Hearth does not keep, counted by tag (NOTE, SOUR, OBJE, _MARNM, …).
        var ignored: [String: Int] = [:]

        var ignoredText: String? {
            guard !ignored.isEmpty else { return nil }
            let total = ignored.values.reduce(0, +)
            let top = ignored.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(5)
            return "\(total) line\(total == 1 ? "" : "s") Hearth does not keep ("
                + top.map { "\($0.key) ×\($0.value)" }
                .joined(separator: ", ") + (ignored.count > 5 ? ", …" : "") + ")"
        }
    }

    enum ImportProblem: Error, Equatable {
        case file(GEDCOM.Problem)
        case tooManyPeople(Int)
        case noPeople

        var message: String {
            switch self {
            case .file(let problem): problem.message
            case .tooManyPeople(let count):
                "the file has \(count) people; one import adds at most \(maxImportPeople)"
            case .noPeople: "the file has no people (INDI records)"
            }
        }
    }

    /// Reads a file's people and ties; nothing is written yet.
    static func plan(_ bytes: [UInt8]) throws(ImportProblem) -> Plan {
        let records: [GEDCOM.Node]
        do { records = try GEDCOM.parse(bytes, maxBytes: maxImportBytes) } catch { throw .file(error) }
        switch records.first?.first("CHAR")?.value.uppercased() {
        case "ANSEL": throw .file(.ansel)
        case "UNICODE", "UTF-16": throw .file(.unicode)
        default: break
        }
        var plan = Plan()
        let individuals = records.filter { $0.tag == "INDI" && $0.xref != nil }
        guard !individuals.isEmpty else { throw .noPeople }
        guard individuals.count <= maxImportPeople else { throw .tooManyPeople(individuals.count) }
        for record in records where !["HEAD", "TRLR", "SUBM", "SUBN", "INDI", "FAM"].contains(record.tag) {
            plan.ignored[record.tag, default: 0] += 1
        }
        let known = Set(individuals.compactMap(\.xref))
        for record in individuals { plan.people.append(person(record, &plan)) }
        // Families, from FAM records and the people's own FAMC/FAMS (files give both, or one).
        var spouses: [String: [String]] = [:]
        var children: [String: [String]] = [:]
        var marriages: [String: GEDCOM.Node] = [:]
        var order: [String] = []
        func note(_ family: String) { if !order.contains(family) { order.append(family) } }
        for record in records where record.tag == "FAM" {
            guard let id = record.xref else { continue }
            note(id)
            for child in record.children {
                switch child.tag {
                case "HUSB", "WIFE": if let p = child.pointer, known.contains(p) { spouses[id, default: []].append(p) }
                case "CHIL": if let p = child.pointer, known.contains(p) { children[id, default: []].append(p) }
                case "MARR":
                    if marriages[id] == nil { marriages[id] = child } else { plan.ignored["MARR", default: 0] += 1 }
                default: plan.ignored[child.tag, default: 0] += 1
                }
            }
        }
        for record in individuals {
            for child in record.children {
                guard let family = child.pointer, let me = record.xref else { continue }
                if child.tag == "FAMS", !(spouses[family] ?? []).contains(me) {
                    note(family)
                    spouses[family, default: []].append(me)
                }
                if child.tag == "FAMC", !(children[family] ?? []).contains(me) {
                    note(family)
                    children[family, default: []].append(me)
                }
            }
        }
        for family in order {
            let couple = spouses[family] ?? []
            let kids = children[family] ?? []
            if couple.count >= 2 {
                var tie = Plan.Tie(from: couple[0], to: couple[1], kind: .partner)
                if let marriage = marriages[family] {
                    tie.date = date(marriage.first("DATE"), &plan)
                    tie.place = place(marriage.first("PLAC"), &plan)
                    count(marriage, except: ["DATE", "PLAC"], &plan)
                }
                plan.ties.append(tie)
            }
            for parent in couple {
                for child in kids { plan.ties.append(Plan.Tie(from: parent, to: child, kind: .parent)) }
            }
            if couple.isEmpty, let first = kids.first {
                for other in kids.dropFirst() { plan.ties.append(Plan.Tie(from: first, to: other, kind: .sibling)) }
            }
        }
        return plan
    }

    static func person(_ record: GEDCOM.Node, _ plan: inout Plan) -> Plan.Person {
        var person = Plan.Person(xref: record.xref ?? "", name: "")
        var seen: Set<String> = []
        for child in record.children {
            let again = !seen.insert(child.tag).inserted
            switch child.tag {
            case "NAME" where !again:
                var name = child.value.replacingOccurrences(of: "/", with: " ")
                if name.trimmingCharacters(in: .whitespaces).isEmpty {
                    name = [child.first("GIVN")?.value, child.first("SURN")?.value].compactMap { $0 }.joined(
                        separator: " ")
                }
                person.name = cut(name.split(separator: " ").joined(separator: " "), FamilyPersonRules.maxName, &plan)
            case "SEX" where !again:
                let sex = child.value.uppercased()
                if sex == "F" || sex == "M" { person.sex = sex }
            case "BIRT" where !again, "DEAT" where !again:
                let date = date(child.first("DATE"), &plan)
                let place = place(child.first("PLAC"), &plan)
                count(child, except: ["DATE", "PLAC"], &plan)
                if child.tag == "BIRT" {
                    (person.born, person.bornPlace) = (date, place)
                } else {
                    (person.died, person.diedPlace) = (date, place)
                }
            case "FAMC", "FAMS": break
            default: plan.ignored[child.tag, default: 0] += 1
            }
        }
        if person.name.isEmpty { person.name = "Unnamed" }
        return person
    }

    static func count(_ node: GEDCOM.Node, except kept: Set<String>, _ plan: inout Plan) {
        for child in node.children where !kept.contains(child.tag) { plan.ignored[child.tag, default: 0] += 1 }
    }

    static func date(_ node: GEDCOM.Node?, _ plan: inout Plan) -> String? {
        guard let node else { return nil }
        switch GEDCOMDate.read(node.value) {
        case .exact(let date): return date
        case .approximated(let date):
            plan.approximated += 1
            return date
        case .dropped:
            plan.droppedDates += 1
            return nil
        }
    }

    static func place(_ node: GEDCOM.Node?, _ plan: inout Plan) -> String? {
        guard let text = node?.value.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return cut(text, FamilyPersonRules.maxPlace, &plan)
    }

    static func cut(_ text: String, _ limit: Int, _ plan: inout Plan) -> String {
        guard text.count > limit else { return text }
        plan.shortened += 1
        return String(text.prefix(limit))
    }
}
