import Foundation

/// Operators' invites (`hearth invite`): a code that lets up to N accounts register past the
/// accounts-per-address limit until it expires. Only the code's keyed hash is kept.
public protocol RegistrationInviteStore: Sendable {
    /// Stores an invite good for `uses` registrations until `expiresAt` (expired ones go).
    func addRegistrationInvite(codeHash: String, uses: Int, expiresAt: Date, now: Date) async throws

    /// Takes one use of an open invite with one of these hashes, before the account is made
    /// (so two registrations cannot both use a code's last one); false when none is open.
    func claimRegistrationInvite(codeHashes: [String], now: Date) async throws -> Bool

    /// Gives back a use `claimRegistrationInvite` took (the registration then failed).
    func returnRegistrationInvite(codeHashes: [String]) async throws
}
