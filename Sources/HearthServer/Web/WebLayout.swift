/// The site's own templates: the layout every page sits in, the home, sign-in and error pages.
enum WebLayout {
    /// What the layout shows around a page's body.
    struct Frame {
        var title: String
        var summary: String
        var url: String
        var image: String?
        var nav: [(path: String, label: String)]
        /// The site's stylesheet, linked with its version (`WebAssets.link`).
        var stylesheet: String
        /// The site's script (`hearth.js`: small behaviours, the service worker), linked with its version.
        var script: String = "/static/hearth.js"
        var viewer: (name: String, key: String)?
        var csrf: String
        var flash: String?
    }

    /// The layout every page sits in, written out here rather than as a template: it is on every
    /// page, and Mustache's lookups through `[String: Any]` were a third of a page's rendering.
    /// Every value goes through `WebEscaping.escape`.
    static func page(_ frame: Frame, body: String) -> String {
        let e = WebEscaping.escape
        let (title, summary) = (e(frame.title), e(frame.summary))
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(frame.title == "Hearth" ? title : title + " · Hearth")</title>
            <meta name="description" content="\(summary)">
            <meta property="og:site_name" content="Hearth"><meta property="og:type" content="website">
            <meta property="og:title" content="\(title)"><meta property="og:description" content="\(summary)">
            <meta property="og:url" content="\(e(frame.url))">

            """
        if let image = frame.image.map(e) {
            html += """
                <meta property="og:image" content="\(image)"><meta name="twitter:card" content="summary_large_image">
                <meta name="twitter:image" content="\(image)">

                """
        } else {
            html += "<meta name=\"twitter:card\" content=\"summary\">\n"
        }
        html += """
            <meta name="twitter:title" content="\(title)"><meta name="twitter:description" content="\(summary)">
            <link rel="stylesheet" href="\(e(frame.stylesheet))">
            <link rel="icon" href="/static/icon.svg" type="image/svg+xml">
            <link rel="apple-touch-icon" href="/static/icon-180.png">
            <link rel="manifest" href="/manifest.webmanifest"><meta name="theme-color" content="#1c1917">
            <script src="\(e(frame.script))" defer></script>
            </head><body>
            <header><a class="brand" href="/">🔥 Hearth</a>
              <nav>
            """
        for link in frame.nav { html += "<a href=\"\(e(link.path))\">\(e(link.label))</a> " }
        html += "<a href=\"/chat\">Chat</a></nav>\n  <div class=\"who\">"
        if let viewer = frame.viewer {
            html += """
                <a href="/u/\(e(viewer.key))">\(e(viewer.name))</a> <a href="/settings">Settings</a>
                    <form method="post" action="/signout"><input type="hidden" name="csrf" value="\(e(frame.csrf))">
                    <button class="link">Sign out</button></form>
                """
        } else {
            html += "<a href=\"/signin\">Sign in</a> <a href=\"/signup\">Sign up</a>"
        }
        html += "</div>\n</header>\n"
        if let flash = frame.flash { html += "<p class=\"flash\" role=\"status\">\(e(flash))</p>\n" }
        html += """
            <main>\(body)</main>
            <footer>Hearth · chat with <code>nc</code>, any IRC client or <a href="/chat">the web</a></footer>
            </body></html>
            """
        return html
    }

    static let home = """
        <h1>Welcome to {{network}}</h1>
        <p>A chat server with a bot of small social apps: memes, a daily fortune cookie, recipes and a family tree.</p>
        {{> ways}}
        """

    static let signIn = """
        <h1>Sign in</h1>
        {{#problem}}<p class="problem" role="alert">{{problem}}</p>{{/problem}}
        <form method="post" action="/signin" class="signin">
          <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="next" value="{{next}}">
          <label>Account name <input name="name" value="{{name}}" autocomplete="username" required
            maxlength="{{maxName}}"></label>
          <label>Password or resume token <input name="password" type="password" autocomplete="current-password"
            required maxlength="{{maxSecret}}"></label>
          <button>Sign in</button>
        </form>
        <p>No account yet? <a href="/signup">Sign up</a> (or in chat say <code>!register NAME PASSWORD</code>).
          <a href="/recover">Forgot your password?</a></p>
        """

    static let problem = """
        <h1>{{heading}}</h1>
        <p class="problem">{{message}}</p>
        {{#signIn}}<p><a href="/signin?next={{next}}">Sign in</a> to see it.</p>{{/signIn}}
        """
}
