import Foundation
import HearthKit
import HearthProtocol
import HearthStore
import NIOEmbedded
import Testing

@testable import HearthServer

/// The chat state's rules, in-process: no server, no sockets.
@Suite struct ChatStateTests {
    /// A connection that never writes (its channel is an `EmbeddedChannel`).
    static func client(
        _ id: Int, nick: String? = nil, address: String = "192.0.2.1", account: AccountRef? = nil
    ) -> Client {
        let channel = EmbeddedChannel()
        var user = ChatUser(host: address, mode: .irc)
        if let nick {
            user.nick = nick
            user.nickKey = IRCNames.fold(nick)
        }
        user.account = account
        let client = Client(
            id: id, socket: .channel(channel), eventLoop: channel.eventLoop, address: address,
            batcher: FlushBatcher(loop: channel.eventLoop), user: user)
        // Registered through a state of its own: the tests' states count only what they change.
        var own = ChatState()
        if nick != nil { own[client].registered = true }
        return client
    }

    /// `client` holding its nick.
    static func holding(_ state: inout ChatState, _ client: Client) {
        state.clients[client.id] = client
        state.nicks[state[client].nickKey] = client
    }

    /// `clients` in a channel made for them (the first as operator).
    static func channel(_ state: inout ChatState, _ name: String, _ clients: [Client]) -> ChannelState {
        let channel = ChannelState(name: name)
        for (index, client) in clients.enumerated() {
            channel.add(client, MemberStatus(op: index == 0))
            state[client].channels.append(channel.key)
        }
        state.channels[channel.key] = channel
        return channel
    }

    @Test func aNickIsTakenByItsHolderAndByTheServicesButFreeForItsHolder() {
        var state = ChatState()
        let ann = Self.client(1, nick: "Ann")
        Self.holding(&state, ann)
        let bob = Self.client(2, nick: "bob")
        #expect(state.nickTaken("ann", by: bob) == "Nickname is already in use")
        #expect(state.nickTaken("ann", by: ann) == nil)
        #expect(state.nickTaken("nickserv", by: bob) == "Nickname is reserved for services")
        #expect(state.nickTaken(Bot.nick, by: bob) == "Nickname belongs to the Hearth bot")
        #expect(state.nickTaken("carol", by: bob) == nil)
    }

    @Test func aGuestNickIsNeverOneInUse() {
        var state = ChatState()
        for id in 0..<50 {
            let nick = state.freeGuestNick()
            #expect(state.nickTaken(IRCNames.fold(nick), by: Self.client(id)) == nil)
            Self.holding(&state, Self.client(100 + id, nick: nick))
        }
        #expect(state.nicks.count == 50)
    }

    @Test func theAddressLimitCountsAnIPv6SlashSixtyFourOnceAndFreesOnLeaving() {
        var state = ChatState()
        let sameNetwork = (1...4).map { Self.client($0, address: "2001:db8:1:2::\($0)") }
        let admitted = sameNetwork.prefix(3).map { state.admit($0, exempt: false, limit: 2) }
        #expect(admitted == [true, true, false])
        #expect(state.clients[3] == nil)
        let exempt = state.admit(sameNetwork[2], exempt: true, limit: 2)
        #expect(exempt)
        state.forgetAddress(sameNetwork[2])
        state.forgetAddress(sameNetwork[0])
        let afterLeaving = state.admit(sameNetwork[3], exempt: false, limit: 2)
        let otherNetwork = state.admit(Self.client(5, address: "2001:db8:1:3::1"), exempt: false, limit: 1)
        #expect(afterLeaving && otherNetwork)
    }

    @Test func connectionIDsAreNeverReused() {
        var state = ChatState()
        let ids = (0..<5).map { _ in state.newClientID() }
        #expect(Set(ids).count == 5)
    }

