import Foundation
import HearthTesting
import Testing

@testable import HearthApps
@testable import HearthServer

/// GEDCOM over TCP and HTTP: `!family export` links the tree's file (its members only), the
/// family page's form imports one (founder and admins only), a file read back into a new family
/// writes the same file, importing it again adds nothing, and bad files change nothing.
@Suite struct FamilyGEDCOMStoryTests {
    /// Written by hand as another program would: @I1@ pointers, a NOTE, a CONC line, dates
    /// with ABT and BET, a custom tag.
    static let elsewhere = """
        0 HEAD
        1 SOUR Gramps
        1 GEDC
        2 VERS 5.5.1
        2 FORM LINEAGE-LINKED
        1 CHAR UTF-8
        0 @I1@ INDI
        1 NAME Jean /Dupont/
        1 SEX M
        1 BIRT
        2 DATE ABT 1900
        2 PLAC Saint-Étienne
        1 FAMS @F1@
        1 NOTE He kept bees
        2 CONC  and wrote about them.
        0 @I2@ INDI
        1 NAME Marie /Curie/
        1 SEX F
        1 BIRT
        2 DATE BET 1900 AND 1910
        1 FAMS @F1@
        1 _UID 0A1B2C
        0 @I3@ INDI
        1 NAME Paul /Dupont/
        1 BIRT
        2 DATE 2 MAY 1931
        1 FAMC @F1@
        0 @F1@ FAM
        1 HUSB @I1@
        1 WIFE @I2@
        1 CHIL @I3@
        1 MARR
        2 DATE 12 MAR 1925
        2 PLAC Paris
        0 TRLR

        """

    static func flash(_ web: WebBrowser, _ path: String) async throws -> String {
        try await FamilyFormTests.flash(web, path)
    }

    /// The family page sends the chosen file as a file: a file of `maxImportPeople` people at
    /// `maxImportBytes` (far past a text form's `WebLimits.maxLongFormBytes`) is imported whole;
    /// a byte more, a body past the limit, or a file that is not UTF-8 changes nothing.
    @Test func aLargeFileIsUploadedUpToTheImportLimit() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            try await ann.send("!tree new Many")
            try await ann.expect("You founded Many.")
            let web = WebBrowser(server)
            try await web.signIn("ann")
            #expect(try await web.get("/family/1").body.contains(#"enctype="multipart/form-data""#))
            let people = (1...FamilyGEDCOM.maxImportPeople).map {
                "0 @I\($0)@ INDI\n1 NAME Person \($0)\n1 BIRT\n2 DATE \(1800 + $0 % 200)\n2 PLAC Lyon\n"
            }.joined()
            let body = "0 HEAD\n1 GEDC\n2 VERS 7.0\n" + people + "0 TRLR\n"
            let padding = FamilyGEDCOM.maxImportBytes - body.utf8.count - "0 @N1@ SNOTE \n".utf8.count
            let full = body.replacingOccurrences(
                of: "0 TRLR\n", with: "0 @N1@ SNOTE " + String(repeating: "x", count: padding) + "\n0 TRLR\n")
            #expect(full.utf8.count == FamilyGEDCOM.maxImportBytes && full.utf8.count > 10 * WebLimits.maxLongFormBytes)

