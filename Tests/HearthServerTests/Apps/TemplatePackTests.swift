import Foundation
import HearthApps
import HearthMedia
import HearthTesting
import Testing

/// `hearth templates import DIR` with a pack written here in memegen's layout: good folders become
/// everyone's templates (chat, /templates and the URL API), bad ones are named with the reason.
@Suite struct TemplatePackTests {
    /// A memegen `text:` entry (the keys memegen writes, angle and timing included).
    static func box(
        _ x: Double, _ y: Double, _ w: Double, _ h: Double, color: String = "white", align: String = "center"
    ) -> String {
        """
          - style: upper
            color: \(color)
            font: thick
            anchor_x: \(x)
            anchor_y: \(y)
            angle: 0.0
            scale_x: \(w)
            scale_y: \(h)
            align: \(align)
            start: 0.0
            stop: 1.0

        """
    }

    static func folder(_ pack: URL, _ name: String, config: String?, picture: Data? = Web.samplePNG(400, 300)) throws {
        let folder = pack.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try config?.write(to: folder.appendingPathComponent("config.yml"), atomically: true, encoding: .utf8)
        try picture?.write(to: folder.appendingPathComponent("default.png"))
    }

    static let drake = """
        name: Drakeposting
        source: http://knowyourmeme.com/memes/drakeposting
        keywords:
          - approve
          -
        text:
        \(box(0.5, 0.0, 0.5, 0.5))\(box(0.5, 0.5, 0.5, 0.5, color: "black", align: "left"))
        example:
          - left on unread
          - left on read
        overlay:
          - center_x: 0.5
            center_y: 0.5
            scale: 0.25

        """

    static func boxes(_ count: Int) -> String {
        "name: Busy\ntext:\n" + (0..<count).map { box(0, Double($0) / 10, 1, 0.1) }.joined()
    }

    /// Two folders that name one template ("twin" and "Twin"): the second is skipped with the
    /// reason and leaves no picture behind.
    @Test func aFolderTheStoreRefusesLeavesNoPicture() async throws {
        try await withServer { server in
            let pack = URL(fileURLWithPath: server.dataDirectory).appendingPathComponent("pack")
            try Self.folder(pack, "twin", config: Self.drake)
            try Self.folder(pack, "Twin", config: Self.drake, picture: Web.samplePNG(300, 200))
            let run = try await LimitCrossingTests.hearth([
                "templates", "import", pack.path, "--data-dir", server.dataDirectory,
            ])
            #expect(run.status == 0 && run.output.contains("there is a global template called twin already"), "\(run)")
            #expect(MemeTests.mediaFiles(server).count == 1)
        }
    }

