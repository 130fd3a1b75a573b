#if os(Linux)
    import Foundation
    import Glibc
    import HearthTesting
    import Logging
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix
    import Synchronization
    import Testing

    @testable import HearthServer

    /// `--io epoll`'s event loop as NIO's code uses it: tasks from any thread in order, timers in
    /// deadline order, cancellation, repeated tasks that schedule from inside a timer, futures
    /// across loops, and a stop that ends the thread. (The whole server suite runs on it: it is the
    /// default, and scripts/test runs the suite again with HEARTH_TEST_IO=nio.)
    @Suite struct EpollLoopTests {
        @Test func tasksFromAnyThreadRunInOrderOnTheLoop() async throws {
            let loop = try EpollLoop(name: "test-epoll")
            defer { loop.stop() }
            #expect(!loop.inEventLoop)
            let seen = NIOLockedValueBox<[Int]>([])
            let onLoop = NIOLockedValueBox(true)
            for index in 0..<1000 {
                loop.execute {
                    if !loop.inEventLoop { onLoop.withLockedValue { $0 = false } }
                    seen.withLockedValue { $0.append(index) }
                }
            }
            try await loop.submit {}.get()
            #expect(seen.withLockedValue { $0 } == Array(0..<1000))
            #expect(onLoop.withLockedValue { $0 })
        }

        /// A task posted by a task runs in the same tick, before timers that fall due meanwhile
        /// (or another round of reads).
        @Test func tasksPostedByATaskRunInTheSameTick() async throws {
            let loop = try EpollLoop(name: "test-epoll")
            defer { loop.stop() }
            let seen = NIOLockedValueBox<[String]>([])
            let timer = try await loop.submit { () -> Scheduled<Void> in
                let timer = loop.scheduleTask(deadline: .now()) { seen.withLockedValue { $0.append("timer") } }
                loop.execute { seen.withLockedValue { $0.append("posted") } }
                return timer
            }.get()
            try await timer.futureResult.get()
            #expect(seen.withLockedValue { $0 } == ["posted", "timer"])
        }

        /// Tasks that keep posting tasks get `taskRounds` runs a tick, then the loop reads and runs
        /// its timers again: they cannot starve it.
        @Test func tasksThatPostTasksForeverDoNotStarveTheLoop() async throws {
            let loop = try EpollLoop(name: "test-epoll")
            defer { loop.stop() }
            let stop = NIOLockedValueBox(false)
            let runs = NIOLockedValueBox(0)
            let ended = loop.makePromise(of: Void.self)
            @Sendable func again() {
                runs.withLockedValue { $0 += 1 }
                if stop.withLockedValue({ $0 }) { return ended.succeed() }
                loop.execute { again() }
            }
            loop.execute { again() }
            let fired = NIOLockedValueBox(false)
            _ = loop.scheduleTask(in: .milliseconds(20)) { fired.withLockedValue { $0 = true } }
            // Waits without blocking on the loop (a starved loop must fail this, not hang it).
            try await waitUntil("a timer to run while tasks keep posting tasks") { fired.withLockedValue { $0 } }
            stop.withLockedValue { $0 = true }
            // The chain ends before the loop stops (a task it posted after the stop would be refused).
            try await ended.futureResult.get()
            #expect(runs.withLockedValue { $0 } > EpollLoop.taskRounds)
        }

        @Test func timersRunInDeadlineOrderAndCancelledOnesNever() async throws {
            let loop = try EpollLoop(name: "test-epoll")
            defer { loop.stop() }
            let seen = NIOLockedValueBox<[String]>([])
            let late = loop.scheduleTask(in: .milliseconds(60)) { seen.withLockedValue { $0.append("late") } }
            let early = loop.scheduleTask(in: .milliseconds(20)) { seen.withLockedValue { $0.append("early") } }
            let never = loop.scheduleTask(in: .milliseconds(40)) { seen.withLockedValue { $0.append("never") } }
            never.cancel()
            try await early.futureResult.get()
            try await late.futureResult.get()
            await #expect(throws: EventLoopError.cancelled) { try await never.futureResult.get() }
            #expect(seen.withLockedValue { $0 } == ["early", "late"])
        }

        @Test func repeatedTasksScheduleTheirNextRunFromInsideATimer() async throws {
            let loop = try EpollLoop(name: "test-epoll")
            defer { loop.stop() }
            let runs = NIOLockedValueBox(0)
            let done = loop.makePromise(of: Void.self)
            let task = loop.scheduleRepeatedTask(initialDelay: .milliseconds(1), delay: .milliseconds(1)) { task in
                if runs.withLockedValue({
                    $0 += 1
                    return $0
                }) == 5 {
                    task.cancel(promise: done)
                }
            }
            // Succeeds once the cancel is complete: no run can follow it.
            try await done.futureResult.get()
            #expect(runs.withLockedValue { $0 } == 5)
            _ = task
        }

        @Test func futuresCrossBetweenItAndNIOsLoops() async throws {
            let loop = try EpollLoop(name: "test-epoll")
            defer { loop.stop() }
            let nio = MultiThreadedEventLoopGroup.singleton.next()
            let answer = try await loop.submit { 20 }
                .hop(to: nio)
                .flatMap { value in nio.submit { value + 1 } }
                .hop(to: loop)
                .map { value -> Int in
                    loop.preconditionInEventLoop()
                    return value * 2
                }.get()
            #expect(answer == 42)
        }

        /// Work posted after the stop would never run: it is refused where it is posted (thrown,
        /// or counted and logged by `execute`), not dropped in silence.
        @Test func workPostedAfterStopIsRefusedLoudly() async throws {
            let logs = LogCapture()
            let loop = try EpollLoop(
                name: "test-epoll", logger: Logger(label: "test") { _ in LogCapture.Handler(capture: logs) })
            let ran = NIOLockedValueBox(false)
            try await loop.submit {}.get()
            loop.stop()
            #expect(throws: EventLoopError.shutdown) { try loop.enqueue { ran.withLockedValue { $0 = true } } }
            loop.execute { ran.withLockedValue { $0 = true } }
            #expect(loop.refusedTasks.load(ordering: .relaxed) == 1)
            #expect(logs.text.contains("posted after it stopped"), "\(logs.text)")
            #expect(!ran.withLockedValue { $0 })
            loop.stop()  // a second stop is harmless
        }

        /// A batcher's flush is idle work: a socket that became ready meanwhile (another sender's
        /// burst) is read first, so its lines go out in the same write.
        @Test func idleWorkWaitsUntilWhatIsReadyHasBeenRead() async throws {
            try await Self.withPipe { loop, ends in
                let seen = NIOLockedValueBox<[String]>([])
                let reader = Drainer(fd: ends[0]) { seen.withLockedValue { $0.append("read") } }
                let done = loop.makePromise(of: Void.self)
                try await loop.submit {
                    try loop.watch(reader, fd: ends[0], events: 1)  // EPOLLIN
                    loop.whenIdle {
                        seen.withLockedValue { $0.append("idle") }
                        done.succeed()
                    }
                    var byte: UInt8 = 1
                    #expect(write(ends[1], &byte, 1) == 1)
                }.get()
                try await done.futureResult.get()
                #expect(seen.withLockedValue { $0 } == ["read", "idle"])
                try await loop.submit { loop.unwatch(fd: ends[0]) }.get()
            }
        }

        /// A loop that always finds more to read still does its idle work (within
        /// `maxDeferredPasses` passes): output is never held back for good.
        @Test func idleWorkRunsOnALoopThatIsNeverIdle() async throws {
            try await Self.withPipe { loop, ends in
                let recorder = Recorder()
                let ran = NIOLockedValueBox(false)
                try await loop.submit {
                    // Level-triggered input never read: every wait finds it ready.
                    var byte: UInt8 = 1
                    #expect(write(ends[1], &byte, 1) == 1)
                    try loop.watch(recorder, fd: ends[0], events: 1)  // EPOLLIN
                    loop.whenIdle { ran.withLockedValue { $0 = true } }
                }.get()
                try await waitUntil("idle work on a busy loop") { ran.withLockedValue { $0 } }
                let passes = try await loop.submit {
                    loop.unwatch(fd: ends[0])
                    return recorder.events.count
                }.get()
                #expect(passes >= EpollLoop.maxDeferredPasses)
            }
        }

        /// A relay's hand-over to another loop leaves the wake to the sender's loop: an idle
        /// loop still runs its tasks, in order (the owed wake is sent, once at most: none when the
        /// receiver, still starting on a loaded machine, took them before it first slept — CI).
        @Test func aTaskWhoseWakeIsOwedRunsOnAnIdleLoop() async throws {
            let sender = try EpollLoop(name: "test-epoll-a")
            let receiver = try EpollLoop(name: "test-epoll-b")
            defer {
                sender.stop()
                receiver.stop()
            }
            let seen = NIOLockedValueBox<[Int]>([])
            // On the sender's loop: waiting on a future of the receiver's posts a task to it, which woke
            // it (the test passed with the owed wake never sent).
            let done = sender.makePromise(of: Void.self)
            // The receiver has run and gone to sleep (no event says it sleeps: a loop just started takes
            // the tasks in its first pass).
            try await receiver.submit {}.get()
            try await Task.sleep(for: .milliseconds(50))
            try await sender.submit {
                receiver.execute({ seen.withLockedValue { $0.append(1) } }, wakeBy: sender)
                receiver.execute(
                    {
                        seen.withLockedValue { $0.append(2) }
                        done.succeed()
                    }, wakeBy: sender)
                #expect(sender.owedWakeCount == 1)
            }.get()
            // Nothing but the owed wake rouses the receiver; without it the test fails (on the sender's
            // clock, which does not wake the receiver) instead of hanging.
            let limit = sender.scheduleTask(in: .seconds(30)) {
                done.fail(ChannelError.ioOnClosedChannel)
            }
            try await done.futureResult.get()
            limit.cancel()
            #expect(seen.withLockedValue { $0 } == [1, 2])
            #expect(receiver.owedWakesSent.load(ordering: .relaxed) <= 1)
        }

        /// No wake is sent for a task the loop took before it fell due (it woke for something
        /// else): the sender's loop forgets what it owed.
        @Test func aWakeIsNotSentWhenTheLoopTookTheTaskFirst() async throws {
            // A wake owed for ten minutes never falls due during the test.
            let sender = try EpollLoop(name: "test-epoll-a", wakeDelay: .minutes(10))
            let receiver = try EpollLoop(name: "test-epoll-b")
            defer {
                sender.stop()
                receiver.stop()
            }
            let ran = NIOLockedValueBox(0)
            try await sender.submit {
                receiver.execute({ ran.withLockedValue { $0 += 1 } }, wakeBy: sender)
                #expect(sender.owedWakeCount == 1)
            }.get()
            // Another thread's task wakes the loop, which takes both.
            try await receiver.submit {}.get()
            #expect(ran.withLockedValue { $0 } == 1)
            // The sender's next pass finds the task taken.
            try await sender.submit {}.get()
            try await sender.submit {}.get()
            #expect(try await sender.submit { sender.owedWakeCount }.get() == 0)
            #expect(receiver.owedWakesSent.load(ordering: .relaxed) == 0)
        }

        /// A fresh loop and a pipe (`ends[0]` its read end), both closed after `body`.
        static func withPipe(_ body: (EpollLoop, [Int32]) async throws -> Void) async throws {
            let loop = try EpollLoop(name: "test-epoll")
            defer { loop.stop() }
            var pair: [Int32] = [0, 0]
            try #require(pipe(&pair) == 0)
            let ends = pair
            defer { for fd in ends { close(fd) } }
            try await body(loop, ends)
        }

        /// Reads what is there and says so.
        final class Drainer: EpollSocket, @unchecked Sendable {
            let fd: Int32
            let onRead: () -> Void
            init(fd: Int32, onRead: @escaping () -> Void) {
                self.fd = fd
                self.onRead = onRead
            }
            override func ready(_ events: UInt32) {
                var bytes = [UInt8](repeating: 0, count: 64)
                if read(fd, &bytes, bytes.count) > 0 { onRead() }
            }
        }

        /// Records the events a test socket is told of.
        final class Recorder: EpollSocket, @unchecked Sendable {
            var events: [UInt32] = []
            override func ready(_ events: UInt32) { self.events.append(events) }
        }

        /// An event still queued for a descriptor that was closed and whose number a new socket got
        /// carries the old registration's generation: the new socket never hears of it.
        @Test func anEventForAnEarlierRegistrationOfTheNumberIsIgnored() async throws {
            try await Self.withPipe { loop, ends in
                let (old, new) = (Recorder(), Recorder())
                let (stale, current) = try await loop.submit {
                    // Level-triggered input on an empty pipe: no real event comes meanwhile.
                    let stale = try loop.watch(old, fd: ends[0], events: 1)
                    loop.unwatch(fd: ends[0])
                    let current = try loop.watch(new, fd: ends[0], events: 1)
                    #expect(stale.fd == current.fd && stale.generation != current.generation)
                    return (stale, current)
                }.get()
                try await loop.submit {
                    loop.deliver(1, data: stale.data)
                    #expect(new.events.isEmpty && old.events.isEmpty)
                    loop.deliver(1, data: current.data)
                    #expect(new.events == [1] && old.events.isEmpty)
                    loop.unwatch(fd: ends[0])
                }.get()
                #expect(EpollRegistration(data: current.data) == current)
            }
        }
    }

    /// The server with `--io epoll`: plain-TCP IRC on its own loops, TLS still on NIO's, and both
    /// kinds of client in one conversation.
    @Suite struct EpollServerTests {
        @Test func plainClientsAreEpollsAndTLSClientsNIOs() async throws {
            let (server, tlsPort) = try await TLSTests.tlsServer { $0.io = .epoll }
            try await stopping(server) { server in
                let plain = try await TestClient.irc(server, nick: "plainpat")
                let secure = try await TestClient.connectTLS(port: tlsPort)
                try await secure.send("NICK tlstess")
                try await secure.send("USER tlstess 0 * :Test")
                try await secure.expectNumeric("376")
                try await plain.send("PRIVMSG tlstess :over epoll")
                try await secure.expect(":plainpat!")
                try await secure.send("PRIVMSG plainpat :over NIO")
                try await plain.expect("PRIVMSG plainpat :over NIO")
                let core = server.server.core
                let sockets = core.chat.withLock { state in state.clients.values.map { (state[$0].nick, $0.socket) } }
                for (nick, socket) in sockets {
                    switch socket {
                    case .epoll: #expect(nick == "plainpat")
                    case .channel: #expect(nick == "tlstess")
                    case .remote: Issue.record("\(nick) is a user of another node")
                    }
                }
                #expect(sockets.count == 2)
            }
        }
    }

    extension EpollServerTests {
        /// A connection epoll will not watch (here a plain file, which epoll refuses) would never be
        /// read: it is closed before the server hears of it, and the refusal is logged and counted.
        @Test func aConnectionEpollWillNotWatchIsClosedLoggedAndCounted() async throws {
            let logs = LogCapture()
            try await withServer(logs: logs, configure: { $0.io = .epoll }) { server in
                let core = server.server.core
                let loop = try #require(server.server.epoll).nextLoop()
                let path = TestServer.tempDirectory() + "/not-a-socket"
                let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
                try #require(fd >= 0)
                let connection = try await loop.submit {
                    let connection = EpollConnection(fd: fd, loop: loop, handler: ConnectionHandler(core: core))
                    connection.start(address: "192.0.2.7")
                    return connection
                }.get()
                #expect(!connection.isOpen)
                // The descriptor is closed: nothing in the process refers to the file any more.
                let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
                let targets = descriptors.compactMap {
                    try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
                }
                #expect(!targets.contains(path))
                #expect(logs.text.contains("could not watch a connection from 192.0.2.7"), "\(logs.text)")
                // The server never heard of it: no connection opened.
                let metrics = String(decoding: server.server.metricsText(), as: UTF8.self)
                #expect(metrics.contains("hearth_io_registration_failures_total 1"), "\(metrics)")
                #expect(metrics.contains("hearth_connections_opened_total{transport=\"tcp\"} 0\n"), "\(metrics)")
            }
        }
    }
#endif
