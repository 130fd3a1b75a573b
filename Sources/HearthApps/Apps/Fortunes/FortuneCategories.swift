import Foundation
import HearthKit

/// Categories of sayings: `!fortune science`, `!fortune categories`, and the `fortunes` setting
/// (`!set fortunes wisdom,science`) that a cookie opened without one draws from.
enum FortuneCategories {
    static let settingKey = "fortunes"
    /// The setting's value for every category.
    static let all = "all"
    /// Categories one setting may name.
    static let maxChosen = 10

    /// The server's catalogue, or why there is none.
    static func catalogue(_ request: BotRequest) throws -> FortuneCatalogue {
        guard let catalogue = request.services.fortunes, !catalogue.sayings.isEmpty else {
            throw BotError("the fortune catalogue is empty on this server")
        }
        return catalogue
    }

    /// The catalogue's categories and those of users' sayings (`SayingCommands.categories`).
    static func names(_ catalogue: FortuneCatalogue) -> [String] {
        Array(Set(catalogue.categories + SayingCommands.categories)).sorted()
    }

    /// The category `word` names, or an error naming the near ones and the list.
    static func named(_ word: String, in catalogue: FortuneCatalogue) throws -> String {
        let name = word.lowercased()
        let names = names(catalogue)
        if names.contains(name) { return name }
        let near = Suggest.closest(to: name, in: names)
        let guess = near.isEmpty ? "." : " — did you mean \(near.joined(separator: " or "))?"
        throw BotError(
            "there is no fortune category \"\(word)\"\(guess) Categories: "
                + "\(names.joined(separator: ", ")). Give a place as @LAT,LON or @City")
    }

    /// The categories the `fortunes` setting names that this server has (nil: all of them).
    static func chosen(_ setting: String?, in catalogue: FortuneCatalogue) -> Set<String>? {
        guard let setting, setting != all else { return nil }
        let known = Set(setting.split(separator: ",").map(String.init)).intersection(names(catalogue))
        return known.isEmpty ? nil : known  // an operator may have taken a category away
    }

    /// `!set fortunes …`: "all", or categories of this server separated by commas.
    static func validate(_ raw: String, in catalogue: FortuneCatalogue?) -> Result<String, BotError> {
        let value = raw.lowercased()
        if value == all { return .success(all) }
        let words = value.split(separator: ",", omittingEmptySubsequences: true).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !words.isEmpty, words.count <= maxChosen else {
            return .failure(BotError("name 1 to \(maxChosen) categories, e.g. !set fortunes wisdom,science (or all)"))
        }
        var names: [String] = []
        for word in words {
            guard let catalogue else { return .failure(BotError("this server has no fortune categories")) }
            do {
                let name = try named(word, in: catalogue)
                if !names.contains(name) { names.append(name) }
            } catch let error as BotError {
                return .failure(error)
            } catch {
                return .failure(BotError("\(error)"))
            }
        }
        return .success(names.joined(separator: ","))
    }

    /// `!fortune categories`: each with how many sayings it has, and the reader's choice.
    static func list(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        let catalogue = try catalogue(request)
        let mine = chosen(request.settings?[settingKey], in: catalogue)
        let store = request.services.store
        let users = [
            SayingCommands.friendsCategory: try await store.friendSayings(of: me.id, limit: SayingCommands.friendsPool)
                .count,
            SayingCommands.communityCategory: try await store.sayingCount(status: .approved),
        ]
        let rows = names(catalogue).map { name in
            "\(mine?.contains(name) == true ? "*" : "")\(name) (\(users[name] ?? catalogue.count(in: name)))"
        }
        let choice = mine.map { "yours: \($0.sorted().joined(separator: ","))" } ?? "yours: all"
        return BotResponse([
            "\(request.style.bold("Fortune categories")): \(rows.joined(separator: " · "))",
            request.style.dim(
                "\(choice) · !fortune CATEGORY opens today's cookie from one · !set fortunes wisdom,science"
                    + " chooses what !fortune draws from (all: everything)"),
        ])
    }
}
