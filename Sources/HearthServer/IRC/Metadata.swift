import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// IRCv3 metadata (`draft/metadata-2`, and `draft/metadata-3`, answered the same): keys on users
/// and channels — `display-name`, `avatar`, `pronouns`, `color`, `bio`, … — read with GET, LIST
/// and SYNC, changed with SET and CLEAR, and pushed as 761/766 to connections that SUBscribed to
/// the key and share a channel with the user (or are in the channel).
///
/// A logged-in user's own keys are its account's profile: written to the store first (`bio` is
/// `!bio`'s, the rest `ProfileFields`), loaded at every login, shown by `!profile`. A guest's keys
/// live as long as the connection. A channel's keys are kept in memory while it exists, for
/// registered channels too (they go with the channel when it empties or the server restarts).
extension Core {
    static let metadataCaps: Set<String> = ["draft/metadata-2", "draft/metadata-3"]
    /// Keys one connection may subscribe to.
    static let maxMetadataSubscriptions = 50
    /// Changes a connection may make to its own keys per `metadataRateWindow` (each may be a write
    /// to the store).
    static let metadataChangesPerWindow = 30
    static let metadataRateWindow: TimeInterval = 60

    func metadataCapValue(_ cap: String) -> String {
        "\(cap)=before-connect,max-subs=\(Self.maxMetadataSubscriptions),max-keys=\(ProfileFields.maxFields),"
            + "max-value-bytes=\(ProfileFields.maxValueBytes)"
    }

    enum MetadataTarget {
        case user(Client)
        case channel(ChannelState)
    }

    func metadata(_ client: Client, _ message: IRCMessage) {
        let params = message.params
        let sub = params[1].uppercased()
        let keys = Array(params.dropFirst(2))
        if ["GET", "SET", "SUB", "UNSUB"].contains(sub), keys.isEmpty {
            return reply(client, .needMoreParams, "METADATA", "Not enough parameters")
        }
        switch sub {
        case "SUB", "UNSUB", "SUBS":
            withState { state, out in self.metadataSubscriptions(&state, client, sub, keys, out: &out) }
        case "SET":
            metadataSet(
                client, params[0], key: keys[0], value: params.count > 3 && !params[3].isEmpty ? params[3] : nil)
        case "CLEAR":
            metadataClear(client, params[0])
        case "GET", "LIST", "SYNC":
            withState { state, out in self.metadataRead(&state, client, params[0], sub, keys, out: &out) }
        default:
            withState { _, out in
                self.metadataFail(client, "INVALID_PARAMS", [params[1]], "Unknown METADATA subcommand", out: &out)
            }
        }
    }

    func metadataFail(_ client: Client, _ code: String, _ params: [String], _ text: String, out: inout Outbox) {
        out.send(client, IRCMessage(source: serverName, command: "FAIL", params: ["METADATA", code] + params + [text]))
    }

    /// The nick replies are addressed to ("*" while registering).
    private func metadataNick(_ state: ChatState, _ client: Client) -> String {
        state[client].registered ? state[client].nick : "*"
    }

    private func metadataTarget(_ state: ChatState, _ client: Client, _ name: String) -> MetadataTarget? {
        if name == "*" { return .user(client) }
        let key = IRCNames.fold(name)
        if IRCNames.isChannel(name) { return state.channels[key].map { .channel($0) } }
        guard let other = state.nicks[key], state[other].registered else { return nil }
        return .user(other)
    }

    private func targetName(_ state: ChatState, _ client: Client, _ target: MetadataTarget) -> String {
        switch target {
        case .user(let user): user === client ? metadataNick(state, client) : state[user].nick
        case .channel(let channel): channel.name
        }
    }

    private func values(_ state: ChatState, _ target: MetadataTarget) -> [String: String] {
        switch target {
        case .user(let user): state[user].metadata
        case .channel(let channel): channel.metadata
        }
    }

    /// Whether `client` may read the target: anyone a user's, members a channel's.
    private func maySee(_ state: ChatState, _ client: Client, _ target: MetadataTarget) -> Bool {
        guard case .channel(let channel) = target else { return true }
        return channel.members[client.id] != nil
    }

    /// Whether `client` may change the target: oneself, or a channel one is an operator of.
    private func mayEdit(_ state: ChatState, _ client: Client, _ target: MetadataTarget) -> Bool {
        switch target {
        case .user(let user): user === client
        case .channel(let channel): channel.members[client.id]?.op == true
        }
    }

    private func keyValue(_ to: String, _ target: String, _ key: String, _ value: String, batch: String?) -> IRCMessage
    {
        IRCMessage(
            tags: batch.map { [IRCTag("batch", $0)] } ?? [], source: serverName, command: "761",
            params: [to, target, key, "*", value])
    }

