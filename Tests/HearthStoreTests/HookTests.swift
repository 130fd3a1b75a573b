import HearthStore
import Synchronization
import Testing

/// The metrics' observers are called on every statement, command and render: a Hook must
/// stay what it was set to however often it is called (a function kept directly in a Mutex
/// was re-wrapped at each read, so the 200,000th call walked 400,000 thunks — this loop would
/// not finish).
@Suite struct HookTests {
    @Test func aHookCalledOftenCallsTheSameFunctionEachTime() {
        let hook = Hook<Int>()
        hook(1)  // nothing set: nothing happens
        let sum = Atomic<Int>(0)
        hook.set { sum.add($0, ordering: .relaxed) }
        #expect(hook.isListening)
        for n in 1...200_000 { hook(n) }
        #expect(sum.load(ordering: .relaxed) == 200_000 * 200_001 / 2)
        hook.set { _ in sum.store(-1, ordering: .relaxed) }
        hook(5)
        #expect(sum.load(ordering: .relaxed) == -1)
    }
}
