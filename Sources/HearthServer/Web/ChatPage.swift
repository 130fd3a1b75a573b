import HearthCrypto

/// The web chat page (`/chat`): its HTML, its one script and its stylesheet, served by
/// `ChatRoutes`. The site's Content-Security-Policy allows scripts and styles only from files of
/// this origin, so nothing here is inline. The script speaks IRC over the WebSocket on `/irc`
/// (PROTOCOL.md, "IRC over WebSocket") and builds the DOM with `textContent` only: message text
/// never becomes markup.
enum ChatPage {
    /// A short content hash: the ETag, and the `?v=` the page links its files with.
    static func version(_ text: String) -> String { String(Sodium.contentHash(Array(text.utf8)).prefix(16)) }

    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>Hearth chat</title>
        <link rel="stylesheet" href="/static/hearth.css">
        <link rel="stylesheet" href="/static/chat.css?v=\#(version(css))">
        <script src="/static/chat.js?v=\#(version(script))" defer></script>
        </head>
        <body class="chat-page">
        <noscript><p class="chat-noscript">This chat page needs JavaScript. Any IRC client works too.</p></noscript>
        <form id="login" class="login" autocomplete="on">
          <h1>Hearth chat</h1>
          <label for="nick">Nick</label>
          <input id="nick" name="nick" autocomplete="nickname" maxlength="30" spellcheck="false"
            autocapitalize="off" placeholder="e.g. alice">
          <details id="signin">
            <summary>Sign in to your account</summary>
            <label for="account">Account name</label>
            <input id="account" name="username" autocomplete="username" maxlength="30" spellcheck="false"
              autocapitalize="off">
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password">
          </details>
          <label for="channels">Channels</label>
          <input id="channels" name="channels" value="#hearth" spellcheck="false" autocapitalize="off">
          <button id="connect" type="submit">Connect</button>
          <p id="status" class="status" role="status"></p>
          <p class="hint"><a href="/">Hearth</a> · No account yet? Connect, then say
            <code>!register NAME PASSWORD</code> to
            <code>hearth</code>.</p>
        </form>
        <div id="client" class="client" hidden>
          <nav class="sidebar" aria-label="Channels and conversations">
            <ul id="buffers" class="buffers"></ul>
            <form id="join-form" class="join-form">
              <input id="join" placeholder="#channel" aria-label="Channel to join" spellcheck="false"
                autocapitalize="off">
              <button id="join-button" type="submit">Join</button>
            </form>
          </nav>
          <main class="main">
            <header class="buffer-header">
              <h2 id="title"></h2>
              <p id="topic" class="topic"></p>
            </header>
            <div id="messages" class="messages" aria-live="polite"></div>
            <form id="compose" class="compose">
              <input id="input" autocomplete="off" maxlength="400" aria-label="Message"
                placeholder="Message, /command or !bot command" enterkeyhint="send">
              <button id="send" type="submit">Send</button>
            </form>
          </main>
        </div>
        </body>
        </html>

        """#

}
