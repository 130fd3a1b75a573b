import Foundation
import HearthStore

/// Pieces every app's templates share, registered under these names: `{{> paging}}` reads the
/// `paging` value of `WebPaging.links`; `{{> comments}}` reads `comments` (see `comments(_:now:)`)
/// and `paging`; `{{> ways}}` (the home page's ways in) reads `host` and `ircPort`, which the
/// server gives the home page.
public enum WebPartials {
    public static let all: [String: String] = ["paging": paging, "comments": comments, "ways": ways]

    static let ways = """
        <ul class="ways">
          <li>From a terminal: <code>nc {{host}} {{ircPort}}</code></li>
          <li>From an IRC client: server <code>{{host}}</code>, port <code>{{ircPort}}</code></li>
          <li>From this browser: <a href="/chat">the web chat</a></li>
        </ul>
        <p>Then say <code>!help</code> to the bot <b>hearth</b>.</p>
        """

    static let paging = """
        {{#paging}}<nav class="paging">{{#previous}}<a href="?page={{previous}}">← previous</a>{{/previous}}
          page {{page}} of {{pages}} {{#next}}<a href="?page={{next}}">next →</a>{{/next}}</nav>{{/paging}}
        """

    static let comments = """
        <h2>Comments</h2>
        {{#comments}}
        <div class="comment" id="c{{id}}"><b>{{author}}</b> <span class="text">{{text}}</span>
          <span class="ago">{{ago}}</span></div>
        {{/comments}}
        {{^comments}}<p class="empty">No comments yet.</p>{{/comments}}
        {{> paging}}
        """

    /// The values of `{{> comments}}`, one per comment.
    public static func comments(_ rows: [CommentRow], now: Date) -> [[String: Any]] {
        rows.map {
            ["id": $0.id, "author": $0.author, "text": $0.text, "ago": TimeText.ago(from: $0.createdAt, to: now)]
        }
    }
}
