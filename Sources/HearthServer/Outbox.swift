import HearthProtocol
import NIOCore

/// Messages decided under the lock. Each is serialised once however many clients receive
/// it; plain-mode clients get it rendered for them.
///
/// `dispatch` runs under `Core.lock`: recipients' fields are read safely, and every loop
/// receives its writes in the order the state changed. Writes for other loops are handed
/// to those loops' inboxes right there (one entry per loop per message, however many
/// members live on it); writes for the current loop are returned and done after the lock is released
/// (a write can close a channel synchronously, and that must not re-enter the lock).
struct Outbox {
    final class Item {
        let message: IRCMessage
        private var wire: ByteBuffer?
        init(_ message: IRCMessage) { self.message = message }

        func ircBytes() -> ByteBuffer {
            if let wire { return wire }
            let length = message.bodyLength
            var buffer = ByteBufferAllocator().buffer(capacity: length + 2)
            if message.tags.isEmpty && length <= IRCLimits.maxBodyBytes - 2 {
                // The common case, written piece by piece without an intermediate String.
                if let source = message.source {
                    buffer.writeStaticString(":")
                    buffer.writeString(source)
                    buffer.writeStaticString(" ")
                }
                buffer.writeString(message.command)
                for index in message.params.indices {
                    buffer.writeString(message.isTrailing(index) ? " :" : " ")
                    buffer.writeString(message.params[index])
                }
            } else {
                buffer.writeString(message.serialized())
            }
            buffer.writeStaticString("\r\n")
            wire = buffer
            return buffer
        }
    }

    enum Recipients {
        case one(Client)
        case some([Client])
        /// A channel's members as they were when the message was queued (a kicked or
        /// parting member still gets its KICK or PART), except one (a relay's sender).
        case channel(irc: [(EventLoop, [Client])], plain: [Client], except: Client?)
    }

    private(set) var batches: [(Recipients, Item)] = []
    var closing: [Client] = []

    mutating func send(_ client: Client, _ message: IRCMessage) {
        batches.append((.one(client), Item(message)))
    }

    mutating func send(_ clients: [Client], _ message: IRCMessage) {
        batches.append((.some(clients), Item(message)))
    }

    mutating func send(_ channel: ChannelState, except: Client? = nil, _ message: IRCMessage) {
        let members = channel.membersByLoop()
        batches.append((.channel(irc: members.irc, plain: members.plain, except: except), Item(message)))
    }

    mutating func close(_ client: Client) {
        closing.append(client)
    }

    func dispatch() -> LocalWrites {
        var local = LocalWrites()
        for (recipients, item) in batches {
            switch recipients {
            case .one(let client):
                deliver(item, to: [client], except: nil, local: &local)
            case .some(let clients):
                deliver(item, to: clients, except: nil, local: &local)
            case .channel(let irc, let plainMembers, let except):
                for plain in plainMembers where plain !== except {
                    deliver(item, to: [plain], except: nil, local: &local)
                }
                for (loop, clients) in irc {
                    let bytes = item.ircBytes()
                    if loop.inEventLoop {
                        local.deliveries.append(.many(bytes, clients, except: except))
                    } else {
                        clients[0].batcher.handOver(.many(bytes, clients, except: except))
                    }
                }
            }
        }
        local.closing = closing
        return local
    }

    private func deliver(_ item: Item, to clients: [Client], except: Client?, local: inout LocalWrites) {
        for client in clients where client !== except {
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
            if client.eventLoop.inEventLoop {
                local.deliveries.append(.one(client, bytes))
            } else {
                client.batcher.handOver(.one(client, bytes))
            }
        }
    }

    struct LocalWrites {
        var deliveries: [Delivery] = []
        var closing: [Client] = []

        func perform() {
            for delivery in deliveries { delivery.write() }
            for client in closing {
                client.batcher.close(client)
            }
        }
    }

    /// Bytes for one client, or for several on one loop (one channel message).
    enum Delivery {
        case one(Client, ByteBuffer)
        case many(ByteBuffer, [Client], except: Client?)

        /// On the clients' loop: append to each client's output, flushed at the end of the tick.
        func write() {
            switch self {
            case .one(let client, let bytes):
                client.batcher.write(client, bytes)
            case .many(let bytes, let clients, let except):
                for client in clients where client !== except { client.batcher.write(client, bytes) }
            }
        }
    }
}
