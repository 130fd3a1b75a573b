import HearthAccounts

/// Others see a user's host as a cloak (`HostCloak`): a family member's or a stranger's home
/// address is not in every prefix, WHO, WHOWAS, history line and network announcement.
/// `Client.host` is the cloak, made once when the connection starts, so every place that
/// shows a host shows it; `Client.address` keeps the real address for the per-address limits,
/// for bans written with it, and for the user itself and operators (WHOIS 338, WHO's %i).
extension Core {
    /// The host shown for a connection from `address`.
    func shownHost(for address: String) -> String { cloak?.host(for: address) ?? address }

    /// A stored `nick!user@host` (history, a topic's setter) as it is shown now: one kept
    /// before hosts were cloaked shows the cloak of its address.
    func shownSource(_ source: String) -> String { cloak?.source(source) ?? source }

    /// `viewer` may see `target`'s real address: it is its own, or the viewer is an operator.
    /// A user of another node's address stays on its node (only the cloak travels).
    func seesAddress(_ state: ChatState, of target: Client, viewer: Client) -> Bool {
        (viewer === target || state[viewer].isOper) && !target.isRemote
    }
}
