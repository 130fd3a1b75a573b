import HearthStore
import Testing

/// The limits the engines count towards, decided once in the model.
@Suite struct LimitRulesTests {
    @Test func anInboxIsFullAtItsLimitAndABlockIsToldFirst() {
        let limit = StoreLimits.maxOfflineMessages
        #expect(OfflineMessageRules.refusal(senderBlocked: false, waiting: limit - 1) == nil)
        #expect(OfflineMessageRules.refusal(senderBlocked: false, waiting: limit) == .inboxFull)
        #expect(OfflineMessageRules.refusal(senderBlocked: true, waiting: limit) == .blocked)
        #expect(OfflineMessageRules.refusal(senderBlocked: true, waiting: 0) == .blocked)
    }

    @Test func anOwnerMayRegisterUpToTheLimit() throws {
        try RegisteredChannelRules.checkOwned(owned: 2, maxOwned: 3)
        #expect(throws: OwnsTooMany.self) { try RegisteredChannelRules.checkOwned(owned: 3, maxOwned: 3) }
    }
}

/// Following, decided once in the model.
@Suite struct SocialRulesTests {
    @Test func aBlockEitherWayRefusesAFollowAndASecondFollowChangesNothing() {
        #expect(SocialRules.followRefusal(eitherBlocks: true) == .blocked)
        #expect(SocialRules.followRefusal(eitherBlocks: false) == nil)
        #expect(SocialRules.followResult(added: true) == .followed)
        #expect(SocialRules.followResult(added: false) == .alreadyFollowing)
    }
}
