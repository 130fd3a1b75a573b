import HearthAccounts
import HearthKit
import HearthProtocol
import HearthStore

/// What lets `!register` skip the accounts-per-address limit: a family's invite code (the new
/// account joins the family) or an operator's (`hearth invite`). The code is claimed before the
/// account is made, so two registrations racing with one code cannot both skip the limit; a
/// registration that then fails gives it back.
enum RegistrationPass {
    case family(FamilyInvite)
    case operatorInvite(codeHashes: [String])

    /// Claims `code`; wrong codes are throttled per address, as `!tree join`'s.
    static func claim(_ services: BotServices, code: String, address: String) async throws -> RegistrationPass {
        let throttle = services.throttle
        let attempt: LoginThrottle.Attempt
        do {
            attempt = try await throttle.begin(keys: ["addr:" + AddressGroup.key(address)])
        } catch {
            throw BotError("too many wrong codes; try again in \(error.seconds) s")
        }
        var verdict: Bool?
        defer { throttle.finish(attempt, success: verdict) }
        let now = services.clock.now()
        let familyHashes = services.codes.candidates(FamilyCommands.inviteKey(code))
        if let invite = try await services.store.takeFamilyInvite(codeHashes: familyHashes, now: now) {
            verdict = true
            return .family(invite)
        }
        let hashes = [services.codes.hash(AccountService.registrationInviteKey(code))]
        if try await services.store.claimRegistrationInvite(codeHashes: hashes, now: now) {
            verdict = true
            return .operatorInvite(codeHashes: hashes)
        }
        verdict = false
        throw BotError("that invite code is unknown, used or expired — ask for a new one")
    }

    /// The account was not made: the code works again.
    func giveBack(_ services: BotServices) async {
        switch self {
        case .family(let invite): _ = try? await services.store.addFamilyInvite(invite, now: services.clock.now())
        case .operatorInvite(let hashes): try? await services.store.returnRegistrationInvite(codeHashes: hashes)
        }
    }

    /// What the pass does once the account exists: a family's joins the family.
    func use(_ services: BotServices, _ me: AccountRef) async -> BotResponse {
        guard case .family(let invite) = self else { return BotResponse([]) }
        do {
            let family = try await services.store.joinFamily(
                invite: invite, accountID: me.id, now: services.clock.now())
            let inviter = try await services.store.account(id: invite.inviterId)?.name ?? "someone"
            let role = invite.relation.map { " as \(Words.possessive(inviter)) \($0.rawValue)" } ?? ""
            return BotResponse(
                [
                    "Welcome to \(family.name)\(role)! !tree shows the family; "
                        + "its private channel is \(FamilyCommands.channelName(family.id))."
                ],
                effects: [
                    .notify(
                        accountID: invite.inviterId,
                        text: "\(me.name) joined \(family.name)"
                            + (invite.relation.map { " as your \($0.rawValue)" } ?? "") + "."
                    )
                ] + (try await FamilyCommands.membershipEffects(services, family, joining: me.id)))
        } catch {
            return BotResponse(["joining the family failed (was it deleted?); ask for a new invite and !tree join it"])
        }
    }
}
