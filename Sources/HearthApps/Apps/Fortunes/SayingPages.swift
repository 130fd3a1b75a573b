import Foundation
import HearthKit
import HearthStore

/// Your sayings on your fortune page (`/fortunes`): the list with where each one goes, a form
/// that writes one (`!saying add`) and a button that proposes one (`!saying propose ID`).
enum SayingPages {
    static let template = """
        <section class="sayings">
          <h2>Your sayings ({{sayingCount}} of {{maxSayings}})</h2>
          <p class="meta">Your friends' cookies (mutual follows) may draw them, credited to you; a proposed
            one goes to everyone's once a moderator approves it.</p>
          <ul class="sayings">
          {{#sayings}}<li><q>{{text}}</q> <span class="meta">#{{id}} · {{status}}</span>
            {{#proposable}}<form method="post" action="/fortunes/sayings/{{id}}/propose" class="inline">
              <input type="hidden" name="csrf" value="{{csrf}}"><button>Propose to everyone</button></form>
            {{/proposable}}</li>
          {{/sayings}}
          </ul>
          <form method="post" action="/fortunes/sayings" class="card saying-form">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label>A saying of your own <input name="text" maxlength="{{maxSayingLength}}" required
              placeholder="A watched pot boils eventually."></label>
            <button>Keep it for my friends</button></form>
          <p class="commands">In chat: <code>!saying add TEXT</code> · <code>!saying propose ID</code> ·
            <code>!saying list</code></p>
        </section>
        """

    /// The viewer's sayings as the template shows them.
    static func values(_ store: any Store, _ viewer: AccountRef) async throws -> [String: Any] {
        let mine = try await store.sayings(of: viewer.id)
        return [
            "sayingCount": mine.count, "maxSayings": SayingCommands.maxPerAccount,
            "maxSayingLength": SayingCommands.maxLength,
            "sayings": mine.map { s -> [String: Any] in
                [
                    "id": s.id, "text": s.text, "status": SayingCommands.statusText(s.status),
                    "proposable": s.status == .friends,
                ]
            },
        ]
    }

    static let actions: [WebAction] = [
        WebAction(
            "/fortunes/sayings",
            command: { _, form in
                let text = (form["text"] ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
                return "!saying add \(text)"
            }, back: { _ in "/fortunes" }),
        WebAction(
            "/fortunes/sayings/:id/propose",
            command: { p, _ in p["id"].flatMap { Int64($0) }.map { "!saying propose \($0)" } },
            back: { _ in "/fortunes" }),
    ]
}