    private func keyNotSet(_ to: String, _ target: String, _ key: String, batch: String?) -> IRCMessage {
        IRCMessage(
            tags: batch.map { [IRCTag("batch", $0)] } ?? [], source: serverName, command: "766",
            params: [to, target, key, "key not set"])
    }

    // MARK: reading

    private func metadataRead(
        _ state: inout ChatState, _ client: Client, _ name: String, _ sub: String, _ keys: [String],
        out: inout Outbox
    ) {
        guard let target = metadataTarget(state, client, name), state[client].registered || name == "*" else {
            return metadataFail(client, "INVALID_TARGET", [name], "No such nick or channel", out: &out)
        }
        guard maySee(state, client, target) else {
            return metadataFail(client, "KEY_NO_PERMISSION", [name, "*"], "You cannot see that", out: &out)
        }
        let me = metadataNick(state, client)
        let shown = targetName(state, client, target)
        let stored = values(state, target)
        let batch = openBatch(state, client, type: "metadata", params: [shown], out: &out)
        defer { closeBatch(client, batch, out: &out) }
        switch sub {
        case "GET":
            for key in keys {
                if !ProfileFields.isValidKey(key) {
                    metadataFail(client, "INVALID_KEY", [key], "Invalid key", out: &out)
                } else if let value = stored[key] {
                    out.send(client, keyValue(me, shown, key, value, batch: batch))
                } else {
                    out.send(client, keyNotSet(me, shown, key, batch: batch))
                }
            }
        case "LIST":
            for (key, value) in stored.sorted(by: { $0.key < $1.key }) {
                out.send(client, keyValue(me, shown, key, value, batch: batch))
            }
        default:  // SYNC: the subscribed keys of the target, and of a channel's members
            let subs = state[client].metadataSubs
            var targets = [target]
            if case .channel(let channel) = target { targets += channel.order.map { .user($0) } }
            for each in targets {
                let eachName = targetName(state, client, each)
                for (key, value) in values(state, each).sorted(by: { $0.key < $1.key }) where subs.contains(key) {
                    out.send(client, keyValue(me, eachName, key, value, batch: batch))
                }
            }
        }
    }

    // MARK: changing

    /// What must be checked before a change: the target, the permission, the key, the value, the
    /// count of keys and the rate. Nil when the change may go ahead.
    private func metadataRefusal(
        _ state: ChatState, _ client: Client, _ name: String, _ target: MetadataTarget?, key: String, value: String?
    ) -> (code: String, params: [String], text: String)? {
        if !state[client].registered, name != "*" {
            return ("KEY_NO_PERMISSION", [name, key], "Only your own keys before you finish connecting")
        }
        guard let target else { return ("INVALID_TARGET", [name], "No such nick or channel") }
        guard mayEdit(state, client, target) else {
            return ("KEY_NO_PERMISSION", [name, key], "You may not change that")
        }
        if key != "*", !ProfileFields.isValidKey(key) { return ("INVALID_KEY", [key], "Invalid key") }
        if let value {
            if let problem = ProfileFields.valueProblem(value) { return ("INVALID_VALUE", [key], problem) }
            let stored = values(state, target)
            if !ProfileFields.hasRoom(count: stored.count, replacing: stored[key] != nil) {
                let shown = targetName(state, client, target)
                return ("LIMIT_REACHED", [shown, String(ProfileFields.maxFields)], "Too many keys")
            }
        }
        return nil
    }

    /// Counts a change of one's own keys; false (with the FAIL sent) past the rate.
    private func metadataRateAllows(_ client: Client, _ name: String, key: String, out: inout Outbox) -> Bool {
        let now = Date()
        if now.timeIntervalSince(client.metadataWindowStart) >= Self.metadataRateWindow {
            (client.metadataWindowStart, client.metadataChanges) = (now, 0)
        }
        guard client.metadataChanges < Self.metadataChangesPerWindow else {
            let wait = Self.metadataRateWindow - now.timeIntervalSince(client.metadataWindowStart)
            let seconds = String(Int(wait.rounded(.up)))
            metadataFail(
                client, "RATE_LIMITED", [name, key, seconds], "Too many changes; try again in \(seconds) s", out: &out)
            return false
        }
        client.metadataChanges += 1
        return true
    }

