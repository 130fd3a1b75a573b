import Foundation
import HearthKit
import HearthProtocol
import HearthStore
import NIOEmbedded
import Testing

@testable import HearthServer

/// Who may join a channel, and as what: `ChatState.guardRefusal` and `joinStatus`, in-process.
@Suite struct JoinRulesTests {
    static let ann = AccountRef(id: 1, name: "ann")

    static func admitted(_ decision: JoinDecision) -> MemberStatus? {
        if case .admitted(let status) = decision { return status }
        return nil
    }

    static func refusal(_ decision: JoinDecision) -> Numeric? {
        if case .refused(let code, _) = decision { return code }
        return nil
    }

    @Test func aGuardedChannelTakesItsMembersOnlyAndAReservedNameGivesItsOwnReason() {
        var state = ChatState()
        let member = ChatStateTests.client(1, nick: "ann", account: Self.ann)
        let other = ChatStateTests.client(2, nick: "bob", account: AccountRef(id: 2, name: "bob"))
        let guest = ChatStateTests.client(3, nick: "carol")
        state.guarded["#family"] = GuardedChannel(name: "#family", members: [1], topic: "", owner: "ann")
        #expect(state.guardRefusal(member, "#family", reservation: nil) == nil)
        #expect(state.guardRefusal(other, "#family", reservation: nil) == "it is private to its members")
        #expect(state.guardRefusal(guest, "#family", reservation: nil) == "it is private to its members")
        let reserved = ReservedChannels(prefix: "#fam-", refusal: "make a family first")
        #expect(state.guardRefusal(guest, "#fam-x", reservation: reserved) == "make a family first")
        #expect(state.guardRefusal(guest, "#open", reservation: nil) == nil)
    }

    @Test func aNewChannelsFirstJoinerIsItsOperatorUnlessTheNetworkSaysAnotherMadeIt() {
        let state = ChatState()
        let ann = ChatStateTests.client(1, nick: "ann")
        let channel = ChannelState(name: "#new")
        channel.modes.flags = [.inviteOnly]  // a fresh channel has no rules yet
        let first = Self.admitted(state.joinStatus(ann, channel, isNew: true, key: nil, claim: nil))
        #expect(first?.op == true && first?.byAccount == false && first?.opByAccount == false)
        let late = ChannelClaim(historyKey: "#new", created: false)
        #expect(Self.admitted(state.joinStatus(ann, channel, isNew: true, key: nil, claim: late))?.op == false)
    }

    @Test func anExistingChannelsModesKeepOutAllButInviteesOperatorsAndGuardedMembers() {
        var state = ChatState()
        let bob = ChatStateTests.client(2, nick: "bob", account: AccountRef(id: 2, name: "bob"))
        let channel = ChannelState(name: "#club")
        channel.modes.flags = [.inviteOnly]
        #expect(Self.refusal(state.joinStatus(bob, channel, isNew: false, key: nil, claim: nil)) == .inviteOnlyChan)
        channel.invited.insert(state[bob].nickKey)
        #expect(Self.admitted(state.joinStatus(bob, channel, isNew: false, key: nil, claim: nil))?.op == false)
        channel.invited.removeAll()
        state[bob].isOper = true
        #expect(Self.admitted(state.joinStatus(bob, channel, isNew: false, key: nil, claim: nil)) != nil)
        state[bob].isOper = false
        state.guarded["#club"] = GuardedChannel(name: "#club", members: [2], topic: "", owner: "bob")
        #expect(Self.admitted(state.joinStatus(bob, channel, isNew: false, key: nil, claim: nil))?.byAccount == true)
    }

    @Test func aRegisteredChannelsOwnerPassesItsKeyAndIsItsOperatorByAccount() {
        var state = ChatState()
        state.registered["#den"] = RegisteredChannel(nameKey: "#den", name: "#den", ownerId: 1, channelKey: "secret")
        let ann = ChatStateTests.client(1, nick: "ann", account: Self.ann)
        let bob = ChatStateTests.client(2, nick: "bob")
        let channel = ChannelState(name: "#den")
        channel.modes.key = "secret"
        let owner = Self.admitted(state.joinStatus(ann, channel, isNew: true, key: nil, claim: nil))
        #expect(owner?.op == true && owner?.opByAccount == true)
        #expect(Self.refusal(state.joinStatus(bob, channel, isNew: true, key: nil, claim: nil)) == .badChannelKey)
        // The first joiner of a registered channel is not its operator: its owner is.
        #expect(Self.admitted(state.joinStatus(bob, channel, isNew: true, key: "secret", claim: nil))?.op == false)
    }
}
