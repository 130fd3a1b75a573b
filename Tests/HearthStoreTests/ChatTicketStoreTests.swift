import Foundation
import HearthStore
import Testing

/// The web chat's sign-in tickets as kept: once each, until they expire, at most so many.
@Suite struct ChatTicketStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func ticket(_ n: Int, _ account: Int64, expires: Date = now.addingTimeInterval(60)) -> ChatTicket {
        ChatTicket(hash: "hash\(n)", accountId: account, tokenHash: "token\(n)", expiresAt: expires)
    }

    @Test(arguments: Engine.allCases)
    func aTicketIsTakenOnceAndNotAfterItExpires(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            #expect(try await store.saveChatTicket(Self.ticket(1, ann), now: Self.now, maxWaiting: 10))
            #expect(try await store.takeChatTicket(hash: "hash1", now: Self.now) == Self.ticket(1, ann))
            #expect(try await store.takeChatTicket(hash: "hash1", now: Self.now) == nil, "used")
            #expect(try await store.saveChatTicket(Self.ticket(2, ann), now: Self.now, maxWaiting: 10))
            let late = Self.now.addingTimeInterval(60)
            #expect(try await store.takeChatTicket(hash: "hash2", now: late) == nil, "expired")
            #expect(try await store.takeChatTicket(hash: "hash2", now: Self.now) == nil, "a late try used it up")
            #expect(try await store.takeChatTicket(hash: "nothing", now: Self.now) == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func twoTakersAtOnceGetTheTicketOnce(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            #expect(try await store.saveChatTicket(Self.ticket(1, ann), now: Self.now, maxWaiting: 10))
            let taken = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 { group.addTask { try await store.takeChatTicket(hash: "hash1", now: Self.now) != nil } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(taken == 1)
        }
    }

    @Test(arguments: Engine.allCases)
    func atMostMaxWaitingAreKeptAndExpiredOnesMakeRoom(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            for n in 0..<3 {
                #expect(try await store.saveChatTicket(Self.ticket(n, ann), now: Self.now, maxWaiting: 3))
            }
            #expect(!(try await store.saveChatTicket(Self.ticket(9, ann), now: Self.now, maxWaiting: 3)))
            #expect(try await store.takeChatTicket(hash: "hash9", now: Self.now) == nil, "nothing was kept")
            let later = Self.now.addingTimeInterval(60)
            #expect(try await store.saveChatTicket(Self.ticket(9, ann, expires: later + 60), now: later, maxWaiting: 3))
            #expect(try await store.takeChatTicket(hash: "hash0", now: Self.now) == nil, "swept")
        }
    }
}
