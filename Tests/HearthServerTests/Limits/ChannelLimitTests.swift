import Foundation
import GRDB
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore
import HearthTesting
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

@testable import HearthApps
@testable import HearthMedia
@testable import HearthServer

/// Channels: how many, modes, bans, keys.
extension LimitCrossingTests {
    @Test func channelsPerUserAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let jo = try await TestClient.irc(server, nick: "jo")
            let names = (1...IRCLimits.channelsPerUser).map { "#c\($0)" }
            try await jo.send("JOIN " + names.joined(separator: ","))
            try await jo.expect(" 366 jo \(names.last!) ")
            let extra = "#c\(IRCLimits.channelsPerUser + 1)"
            try await jo.send("JOIN \(extra)")
            try await jo.expect(
                " 405 jo \(extra) :You have joined too many channels (the limit is \(IRCLimits.channelsPerUser))")
            try await DeviceTests.nothing(jo, containing: "JOIN \(extra)")
            // Leaving one makes room.
            try await jo.send("PART \(names[0])")
            try await jo.expect("PART \(names[0])") { $0.contains(" PART ") && Self.lastParameter($0) == names[0] }
            try await jo.send("JOIN \(extra)")
            try await jo.expect(" 366 jo \(extra) ")
        }
    }

    /// Parameter modes per MODE command (the rest are ignored), and nicks per USERHOST.
    @Test func modesAndUserhostTargetsPerCommandAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let mo = try await TestClient.irc(server, nick: "mo")
            try await mo.send("JOIN #m")
            try await mo.expectNumeric("366")
            // One more than the limit.
            let nicks = (0...IRCLimits.modesPerCommand).map { "m\(Character(UnicodeScalar(UInt8(97 + $0))))" }
            for nick in nicks {
                let c = try await TestClient.irc(server, nick: nick)
                try await c.send("JOIN #m")
                try await c.expectNumeric("366")
            }
            let atLimit = Array(nicks.prefix(IRCLimits.modesPerCommand))
            /// The MODE change as sent and as echoed (the echo may put a colon before its last word).
            func change(_ mode: Character, _ targets: [String]) -> String {
                "MODE #m +" + String(repeating: mode, count: targets.count) + " " + targets.joined(separator: " ")
            }
            try await mo.send(change("v", atLimit))
            var echo = try await mo.expect(" MODE #m +v").replacingOccurrences(of: " :", with: " ")
            #expect(echo.hasSuffix(" " + change("v", atLimit)), "\(echo)")
            try await mo.send(change("o", nicks))
            echo = try await mo.expect(" MODE #m +o").replacingOccurrences(of: " :", with: " ")
            #expect(echo.hasSuffix(" " + change("o", atLimit)), "\(echo)")
            try await mo.send("NAMES #m")
            let entries = Self.lastParameter(try await mo.expectNumeric("353")).split(separator: " ").map(String.init)
            #expect(entries.contains(nicks.last!) && !entries.contains("@" + nicks.last!), "\(entries)")

            // USERHOST answers for the first userhostTargets nicks and ignores the rest.
            let all = ["mo"] + nicks
            #expect(all.count == IRCLimits.userhostTargets + 1)
            try await mo.send("USERHOST " + all.prefix(IRCLimits.userhostTargets).joined(separator: " "))
            let five = Self.lastParameter(try await mo.expectNumeric("302")).split(separator: " ")
            #expect(five.count == IRCLimits.userhostTargets)
            try await mo.send("USERHOST " + all.joined(separator: " "))
            let six = Self.lastParameter(try await mo.expectNumeric("302")).split(separator: " ")
            #expect(six.count == IRCLimits.userhostTargets && !six.contains { $0.hasPrefix(all.last! + "=") }, "\(six)")
        }
    }

    @Test func bansPerChannelAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let bo = try await TestClient.irc(server, nick: "bo")
            try await bo.send("JOIN #b")
            try await bo.expectNumeric("366")
            let masks = (1...IRCLimits.bansPerChannel).map { "x\($0)!*@*" }
            for start in stride(from: 0, to: masks.count, by: IRCLimits.modesPerCommand) {
                let group = masks[start..<min(start + IRCLimits.modesPerCommand, masks.count)]
                try await bo.send(
                    "MODE #b +" + String(repeating: "b", count: group.count) + " " + group.joined(separator: " "))
            }
            try await bo.expect("a MODE line with the last ban") {
                $0.contains(" MODE #b +b") && $0.contains(masks.last!)
            }
            let extra = "x\(IRCLimits.bansPerChannel + 1)!*@*"
            try await bo.send("MODE #b +b \(extra)")
            try await bo.expect(" 478 bo #b b :Channel ban list is full (the limit is \(IRCLimits.bansPerChannel))")
            let list = try await Self.ircReplies(bo, "MODE #b b")
            #expect(Self.count(list, containing: " 367 bo #b ") == IRCLimits.bansPerChannel)
            #expect(Self.count(list, containing: extra) == 0)
            // Lifting one makes room.
            try await bo.send("MODE #b -b \(masks[0])")
            try await bo.expect(" MODE #b -b ")
            try await bo.send("MODE #b +b \(extra)")
            try await bo.expect("a MODE line adding \(extra)") { $0.contains(" MODE #b +b") && $0.contains(extra) }
        }
    }

    /// A key (+k) longer than IRCLimits.keyLength is cut to it.
    @Test func channelKeyAtItsLimitAndOnePast() async throws {
        try await withServer { server in
            let ko = try await TestClient.irc(server, nick: "ko")
            try await ko.send("JOIN #k")
            try await ko.expectNumeric("366")
            let key = String(repeating: "k", count: IRCLimits.keyLength)
            try await ko.send("MODE #k +k \(key)")
            #expect(Self.lastParameter(try await ko.expect(" MODE #k +k ")) == key)
            try await ko.send("MODE #k -k *")
            try await ko.expect(" MODE #k -k")
            try await ko.send("MODE #k +k \(key)z")
            #expect(Self.lastParameter(try await ko.expect(" MODE #k +k ")) == key)
            let guest = try await TestClient.irc(server, nick: "kg")
            try await guest.send("JOIN #k \(key)z")
            try await guest.expectNumeric("475")
            try await guest.send("JOIN #k \(key)")
            try await guest.expectNumeric("366")
        }
    }
}
