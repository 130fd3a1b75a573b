#if os(Linux)
    import CEpoll
    import Dispatch
    import Glibc
    import Logging
    import NIOConcurrencyHelpers
    import NIOCore
    import Synchronization

    /// Something an `EpollLoop` watches: told which events its descriptor has.
    class EpollSocket {
        func ready(_ events: UInt32) {}
    }

    /// What each watched descriptor's events carry (`epoll_data`), as NIOPosix packs it: the
    /// descriptor and the generation it was watched under. An event still queued for a descriptor
    /// that was closed, and whose number a new socket got, names the old generation and is ignored.
    struct EpollRegistration: Equatable {
        let fd: Int32
        let generation: UInt32

        init(fd: Int32, generation: UInt32) {
            self.fd = fd
            self.generation = generation
        }

        init(data: UInt64) {
            self.init(fd: Int32(bitPattern: UInt32(truncatingIfNeeded: data)), generation: UInt32(data >> 32))
        }

        var data: UInt64 { UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd)) }
    }

    /// An event loop of `--io epoll`: one thread, one epoll instance, its tasks and timers. It is
    /// a NIO `EventLoop`, so futures, `Core.later` and scheduled tasks work on it as on NIO's, but
    /// its sockets are its own: no channel pipeline between a read and the core.
    final class EpollLoop: EventLoop, @unchecked Sendable {
        private let epoll: Int32
        private let waker: Waker
        private var thread = pthread_t()
        private let started = ConditionLock(value: false)

        // Shared with other threads (under `lock`).
        private let lock = NIOLock()
        private var tasks: [@Sendable () -> Void] = []
        private var wakeSent = false
        private var stopping = false
        /// How many times the loop has taken its posted tasks: a loop that posted without waking
        /// this one reads it to learn whether its task was taken since (then no wake is owed).
        private var taskPasses: UInt64 = 0
        /// Tasks posted after `stop`, refused (and logged): they would never have run.
        let refusedTasks = Atomic<Int>(0)
        private let logger: Logger
        let name: String

        // The loop's own.
        private var running: [@Sendable () -> Void] = []
        /// Work for when the loop has nothing more to read (a batcher's flush), and the passes it
        /// has waited so far.
        private var idleWork: [() -> Void] = []
        private var idleRunning: [() -> Void] = []
        private var deferredPasses = 0
        /// Loops this one posted to without waking them (`execute(_:wakeBy:)`): the pass each
        /// was at, and by when the wake is owed if they have not taken their tasks by then.
        private var owedWakes: [(loop: EpollLoop, pass: UInt64, deadline: NIODeadline)] = []
        /// How long this loop may owe a wake (`defaultWakeDelay`; tests set another).
        private let wakeDelay: TimeAmount
        /// Wakes other loops owed this one and had to send (it had not taken their tasks in time).
        let owedWakesSent = Atomic<Int>(0)
        /// Watched sockets by descriptor (descriptors are small integers: an array, no hashing),
        /// each with the generation its events carry.
        private var sockets: [(socket: EpollSocket, generation: UInt32)?] = []
        /// The last generation given: each watch gets the next.
        private var generation: UInt32 = 0
        private var timers = TimerQueue()
        /// Where each read lands before it is split into lines (one buffer per loop, not per connection).
        private var readBuffer = ByteBuffer()

        /// The loop's read buffer, in place (so a read into it copies nothing).
        func withReadBuffer(_ body: (inout ByteBuffer) -> Void) {
            body(&readBuffer)
            // A read that was split into held lines, or a partial line, may leave it grown.
            if readBuffer.capacity > Self.keptReadCapacity { readBuffer = ByteBuffer() }
        }

        /// What the read buffer may grow to before it is let go.
        static let keptReadCapacity = 64 * 1024

        /// Events reported per `epoll_wait`.
        static let eventsPerWait = 256

        init(name: String, logger: Logger = Logger(label: "hearth.epoll"), wakeDelay: TimeAmount = defaultWakeDelay)
            throws
        {
            self.name = name
            self.wakeDelay = wakeDelay
            self.logger = logger
            epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard epoll >= 0 else { throw IOError(errnoCode: errno, reason: "epoll_create1") }
            let wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
            guard wake >= 0 else { throw IOError(errnoCode: errno, reason: "eventfd") }
            waker = Waker(fd: wake)
            readBuffer = ByteBufferAllocator().buffer(capacity: EpollConnection.readSize)
            try watch(waker, fd: wake, events: EPOLLIN.rawValue)
            let box = Unmanaged.passRetained(Start(loop: self, name: name))
            var thread = pthread_t()
            let made = pthread_create(
                &thread, nil,
                { argument in
                    let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
                    start.loop.run(name: start.name)
                    return nil
                }, box.toOpaque())
            guard made == 0 else { throw IOError(errnoCode: made, reason: "pthread_create") }
            started.lock(whenValue: true)
            started.unlock()
        }

        private final class Start {
            let loop: EpollLoop
            let name: String
            init(loop: EpollLoop, name: String) {
                self.loop = loop
                self.name = name
            }
        }

        /// Reads the wake-up counter so the next write wakes the loop again.
        private final class Waker: EpollSocket {
            let fd: Int32
            init(fd: Int32) { self.fd = fd }
            override func ready(_ events: UInt32) {
                var value: eventfd_t = 0
                _ = eventfd_read(fd, &value)
            }
        }

        // MARK: Sockets (on the loop)

        /// Starts watching `fd` (edge-triggered for connections: each event is read until drained).
        /// Throws what epoll said when it refuses: the caller closes the socket, which would
        /// otherwise never be read.
        @discardableResult
        func watch(_ socket: EpollSocket, fd: Int32, events: UInt32) throws -> EpollRegistration {
            if Int(fd) >= sockets.count { sockets += Array(repeating: nil, count: Int(fd) + 64 - sockets.count) }
            generation &+= 1
            let registration = EpollRegistration(fd: fd, generation: generation)
            do {
                try control(EPOLL_CTL_ADD, registration, events: events)
            } catch {
                sockets[Int(fd)] = nil
                throw error
            }
            sockets[Int(fd)] = (socket, generation)
            return registration
        }

        /// Watches `fd` for other events (under the generation it was watched with).
        func change(fd: Int32, events: UInt32) throws {
            guard Int(fd) < sockets.count, let watched = sockets[Int(fd)] else {
                throw IOError(errnoCode: ENOENT, reason: "epoll_ctl: \(fd) is not watched")
            }
            try control(EPOLL_CTL_MOD, EpollRegistration(fd: fd, generation: watched.generation), events: events)
        }

        private func control(_ operation: Int32, _ registration: EpollRegistration, events: UInt32) throws {
            var event = epoll_event()
            event.events = events
            event.data.u64 = registration.data
            guard epoll_ctl(epoll, operation, registration.fd, &event) == 0 else {
                throw IOError(errnoCode: errno, reason: "epoll_ctl")
            }
        }

        /// Hands an event to the socket watched under its registration; one for an earlier
        /// registration of the same descriptor number goes nowhere.
        func deliver(_ events: UInt32, data: UInt64) {
            let registration = EpollRegistration(data: data)
            let fd = Int(registration.fd)
            guard fd >= 0, fd < sockets.count, let watched = sockets[fd],
                watched.generation == registration.generation
            else { return }
            watched.socket.ready(events)
        }

        /// Stops watching `fd`, before it is closed (so a reused number is never confused with it).
        func unwatch(fd: Int32) {
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
            if Int(fd) < sockets.count { sockets[Int(fd)] = nil }
        }

        // MARK: The loop

        private func run(name: String) {
            thread = pthread_self()
            _ = pthread_setname_np(thread, String(name.prefix(15)))
            started.lock()
            started.unlock(withValue: true)
            var events = [epoll_event](repeating: epoll_event(), count: Self.eventsPerWait)
            while true {
                var timeout: Int32 = idleWork.isEmpty ? -1 : 0
                let stop = lock.withLock { () -> Bool in
                    if !tasks.isEmpty { timeout = 0 }
                    return stopping
                }
                if stop { break }
                if timeout != 0, let next = timers.nextDeadline {
                    let nanoseconds = max(0, (next - .now()).nanoseconds)
                    timeout = Int32(min(Int64(Int32.max), (nanoseconds + 999_999) / 1_000_000))
                }
                if !owedWakes.isEmpty, let due = settleWakes(now: .now()) {
                    let milliseconds = Int32((max(0, (due - .now()).nanoseconds) + 999_999) / 1_000_000)
                    timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
                }
                let count = events.withUnsafeMutableBufferPointer { buffer in
                    epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), timeout)
                }
                for index in 0..<max(0, Int(count)) { deliver(events[index].events, data: events[index].data.u64) }
                let now = NIODeadline.now()
                while let timer = timers.popDue(now: now) { timer.run() }
                runTasks()
                if !idleWork.isEmpty { runIdleWork(nothingRead: count <= 0) }
            }
            runTasks()
            for _ in 0..<Self.taskRounds where !idleWork.isEmpty { runIdleWork(nothingRead: true) }
            for owed in owedWakes { _ = owed.loop.stillOwed(owed.pass, wakeNow: true) }
            Glibc.close(waker.fd)
            Glibc.close(epoll)
        }

        /// Runs the tasks posted so far, and those they post (a hand-over's drain), up to
        /// `taskRounds` times before reading again.
        private func runTasks() {
            for _ in 0..<Self.taskRounds {
                let more = lock.withLock { () -> Bool in
                    swap(&tasks, &running)
                    wakeSent = false
                    if !running.isEmpty { taskPasses &+= 1 }
                    return !running.isEmpty
                }
                guard more else { return }
                for task in running { task() }
                running.removeAll(keepingCapacity: true)
            }
        }

        /// How many times a tick runs newly posted tasks before it reads sockets again.
        static let taskRounds = 4

        /// Runs `body` once the loop has nothing more to read (on the loop only): the next
        /// `epoll_wait` does not block, and while it still finds sockets ready (a sender's burst that
        /// arrived meanwhile, another loop's hand-over) they are read first, so their lines go out
        /// with this pass's in one `send` per member. Idle, the only cost is that one empty wait.
        func whenIdle(_ body: @escaping () -> Void) {
            assert(inEventLoop, "whenIdle off the loop")
            idleWork.append(body)
        }

        /// Runs the idle work when the last wait found nothing, or after `maxDeferredPasses` passes
        /// that kept finding more (a loop never idle still writes).
        private func runIdleWork(nothingRead: Bool) {
            guard nothingRead || deferredPasses >= Self.maxDeferredPasses else {
                deferredPasses += 1
                return
            }
            deferredPasses = 0
            swap(&idleWork, &idleRunning)
            for work in idleRunning { work() }
            idleRunning.removeAll(keepingCapacity: true)
        }

        /// Passes of reads idle work may wait behind: the added latency under load is bounded.
        static let maxDeferredPasses = 4

        /// Stops the thread after its current tasks and waits for it (from the loop itself, only
        /// asks it to stop).
        func stop() {
            let wake = lock.withLock { () -> Bool in
                defer { stopping = true }
                return !stopping
            }
            guard wake else { return }
            _ = eventfd_write(waker.fd, 1)
            if inEventLoop {
                pthread_detach(thread)
            } else {
                pthread_join(thread, nil)
            }
        }

        // MARK: EventLoop

        var inEventLoop: Bool { pthread_equal(pthread_self(), thread) != 0 }

        /// Work posted after `stop` never runs: as NIOPosix does, it is refused loudly (an error in
        /// the log, counted; a crash with SWIFTNIO_STRICT set), never dropped in silence.
        func execute(_ task: @escaping @Sendable () -> Void) {
            do { try enqueue(task) } catch {
                refusedTasks.add(1, ordering: .relaxed)
                precondition(!Self.strict, "epoll loop \(name): a task was posted after it stopped")
                logger.error("epoll loop \(name): a task was posted after it stopped; it will not run")
            }
        }

        /// Posts `task`; throws `EventLoopError.shutdown` once the loop is stopping.
        func enqueue(_ task: @escaping @Sendable () -> Void) throws(EventLoopError) {
            let inLoop = inEventLoop
            // nil: stopping, refused.
            let wake = lock.withLock { () -> Bool? in
                guard !stopping else { return nil }
                tasks.append(task)
                guard !inLoop && !wakeSent else { return false }
                wakeSent = true
                return true
            }
            guard let wake else { throw .shutdown }
            if wake { _ = eventfd_write(waker.fd, 1) }
        }

        /// Posts `task` from `waker` (another epoll loop, on its own thread) without waking this
        /// loop: `waker` owes the wake for its `wakeDelay` and sends none if this loop takes its tasks
        /// before then — it was awake, or woke for its own sockets. Under load a hand-over then
        /// costs no eventfd write and no wake-up of this thread for its sake (measured: the direct
        /// scenario's context switches were one per four messages on two loops, most of them these);
        /// idle, the task runs up to `wakeDelay` later. From anywhere else it is `execute`.
        func execute(_ task: @escaping @Sendable () -> Void, wakeBy waker: EpollLoop) {
            guard waker !== self, waker.inEventLoop else { return execute(task) }
            // nil: stopping (refused below, as `execute` refuses); .some(nil): a wake is on its way.
            let pass = lock.withLock { () -> UInt64?? in
                guard !stopping else { return nil }
                tasks.append(task)
                return .some(wakeSent ? nil : taskPasses)
            }
            guard let pass else { return execute(task) }
            if let pass { waker.owe(self, pass: pass) }
        }

        /// How long a wake may be owed (`execute(_:wakeBy:)`): the most a hand-over to an idle loop waits.
        static let defaultWakeDelay: TimeAmount = .milliseconds(1)

        /// Notes that `loop` is owed a wake unless it takes its tasks past `pass` (on this loop).
        private func owe(_ loop: EpollLoop, pass: UInt64) {
            guard let index = owedWakes.firstIndex(where: { $0.loop === loop }) else {
                return owedWakes.append((loop, pass, .now() + wakeDelay))
            }
            // The same pass: the wake already owed covers this task too.
            if owedWakes[index].pass != pass { owedWakes[index] = (loop, pass, .now() + wakeDelay) }
        }

        /// Wakes this loop still owes (on the loop).
        var owedWakeCount: Int { owedWakes.count }

        /// Sends the wakes that fell due, forgets those no longer owed, and returns when the next
        /// is due (on this loop).
        private func settleWakes(now: NIODeadline) -> NIODeadline? {
            var next: NIODeadline?
            owedWakes.removeAll { owed in
                guard owed.loop.stillOwed(owed.pass, wakeNow: owed.deadline <= now) else { return true }
                next = min(next ?? owed.deadline, owed.deadline)
                return false
            }
            return next
        }

        /// Whether tasks posted at `pass` still wait with no wake sent; `wakeNow` sends it (then
        /// nothing is owed any more).
        private func stillOwed(_ pass: UInt64, wakeNow: Bool) -> Bool {
            let wake = lock.withLock { () -> Bool? in
                guard taskPasses == pass, !wakeSent, !stopping else { return nil }
                guard wakeNow else { return false }
                wakeSent = true
                return true
            }
            guard let wake else { return false }
            if wake {
                owedWakesSent.add(1, ordering: .relaxed)
                _ = eventfd_write(waker.fd, 1)
            }
            return !wake
        }

        /// NIO's switch for crashing on work posted to a stopped loop.
        static let strict: Bool = {
            let value = getenv("SWIFTNIO_STRICT").map { String(cString: $0).lowercased() } ?? ""
            return ["true", "y", "yes", "on", "1"].contains(value)
        }()

        func scheduleTask<T>(deadline: NIODeadline, _ task: @escaping @Sendable () throws -> T) -> Scheduled<T> {
            let promise: EventLoopPromise<T> = makePromise()
            let timer = EpollTimer(deadline: deadline) {
                do { promise.assumeIsolatedUnsafeUnchecked().succeed(try task()) } catch { promise.fail(error) }
            }
            onLoop { self.timers.add(timer) }
            return Scheduled(promise: promise) {
                self.onLoop {
                    if self.timers.cancel(timer) { promise.fail(EventLoopError.cancelled) }
                }
            }
        }

        func scheduleTask<T>(in delay: TimeAmount, _ task: @escaping @Sendable () throws -> T) -> Scheduled<T> {
            scheduleTask(deadline: .now() + delay, task)
        }

        /// Runs `body` now when on the loop, else as a task.
        private func onLoop(_ body: @escaping @Sendable () -> Void) {
            if inEventLoop { body() } else { execute(body) }
        }

        func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable (Error?) -> Void) {
            queue.async {
                self.stop()
                callback(nil)
            }
        }

        func next() -> EventLoop { self }
        func any() -> EventLoop { self }
        func makeIterator() -> EventLoopIterator { EventLoopIterator([self]) }
    }

    extension EventLoop {
        /// `execute`, leaving the wake to `waker` when both are epoll loops (`EpollLoop.execute(_:wakeBy:)`).
        func execute(_ task: @escaping @Sendable () -> Void, wakeBy waker: EventLoop) {
            guard let loop = self as? EpollLoop, let waker = waker as? EpollLoop else { return execute(task) }
            loop.execute(task, wakeBy: waker)
        }
    }

    /// A scheduled task of an `EpollLoop`; identity tells a cancelled one from the rest.
    final class EpollTimer: @unchecked Sendable {
        let deadline: NIODeadline
        let run: () -> Void
        var cancelled = false
        var sequence = 0
        init(deadline: NIODeadline, run: @escaping () -> Void) {
            self.deadline = deadline
            self.run = run
        }
    }

    /// The loop's timers, earliest first (a binary heap; cancelled ones are skipped when due).
    struct TimerQueue {
        private var heap: [EpollTimer] = []
        private var added = 0

        var nextDeadline: NIODeadline? {
            mutating get {
                while let first = heap.first, first.cancelled { pop() }
                return heap.first?.deadline
            }
        }

        mutating func add(_ timer: EpollTimer) {
            added += 1
            timer.sequence = added
            heap.append(timer)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.earlier(heap[child], heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        /// Marks `timer` cancelled; false if it already ran or was cancelled.
        mutating func cancel(_ timer: EpollTimer) -> Bool {
            guard !timer.cancelled, timer.sequence > 0 else { return false }
            timer.cancelled = true
            return true
        }

        /// The next timer due by `now`, taken off the queue (run it outside the queue's access: it
        /// may schedule another).
        mutating func popDue(now: NIODeadline) -> EpollTimer? {
            while let first = heap.first, first.cancelled || first.deadline <= now {
                pop()
                if !first.cancelled {
                    first.cancelled = true
                    return first
                }
            }
            return nil
        }

        private mutating func pop() {
            let last = heap.removeLast()
            guard !heap.isEmpty else { return }
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var first = parent
                if left < heap.count && Self.earlier(heap[left], heap[first]) { first = left }
                if right < heap.count && Self.earlier(heap[right], heap[first]) { first = right }
                if first == parent { break }
                heap.swapAt(parent, first)
                parent = first
            }
        }

        private static func earlier(_ a: EpollTimer, _ b: EpollTimer) -> Bool {
            a.deadline < b.deadline || (a.deadline == b.deadline && a.sequence < b.sequence)
        }
    }
#endif
#if !os(Linux)
    import NIOCore

    extension EventLoop {
        /// `execute` (the wake is left to the poster only between Linux's epoll loops).
        func execute(_ task: @escaping @Sendable () -> Void, wakeBy waker: EventLoop) { execute(task) }
    }
#endif
