import Foundation
import HearthStore
import Testing

@testable import HearthApps

/// GEDCOM read and written in process: a file written by hand from the 5.5.1 standard the way
/// Gramps writes one, the dates genealogy programs use, the encodings refused, the limits, and
/// a tree written out and read back.
@Suite struct FamilyGEDCOMTests {
    /// As Gramps exports: a header naming its source, @I1@ and @F1@ pointers, a NOTE record and
    /// notes in people, CONC and CONT lines, source citations, a custom tag, CRLF line ends.
    static let grampsLike =
        [
            "0 HEAD",
            "1 SOUR Gramps",
            "2 VERS 5.2.2",
            "2 NAME Gramps",
            "1 DATE 27 NOV 2026",
            "1 SUBM @SUBM@",
            "1 FILE /home/rose/smith.ged",
            "1 COPR Copyright (c) 2026 Rose Smith.",
            "1 GEDC",
            "2 VERS 5.5.1",
            "2 FORM LINEAGE-LINKED",
            "1 CHAR UTF-8",
            "0 @SUBM@ SUBM",
            "1 NAME Rose Smith",
            "0 @I1@ INDI",
            "1 NAME Jean /Dupont/",
            "2 GIVN Jean",
            "2 SURN Dupont",
            "1 SEX M",
            "1 BIRT",
            "2 TYPE Birth of Jean Dupont",
            "2 DATE ABT 1900",
            "2 PLAC Lyon, Rhône, France",
            "1 DEAT",
            "2 DATE 12 MAR 1950",
            "2 PLAC Saint-Étienne",
            "2 SOUR @S1@",
            "3 PAGE p. 12",
            "1 FAMS @F1@",
            "1 NOTE @N1@",
            "1 CHAN",
            "2 DATE 1 JAN 2020",
            "0 @I2@ INDI",
            "1 NAME Marie /Curie-Mar",
            "2 CONC tin/",
            "1 SEX F",
            "1 BIRT",
            "2 DATE BET 1900 AND 1910",
            "1 FAMS @F1@",
            "1 _UID 0A1B2C3D",
            "0 @I3@ INDI",
            "1 NAME Paul /Dupont/",
            "1 SEX M",
            "1 BIRT",
            "2 DATE 2 MAY 1931",
            "2 PLAC Lyon",
            "1 FAMC @F1@",
            "1 NOTE He kept bees",
            "2 CONT and wrote about them.",
            "0 @I4@ INDI",
            "1 NAME Lou",
            "1 BIRT",
            "2 DATE (the winter of the big flood)",
            "1 FAMC @F1@",
            "0 @F1@ FAM",
            "1 HUSB @I1@",
            "1 WIFE @I2@",
            "1 CHIL @I3@",
            "1 CHIL @I4@",
            "1 MARR",
            "2 DATE 3 JUN 1925",
            "2 PLAC Paris",
            "0 @N1@ NOTE A note about Jean",
            "1 CONC that goes on.",
            "0 @S1@ SOUR",
            "1 TITL Parish register",
            "0 TRLR",
        ].joined(separator: "\r\n") + "\r\n"

