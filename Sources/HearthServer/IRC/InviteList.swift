import HearthProtocol

/// `INVITE` without parameters lists the channels one is invited to (336, then 337), as
/// modern.ircdocs.horse describes; with them it invites.
extension Core {
    func inviteOrList(_ client: Client, _ message: IRCMessage) {
        guard !message.params.isEmpty else { return inviteList(client) }
        guard message.params.count >= 2, !message.params[0].isEmpty, !message.params[1].isEmpty else {
            return reply(client, .needMoreParams, "INVITE", "Not enough parameters: INVITE <nick> <channel>")
        }
        invite(client, message)
    }

    private func inviteList(_ client: Client) {
        withState { state, out in
            let key = state[client].nickKey
            let channels = state.channels.values.filter { $0.invited.contains(key) }.map(\.name).sorted()
            for name in channels { out.send(client, numeric(state, client, .inviteList, name)) }
            out.send(client, numeric(state, client, .endOfInviteList, "End of /INVITE list"))
        }
    }
}