    private func metadataSet(_ client: Client, _ name: String, key: String, value: String?) {
        let account: AccountRef?? = withState { state, out in
            let target = self.metadataTarget(state, client, name)
            if let refusal = self.metadataRefusal(state, client, name, target, key: key, value: value) {
                self.metadataFail(client, refusal.code, refusal.params, refusal.text, out: &out)
                return nil
            }
            guard case .user = target else { return .some(nil) }
            guard self.metadataRateAllows(client, self.metadataNick(state, client), key: key, out: &out) else {
                return nil
            }
            return .some(state[client].account)
        }
        guard let account else { return }
        guard let account else {
            return withState { state, out in self.applyMetadata(&state, client, name, [key: value], out: &out) }
        }
        let store = self.store
        later(client, { try? await Self.saveProfileField(store, account.id, key: key, value: value) }) { saved in
            self.withState { state, out in
                switch saved {
                case true?: self.applyMetadata(&state, client, name, [key: value], out: &out)
                case false?:
                    self.metadataFail(
                        client, "LIMIT_REACHED", [name, String(ProfileFields.maxFields)], "Too many keys", out: &out)
                case nil:
                    self.metadataFail(client, "INTERNAL_ERROR", [name, key], "Could not save it; try again", out: &out)
                }
            }
        }
    }

    /// Writes one of an account's keys: `bio` is the profile's bio, the rest profile fields.
    private static func saveProfileField(_ store: Store, _ accountID: Int64, key: String, value: String?) async throws
        -> Bool
    {
        if key == "bio" {
            try await store.setBio(accountID, value ?? "")
            return true
        }
        return try await store.setProfileField(accountID, key: key, value: value)
    }

    private func metadataClear(_ client: Client, _ name: String) {
        let cleared: (keys: [String], account: AccountRef?)? = withState { state, out in
            let target = self.metadataTarget(state, client, name)
            if let refusal = self.metadataRefusal(state, client, name, target, key: "*", value: nil) {
                self.metadataFail(client, refusal.code, refusal.params, refusal.text, out: &out)
                return nil
            }
            guard let target else { return nil }
            let keys = self.values(state, target).keys.sorted()
            guard case .user = target else { return (keys, nil) }
            guard self.metadataRateAllows(client, self.metadataNick(state, client), key: "*", out: &out) else {
                return nil
            }
            return (keys, state[client].account)
        }
        guard let cleared else { return }
        let changes = Dictionary(uniqueKeysWithValues: cleared.keys.map { ($0, String?.none) })
        @Sendable func apply() {
            withState { state, out in
                guard let target = self.metadataTarget(state, client, name) else { return }
                let batch = self.openBatch(state, client, type: "metadata", params: [name], out: &out)
                let me = self.metadataNick(state, client)
                let shown = self.targetName(state, client, target)
                for key in cleared.keys { out.send(client, self.keyNotSet(me, shown, key, batch: batch)) }
                self.closeBatch(client, batch, out: &out)
                self.applyMetadata(&state, client, name, changes, reply: false, out: &out)
            }
        }
        guard let account = cleared.account else { return apply() }
        let store = self.store
        later(
            client,
            {
                for key in cleared.keys {
                    _ = try? await Self.saveProfileField(store, account.id, key: key, value: nil)
                }
            }
        ) { apply() }
    }

    /// Changes keys (nil: removes them), answers the one who changed them and tells subscribers.
    /// An account's keys change on all its connections.
    private func applyMetadata(
        _ state: inout ChatState, _ client: Client, _ name: String, _ changes: [String: String?],
        reply: Bool = true, out: inout Outbox
    ) {
        guard let target = metadataTarget(state, client, name) else { return }
        switch target {
        case .user(let user):
            let owners =
                state[user].account.map { account in
                    state.clients.values.filter { state[$0].account?.id == account.id }
                } ?? [user]
            for owner in owners {
                for (key, value) in changes { state[owner].metadata[key] = value }
            }
        case .channel(let channel):
            for (key, value) in changes { channel.metadata[key] = value }
        }
        let shown = targetName(state, client, target)
        if reply {
            let me = metadataNick(state, client)
            for (key, value) in changes {
                out.send(
                    client,
                    value.map { keyValue(me, shown, key, $0, batch: nil) } ?? keyNotSet(me, shown, key, batch: nil))
            }
        }
        guard state[client].registered else { return }  // nobody sees a user who is still connecting
        for receiver in metadataAudience(state, target) where receiver !== client {
            let subs = state[receiver].metadataSubs
            let to = state[receiver].nick
            for (key, value) in changes where subs.contains(key) {
                out.send(
                    receiver,
                    value.map { keyValue(to, shown, key, $0, batch: nil) } ?? keyNotSet(to, shown, key, batch: nil))
            }
        }
    }

    /// Who hears of a change: connections with the cap and a subscription that share a channel
    /// with the user (and the user's other devices), or are in the channel.
    private func metadataAudience(_ state: ChatState, _ target: MetadataTarget) -> [Client] {
        var seen = Set<Int>()
        var audience: [Client] = []
        func add(_ other: Client) {
            guard state[other].registered, !state[other].metadataSubs.isEmpty,
                !state[other].caps.isDisjoint(with: Self.metadataCaps), seen.insert(other.id).inserted
            else { return }
            audience.append(other)
        }
        switch target {
        case .user(let user):
            if let account = state[user].account {
                for other in state.clients.values where state[other].account?.id == account.id { add(other) }
            }
            for key in state[user].channels {
                for member in state.channels[key]?.order ?? [] { add(member) }
            }
        case .channel(let channel):
            for member in channel.order { add(member) }
        }
        return audience
    }

