import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// LIST's ELIST filters (ELIST=CMNTU): masks, excluded masks, users, creation and topic times.
@Suite struct ListFilterTests {
    /// The channels a LIST answers with.
    func listed(_ client: TestClient, _ query: String) async throws -> Set<String> {
        try await client.send("LIST " + query)
        var names: Set<String> = []
        while true {
            let line = try await client.expect("322 or 323") { $0.contains(" 322 ") || $0.contains(" 323 ") }
            guard line.contains(" 322 ") else { return names }
            names.insert(String(line.split(separator: " ")[3]))
        }
    }

    @Test func listFiltersByMaskUsersAndTimes() async throws {
        try await withServer { server in
            let foo = try await TestClient.irc(server, nick: "lfoo")
            for channel in ["#chan1", "#chan2"] {
                try await foo.send("JOIN \(channel)")
                try await foo.expect(" 366 lfoo \(channel)")
            }
            let bar = try await TestClient.irc(server, nick: "lbar")
            try await bar.send("JOIN #chan2")
            try await bar.expect(" 366 lbar #chan2")
            try await foo.send("TOPIC #chan1 :First")
            try await foo.expect("TOPIC #chan1 :First")
            let both: Set = ["#chan1", "#chan2"]
            #expect(try await listed(bar, "*an1") == ["#chan1"])
            #expect(try await listed(bar, "#c*n2") == ["#chan2"])
            #expect(try await listed(bar, "#ch*") == both)
            #expect(try await listed(bar, "!*an1") == ["#chan2"])
            #expect(try await listed(bar, "!#ch*") == [])
            #expect(try await listed(bar, ">1") == ["#chan2"])
            #expect(try await listed(bar, "<2") == ["#chan1"])
            #expect(try await listed(bar, ">0,<100") == both)
            #expect(try await listed(bar, "C<0") == [])
            #expect(try await listed(bar, "C<10") == both)
            // Only #chan1 has a topic.
            #expect(try await listed(bar, "T<10") == ["#chan1"])
            #expect(try await listed(bar, "#chan2") == ["#chan2"])
            #expect(try await listed(bar, "") == both)
            #expect(try await listed(bar, "#CHAN1,#nope") == ["#chan1"])
            // Masks are matched against every channel under the lock: at most maxMasks of them.
            let masks = (0..<ListFilters.maxMasks).map { "#c*\($0)" }
            let allowed = (masks + ["!#x*"]).dropFirst().joined(separator: ",")
            #expect(try await listed(bar, allowed) == ["#chan1", "#chan2"])
            try await bar.send("LIST " + (masks + ["!#x*"]).joined(separator: ","))
            try await bar.expect("FAIL LIST TOO_MANY_MASKS :At most \(ListFilters.maxMasks) masks in one LIST")
            try await bar.send("LIST " + (0...40).map { "#plain\($0)" }.joined(separator: ",") + ",#chan2")
            try await bar.expect(" 322 lbar #chan2")
        }
    }

    /// C and T count minutes ago: `C>N` is older than N minutes, `C<N` newer.
    @Test func timesAreMinutesAgo() {
        let now = Date()
        let hourAgo = now.addingTimeInterval(-3600)
        let admits = { (query: String, created: Date, topic: Date?) in
            ListFilters(query).admits(name: "#c", users: 1, created: created, topicSet: topic, now: now)
        }
        #expect(admits("C>30", hourAgo, nil))
        #expect(!admits("C<30", hourAgo, nil))
        #expect(admits("C<30", now, nil))
        #expect(admits("T>30", now, hourAgo))
        #expect(!admits("T<30", now, hourAgo))
        #expect(!admits("T>0", now, nil))
        let odd = ListFilters("<x,>-1,C<,!")
        #expect(odd.names == ["<x", ">-1", "C<", "!"] && odd.users.isEmpty && odd.excluded.isEmpty)
        #expect(odd.createdMinutes.isEmpty && odd.topicMinutes.isEmpty)
    }
}