    @Test func membersComeAndGoAndAnEmptiedChannelIsGone() {
        var state = ChatState()
        let ann = Self.client(1, nick: "ann")
        let bob = Self.client(2, nick: "bob")
        let carol = Self.client(3, nick: "carol")
        _ = Self.channel(&state, "#Kitchen", [ann, bob])
        _ = Self.channel(&state, "#garden", [ann, carol])
        #expect(state.peers(of: ann).map { state[$0].nick } == ["bob", "carol"])
        #expect(state.peers(of: bob).map { state[$0].nick } == ["ann"])

        let stillThere = state.removeMember(bob, from: "#kitchen")
        #expect(stillThere == nil)
        #expect(state.channels["#kitchen"]?.order.map { state[$0].nick } == ["ann"])
        #expect(state.peers(of: ann).map { state[$0].nick } == ["carol"])
        let emptied = state.removeMember(ann, from: "#kitchen")
        #expect(emptied?.name == "#Kitchen")
        #expect(state.channels["#kitchen"] == nil)
        let unknown = state.removeMember(ann, from: "#nowhere")
        #expect(unknown == nil)
    }

    @Test func secretAndGuardedChannelsAreHiddenFromOutsiders() {
        var state = ChatState()
        let ann = Self.client(1, nick: "ann")
        let outsider = Self.client(2, nick: "eve")
        let secret = Self.channel(&state, "#secret", [ann])
        secret.modes.flags.insert(.secret)
        let open = Self.channel(&state, "#open", [ann])
        let family = Self.channel(&state, "#family-1", [ann])
        state.guarded[family.key] = GuardedChannel(name: family.name, members: [1], topic: "", owner: "ann")
        #expect(state.hidden(secret, from: outsider))
        #expect(!state.hidden(secret, from: ann))
        #expect(!state.hidden(open, from: outsider))
        #expect(state.hidden(family, from: outsider))
        state[outsider].isOper = true
        #expect(!state.hidden(secret, from: outsider))
        #expect(state.hidden(family, from: outsider))
    }

    @Test func theChannelModesDecideWhoMayJoin() {
        var state = ChatState()
        let ann = Self.client(1, nick: "ann")
        let bob = Self.client(2, nick: "bob")
        let channel = Self.channel(&state, "#den", [ann])
        #expect(state.modeRefusal(bob, channel, key: nil, as: state.identity(bob)) == nil)

        channel.modes.limit = 1
        #expect(state.modeRefusal(bob, channel, key: nil, as: state.identity(bob))?.0 == .channelIsFull)
        channel.invited.insert(state[bob].nickKey)
        #expect(state.modeRefusal(bob, channel, key: nil, as: state.identity(bob)) == nil)
        channel.modes.key = "sesame"
        // An invitation passes +l and +i, never +k.
        #expect(state.modeRefusal(bob, channel, key: nil, as: state.identity(bob))?.0 == .badChannelKey)
        #expect(state.modeRefusal(bob, channel, key: "sesame", as: state.identity(bob)) == nil)

        channel.invited = []
        channel.modes.limit = nil
        channel.modes.flags.insert(.inviteOnly)
        #expect(state.modeRefusal(bob, channel, key: "sesame", as: state.identity(bob))?.0 == .inviteOnlyChan)
        channel.modes.flags.remove(.inviteOnly)
        _ = channel.lists.add("b", .init(mask: "bob!*@*", setBy: "ann", at: Date()))
        #expect(state.modeRefusal(bob, channel, key: "sesame", as: state.identity(bob))?.0 == .bannedFromChan)
    }

