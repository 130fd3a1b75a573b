import HearthProtocol
import NIOCore

/// Messages decided under the lock. Each is serialised once however many clients receive
/// it; plain-mode clients get it rendered for them.
///
/// `dispatch` runs inside the chat lock (it is given the state): recipients' fields are read there, and every loop
/// receives its writes in the order the state changed. Writes for other loops are handed
/// to those loops' inboxes right there (one entry per loop per message, however many
/// members live on it); writes for the current loop are returned and done after the lock is released
/// (a write can close a channel synchronously, and that must not re-enter the lock).
struct Outbox {
    final class Item {
        let message: IRCMessage
        /// The tag bits the message carries; recipients see the subset their caps ask for.
        let mask: TagMask
        /// Wire bytes without tags (most recipients), and per tagged variant (index: the
        /// recipient's mask within `mask`); the array is only made when a variant is needed.
        private var untagged: ByteBuffer?
        private var wires: [ByteBuffer?] = []
        /// False for a message a labeled command's client sent itself: it arrives as any message
        /// would, and only the echo is the labeled reply.
        var labeled = true
        init(_ message: IRCMessage) {
            self.message = message
            self.mask = message.tagMask
        }

        /// Bytes for every variant that `masks` needs, indexed by variant.
        func wireTable(for masks: [TagMask]) -> [ByteBuffer?] {
            for m in masks { _ = ircBytes(variant: m.intersection(mask)) }
            return wires.isEmpty ? [untagged] : wires
        }

        func ircBytes(variant: TagMask) -> ByteBuffer {
            if variant.isEmpty {
                if let untagged { return untagged }
                let wire = Self.serialize(message, withTags: false)
                untagged = wire
                if !wires.isEmpty { wires[0] = wire }
                return wire
            }
            let index = Int(variant.rawValue)
            if index < wires.count, let wire = wires[index] { return wire }
            if wires.count <= index {
                wires += Array(repeating: nil, count: index + 1 - wires.count)
                wires[0] = untagged
            }
            let wire = Self.serialize(variant == mask ? message : message.filtered(for: variant), withTags: true)
            wires[index] = wire
            return wire
        }

        private static func serialize(_ message: IRCMessage, withTags: Bool) -> ByteBuffer {
            let length = message.bodyLength
            var buffer = ByteBufferAllocator().buffer(capacity: length + 2)
            if (!withTags || message.tags.isEmpty) && length <= IRCLimits.maxBodyBytes - 2 {
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
            } else if withTags {
                buffer.writeString(message.serialized())
            } else {
                var bare = message
                bare.tags = []
                buffer.writeString(bare.serialized())
            }
            buffer.writeStaticString("\r\n")
            return buffer
        }
    }

    enum Recipients {
        case one(Client)
        case some([Client])
        /// A channel's members as they were when the message was queued (a kicked or
        /// parting member still gets its KICK or PART), except one (a relay's sender).
        case channel(irc: [ChannelState.LoopMembers], plain: [Client], except: Client?)

        /// Whether some receiver is a user of another node (`.one` and `.some` only).
        var reachOtherNodes: Bool {
            switch self {
            case .one(let client): client.isRemote
            case .some(let clients): clients.contains(where: \.isRemote)
            case .channel: false
            }
        }

        /// Every tag some receiver asked for (plain-mode clients take none).
        func tagMask(_ state: ChatState) -> TagMask {
            switch self {
            case .one(let client): state[client].tagMask
            case .some(let clients): clients.reduce([]) { $0.union(state[$1].tagMask) }
            case .channel(let irc, _, _):
                irc.reduce([]) { group, members in members.masks.reduce(group) { $0.union($1) } }
            }
        }
    }

    private var batches = InlineList<(Recipients, Item)>()

    mutating func send(_ client: Client, _ message: IRCMessage) {
        batches.append((.one(client), Item(message)))
    }

    mutating func send(_ recipients: Recipients, _ message: IRCMessage, labeled: Bool = true) {
        let item = Item(message)
        item.labeled = labeled
        batches.append((recipients, item))
    }

    mutating func send(_ clients: [Client], _ message: IRCMessage) {
        batches.append((clients.count == 1 ? .one(clients[0]) : .some(clients), Item(message)))
    }

