/// The site's stylesheet (`/static/hearth.css`): readable on a phone and a desktop, light and
/// dark. Served by Hearth, so pages make no outside requests.
enum WebStyle {
    static let css = """
        :root { --bg: #fffaf3; --fg: #2b2118; --muted: #7a6a5a; --accent: #c2410c; --card: #ffffff;
          --line: #eadfce; color-scheme: light dark; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #1b1612; --fg: #f3e9dc; --muted: #b3a18d; --accent: #fb923c; --card: #261f19;
            --line: #3a2f26; } }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg);
          font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        a { color: var(--accent); }
        header { display: flex; flex-wrap: wrap; gap: .5em 1.2em; align-items: center; padding: .7em 1em;
          border-bottom: 1px solid var(--line); background: var(--card); }
        header .brand { font-weight: 700; font-size: 1.2em; text-decoration: none; }
        header nav { display: flex; gap: .9em; flex: 1; flex-wrap: wrap; }
        header .who { display: flex; gap: .6em; align-items: center; }
        header form { display: inline; margin: 0; }
        main { max-width: 52em; margin: 0 auto; padding: 1em; }
        footer { text-align: center; color: var(--muted); font-size: .85em; padding: 2em 1em; }
        h1 { font-size: 1.6em; line-height: 1.25; margin: .4em 0; }
        h2 { font-size: 1.2em; margin-top: 1.5em; }
        code { background: var(--line); padding: .05em .35em; border-radius: 4px; font-size: .92em; }
        img { max-width: 100%; height: auto; }
        figure { margin: 0; }
        .meme figure img { border-radius: 10px; display: block; margin: 0 auto; }
        .meme .caption { display: inline-block; margin-right: .3em; }
        .meta, .ago, .commands, .empty { color: var(--muted); }
        .ago { font-size: .85em; margin-left: .4em; }
        .counts { display: flex; gap: 1.2em; flex-wrap: wrap; margin: .6em 0; font-weight: 600; }
        .actions { display: flex; gap: .6em; margin: .6em 0; }
        .actions form { margin: 0; }
        button { font: inherit; padding: .45em 1em; border-radius: 8px; border: 1px solid var(--accent);
          background: var(--accent); color: #fff; cursor: pointer; }
        button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; }
        input, textarea { font: inherit; padding: .5em; border: 1px solid var(--line); border-radius: 8px;
          background: var(--card); color: var(--fg); width: 100%; }
        textarea { min-height: 5em; }
        label { display: block; margin: .6em 0; }
        .signin { max-width: 24em; }
        .comment { padding: .5em 0; border-bottom: 1px solid var(--line); }
        .comment-form { margin-top: 1em; display: grid; gap: .5em; }
        .flash { max-width: 52em; margin: 1em auto 0; padding: .6em 1em; border-radius: 8px; background: var(--card);
          border: 1px solid var(--accent); }
        .problem { color: #b91c1c; }
        @media (prefers-color-scheme: dark) { .problem { color: #f87171; } }
        .profile { display: flex; gap: 1em; align-items: center; }
        .avatar { border-radius: 50%; object-fit: cover; }
        .gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(9em, 1fr)); gap: .6em; margin-top: 1em; }
        .gallery .tile img { width: 100%; aspect-ratio: 1; object-fit: cover; border-radius: 8px; display: block; }
        .paging { display: flex; gap: 1em; justify-content: center; margin: 1em 0; color: var(--muted); }
        table { border-collapse: collapse; width: 100%; }
        td, th { text-align: left; padding: .4em .5em; border-bottom: 1px solid var(--line); }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1em; margin: 1em 0; }
        ol.steps li, ul.ingredients li { margin: .3em 0; }
        .tags a { margin-right: .5em; }
        pre.tree { font-family: "DejaVu Sans Mono", ui-monospace, monospace; overflow-x: auto; background: var(--card);
          border: 1px solid var(--line); border-radius: 8px; padding: .8em; }
        .lucky .number { display: inline-block; min-width: 2.2em; padding: .3em .5em; margin: .15em; border-radius: 50%;
          text-align: center; font-weight: 700; background: var(--accent); color: #fff; }
        tr.me { background: var(--line); font-weight: 600; }
        """
}
