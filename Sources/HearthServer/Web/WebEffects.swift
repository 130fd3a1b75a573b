import HearthKit

extension Core {
    /// What a web form's command does to the account's connections (a password change or
    /// `!logout all` signs them out, a deletion ends them), on every node as chat's answers do.
    /// The web has no connection of its own: its login and logout are the session cookie, which
    /// the form's answer sets.
    func applyFromWeb(_ effects: [SessionEffect]) {
        guard !effects.isEmpty else { return }
        withState { state, out in
            for effect in effects { applyEverywhere(&state, effect, for: nil, out: &out) }
        }
    }
}