    @Test func aGrampsLikeFileIsRead() throws {
        let plan = try FamilyGEDCOM.plan(Array(Self.grampsLike.utf8))
        #expect(
            plan.people == [
                .init(
                    xref: "I1", name: "Jean Dupont", sex: "M", born: "1900", bornPlace: "Lyon, Rhône, France",
                    died: "1950-03-12", diedPlace: "Saint-Étienne"),
                .init(xref: "I2", name: "Marie Curie-Martin", sex: "F", born: "1900"),
                .init(xref: "I3", name: "Paul Dupont", sex: "M", born: "1931-05-02", bornPlace: "Lyon"),
                .init(xref: "I4", name: "Lou"),
            ])
        #expect(
            plan.ties == [
                .init(from: "I1", to: "I2", kind: .partner, date: "1925-06-03", place: "Paris"),
                .init(from: "I1", to: "I3", kind: .parent), .init(from: "I1", to: "I4", kind: .parent),
                .init(from: "I2", to: "I3", kind: .parent), .init(from: "I2", to: "I4", kind: .parent),
            ])
        #expect(plan.approximated == 2)  // ABT 1900, BET 1900 AND 1910
        #expect(plan.droppedDates == 1)  // a date phrase
        // Not kept, and counted: two notes in people, the NOTE and SOUR records, a citation, a
        // change date, a birth's TYPE and Gramps' _UID.
        #expect(plan.ignored == ["NOTE": 3, "SOUR": 2, "CHAN": 1, "TYPE": 1, "_UID": 1])
        #expect(plan.ignoredText == "8 lines Hearth does not keep (NOTE ×3, SOUR ×2, CHAN ×1, TYPE ×1, _UID ×1)")
    }

    @Test func continuationLinesFoldBack() throws {
        let records = try GEDCOM.parse(Array(Self.grampsLike.utf8), maxBytes: 1 << 20)
        let note = records.first { $0.xref == "N1" }
        #expect(note?.value == "A note about Jeanthat goes on.")
        let paul = records.first { $0.xref == "I3" }
        #expect(paul?.first("NOTE")?.value == "He kept bees\nand wrote about them.")
    }

    @Test func byteOrderMarkAndLineEnds() throws {
        let plain = try FamilyGEDCOM.plan(Array(Self.grampsLike.utf8))
        let withMark = try FamilyGEDCOM.plan([0xEF, 0xBB, 0xBF] + Array(Self.grampsLike.utf8))
        let lf = try FamilyGEDCOM.plan(Array(Self.grampsLike.replacingOccurrences(of: "\r\n", with: "\n").utf8))
        #expect(withMark.people == plain.people && lf.people == plain.people && lf.ties == plain.ties)
    }

    @Test func filesThatAreNotUTF8AreRefusedClearly() {
        let ansel = Self.grampsLike.replacingOccurrences(of: "1 CHAR UTF-8", with: "1 CHAR ANSEL")
        // ANSEL's é is E2 65: not UTF-8.
        let bytes =
            Array(ansel.replacingOccurrences(of: "0 TRLR\r\n", with: "").utf8)
            + Array("0 @I9@ INDI\n1 NAME Ren".utf8) + [0xE2, 0x65] + Array("\n0 TRLR\n".utf8)
        #expect(throws: FamilyGEDCOM.ImportProblem.file(.ansel)) { try FamilyGEDCOM.plan(bytes) }
        // Declared ANSEL, even when its bytes happen to be ASCII.
        #expect(throws: FamilyGEDCOM.ImportProblem.file(.ansel)) {
            try FamilyGEDCOM.plan(Array(ansel.replacingOccurrences(of: "Rhône", with: "Rhone").utf8))
        }
        #expect(FamilyGEDCOM.ImportProblem.file(.ansel).message.contains("UTF-8"))
        #expect(throws: FamilyGEDCOM.ImportProblem.file(.unicode)) {
            try FamilyGEDCOM.plan([0xFF, 0xFE] + Array("0\0 \0H\0".utf8))
        }
        #expect(throws: FamilyGEDCOM.ImportProblem.file(.notUTF8)) {
            try FamilyGEDCOM.plan(Array("0 HEAD\n1 CHAR UTF-8\n0 @I1@ INDI\n1 NAME Ren".utf8) + [0xE9, 0x0A])
        }
        #expect(throws: FamilyGEDCOM.ImportProblem.file(.notGEDCOM)) {
            try FamilyGEDCOM.plan(Array("name,born\nRose,1931\n".utf8))
        }
        #expect(throws: FamilyGEDCOM.ImportProblem.file(.badLine(2))) {
            try FamilyGEDCOM.plan(Array("0 HEAD\nhello there\n0 TRLR\n".utf8))
        }
        #expect(throws: FamilyGEDCOM.ImportProblem.noPeople) {
            try FamilyGEDCOM.plan(Array("0 HEAD\n1 CHAR UTF-8\n0 TRLR\n".utf8))
        }
    }

    @Test func datesAsGenealogyProgramsWriteThem() {
        let cases: [(String, GEDCOMDate.Reading)] = [
            ("12 MAR 1950", .exact("1950-03-12")), ("MAR 1950", .exact("1950-03")), ("1950", .exact("1950")),
            ("12 mar 1950", .exact("1950-03-12")), ("@#DGREGORIAN@ 1 JAN 1900", .exact("1900-01-01")),
            ("ABT 1900", .approximated("1900")), ("EST 1880", .approximated("1880")),
            ("BEF 1828", .approximated("1828")), ("AFT 1 JAN 1901", .approximated("1901-01-01")),
            ("BET 1900 AND 1910", .approximated("1900")), ("FROM 1904 TO 1915", .approximated("1904")),
            ("INT 1900 (about then)", .approximated("1900")), ("11 FEB 1750/51", .exact("1750-02-11")),
            ("(at the war)", .dropped), ("@#DJULIAN@ 1 JAN 1700", .dropped), ("30 FEB 1900", .dropped),
            ("", .dropped), ("MARCH 1950", .dropped),
        ]
        for (text, reading) in cases { #expect(GEDCOMDate.read(text) == reading, "\(text)") }
        #expect(GEDCOMDate.write("1950-03-12") == "12 MAR 1950")
        #expect(GEDCOMDate.write("1950-03") == "MAR 1950")
        #expect(GEDCOMDate.write("1950") == "1950")
    }

    static func people(_ count: Int) -> String {
        "0 HEAD\n1 CHAR UTF-8\n" + (1...count).map { "0 @I\($0)@ INDI\n1 NAME P\($0)\n" }.joined() + "0 TRLR\n"
    }

    @Test func anImportTakesAtMostMaxImportPeople() throws {
        let most = try FamilyGEDCOM.plan(Array(Self.people(FamilyGEDCOM.maxImportPeople).utf8))
        #expect(most.people.count == FamilyGEDCOM.maxImportPeople)
        #expect(throws: FamilyGEDCOM.ImportProblem.tooManyPeople(FamilyGEDCOM.maxImportPeople + 1)) {
            try FamilyGEDCOM.plan(Array(Self.people(FamilyGEDCOM.maxImportPeople + 1).utf8))
        }
    }

    @Test func anImportTakesAtMostMaxImportBytes() throws {
        let body = Self.people(2)
        let padding = FamilyGEDCOM.maxImportBytes - body.utf8.count - "0 NOTE \n".utf8.count
        let full = body.replacingOccurrences(
            of: "0 TRLR\n",
            with: "0 NOTE " + String(repeating: "x", count: padding)
                + "\n0 TRLR\n")
        #expect(full.utf8.count == FamilyGEDCOM.maxImportBytes)
        #expect(try FamilyGEDCOM.plan(Array(full.utf8)).people.count == 2)
        #expect(throws: FamilyGEDCOM.ImportProblem.file(.tooLarge(FamilyGEDCOM.maxImportBytes))) {
            try FamilyGEDCOM.plan(Array((full + " ").utf8))
        }
    }

    /// Everything Hearth keeps of a tree comes back from the file it writes: names, sex, dates
    /// and places, partners with their marriage, parents (a couple's children in their FAM, a
    /// parent who is not the other's partner in a FAM alone), siblings linked without parents.
    @Test(arguments: FamilyGEDCOM.Version.allCases) func aTreeWrittenOutReadsBackTheSame(
        version: FamilyGEDCOM.Version
    ) throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let people = [
            FamilyPerson(
                id: 1, familyId: 1, name: "Rose Smith", sex: "F", born: "1931-05-02", bornPlace: "Lyon", died: "2019",
                diedPlace: "Paris"),
            FamilyPerson(id: 2, familyId: 1, name: "Tom", sex: "M", born: "1930-01"),
            FamilyPerson(id: 3, familyId: 1, name: "Kid", born: "1960"),
            FamilyPerson(id: 4, familyId: 1, name: "Other parent"),
            FamilyPerson(id: 5, familyId: 1, name: "Cousin Ann"), FamilyPerson(id: 6, familyId: 1, name: "Cousin Bo"),
            FamilyPerson(
                id: 7, familyId: 1, name: "Zoé", born: "1991", bornPlace: "@home, Saint-Étienne", died: "2000-02-29"),
            FamilyPerson(id: 8, familyId: 1, name: "ann", born: "1990-12-24", accountId: 100),
        ]
        let tree = FamilyTree(
            members: [FamilyMember(accountId: 100, name: "ann", role: .founder, joinedAt: now)], people: people,
            links: [
                FamilyLink(from: -1, to: -2, kind: .partner, date: "1955-06-03", place: "Lyon"),
                FamilyLink(from: -1, to: -3, kind: .parent), FamilyLink(from: -2, to: -3, kind: .parent),
                FamilyLink(from: -4, to: -3, kind: .parent), FamilyLink(from: -3, to: 100, kind: .parent),
                FamilyLink(from: -6, to: -5, kind: .sibling), FamilyLink(from: 100, to: -7, kind: .partner),
            ])
        let text = FamilyGEDCOM.export(tree, familyName: "Smiths", submitter: "ann", now: now, version: version)
        switch version {
        case .v551:
            #expect(text.hasPrefix("0 HEAD\n1 SOUR HEARTH\n"))
            #expect(text.contains("1 GEDC\n2 VERS 5.5.1\n2 FORM LINEAGE-LINKED\n1 CHAR UTF-8\n"))
        case .v7:
            // A byte order mark, GEDC.VERS 7.0 first, and none of what 7.0 removed.
            #expect(text.hasPrefix("\u{FEFF}0 HEAD\n1 GEDC\n2 VERS 7.0\n1 SOUR HEARTH\n2 NAME Hearth\n"))
            #expect(text.contains("1 DATE 15 JAN 2027\n1 SUBM @U1@\n0 @U1@ SUBM\n"))
            for removed in ["CHAR", "FILE", "FORM", "CONC"] { #expect(!text.contains(" \(removed)"), "\(removed)") }
        }
        #expect(text.contains("2 PLAC @@home, Saint-Étienne\n"))  // a leading @ is doubled
        #expect(text.hasSuffix("0 TRLR\n"))
        let plan = try FamilyGEDCOM.plan(Array(text.utf8))
        #expect(plan.ignored.isEmpty && plan.approximated == 0 && plan.droppedDates == 0 && plan.shortened == 0)
        func tie(_ a: String, _ kind: FamilyLinkKind, _ b: String, _ date: String?, _ place: String?) -> String {
            let ends = kind == .parent ? [a, b] : [a, b].sorted()
            return "\(ends[0]) \(kind) \(ends[1]) \(date ?? "") \(place ?? "")"
        }
        let names = Dictionary(uniqueKeysWithValues: plan.people.map { ($0.xref, $0.name) })
        let read = Set(plan.ties.map { tie(names[$0.from]!, $0.kind, names[$0.to]!, $0.date, $0.place) })
        #expect(read == Set(tree.links.map { tie(tree.name($0.from), $0.kind, tree.name($0.to), $0.date, $0.place) }))
        #expect(read.count == tree.links.count)
        let facts = plan.people.map { [$0.name, $0.sex, $0.born, $0.bornPlace, $0.died, $0.diedPlace] }
        let expected = ([100] + (1...7).map { Int64(-$0) }).map { id -> [String?] in
            let f = tree.facts(id)
            return [tree.name(id), f?.sex, f?.born, f?.bornPlace, f?.died, f?.diedPlace]
        }
        #expect(facts == expected)
    }

    /// GEDCOM 7.0 as the standard (gedcom.io, FamilySearch GEDCOM 7.0) writes it, by hand: a byte
    /// order mark, GEDC.VERS 7.0 and no CHAR, an extension tag documented in SCHMA, `DEAT Y`, a
    /// date's PHRASE, a JULIAN date, SNOTE records, PEDI, sex X, and @VOID@ for a FAM's unknown
    /// WIFE and for two children's unknown family (who are no siblings by it).
    static let gedcom7 =
        "\u{FEFF}"
        + [
            "0 HEAD",
            "1 GEDC",
            "2 VERS 7.0",
            "1 SCHMA",
            "2 TAG _SKYPEID http://xmlns.com/foaf/0.1/skypeID",
            "1 SOUR https://example.com/genealogy",
            "2 NAME An example program",
            "1 DATE 27 NOV 2026",
            "1 LANG fr",
            "0 @I1@ INDI",
            "1 NAME Jean /Dupont/",
            "2 GIVN Jean",
            "2 SURN Dupont",
            "1 SEX M",
            "1 BIRT",
            "2 DATE 2 MAR 1900",
            "2 PLAC Saint-Étienne, Loire, France",
            "1 DEAT Y",
            "1 FAMS @F1@",
            "1 _SKYPEID jean.dupont",
            "0 @I2@ INDI",
            "1 NAME Marie /Curie/",
            "1 SEX F",
            "1 BIRT",
            "2 DATE BET 1900 AND 1910",
            "1 FAMS @F1@",
            "0 @I3@ INDI",
            "1 NAME Paul /Dupont/",
            "1 BIRT",
            "2 DATE 2 MAY 1931",
            "3 PHRASE the spring after the flood",
            "1 FAMC @F1@",
            "2 PEDI BIRTH",
            "1 FAMS @F2@",
            "1 NOTE He kept bees",
            "2 CONT and wrote about them.",
            "1 SNOTE @N1@",
            "0 @I4@ INDI",
            "1 NAME Lou",
            "1 SEX X",
            "1 BIRT",
            "2 DATE JULIAN 1 JAN 1700",
            "1 FAMC @F2@",
            "0 @I5@ INDI",
            "1 NAME Ann",
            "1 FAMC @VOID@",
            "0 @I6@ INDI",
            "1 NAME Bo",
            "1 FAMC @VOID@",
            "0 @F1@ FAM",
            "1 HUSB @I1@",
            "1 WIFE @I2@",
            "1 CHIL @I3@",
            "1 MARR",
            "2 DATE 12 MAR 1925",
            "2 PLAC Paris",
            "0 @F2@ FAM",
            "1 HUSB @I3@",
            "1 WIFE @VOID@",
            "2 PHRASE his first wife, name unknown",
            "1 CHIL @I4@",
            "0 @N1@ SNOTE @@home is where the bees are",
            "0 TRLR",
        ].joined(separator: "\n") + "\n"

    @Test func aGEDCOM7FileWrittenByTheStandardIsRead() throws {
        let plan = try FamilyGEDCOM.plan(Array(Self.gedcom7.utf8))
        #expect(
            plan.people == [
                .init(
                    xref: "I1", name: "Jean Dupont", sex: "M", born: "1900-03-02",
                    bornPlace: "Saint-Étienne, Loire, France"),
                .init(xref: "I2", name: "Marie Curie", sex: "F", born: "1900"),
                .init(xref: "I3", name: "Paul Dupont", born: "1931-05-02"), .init(xref: "I4", name: "Lou"),
                .init(xref: "I5", name: "Ann"), .init(xref: "I6", name: "Bo"),
            ])
        // No partner for Paul (his wife is @VOID@), and Ann and Bo are not siblings by @VOID@.
        #expect(
            plan.ties == [
                .init(from: "I1", to: "I2", kind: .partner, date: "1925-03-12", place: "Paris"),
                .init(from: "I1", to: "I3", kind: .parent), .init(from: "I2", to: "I3", kind: .parent),
                .init(from: "I3", to: "I4", kind: .parent),
            ])
        #expect(plan.approximated == 1 && plan.droppedDates == 1)  // BET … AND …; JULIAN
        #expect(plan.ignored == ["SNOTE": 2, "NOTE": 1, "_SKYPEID": 1])
    }

    @Test func gedcom7WritesLongValuesWhole() throws {
        var lines: [String] = []
        let long = String(repeating: "word ", count: 100) + "\nsecond line"
        GEDCOM.write(GEDCOM.Node("NOTE", long, xref: "N1"), splittingAt: nil, into: &lines)
        #expect(lines == ["0 @N1@ NOTE " + String(repeating: "word ", count: 100), "1 CONT second line"])
        #expect(try GEDCOM.parse("0 HEAD\n" + lines.joined(separator: "\n") + "\n0 TRLR")[1].value == long)
    }

    @Test func longValuesGoOnOverConcAndContLines() throws {
        var lines: [String] = []
        let long = String(repeating: "word ", count: 100) + "\nsecond line"
        GEDCOM.write(GEDCOM.Node("NOTE", long, xref: "N1"), into: &lines)
        #expect(lines.count > 3 && lines.allSatisfy { $0.count <= 255 })
        #expect(lines.contains { $0.hasPrefix("1 CONC ") } && lines.contains("1 CONT second line"))
        let back = try GEDCOM.parse("0 HEAD\n" + lines.joined(separator: "\n") + "\n0 TRLR")
        #expect(back[1].value == long)
    }
}