    /// To `channel`'s members now (`state`: where their caps are read).
    mutating func send(_ state: ChatState, _ channel: ChannelState, except: Client? = nil, _ message: IRCMessage) {
        let members = channel.membersByLoop(state)
        batches.append((.channel(irc: members.irc, plain: members.plain, except: except), Item(message)))
    }

    func dispatch(_ state: ChatState) -> LocalWrites {
        var local = LocalWrites()
        batches.forEach { recipients, item in
            switch recipients {
            case .one(let client):
                deliver(item, to: client, state, local: &local)
            case .some(let clients):
                for client in clients { deliver(item, to: client, state, local: &local) }
            case .channel(let irc, let plainMembers, let except):
                for plain in plainMembers where plain !== except {
                    deliver(item, to: plain, state, local: &local)
                }
                defer {
                    for group in irc {
                        local.count += group.clients.count
                        if let except, group.clients.contains(where: { $0 === except }) { local.count -= 1 }
                    }
                }
                for var group in irc {
                    var except = except
                    // The member whose labeled command this is gets it among its replies.
                    if group.loop.inEventLoop, let capturer = group.clients.first?.batcher.capturing,
                        group.clients.contains(where: { $0 === capturer })
                    {
                        if capturer !== except { capturer.labeledReplies.append(item.message) }
                        if except == nil {
                            except = capturer
                        } else if except !== capturer {
                            group.remove(capturer)
                        }
                    }
                    let delivery: Delivery
                    if item.mask.isEmpty || group.masks == [[]] {
                        delivery = .many(item.ircBytes(variant: []), group.clients, except: except)
                    } else {
                        delivery = .tagged(item.wireTable(for: group.masks), item.mask, group, except: except)
                    }
                    if group.loop.inEventLoop {
                        local.deliveries.append(delivery)
                    } else {
                        group.clients[0].batcher.handOver(delivery)
                    }
                }
            }
        }
        return local
    }

    private func deliver(_ item: Item, to client: Client, _ state: ChatState, local: inout LocalWrites) {
        // A user of another node is written to by that node; a stand-in has nobody to write to.
        if client.hasNoConnection { return }
        // Replies to a labeled command are collected and sent together at its end.
        if item.labeled && client.eventLoop.inEventLoop && client.capturing {
            client.labeledReplies.append(item.message)
            local.count += 1
            return
        }
        let bytes: ByteBuffer
        if state[client].isPlain {
            guard
                let text = PlainRenderer.render(
                    item.message, forNickKey: state[client].nickKey, quoting: state.recentLine)
            else { return }
            local.count += 1
            var buffer = ByteBufferAllocator().buffer(capacity: text.utf8.count + 2)
            buffer.writeString(text)
            buffer.writeStaticString("\r\n")
            bytes = buffer
        } else {
            bytes = item.ircBytes(variant: state[client].tagMask.intersection(item.mask))
            local.count += 1
        }
        if client.eventLoop.inEventLoop {
            local.deliveries.append(.one(client, bytes))
        } else {
            client.batcher.handOver(.one(client, bytes))
        }
    }

    struct LocalWrites {
        var deliveries = InlineList<Delivery>()
        /// Lines handed to connections (for the metrics), here and on other loops.
        var count = 0

        func perform() {
            deliveries.forEach { $0.write() }
        }
    }

    /// Bytes for one client, or for several on one loop (one channel message).
    enum Delivery {
        case one(Client, ByteBuffer)
        case many(ByteBuffer, [Client], except: Client?)
        /// Variants by tag mask: each member gets the one its caps asked for when it was queued.
        case tagged([ByteBuffer?], TagMask, ChannelState.LoopMembers, except: Client?)

        /// On the clients' loop: append to each client's output, flushed at the end of the tick.
        func write() {
            switch self {
            case .one(let client, let bytes):
                client.batcher.write(client, bytes)
            case .many(let bytes, let clients, let except):
                clients.first?.batcher.write(clients, bytes, except: except)
            case .tagged(let wires, let mask, let members, let except):
                for (client, clientMask) in zip(members.clients, members.clientMasks) where client !== except {
                    let index = Int(clientMask.intersection(mask).rawValue)
                    if index < wires.count, let bytes = wires[index] { client.batcher.write(client, bytes) }
                }
            }
        }
    }
}
