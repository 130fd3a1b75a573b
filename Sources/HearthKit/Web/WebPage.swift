import Foundation
import HearthProtocol
import HearthStore

/// A page an app serves on the HTTP port. The server renders `template` inside the site's
/// layout; `load` reads through the same store and rules the app's commands use, so the web
/// cannot show what chat would refuse.
public struct WebPage: Sendable {
    /// The route, as Hummingbird reads it: `/m/:id`.
    public var path: String
    /// The template's name (unique across apps) and its Mustache source (escaped by default).
    public var name: String
    public var template: String
    /// The link to it in every page's header, for an app's index page (nil: no link).
    public var nav: WebNavLink?
    public var load: @Sendable (WebRequest) async throws -> WebContent

    public init(
        _ path: String, name: String, template: String, nav: WebNavLink? = nil,
        load: @escaping @Sendable (WebRequest) async throws -> WebContent
    ) {
        (self.path, self.name, self.template, self.nav, self.load) = (path, name, template, nav, load)
    }
}

/// A link in the site's header to an app's index page: the server builds the header from the
/// pages it serves, so it names no app.
public struct WebNavLink: Sendable {
    public var label: String
    /// Where it sits among the header's links: lower first (the apps' order breaks ties).
    public var position: Int

    public init(_ label: String, position: Int) { (self.label, self.position) = (label, position) }
}

/// A form an app accepts from a signed-in user. It becomes one bot command said by that user,
/// so a like or a comment from the web obeys exactly the rules it obeys in chat.
public struct WebAction: Sendable {
    /// The route of the POST: `/m/:id/like`.
    public var path: String
    /// The command line to run (`!like 12`) from the route's parameters and the form's
    /// fields; nil when the form is not one this action understands.
    public var command: @Sendable (_ parameters: [String: String], _ form: [String: String]) -> String?
    /// Where the browser goes afterwards: the page the form was on.
    public var back: @Sendable (_ parameters: [String: String]) -> String
    /// The form carries a whole text (a recipe), so it may be longer than a short form (a
    /// comment); its lines reach the command as its block (`CommandLineInput.block`).
    public var isLong = false
    /// The form may instead send a chosen text file (`multipart/form-data`) of up to this many
    /// bytes, its text the field `fileField`: a file past a text form's limit (a GEDCOM file).
    public var fileLimit: Int?
    public var fileField = "file"
    /// The page the form leads to shows what the command did (a cookie card), so its chat
    /// answer is not repeated above it; a failure still is.
    public var quiet = false
    /// The page that holds the form: when the command fails, it is shown again (422) with what
    /// was typed (`WebRequest.form`) and the answer as its `problem`, so nothing typed is lost.
    public var formPage: WebPage?

    public init(
        _ path: String, command: @escaping @Sendable ([String: String], [String: String]) -> String?,
        back: @escaping @Sendable ([String: String]) -> String
    ) {
        (self.path, self.command, self.back) = (path, command, back)
    }
}

/// What a page handler is given: the route's and query's values and who is looking.
public struct WebRequest: Sendable {
    public var parameters: [String: String]
    public var query: [String: String]
    /// The signed-in account, or nil for a visitor.
    public var viewer: AccountRef?
    public var services: BotServices
    /// The page's route (`/u/:name`), to send a renamed person's old address to the new one.
    public var route: String
    /// What was typed into the page's form, when it is shown again after its command failed
    /// (`WebAction.formPage`); empty otherwise.
    public var form: [String: String] = [:]

    public init(
        parameters: [String: String], query: [String: String], viewer: AccountRef?, services: BotServices,
        route: String = ""
    ) {
        (self.parameters, self.query, self.viewer, self.services) = (parameters, query, viewer, services)
        self.route = route
    }

    /// What a path segment keeps as it is (ASCII: a Location header carries no other).
    static let plainPathCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// The account the route's `parameter` names. A name its owner changed since (`!rename`)
    /// moves the page to the new name, until someone else takes the old one; a viewer the
    /// account blocks is not told where it went.
    public func person(_ parameter: String = "name") async throws -> Stored<Account> {
        let store = services.store
        let name = parameters[parameter] ?? ""
        let key = IRCNames.fold(name)
        if let account = try await store.account(nameKey: key) { return account }
        guard let renamed = try await store.account(formerNameKey: key) else {
            throw WebRefusal.notFound("Nobody is called \(name).")
        }
        if let viewer, try await store.isBlocked(viewer.id, by: renamed.id) {
            throw WebRefusal.notFound("Nobody is called \(name).")
        }
        let path = route.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment == ":" + parameter
                ? renamed.name.addingPercentEncoding(withAllowedCharacters: Self.plainPathCharacters) ?? renamed.name
                : String(segment)
        }
        throw WebRefusal.moved(path.joined(separator: "/"))
    }

    /// A positive number from the route (`/m/:id`), or a 404.
    public func id(_ name: String = "id") throws -> Int64 {
        guard let id = parameters[name].flatMap({ Int64($0) }), id > 0 else {
            throw WebRefusal.notFound("No such page.")
        }
        return id
    }

    /// The page number of a paged list (1 when absent or wrong).
    public var page: Int { query["page"].flatMap { Int($0) }.map { max(1, min($0, 10_000)) } ?? 1 }

    /// The signed-in account, or a refusal asking to sign in.
    public func signedIn(_ why: String) throws -> AccountRef {
        guard let viewer else { throw WebRefusal.signInRequired(why) }
        return viewer
    }
}

/// A page's content: its title and preview (Open Graph) and the values its template reads.
public struct WebContent: @unchecked Sendable {  // `values` holds plain strings, numbers, arrays.
    public var title: String
    /// One line for link previews (`og:description`).
    public var summary: String
    /// A picture for link previews (`og:image`), as a site path (`/i/ID.png`).
    public var image: String?
    public var values: [String: Any]

    public init(title: String, summary: String, image: String? = nil, values: [String: Any]) {
        (self.title, self.summary, self.image, self.values) = (title, summary, image, values)
    }
}

/// Why a page is not shown. The message is shown to the visitor.
public enum WebRefusal: Error, Sendable {
    case notFound(String)
    /// Only a signed-in user may see it: the page offers the sign-in form.
    case signInRequired(String)
    /// Signed in, but not allowed (not a member of that family).
    case forbidden(String)
    /// The page is at this path now (its person was renamed): the visitor is sent there.
    case moved(String)
}
