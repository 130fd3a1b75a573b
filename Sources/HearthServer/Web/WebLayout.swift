/// The site's own templates: the layout every page sits in, the home, sign-in and error pages.
enum WebLayout {
    static let layout = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · Hearth</title>
        <meta name="description" content="{{summary}}">
        <meta property="og:site_name" content="Hearth"><meta property="og:type" content="website">
        <meta property="og:title" content="{{title}}"><meta property="og:description" content="{{summary}}">
        <meta property="og:url" content="{{url}}">
        {{#image}}<meta property="og:image" content="{{image}}"><meta name="twitter:card" content="summary_large_image">
        <meta name="twitter:image" content="{{image}}">{{/image}}
        {{^image}}<meta name="twitter:card" content="summary">{{/image}}
        <meta name="twitter:title" content="{{title}}"><meta name="twitter:description" content="{{summary}}">
        <link rel="stylesheet" href="/static/hearth.css">
        </head><body>
        <header><a class="brand" href="/">🔥 Hearth</a>
          <nav>{{#nav}}<a href="{{path}}">{{label}}</a> {{/nav}}<a href="/chat">Chat</a></nav>
          <div class="who">{{#viewer}}<a href="/u/{{viewerKey}}">{{viewer}}</a>
            <form method="post" action="/signout"><input type="hidden" name="csrf" value="{{csrf}}">
            <button class="link">Sign out</button></form>{{/viewer}}
            {{^viewer}}<a href="/signin">Sign in</a>{{/viewer}}</div>
        </header>
        {{#flash}}<p class="flash" role="status">{{flash}}</p>{{/flash}}
        <main>{{{body}}}</main>
        <footer>Hearth · chat with <code>nc</code>, any IRC client or <a href="/chat">the web</a></footer>
        </body></html>
        """

    static let home = """
        <h1>Welcome to {{network}}</h1>
        <p>A chat server with a bot of small social apps: memes, a daily fortune cookie, recipes and a family tree.</p>
        <ul class="ways">
          <li>From a terminal: <code>nc {{host}} {{ircPort}}</code></li>
          <li>From an IRC client: server <code>{{host}}</code>, port <code>{{ircPort}}</code></li>
          <li>From this browser: <a href="/chat">the web chat</a></li>
        </ul>
        <p>Then say <code>!help</code> to the bot <b>hearth</b>.</p>
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
        <p>No account yet? In chat say <code>!register NAME PASSWORD</code>.</p>
        """

    static let problem = """
        <h1>{{heading}}</h1>
        <p class="problem">{{message}}</p>
        {{#signIn}}<p><a href="/signin?next={{next}}">Sign in</a> to see it.</p>{{/signIn}}
        """
}