            // A byte over: refused by the import's rule, nothing added.
            _ = try await web.postFile("/family/1/import", file: Array((full + "\n").utf8), fileName: "many.ged")
            #expect(
                try await Self.flash(web, "/family/1").contains(
                    "not imported: the file is over \(FamilyGEDCOM.maxImportBytes / 1024) KiB"))
            // A body far past the limit is not read.
            let huge = try await web.postFile(
                "/family/1/import", file: Array(repeating: 0x41, count: FamilyGEDCOM.maxImportBytes + 64 * 1024))
            #expect(huge.status == 413)
            #expect(huge.body.contains("The file is too large (at most \(FamilyGEDCOM.maxImportBytes / 1024) KiB)."))
            let latin1 = try await web.postFile("/family/1/import", file: [0x30, 0x20, 0x48, 0x45, 0x41, 0x44, 0xE9])
            #expect(latin1.status == 400 && latin1.body.contains("not UTF-8 text"))
            try await ann.send("!person")
            try await ann.expect("no people who are not users")

            let answer = try await web.postFile("/family/1/import", file: Array(full.utf8), fileName: "many.ged")
            #expect(answer.status == 303)
            #expect(
                try await Self.flash(web, "/family/1").contains(
                    "Imported into Many: \(FamilyGEDCOM.maxImportPeople) people added, 0 already in the tree"))
            try await ann.send("!person 500")
            try await ann.expect("#500 Person 500, born 1900 in Lyon")
        }
    }

    @Test func exportImportAndRoundTrip() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            try await ann.send("!tree new Smiths")
            let code = try FamilyTests.code(in: try await ann.expect("Invite code for Smiths: "))
            let bob = try await TestClient.user(server, "bob")
            try await bob.send("!tree join \(code)")
            try await bob.expect("Welcome to Smiths")
            _ = try await TestClient.user(server, "eve")
            for (line, answer) in [
                ("!person add \"Rose Smith\" sex f born 1931-05-02 in Lyon died 2019 in Paris", "is person #1"),
                ("!person add Tom sex m born 1930-01", "is person #2"), ("!person add Kid born 1960", "is person #3"),
                ("!tree link #1 partner of #2 married 1955-06-03 in Lyon", "Rose Smith is now Tom's partner"),
                ("!tree link #1 parent of #3", "is now Kid's parent"), ("!tree link #2 parent of #3", "is now Kid's"),
                ("!tree link #3 parent of ann", "Kid is now ann's parent"), ("!tree link bob sibling", "your sibling"),
            ] {
                try await ann.send(line)
                try await ann.expect(answer)
            }
            try await ann.send("!family export")
            let answer = try await ann.expect("Smiths as a GEDCOM 5.5.1 file (5 people")
            let url = String(try #require(answer.firstMatch(of: /https?:\/\/\S+/)?.0))
            let path = String(url[try #require(url.range(of: "/family/"))!.lowerBound...])
            #expect(path.hasPrefix("/family/1/tree.ged?at="))

            // Members only.
            #expect(try await WebBrowser(server).get(path).status == 401)
            let eve = WebBrowser(server)
            try await eve.signIn("eve")
            #expect(try await eve.get(path).status == 403)
            let web = WebBrowser(server)
            try await web.signIn("ann")
            let file = try await web.get(path)
            #expect(file.status == 200)
            #expect(file.body.hasPrefix("0 HEAD\n1 SOUR HEARTH\n"))
            #expect(file.body.contains("1 NAME Rose Smith\n1 SEX F\n1 BIRT\n2 DATE 2 MAY 1931\n2 PLAC Lyon\n"))

            // GEDCOM 7.0: its own link, the standard's header, and read back as the same tree.
            try await ann.send("!family export 7")
            let seven = try await ann.expect("Smiths as a GEDCOM 7.0 file (5 people")
            let sevenURL = String(try #require(seven.firstMatch(of: /https?:\/\/\S+/)?.0))
            let sevenPath = String(sevenURL[try #require(sevenURL.range(of: "/family/"))!.lowerBound...])
            #expect(sevenPath.hasPrefix("/family/1/tree.ged?at=") && sevenPath.hasSuffix("&version=7"))
            let file7 = try await web.get(sevenPath)
            #expect(file7.body.hasPrefix("\u{FEFF}0 HEAD\n1 GEDC\n2 VERS 7.0\n"))
            #expect(!file7.body.contains("1 CHAR") && !file7.body.contains(" CONC "))
            _ = try await web.post("/family/1/import", form: ["gedcom": file7.body])
            #expect(
                try await Self.flash(web, "/family/1").contains(
                    "Imported into Smiths: 0 people added, 5 already in the tree, 0 ties added."))
            try await ann.send("!family export 6")
            try await ann.expect("!family export takes 5.5.1 or 7")

            // Chat carries no file; a member who is not an admin may not import.
            try await ann.send("!family import")
            try await ann.expect("Chat carries no files: upload the .ged file on Smiths' page")
            let bobWeb = WebBrowser(server)
            try await bobWeb.signIn("bob")
            let page = try await bobWeb.get("/family/1")
            #expect(page.body.contains(#"href="/family/1/tree.ged?at="#))
            #expect(!page.body.contains(#"action="/family/1/import""#))
            _ = try await bobWeb.post("/family/1/import", form: ["gedcom": file.body])
            #expect(try await Self.flash(bobWeb, "/family/1").contains("only the founder or an admin"))

            // Again into the same family: everyone is there already.
            #expect(try await web.get("/family/1").body.contains(#"action="/family/1/import""#))
            _ = try await web.post("/family/1/import", form: ["gedcom": file.body])
            #expect(
                try await Self.flash(web, "/family/1").contains(
                    "Imported into Smiths: 0 people added, 5 already in the tree, 0 ties added."))

            // Into a new family of ann's: the people come back with their ties, and the file it
            // writes is the same (bob, not a member there, is a person now).
            try await ann.send("!tree new Copy")
            try await ann.expect("You founded Copy.")
            _ = try await web.post("/family/2/import", form: ["gedcom": file.body])
            let copied = try await Self.flash(web, "/family/2")
            #expect(copied.contains("Imported into Copy: 4 people added, 1 already in the tree, 5 ties added."))
            let copy = try await web.get("/family/2/tree.ged?at=1").body
            #expect(copy.replacingOccurrences(of: "Copy.ged", with: "Smiths.ged") == file.body)
            try await ann.send("!tree how ann #5")
            try await ann.expect("Rose Smith is ann's grandmother")

            // Another program's file: what Hearth keeps, and a report of the rest.
            _ = try await web.post("/family/2/import", form: ["gedcom": Self.elsewhere])
            let report = try await Self.flash(web, "/family/2")
            #expect(report.contains("Imported into Copy: 3 people added, 0 already in the tree, 3 ties added"))
            #expect(report.contains("2 dates approximated"))
            #expect(report.contains("2 lines Hearth does not keep (NOTE ×1, _UID ×1)"))
            try await ann.send("!person 8")
            let jean = try await ann.expect("#8 Jean Dupont, born 1900 in Saint-Étienne · ")
            #expect(jean.contains("partner of Marie Curie (married 1925-03-12 in Paris)"))
            #expect(jean.contains("parent of Paul Dupont"))

            // Files refused change nothing.
            let ansel = Self.elsewhere.replacingOccurrences(of: "CHAR UTF-8", with: "CHAR ANSEL")
            _ = try await web.post("/family/2/import", form: ["gedcom": ansel])
            #expect(try await Self.flash(web, "/family/2").contains("not imported: the file is in ANSEL"))
            let many =
                "0 HEAD\n" + (1...FamilyGEDCOM.maxImportPeople + 1).map { "0 @I\($0)@ INDI\n1 NAME P\($0)\n" }.joined()
                + "0 TRLR\n"
            _ = try await web.post("/family/2/import", form: ["gedcom": many])
            #expect(try await Self.flash(web, "/family/2").contains("one import adds at most 500"))
            try await ann.send("!person")
            try await ann.expect("#10 Paul Dupont")
            try await ann.send("!person 11")
            try await ann.expect("Copy has no person #11")
        }
    }
}
