import HearthProtocol
import NIOCore

/// Messages decided under the lock. Each is serialised once however many clients receive
/// it; plain-mode clients get it rendered. Writes on the current event loop happen after
/// the lock is released (a write can close a channel synchronously, and that must not
/// re-enter the lock).
struct Outbox {
    final class Item {
        let message: IRCMessage
        private var wire: ByteBuffer?
        init(_ message: IRCMessage) { self.message = message }

        func ircBytes() -> ByteBuffer {
            if let wire { return wire }
            var buffer = ByteBufferAllocator().buffer(capacity: 128)
            buffer.writeString(message.serialized())
            buffer.writeStaticString("\r\n")
            wire = buffer
            return buffer
        }
    }

    private(set) var entries: [(Client, Item)] = []
    var closing: [(Client, String)] = []

    mutating func send(_ client: Client, _ message: IRCMessage) {
        entries.append((client, Item(message)))
    }

    /// The same message to many clients, serialised once.
    mutating func send(_ clients: some Sequence<Client>, _ message: IRCMessage) {
        let item = Item(message)
        for client in clients { entries.append((client, item)) }
    }

    mutating func close(_ client: Client, reason: String) {
        closing.append((client, reason))
    }

    /// Renders every message and hands writes for other event loops to those loops.
    /// Runs under `Core.lock`: recipients' fields are read safely, and the order in which
    /// state changed is the order in which each loop receives its writes. Writes for the
    /// current loop are returned, to be done after the lock is released.
    func dispatch() -> LocalWrites {
        var byLoop: [ObjectIdentifier: (EventLoop, [(Client, ByteBuffer)])] = [:]
        for (client, item) in entries {
            let bytes: ByteBuffer
            if client.isPlain {
                guard let text = PlainRenderer.render(item.message, for: client) else { continue }
                var buffer = ByteBufferAllocator().buffer(capacity: text.utf8.count + 2)
                buffer.writeString(text)
                buffer.writeStaticString("\r\n")
                bytes = buffer
            } else {
                bytes = item.ircBytes()
            }
            let key = ObjectIdentifier(client.eventLoop)
            byLoop[key, default: (client.eventLoop, [])].1.append((client, bytes))
        }
        var local = LocalWrites()
        for (_, (loop, writes)) in byLoop {
            if loop.inEventLoop {
                local.writes = writes
            } else {
                loop.execute { Self.write(writes) }
            }
        }
        local.closing = closing.map(\.0)
        return local
    }

    struct LocalWrites {
        var writes: [(Client, ByteBuffer)] = []
        var closing: [Client] = []

        func perform() {
            if !writes.isEmpty { Outbox.write(writes) }
            for client in closing {
                client.eventLoop.execute { client.channel.close(promise: nil) }
            }
        }
    }

    static func write(_ writes: [(Client, ByteBuffer)]) {
        var touched: [ObjectIdentifier: Channel] = [:]
        for (client, bytes) in writes {
            client.channel.write(bytes, promise: nil)
            touched[ObjectIdentifier(client.channel)] = client.channel
        }
        for channel in touched.values { channel.flush() }
    }
}
