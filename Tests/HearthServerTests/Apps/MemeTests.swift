import Foundation
import HearthStore
import HearthTesting
import Testing

@testable import HearthMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Pictures and memes as a user meets them: bot replies with links that open over HTTP.
@Suite struct MemeTests {
    /// Asks the bot for an upload link.
    static func uploadLink(_ client: TestClient) async throws -> URL {
        try await client.send("!upload")
        return try Web.link(in: try await client.expect("curl -T photo.jpg"))
    }

    static func mediaFiles(_ server: TestServer) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: server.dataDirectory + "/media")) ?? []).filter {
            !$0.hasPrefix(".")
        }
    }

    @Test func uploadMakeAMemeAndFetchItsLink() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let url = try await Self.uploadLink(ann)

            // curl -T sends a PUT; the reply and a bot notice give the picture's id.
            let (body, response) = try await Web.fetch(url, method: "PUT", body: Web.samplePNG())
            #expect(response.statusCode == 201)
            let reply = String(decoding: body, as: UTF8.self)
            #expect(reply.hasPrefix("Uploaded: picture "))
            let notice = try await ann.expect("Your picture ")
            let short = String(notice.split(separator: " ")[2])
            #expect(reply.contains(short))
            // The link works once.
            let (_, again) = try await Web.fetch(url, method: "PUT", body: Web.samplePNG())
            #expect(again.statusCode == 404)

            try await ann.send("!images")
            try await ann.expect("\(short)  320×240 jpeg")

            // A meme from the upload and one from a template; each link opens the picture.
            try await ann.send("!meme \(short) top text | bottom text")
            let first = try await ann.expect("meme #1 by ann: http")
            let (jpeg, imageResponse) = try await Web.fetch(try Web.link(in: first))
            #expect(imageResponse.statusCode == 200)
            #expect(imageResponse.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
            #expect(imageResponse.value(forHTTPHeaderField: "X-Content-Type-Options") == "nosniff")
            #expect(imageResponse.value(forHTTPHeaderField: "Cache-Control")?.contains("immutable") == true)
            let probe = try ImageProbe.inspect([UInt8](jpeg))
            #expect(probe == ImageProbe(format: .jpeg, width: 320, height: 240))
            let etag = try #require(imageResponse.value(forHTTPHeaderField: "ETag"))
            let (_, notModified) = try await Web.fetch(try Web.link(in: first), headers: ["If-None-Match": etag])
            #expect(notModified.statusCode == 304)

            try await ann.send("!meme galaxy-brain one | two | three | four")
            let brain = try await ann.expect("meme #2 by ann: http")
            let (brainJPEG, _) = try await Web.fetch(try Web.link(in: brain))
            #expect(try ImageProbe.inspect([UInt8](brainJPEG)) == ImageProbe(format: .jpeg, width: 640, height: 800))

            // The same template and text again: the same picture, from the cache.
            try await ann.send("!meme galaxy-brain one | two | three | four")
            let repeated = try await ann.expect("meme #3 by ann: http")
            #expect(try Web.link(in: repeated) == (try Web.link(in: brain)))

            // Unknown ids and paths outside the media store are 404.
            for path in [
                "/i/00000000000000000000000000000000.jpg", "/i/..%2F..%2Fhearth.sqlite", "/i/hearth.sqlite", "/i/x.jpg",
            ] {
                let (_, missing) = try await Web.fetch(URL(string: "http://127.0.0.1:\(server.httpPort)\(path)")!)
                #expect(missing.statusCode == 404, "\(path)")
            }
        }
    }

    @Test(arguments: [
        ("wrong type", Data("just some text, not a picture".utf8), 415, "not a PNG, JPEG, GIF or WebP"),
        ("truncated", Web.samplePNG().prefix(400), 422, "cut off"),
        ("bomb", MemeTests.bombPNG(), 422, "30000×30000"),
        ("oversized", Data(count: MediaLimits.maxUploadBytes + 1), 413, "MiB"),
    ])
    func badUploadsAreRefusedAndStoreNothing(name: String, body: Data, status: Int, message: String) async throws {
        try await withServer { server in
            let bea = try await TestClient.user(server, "bea")
            let url = try await Self.uploadLink(bea)
            let (reply, response) = try await Web.fetch(url, method: "PUT", body: body)
            #expect(response.statusCode == status, "\(name)")
            #expect(
                String(decoding: reply, as: UTF8.self).contains(message),
                "\(name): \(String(decoding: reply, as: UTF8.self))")
            #expect(Self.mediaFiles(server).isEmpty)
            try await bea.send("!images")
            try await bea.expect("You have no pictures yet")
            // The link still works for a good picture.
            let (_, ok) = try await Web.fetch(url, method: "PUT", body: Web.samplePNG())
            #expect(ok.statusCode == 201)
        }
    }

    /// An 8×8 PNG whose header says 30000×30000.
    static func bombPNG() -> Data {
        var bytes = [UInt8](Web.samplePNG(8, 8))
        for offset in [16, 20] {
            for i in 0..<4 { bytes[offset + i] = UInt8((30000 >> (24 - 8 * i)) & 0xFF) }
        }
        return Data(bytes)
    }

    @Test func browserFormAndFileHostUploads() async throws {
        try await withServer { server in
            let cai = try await TestClient.user(server, "cai")
            let url = try await Self.uploadLink(cai)
            let (form, formResponse) = try await Web.fetch(url)
            #expect(formResponse.statusCode == 200)
            #expect(String(decoding: form, as: UTF8.self).contains("multipart/form-data"))
            let boundary = "----hearth\(UInt32.random(in: 0...UInt32.max))"
            let head =
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; "
                + "filename=\"cat.png\"\r\nContent-Type: image/png\r\n\r\n"
            var body = Data(head.utf8)
            body += Web.samplePNG()
            body += Data("\r\n--\(boundary)--\r\n".utf8)
            let (_, posted) = try await Web.fetch(
                url, method: "POST", body: body, headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
            #expect(posted.statusCode == 201)
            try await cai.expect("Your picture ")

            // draft/FILEHOST: advertised in 005, uploads with HTTP Basic.
            let irc = try await server.connect()
            try await irc.send("NICK watcher")
            try await irc.send("USER w 0 * :w")
            let isupport = try await irc.expect("draft/FILEHOST=") { $0.contains(" 005 ") && $0.contains("FILEHOST") }
            let host = try #require(isupport.split(separator: " ").first { $0.hasPrefix("draft/FILEHOST=") }).dropFirst(
                "draft/FILEHOST=".count)
            let endpoint = try #require(URL(string: String(host)))
            let (_, refused) = try await Web.fetch(endpoint, method: "POST", body: Web.samplePNG())
            #expect(refused.statusCode == 401)
            let basic = "Basic " + Data("cai:s3cret-pass".utf8).base64EncodedString()
            let (_, created) = try await Web.fetch(
                endpoint, method: "POST", body: Web.samplePNG(), headers: ["Authorization": basic])
            #expect(created.statusCode == 201)
            let location = try #require(created.value(forHTTPHeaderField: "Location"))
            let (_, fetched) = try await Web.fetch(try #require(URL(string: location)))
            #expect(fetched.statusCode == 200)
            let wrong = "Basic " + Data("cai:wrong-password".utf8).base64EncodedString()
            let (_, denied) = try await Web.fetch(
                endpoint, method: "POST", body: Web.samplePNG(), headers: ["Authorization": wrong])
            #expect(denied.statusCode == 401)
        }
    }

    @Test func likesFavouritesCommentsAndSharing() async throws {
        try await withServer { server in
            let dan = try await TestClient.user(server, "dan")
            try await dan.send("!meme success it compiled | first try")
            try await dan.expect("meme #1 by dan")

            // Likes from many clients at the same moment all count, once each.
            var fans: [TestClient] = []
            for i in 0..<12 { fans.append(try await TestClient.user(server, "fan\(i)")) }
            await withTaskGroup(of: Void.self) { group in
                for fan in fans {
                    group.addTask {
                        try? await fan.send("!like 1")
                        try? await fan.send("!like 1")
                    }
                }
            }
            for fan in fans {
                try await fan.expect("You like meme #1.")
                try await fan.expect("You already like meme #1.")
            }
            try await dan.send("!meme show 1")
            try await dan.expect("♥ 12 likes · ★ 0 favourites · 0 comments")
            try await fans[0].send("!unlike 1")
            try await fans[0].expect("You no longer like meme #1. It has 11 likes.")
            try await fans[0].send("!unlike 1")
            try await fans[0].expect("You didn't like meme #1.")

            try await fans[1].send("!fav 1")
            try await fans[1].expect("Meme #1 is in your favourites")
            try await fans[1].send("!fav 1")
            try await fans[1].expect("already in your favourites. It has 1 favourite.")
            try await fans[1].send("!favs")
            try await fans[1].expect("#1  “it compiled | first try”  ♥11 ★1  dan")

            try await fans[2].send("!comment meme 1 ha, same here")
            try await fans[2].expect("Comment #1 added to meme #1.")
            try await dan.expect("fan2 commented on your meme #1: ha, same here")
            try await dan.send("!comments meme 1")
            try await dan.expect("#1 fan2: ha, same here")
            try await fans[3].send("!comment delete 1")
            try await fans[3].expect("you have no comment #1")
            try await fans[2].send("!comment delete 1")
            try await fans[2].expect("Comment #1 is deleted.")

            // Sharing to a channel you are in, and to a person.
            try await dan.send("/join #memes")
            try await fans[4].send("/join #memes")
            try await fans[4].expect("You joined #memes")
            // A meme made in a channel is shown there.
            try await dan.send("!meme this-is-fine the channel | sees it")
            try await fans[4].expect("[#memes] <hearth> meme #2 by dan: http")
            try await dan.send("!share meme 1 #memes")
            try await fans[4].expect("[#memes] <hearth> dan shares meme #1 by dan: “it compiled | first try” http")
            try await dan.send("!share meme 1 #elsewhere")
            try await dan.expect("join #elsewhere first")
            try await dan.send("!share meme 1 fan5")
            try await fans[5].expect("dan shares meme #1 by dan")

            // The grid has a tile per meme; the table lists them.
            try await dan.send("!meme sunset a | b")
            try await dan.expect("meme #3")
            try await dan.send("!memes grid")
            let grid = try await dan.expect("dan's memes (3 of 3): http")
            let (gridJPEG, _) = try await Web.fetch(try Web.link(in: grid))
            let probe = try ImageProbe.inspect([UInt8](gridJPEG))
            #expect(probe.width == GridLayout.gap + 2 * (GridLayout.tileSide + GridLayout.gap))
            // Two 4:3 memes in a row 180 tall, the third across the last row (fitted whole, 240 tall).
            #expect(probe.height == GridLayout.gap + 180 + GridLayout.gap + GridLayout.tileSide + GridLayout.gap)
            try await dan.send("!hot")
            try await dan.expect("#1  “it compiled | first try”  ♥11 ★1")

            // Deleting takes the meme, its likes and comments.
            try await fans[6].send("!meme delete 1")
            try await fans[6].expect("you have no meme #1")
            try await dan.send("!meme delete 1")
            try await dan.expect("Meme #1 is deleted")
            try await fans[7].send("!like 1")
            try await fans[7].expect("there is no meme #1")
        }
    }

    @Test func privacyAndBlocksApply() async throws {
        try await withServer { server in
            let eve = try await TestClient.user(server, "eve")
            let fay = try await TestClient.user(server, "fay")
            try await eve.send("!meme shocked oh | no")
            try await eve.expect("meme #1 by eve")
            // Friends-only by default: a stranger can't list eve's memes; a friend can.
            try await fay.send("!memes eve")
            try await fay.expect("eve shares memes with friends only")
            try await fay.send("!follow eve")
            try await fay.expect("You now follow eve")
            try await eve.send("!follow fay")
            try await eve.expect("You now follow fay")
            try await fay.send("!memes eve")
            try await fay.expect("#1  “oh | no”")
            // Blocked: nothing of eve's, not even by number.
            try await eve.send("!block fay")
            try await eve.expect("You blocked fay")
            try await fay.send("!memes eve")
            try await fay.expect("eve shares memes with friends only")
            try await fay.send("!meme show 1")
            try await fay.expect("there is no meme #1")
            try await fay.send("!like 1")
            try await fay.expect("there is no meme #1")
            try await fay.send("!hot")
            try await fay.expectNoLine(containing: "oh | no", before: "Nothing is trending yet")
        }
    }

    /// `!templates` and the maker link the built-ins' previews without drawing them; each is
    /// drawn when first asked for, and an unknown picture is still not found.
    @Test func aTemplatesPreviewIsDrawnWhenFirstAskedFor() async throws {
        try await withServer { server in
            let hal = try await TestClient.user(server, "hal")
            try await hal.send("!templates sunset")
            let link = try Web.link(in: try await hal.expect("sunset"))
            #expect(Self.mediaFiles(server).isEmpty)
            let (png, response) = try await Web.fetch(link)
            #expect(response.statusCode == 200)
            #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            #expect(Self.mediaFiles(server) == [link.lastPathComponent])
            let (_, again) = try await Web.fetch(link)
            #expect(again.statusCode == 200)
            let unknown = link.deletingLastPathComponent()
                .appendingPathComponent(String(repeating: "a", count: 32) + ".png")
            #expect(try await Web.fetch(unknown).1.statusCode == 404)
        }
    }

    @Test func templatesOfUsersAndOperators() async throws {
        try await withServer { server in
            // An operator adds a global template from the shell while the server runs.
            let file = server.dataDirectory + "/office.png"
            try Web.samplePNG(400, 300).write(to: URL(fileURLWithPath: file))
            let added = try await LimitCrossingTests.hearth([
                "template", "add", "office", file, "--data-dir", server.dataDirectory,
            ])
            #expect(added.status == 0 && added.output.contains("added template office (400×300)"), "\(added)")

            let hal = try await TestClient.user(server, "hal")
            try await hal.send("!templates office")
            try await hal.expect("office (everyone's) · http")
            try await hal.send("!meme office monday | again")
            try await hal.expect("meme #1 by hal")

            // A user's own template, from an upload; others can't use it.
            let (_, uploaded) = try await Web.fetch(
                try await Self.uploadLink(hal), method: "PUT", body: Web.samplePNG())
            #expect(uploaded.statusCode == 201)
            let short = String(try await hal.expect("Your picture ").split(separator: " ")[2])
            try await hal.send("!template add sunset \(short)")
            try await hal.expect("sunset is a built-in template")
            try await hal.send("!template add my-cat \(short)")
            try await hal.expect("Template my-cat is ready")
            try await hal.send("!template add my-cat \(short)")
            try await hal.expect("you already have a template called my-cat")
            try await hal.send("!meme my-cat hello | there")
            try await hal.expect("meme #2 by hal")
            let ida = try await TestClient.user(server, "ida")
            try await ida.send("!meme my-cat hello | there")
            try await ida.expect("there is no template or picture \"my-cat\"")
            try await ida.send("!meme \(short) hello")
            try await ida.expect("you have no picture \(short)")

            // A profile picture from an upload, shown on the profile.
            try await ida.send("!avatar \(short)")
            try await ida.expect("you have no picture \(short)")
            try await hal.send("!avatar \(short)")
            try await hal.expect("Your profile picture is now http")
            try await ida.send("!profile hal")
            try await ida.expect("picture: http://127.0.0.1:\(server.httpPort)/i/\(short)")
            try await hal.send("!avatar off")
            try await hal.expect("Your profile has no picture now.")
            try await ida.send("!profile hal")
            try await ida.expect("picture: none yet (!avatar IMAGE) · memes: 2")
        }
    }

    @Test func badMemeCommandsExplainThemselves() async throws {
        try await withServer { server in
            let gus = try await TestClient.user(server, "gus")
            try await gus.send("!meme sunsett hi | there")
            try await gus.expect("there is no template or picture \"sunsett\" — did you mean sunset?")
            try await gus.send("!meme sunset a | b | c")
            try await gus.expect("sunset has 2 texts; you gave 3")
            try await gus.send("!meme sunset " + String(repeating: "x", count: MediaLimits.maxCaptionBytes + 1))
            try await gus.expect("is too long: a text may have \(MediaLimits.maxCaptionBytes) bytes")
            try await gus.send("!meme sunset " + String(repeating: "x", count: MediaLimits.maxCaptionBytes))
            try await gus.expect("meme #1 by gus")
            try await gus.send("!meme abcdef01 hi")
            try await gus.expect("you have no picture abcdef01")
            try await gus.send("!templates brain")
            try await gus.expect("galaxy-brain (4 texts)")
            try await gus.send("!templates")
            for template in BuiltinTemplate.all { try await gus.expect(template.name) }
        }
    }
}