    @Test func devicesSharingANickCountOnceAndAllGetPrivateMessages() {
        var state = ChatState()
        let dana = AccountRef(id: 7, name: "dana")
        let laptop = Self.client(1, nick: "dana", account: dana)
        let phone = Self.client(2, nick: "dana", account: dana)
        let eli = Self.client(3, nick: "eli")
        Self.holding(&state, laptop)
        Self.holding(&state, eli)
        #expect(state.canShareNick(phone, with: laptop))
        #expect(!state.canShareNick(eli, with: laptop))
        state.deviceGroups["dana"] = [laptop, phone]
        #expect(state.connections(nickKey: "dana").map(\.id) == [1, 2])
        #expect(state.otherDevices(of: phone).map(\.id) == [1])
        #expect(state.privateReceivers(from: eli, to: laptop).map(\.id) == [1, 2])
        // What one device sends the other sees too.
        #expect(state.privateReceivers(from: laptop, to: eli).map(\.id) == [3, 2])
        let channel = Self.channel(&state, "#kitchen", [laptop, phone, eli])
        #expect(state.userCount(channel) == 2)
        #expect(state.distinctMembers(channel).map(\.id) == [1, 3])
    }

    @Test func onlyRegisteredAndGuardedChannelsKeepTheirHistoryUnderTheirName() {
        var state = ChatState()
        state.registered["#club"] = RegisteredChannel(nameKey: "#club", name: "#Club", ownerId: 1)
        state.guarded["#family-1"] = GuardedChannel(name: "#family-1", members: [1], topic: "", owner: "ann")
        #expect(state.historyKey(forNew: "#club") == "#club")
        #expect(state.historyKey(forNew: "#family-1") == "#family-1")
        // Any other channel made again is a new incarnation, with a history of its own.
        let first = state.historyKey(forNew: "#chat")
        let second = state.historyKey(forNew: "#chat")
        #expect(first.hasPrefix("#chat ") && second.hasPrefix("#chat ") && first != second)
    }

    @Test func aNickIsSharedByAtMostTheDeviceLimit() {
        var state = ChatState()
        let dana = AccountRef(id: 7, name: "dana")
        let devices = (1...Core.maxDevicesPerUser + 1).map { Self.client($0, nick: "dana", account: dana) }
        Self.holding(&state, devices[0])
        state.deviceGroups["dana"] = Array(devices.prefix(Core.maxDevicesPerUser - 1))
        #expect(state.canShareNick(devices[Core.maxDevicesPerUser - 1], with: devices[0]))
        state.deviceGroups["dana"] = Array(devices.prefix(Core.maxDevicesPerUser))
        #expect(!state.canShareNick(devices[Core.maxDevicesPerUser], with: devices[0]))
        // Another account's connection never shares it.
        let other = Self.client(99, nick: "eve", account: AccountRef(id: 8, name: "eve"))
        state.deviceGroups["dana"] = nil
        #expect(!state.canShareNick(other, with: devices[0]))
    }

    @Test func aBlockStopsOnlyTheBlockedAccount() {
        var state = ChatState()
        let ann = Self.client(1, nick: "ann", account: AccountRef(id: 1, name: "ann"))
        let bob = Self.client(2, nick: "bob", account: AccountRef(id: 2, name: "bob"))
        let guest = Self.client(3, nick: "guest3")
        state.blocking[1] = [2]
        #expect(state.isBlocked(bob, by: ann))
        #expect(!state.isBlocked(ann, by: bob))
        #expect(!state.isBlocked(guest, by: ann))
    }

    @Test func aModeOrOperLandingOnARemovedUserCountsNothing() {
        var state = ChatState()
        let ann = Self.client(1)
        state.clients[ann.id] = ann
        state[ann].registered = true
        state[ann].invisible = true
        state[ann].isOper = true
        #expect((state.counts.users, state.counts.invisible, state.counts.opers) == (1, 1, 1))
        // Removed (a KILL), as `Core.remove` leaves it...
        state.clients[ann.id] = nil
        state[ann].registered = false
        state[ann].invisible = false
        state[ann].isOper = false
        #expect((state.counts.users, state.counts.invisible, state.counts.opers) == (0, 0, 0))
        // ...then its own MODE +i and OPER, decided before the KILL, land on the stale value.
        state[ann].invisible = true
        state[ann].isOper = true
        #expect((state.counts.users, state.counts.invisible, state.counts.opers) == (0, 0, 0))
    }
}
