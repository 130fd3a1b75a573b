import HearthKit

/// Lists an owner shows to friends only (`!set privacy friends`: their memes, cookies and
/// fortune map) asked for by a friend in a channel, where strangers read too, are answered to
/// the friend privately. The owner asking shows their own.
enum ListPrivacy {
    static func kept(_ response: BotResponse, _ request: BotRequest, owner: Int64) async throws -> BotResponse {
        guard request.caller.channel != nil, request.caller.account?.id != owner,
            !(try await request.services.store.mayViewLists(of: owner, viewer: nil))
        else { return response }
        return response.privately
    }
}
