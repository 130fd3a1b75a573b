/// The site's stylesheet (`/static/hearth.css`): readable on a phone and a desktop, light and
/// dark. Served by Hearth, so pages make no outside requests. (The chat page loads it too,
/// before its own `chat.css`.)
enum WebStyle {
    static let css = """
        :root { --bg: #fffaf3; --fg: #2b2118; --muted: #6f5f4f; --accent: #c2410c; --on-accent: #ffffff;
          --card: #ffffff; --line: #eadfce; --code: #f3e8da; color-scheme: light dark; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #1b1612; --fg: #f3e9dc; --muted: #b3a18d; --accent: #fb923c; --on-accent: #1b0f09;
            --card: #261f19; --line: #3a2f26; --code: #342a22; } }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg);
          font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        a { color: var(--accent); text-underline-offset: .15em; }
        header { display: flex; flex-wrap: wrap; gap: .5em 1.2em; align-items: center; padding: .7em 1em;
          border-bottom: 1px solid var(--line); background: var(--card); }
        header .brand { font-weight: 700; font-size: 1.2em; text-decoration: none; white-space: nowrap; }
        header nav { display: flex; gap: .3em 1.1em; flex: 1; flex-wrap: wrap; }
        body > header nav a, body > header .who a { text-decoration: none; white-space: nowrap; }
        body > header nav a:hover, body > header .who a:hover { text-decoration: underline; }
        header .who { display: flex; gap: .8em; align-items: center; white-space: nowrap; }
        header form { display: inline; margin: 0; }
        main { max-width: 52em; margin: 0 auto; padding: 1em; }
        footer { text-align: center; color: var(--muted); font-size: .85em; padding: 2em 1em; }
        h1 { font-size: 1.6em; line-height: 1.25; margin: .4em 0; overflow-wrap: break-word; }
        h2 { font-size: 1.2em; margin: 1.5em 0 .5em; }
        code { background: var(--code); padding: .05em .35em; border-radius: 4px; font-size: .92em;
          white-space: nowrap; }
        img { max-width: 100%; height: auto; }
        figure { margin: 0 0 1em; }
        figure img { display: block; margin: 0 auto; border-radius: 10px; }
        .meme .caption { display: inline-block; margin-right: .3em; }
        .meta, .ago, .commands, .empty { color: var(--muted); }
        .commands { font-size: .95em; line-height: 1.9; }
        .ago { font-size: .85em; margin-left: .4em; white-space: nowrap; }
        .counts { display: flex; gap: .3em 1.2em; flex-wrap: wrap; margin: .6em 0; font-weight: 600; }
        .counts span { white-space: nowrap; }
        .actions { display: flex; flex-wrap: wrap; gap: .6em; align-items: center; margin: .8em 0; }
        .actions form { margin: 0; }
        button { font: inherit; padding: .45em 1em; border-radius: 8px; border: 1px solid var(--accent);
          background: var(--accent); color: var(--on-accent); cursor: pointer; white-space: nowrap; }
        button:hover { filter: brightness(1.08); }
        button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; }
        input, textarea { font: inherit; padding: .5em; border: 1px solid var(--line); border-radius: 8px;
          background: var(--card); color: var(--fg); width: 100%; }
        input:focus, textarea:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
        textarea { min-height: 5em; resize: vertical; }
        label { display: block; margin: .6em 0; }
        label input { margin-top: .25em; }
        .signin { max-width: 24em; background: var(--card); border: 1px solid var(--line); border-radius: 10px;
          padding: .4em 1.2em 1.2em; margin: 1em 0; }
        .signin button { margin-top: .4em; }
        form.search { display: flex; flex-wrap: wrap; gap: .5em; align-items: flex-end; margin: .6em 0 1em; }
        form.search label { flex: 1 1 16em; margin: 0; }
        .comment { padding: .6em 0; border-bottom: 1px solid var(--line); }
        .comment-form { margin-top: 1em; display: grid; gap: .5em; }
        .comment-form button { justify-self: start; }
        .flash { width: calc(100% - 2em); max-width: 50em; margin: 1em auto 0; padding: .6em 1em;
          border-radius: 8px; background: var(--card); border: 1px solid var(--accent); }
        .problem { color: #b91c1c; }
        @media (prefers-color-scheme: dark) { .problem { color: #f87171; } }
        .profile { display: flex; gap: 1em; align-items: center; }
        .profile h1 { margin-top: 0; }
        .profile p { margin: .3em 0; }
        .avatar { border-radius: 50%; object-fit: cover; flex: none; }
        .gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(9em, 1fr)); gap: .6em;
          margin-top: 1em; }
        .gallery .tile img { width: 100%; aspect-ratio: 4 / 3; object-fit: contain; border-radius: 8px; display: block;
          background: var(--card); border: 1px solid var(--line); }
        .gallery .tile:hover img { outline: 3px solid var(--accent); }
        .paging { display: flex; gap: 1em; justify-content: center; margin: 1em 0; color: var(--muted); }
        table { border-collapse: collapse; width: 100%; }
        td, th { text-align: left; padding: .4em .5em; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { color: var(--muted); font-size: .9em; font-weight: 600; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1em;
          margin: 1em 0; }
        .card > :first-child, .card > h2:first-child { margin-top: 0; }
        .card > :last-child { margin-bottom: 0; }
        ol.steps li, ul.ingredients li { margin: .3em 0; }
        ol.steps li { padding-left: .2em; }
        .tags a { margin-right: .5em; }
        pre.tree { font-family: "DejaVu Sans Mono", ui-monospace, monospace; overflow-x: auto; background: var(--card);
          border: 1px solid var(--line); border-radius: 8px; padding: .8em; }
        .post figure img { max-height: 26em; width: auto; margin: 0; }
        blockquote.saying { font-size: 1.25em; font-style: italic; margin-left: 0; margin-right: 0; }
        .lucky .number { display: inline-block; min-width: 2.2em; padding: .3em .5em; margin: .15em;
          border-radius: 999px; text-align: center; font-weight: 700; background: var(--accent);
          color: var(--on-accent); }
        tr.me { background: var(--line); font-weight: 600; }
        @media (max-width: 40em) {
          body > header { gap: .3em 1em; padding: .6em 1em; }
          body > header .brand { flex: 1; }
          body > header nav { order: 3; flex: 1 1 100%; gap: .2em 1em; }
          main { padding: .8em 1em; }
          h1 { font-size: 1.4em; }
          td, th { padding: .35em .3em; }
          table { font-size: .95em; }
          table.recipes .ago { display: block; margin-left: 0; }
          .profile { align-items: flex-start; }
          .profile .avatar { width: 64px; height: 64px; }
        }
        """
}