    @Test func aMemegenPackBecomesEveryonesTemplates() async throws {
        try await withServer { server in
            let pack = URL(fileURLWithPath: server.dataDirectory).appendingPathComponent("pack")
            try Self.folder(pack, "drake", config: Self.drake)
            try Self.folder(pack, "busy", config: Self.boxes(TemplatePack.maxBoxes))
            try Self.folder(pack, "too-busy", config: Self.boxes(TemplatePack.maxBoxes + 1))
            try Self.folder(pack, "plain", config: "name: Plain\n")  // memegen's default: top and bottom
            try Self.folder(pack, "broken", config: "text: [unclosed\n")
            try Self.folder(pack, "nowhere", config: "text:\n" + Self.box(1.5, 0, 0.5, 0.2))
            try Self.folder(pack, "no-picture", config: Self.drake, picture: nil)
            try Self.folder(pack, "not-a-picture", config: Self.drake, picture: Data("hello".utf8))
            try Self.folder(pack, "sunset", config: Self.drake)
            try Self.folder(pack, "_error", config: Self.drake)

            let first = try await LimitCrossingTests.hearth([
                "templates", "import", pack.path, "--data-dir", server.dataDirectory,
            ])
            #expect(first.status == 0, "\(first)")
            for line in [
                "skipped broken: its config.yml is not a memegen template",
                "skipped nowhere: text box 1 lies outside the picture",
                "skipped no-picture: it has no background picture",
                "skipped not-a-picture: its picture default.png:",
                "skipped sunset: sunset is a built-in template",
                "skipped _error: a template name has 2 to",
                "skipped too-busy: it has \(TemplatePack.maxBoxes + 1) text boxes; a template may have at most "
                    + "\(TemplatePack.maxBoxes)",
                "imported 3 templates, skipped 7",
            ] {
                #expect(first.output.contains(line), "\(line) in \(first.output)")
            }

            let hal = try await TestClient.user(server, "hal")
            try await hal.send("!templates drakeposting")
            try await hal.expect("drake (everyone's) — Drakeposting · http")
            try await hal.send("!templates approve")
            try await hal.expect("drake (everyone's)")
            try await hal.send("!meme drake writing docs later | writing docs now")
            try await hal.expect("meme #1 by hal")
            try await hal.send("!meme busy " + (1...TemplatePack.maxBoxes).map { "t\($0)" }.joined(separator: " | "))
            try await hal.expect("meme #2 by hal")
            try await hal.send("!meme plain top | bottom")
            try await hal.expect("meme #3 by hal")

            // The URL API draws on it, and /templates tells its title, keywords, example and source.
            let (png, drawn) = try await MemeURLTests.get(server, "/images/drake/no/yes.png")
            #expect(drawn.statusCode == 200)
            #expect(try ImageProbe.inspect([UInt8](png)).width == 400)
            let (json, _) = try await MemeURLTests.get(server, "/templates/drake")
            let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            #expect(object["name"] as? String == "Drakeposting" && object["lines"] as? Int == 2)
            #expect(object["keywords"] as? [String] == ["approve"])
            #expect(object["source"] as? String == "http://knowyourmeme.com/memes/drakeposting")
            let example = try #require(object["example"] as? [String: Any])
            #expect(example["text"] as? [String] == ["left on unread", "left on read"])

            // Importing again adds nothing twice.
            let again = try await LimitCrossingTests.hearth([
                "templates", "import", pack.path, "--data-dir", server.dataDirectory,
            ])
            #expect(again.output.contains("skipped drake: there is a global template called drake already"))
            #expect(again.output.contains("imported 0 templates, skipped 10"), "\(again.output)")
        }
    }

    @Test func aPackOfMoreThanMaxTemplatesIsRefusedWhole() async throws {
        let pack = URL(fileURLWithPath: TestServer.tempDirectory())
        for n in 0..<TemplatePack.maxTemplates {
            try FileManager.default.createDirectory(
                at: pack.appendingPathComponent("t\(n)"), withIntermediateDirectories: true)
        }
        #expect(try TemplatePack.folders(in: pack).count == TemplatePack.maxTemplates)
        try FileManager.default.createDirectory(
            at: pack.appendingPathComponent("one-more"), withIntermediateDirectories: true)
        #expect {
            _ = try TemplatePack.folders(in: pack)
        } throws: { error in
            "\(error)".contains("has \(TemplatePack.maxTemplates + 1) template folders; one import takes at most")
        }
    }

    @Test func aPictureOfMaxBytesIsTakenAndOneByteMoreIsNot() async throws {
        let pack = URL(fileURLWithPath: TestServer.tempDirectory())
        try Self.folder(pack, "big", config: Self.drake, picture: Data(count: TemplatePack.maxPictureBytes))
        let entry = try TemplatePack.read(pack.appendingPathComponent("big")) { _ in nil }
        #expect(entry.boxes.count == 2 && entry.boxes[1].style == .dark && entry.boxes[1].textAlign == .left)
        #expect(entry.boxes[0] == CaptionBox(0.5, 0, 0.5, 0.5), "white, centred, thick: the default look")
        try Self.folder(pack, "big", config: Self.drake, picture: Data(count: TemplatePack.maxPictureBytes + 1))
        #expect {
            _ = try TemplatePack.read(pack.appendingPathComponent("big")) { _ in nil }
        } throws: { error in
            "\(error)".contains(
                "has \(TemplatePack.maxPictureBytes + 1) bytes; at most \(TemplatePack.maxPictureBytes)")
        }
    }
}
