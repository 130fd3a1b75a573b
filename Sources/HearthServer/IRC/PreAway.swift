import HearthProtocol

/// draft/pre-away: a client that negotiated it may send AWAY before registration (a device
/// connecting on its own, to fetch history, need not look present). `AWAY *` means away for
/// no given reason. The state is set quietly; the welcome tells the network.
extension Core {
    static let preAwayCap = "draft/pre-away"

    /// AWAY before registration: sets the away message (or clears it), answers 306 or 305.
    func awayBeforeRegistration(_ client: Client, _ text: String?) {
        withState { state, out in
            state[client].away = text
            sendAwayAnswer(state, client, out: &out)
        }
    }

    /// 306 when `client` is away now, 305 when it is back (AWAY's answer, before or after registration).
    func sendAwayAnswer(_ state: ChatState, _ client: Client, out: inout Outbox) {
        if state[client].away == nil {
            out.send(client, numeric(state, client, .unaway, "You are no longer marked as being away"))
        } else {
            out.send(client, numeric(state, client, .nowAway, "You have been marked as being away"))
        }
    }
}
