import AsyncHTTPClient
import Foundation
import HearthKit
import NIOCore
import Synchronization

/// The Edamam Recipe Search API (v2), for `!edamam`: results are shown, and one can be
/// imported as a Hearth recipe citing its source.
public struct EdamamConfig: Sendable {
    public var appID: String
    public var appKey: String
    /// https://api.edamam.com, or a local server in tests.
    public var baseURL: String

    public init(appID: String, appKey: String, baseURL: String = "https://api.edamam.com") {
        (self.appID, self.appKey, self.baseURL) = (appID, appKey, baseURL)
    }
}

public struct EdamamRecipe: Sendable, Equatable, Decodable {
    public var label: String
    public var url: String
    public var source: String?
    public var ingredientLines: [String]
    public var cuisineType: [String]?
    public var dietLabels: [String]?
    public var totalTime: Double?
}

public final class EdamamClient: Sendable {
    public let config: EdamamConfig
    /// The last results each account saw, for `!edamam save N`.
    private let lastResults = Mutex<[Int64: [EdamamRecipe]]>([:])
    public static let resultsShown = 5
    public static let maxResponseBytes = 2 * 1024 * 1024
    public static let timeout: TimeAmount = .seconds(10)

    public init(config: EdamamConfig) { self.config = config }

    struct Response: Decodable {
        struct Hit: Decodable { var recipe: EdamamRecipe }
        var hits: [Hit]
    }

    public func search(_ words: String, for accountID: Int64) async throws -> [EdamamRecipe] {
        var components = URLComponents(string: config.baseURL + "/api/recipes/v2")!
        components.queryItems = [
            URLQueryItem(name: "type", value: "public"), URLQueryItem(name: "q", value: words),
            URLQueryItem(name: "app_id", value: config.appID), URLQueryItem(name: "app_key", value: config.appKey),
        ]
        var request = HTTPClientRequest(url: components.string!)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Edamam-Account-User", value: "hearth-\(accountID)")
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.shared.execute(request, timeout: Self.timeout)
        } catch {
            throw BotError("Edamam could not be reached (\(type(of: error))); try again later")
        }
        let body = try await response.body.collect(upTo: Self.maxResponseBytes)
        switch response.status.code {
        case 200: break
        case 401, 403:
            throw BotError(
                "Edamam refused the app id or key; the operator should check --edamam-app-id and --edamam-app-key")
        case 429: throw BotError("Edamam says too many requests; wait a minute")
        default: throw BotError("Edamam answered \(response.status.code); try again later")
        }
        guard let decoded = try? JSONDecoder().decode(Response.self, from: Data(body.readableBytesView)) else {
            throw BotError("Edamam's answer was not what I expected; try again later")
        }
        let recipes = Array(decoded.hits.map(\.recipe).prefix(Self.resultsShown))
        lastResults.withLock { $0[accountID] = recipes }
        return recipes
    }

    public func lastResult(_ index: Int, for accountID: Int64) -> EdamamRecipe? {
        lastResults.withLock { results in
            guard let list = results[accountID], index >= 1, index <= list.count else { return nil }
            return list[index - 1]
        }
    }
}
