import Foundation
import HearthKit
import HearthStore

/// Which push endpoints Hearth sends to. A subscription names any URL its owner likes, so
/// without these rules the server would fetch internal addresses for them (SSRF): only https,
/// and only hosts that resolve to public addresses, unless `--push-local-endpoints` (tests).
/// The host is checked when the endpoint is given and resolved again for each delivery.
enum PushEndpoints {
    /// Why an endpoint is refused when it is given, or nil.
    static func problem(_ endpoint: String, allowLocal: Bool) -> String? {
        guard endpoint.count <= PushRules.maxEndpointLength else {
            return "the endpoint is over \(PushRules.maxEndpointLength) characters"
        }
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(), let host = url.host,
            !host.isEmpty, url.user == nil, url.password == nil
        else { return "not a URL" }
        guard scheme == "https" || (allowLocal && scheme == "http") else { return "the endpoint must be https" }
        if !allowLocal, OutboundAddress.isAddressLiteral(host), !OutboundAddress.isPublic(host) {
            return "not a public address"
        }
        return nil
    }
}