    // MARK: subscriptions

    private func metadataSubscriptions(
        _ state: inout ChatState, _ client: Client, _ sub: String, _ keys: [String], out: inout Outbox
    ) {
        let me = metadataNick(state, client)
        switch sub {
        case "SUB":
            if let bad = keys.first(where: { !ProfileFields.isValidKey($0) }) {
                return metadataFail(client, "INVALID_KEY", [bad], "Invalid key", out: &out)
            }
            var added: [String] = []
            for key in keys {
                if !state[client].metadataSubs.contains(key),
                    state[client].metadataSubs.count >= Self.maxMetadataSubscriptions
                {
                    metadataFail(
                        client, "LIMIT_REACHED", [key, String(Self.maxMetadataSubscriptions)], "Too many subscriptions",
                        out: &out)
                    break
                }
                state[client].metadataSubs.insert(key)
                added.append(key)
            }
            if !added.isEmpty {
                out.send(client, IRCMessage(source: serverName, command: "770", params: [me] + added))
            }
        case "UNSUB":
            let removed = keys.filter { state[client].metadataSubs.remove($0) != nil }
            out.send(client, IRCMessage(source: serverName, command: "771", params: [me] + removed))
        default:  // SUBS
            let batch = openBatch(state, client, type: "metadata-subs", params: [], out: &out)
            let subs = state[client].metadataSubs.sorted()
            for start in stride(from: 0, to: subs.count, by: 10) {
                out.send(
                    client,
                    IRCMessage(
                        tags: batch.map { [IRCTag("batch", $0)] } ?? [], source: serverName, command: "772",
                        params: [me] + subs[start..<min(start + 10, subs.count)]))
            }
            closeBatch(client, batch, out: &out)
        }
    }

    // MARK: moments others' code calls

    /// After a JOIN: the joiner hears the channel's and its members' subscribed keys; the members
    /// hear the joiner's.
    func metadataAfterJoin(_ state: inout ChatState, _ client: Client, _ channel: ChannelState, out: inout Outbox) {
        func subscribes(_ other: Client) -> Bool {
            !state[other].metadataSubs.isEmpty && !state[other].caps.isDisjoint(with: Self.metadataCaps)
        }
        if subscribes(client) {
            let me = state[client].nick
            let subs = state[client].metadataSubs
            for (key, value) in channel.metadata.sorted(by: { $0.key < $1.key }) where subs.contains(key) {
                out.send(client, keyValue(me, channel.name, key, value, batch: nil))
            }
            for member in channel.order where member !== client {
                for (key, value) in state[member].metadata.sorted(by: { $0.key < $1.key }) where subs.contains(key) {
                    out.send(client, keyValue(me, state[member].nick, key, value, batch: nil))
                }
            }
        }
        let mine = state[client].metadata
        guard !mine.isEmpty else { return }
        for member in channel.order where member !== client && subscribes(member) {
            let subs = state[member].metadataSubs
            for (key, value) in mine.sorted(by: { $0.key < $1.key }) where subs.contains(key) {
                out.send(member, keyValue(state[member].nick, state[client].nick, key, value, batch: nil))
            }
        }
    }

    /// After the welcome: the keys set while registering (or loaded with the account), once.
    func metadataBurst(_ state: inout ChatState, _ client: Client, out: inout Outbox) {
        let mine = state[client].metadata
        guard !mine.isEmpty, !state[client].caps.isDisjoint(with: Self.metadataCaps) else { return }
        let nick = state[client].nick
        let batch = openBatch(state, client, type: "metadata", params: [nick], out: &out)
        for (key, value) in mine.sorted(by: { $0.key < $1.key }) {
            out.send(client, keyValue(nick, nick, key, value, batch: batch))
        }
        closeBatch(client, batch, out: &out)
    }

    /// WHOIS: each of the user's keys as 760.
    func whoisMetadata(_ state: ChatState, _ client: Client, _ target: Client, out: inout Outbox) {
        for (key, value) in state[target].metadata.sorted(by: { $0.key < $1.key }) {
            out.send(
                client,
                IRCMessage(
                    source: serverName, command: "760",
                    params: [state[client].nick, state[target].nick, key, "*", value]
                ))
        }
    }

    /// A login: the account's profile becomes the keys of its connections.
    func loadProfile(_ state: inout ChatState, accountID: Int64, _ fields: [String: String]) {
        for other in state.clients.values where state[other].account?.id == accountID {
            state[other].metadata = fields
        }
    }
}
