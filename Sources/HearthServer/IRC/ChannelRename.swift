import Foundation
import HearthProtocol
import HearthStore

/// RENAME (IRCv3 draft/channel-rename): a channel operator gives the channel a new name. Its
/// members, topic, modes and lists stay; a registered channel's record, kept lists, access,
/// history and read markers follow the name in the store. Members without the cap see the
/// spec's fallback: a PART of the old name, then a JOIN of the new one with its topic and names.
extension Core {
    static let channelRenameCap = "draft/channel-rename"

    func rename(_ client: Client, _ message: IRCMessage) {
        let (oldName, newName) = (message.params[0], message.params[1])
        let reason = message.params.count > 2 ? message.params[2] : ""
        let (oldKey, newKey) = (IRCNames.fold(oldName), IRCNames.fold(newName))
        func fail(_ state: ChatState, _ code: String, _ text: String, _ out: inout Outbox) {
            out.send(
                client,
                IRCMessage(source: serverName, command: "FAIL", params: ["RENAME", code, oldName, newName, text]))
        }
        let (stored, done) = AsyncStream<Never>.makeStream()
        let moved = withState { state, out -> Bool in
            guard let channel = state.channels[oldKey] else {
                out.send(client, numeric(state, client, .noSuchChannel, oldName, "No such channel"))
                return false
            }
            guard let status = channel.members[client.id] else {
                out.send(client, numeric(state, client, .notOnChannel, channel.name, "You're not on that channel"))
                return false
            }
            guard status.op else {
                out.send(client, numeric(state, client, .chanOPrivsNeeded, channel.name, "You're not channel operator"))
                return false
            }
            // A registered channel's name (with its history and lists) is its owner's to move.
            if let record = state.registered[oldKey], record.ownerId != state[client].account?.id,
                !state[client].isOper
            {
                fail(state, "CANNOT_RENAME", "Only the channel's owner can rename a registered channel", &out)
                return false
            }
            if let why = Self.renameRefusal(state, from: oldKey, to: newName, reserved: bot.reservation(for: newKey)) {
                fail(state, why.code, why.text, &out)
                return false
            }
            if network != nil {
                fail(state, "CANNOT_RENAME", "Channels cannot be renamed in a network of nodes", &out)
                return false
            }
            let oldShown = channel.name
            move(&state, channel, to: newName)
            saves.yield(.rename(from: oldKey, to: newKey, name: newName, done: done))
            tellRenamed(&state, client, channel, from: oldShown, reason: reason, caseOnly: oldKey == newKey, out: &out)
            return true
        }
        guard moved else { return done.finish() }
        // The renamer's next line waits for the store (a CHATHISTORY right after reads the moved lines).
        later(client, { for await _ in stored {} }) {}
    }

    /// Why `oldKey` may not become `newName` (a FAIL RENAME code and text); nil when it may.
    static func renameRefusal(_ state: ChatState, from oldKey: String, to newName: String, reserved: Any?)
        -> (code: String, text: String)?
    {
        let newKey = IRCNames.fold(newName)
        guard IRCNames.isValidChannel(newName), NameSafety.problem(in: newName) == nil else {
            return ("CANNOT_RENAME", "That is not a valid channel name")
        }
        if state.guarded[oldKey] != nil { return ("CANNOT_RENAME", "An app's channel keeps its name") }
        guard oldKey != newKey else { return nil }
        if state.channels[newKey] != nil || state.registered[newKey] != nil || state.guarded[newKey] != nil
            || reserved != nil
        {
            return ("CHANNEL_NAME_IN_USE", "The channel name is already taken")
        }
        return nil
    }

    /// The channel under its new key, in the state and in each member's list of channels.
    private func move(_ state: inout ChatState, _ channel: ChannelState, to newName: String) {
        let oldKey = channel.key
        channel.rename(to: newName)
        let newKey = channel.key
        state.channels[oldKey] = nil
        state.channels[newKey] = channel
        for member in channel.order {
            state[member].channels = state[member].channels.map { $0 == oldKey ? newKey : $0 }
            if state[member].currentChannel == oldKey { state[member].currentChannel = newKey }
        }
        guard var record = state.registered.removeValue(forKey: oldKey) else { return }
        (record.nameKey, record.name) = (newKey, newName)
        state.registered[newKey] = record
        // A registered channel's history is kept under its name: it follows (the store moves it).
        if channel.historyKey == oldKey { channel.historyKey = newKey }
        if let lists = state.moderation.keptLists.removeValue(forKey: oldKey) {
            state.moderation.keptLists[newKey] = lists
        }
        if let access = state.moderation.access.removeValue(forKey: oldKey) { state.moderation.access[newKey] = access }
    }

    /// RENAME to members with the cap; the PART/JOIN fallback to the others (none for a change of case).
    private func tellRenamed(
        _ state: inout ChatState, _ client: Client, _ channel: ChannelState, from oldName: String, reason: String,
        caseOnly: Bool, out: inout Outbox
    ) {
        let renamed = userMessage(state, client, "RENAME", [oldName, channel.name, reason])
        for member in channel.order where !member.isRemote {
            if state[member].caps.contains(Self.channelRenameCap) {
                out.send(member, renamed)
                continue
            }
            guard !caseOnly else { continue }
            out.send(member, userMessage(state, member, "PART", [oldName] + (reason.isEmpty ? [] : [reason])))
            var join = userMessage(state, member, "JOIN", [channel.name])
            if state[member].caps.contains("extended-join") {
                join.params += [state[member].account?.name ?? "*", state[member].realname]
            }
            out.send(member, join)
            sendTopic(state, member, channel, out: &out)
            sendNames(&state, member, channel, out: &out)
        }
    }
}
