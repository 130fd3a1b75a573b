/// The web chat's stylesheet (`/static/chat.css`), after the site's `/static/hearth.css`.
extension ChatPage {
    static let css = #"""
        /* Hearth web chat. The site-wide hearth.css comes first: its colours are used when present. */
        :root {
          color-scheme: light dark;
          --chat-bg: var(--bg, #fffaf3);
          --chat-fg: var(--fg, #2b2118);
          --chat-muted: #6b5b4c;
          --chat-panel: var(--card, #ffffff);
          --chat-border: var(--line, #eadfce);
          --chat-field: #ffffff;
          --chat-accent: #b23a0a;
          --chat-accent-fg: #ffffff;
          --chat-hover: #f3e8da;
          --chat-error: #b3261e;
          --chat-notice: #7a4f00;
          --chat-link: #1d5fb8;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --chat-bg: var(--bg, #1b1612);
            --chat-fg: var(--fg, #f3e9dc);
            --chat-muted: #b3a18d;
            --chat-panel: var(--card, #261f19);
            --chat-border: var(--line, #3a2f26);
            --chat-field: #1f1915;
            --chat-accent: #fb923c;
            --chat-accent-fg: #1b0f09;
            --chat-hover: #342a22;
            --chat-error: #ff8a80;
            --chat-notice: #f1c46c;
            --chat-link: #8ab8ff;
          }
        }
        [hidden] { display: none !important; }
        body.chat-page {
          margin: 0;
          background: var(--chat-bg);
          color: var(--chat-fg);
          font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
        }
        .chat-page a { color: var(--chat-link); }
        .chat-page input, .chat-page button { font: inherit; color: inherit; }
        .chat-page input {
          box-sizing: border-box;
          min-width: 0;
          padding: .45rem .6rem;
          border: 1px solid var(--chat-border);
          border-radius: 6px;
          background: var(--chat-field);
        }
        .chat-page button {
          padding: .45rem .9rem;
          border: 1px solid var(--chat-accent);
          border-radius: 6px;
          background: var(--chat-accent);
          color: var(--chat-accent-fg);
          cursor: pointer;
        }
        .chat-page button:disabled { opacity: .6; cursor: default; }
        .chat-page :focus-visible { outline: 2px solid var(--chat-accent); outline-offset: 1px; }
        .chat-noscript { margin: 2rem; }
        .chat-page main.main { max-width: none; margin: 0; padding: 0; }
        .chat-page .login label { display: block; margin: .5rem 0 .15rem; }

        .login {
          box-sizing: border-box;
          display: flex;
          flex-direction: column;
          gap: .35rem;
          width: min(24rem, calc(100% - 2rem));
          margin: 8vh auto 2rem;
          padding: 1.5rem;
          background: var(--chat-panel);
          border: 1px solid var(--chat-border);
          border-radius: 10px;
        }
        .login h1 { margin: 0 0 .5rem; font-size: 1.5rem; }
        .login label { font-weight: 600; font-size: .9rem; }
        .login input { width: 100%; }
        .login details { margin-top: .6rem; }
        .login summary { cursor: pointer; color: var(--chat-link); }
        .login #connect { margin-top: .9rem; }
        .status { min-height: 1.4em; margin: .3rem 0 0; color: var(--chat-error); }
        .hint { margin: 0; color: var(--chat-muted); font-size: .85rem; }

        .client {
          display: grid;
          grid-template-columns: 14rem minmax(0, 1fr);
          height: 100vh;
          height: 100dvh;
        }
        .sidebar {
          display: flex;
          flex-direction: column;
          gap: .5rem;
          min-height: 0;
          padding: .75rem .5rem;
          background: var(--chat-panel);
          border-right: 1px solid var(--chat-border);
          overflow-y: auto;
        }
        .buffers { list-style: none; margin: 0; padding: 0; }
        .buffer { display: flex; align-items: center; border-radius: 6px; }
        .buffer:hover { background: var(--chat-hover); }
        .buffer.active { background: var(--chat-hover); font-weight: 600; }
        .buffer .buffer-name, .buffer .buffer-close {
          border: 0;
          background: none;
          color: inherit;
          padding: .35rem .5rem;
        }
        .buffer .buffer-name {
          flex: 1;
          min-width: 0;
          text-align: left;
          overflow: hidden;
          text-overflow: ellipsis;
          white-space: nowrap;
        }
        .buffer .buffer-close { color: var(--chat-muted); padding: .35rem .6rem; }
        .buffer.unread .buffer-name { font-weight: 700; }
        .buffer.highlight .buffer-name { color: var(--chat-accent); }
        .join-form { display: flex; gap: .35rem; }
        .join-form input { flex: 1; width: 0; }

        .main {
          display: grid;
          grid-template-rows: auto minmax(0, 1fr) auto;
          min-width: 0;
          min-height: 0;
        }
        .chat-page .buffer-header {
          display: flex;
          flex-wrap: nowrap;
          background: none;
          align-items: baseline;
          gap: .75rem;
          min-width: 0;
          padding: .6rem 1rem;
          border-bottom: 1px solid var(--chat-border);
        }
        .chat-page .buffer-header h2 { margin: 0; font-size: 1.1rem; white-space: nowrap; }
        .topic {
          margin: 0;
          color: var(--chat-muted);
          overflow: hidden;
          text-overflow: ellipsis;
          white-space: nowrap;
        }
        .messages { overflow-y: auto; overscroll-behavior: contain; padding: .5rem 0; }
        .log { list-style: none; margin: 0; padding: 0; }
        .message {
          display: grid;
          grid-template-columns: 4.4rem 8rem minmax(0, 1fr);
          column-gap: .6rem;
          align-items: baseline;
          padding: .15rem 1rem;
        }
        .message:hover { background: var(--chat-panel); }
        .message .time {
          color: var(--chat-muted);
          font-size: .8rem;
          font-variant-numeric: tabular-nums;
          white-space: nowrap;
        }
        .message .nick {
          font-weight: 600;
          text-align: right;
          overflow: hidden;
          text-overflow: ellipsis;
          white-space: nowrap;
        }
        .message .text { white-space: pre-wrap; overflow-wrap: anywhere; }
        .message.event .text { color: var(--chat-muted); font-style: italic; }
        .message.error .text { color: var(--chat-error); }
        .message.notice .text, .message.notice .nick { color: var(--chat-notice); }
        .message.action .text { font-style: italic; }
        .message.highlight { background: color-mix(in srgb, var(--chat-accent) 14%, transparent); }
        .message .preview { grid-column: 3; justify-self: start; margin: .25rem 0; }
        .inline-image {
          display: block;
          max-width: min(100%, 22rem);
          max-height: 18rem;
          border-radius: 6px;
          border: 1px solid var(--chat-border);
        }
        .compose {
          display: flex;
          gap: .5rem;
          padding: .6rem 1rem;
          border-top: 1px solid var(--chat-border);
          background: var(--chat-panel);
        }
        .compose input { flex: 1; }

        .nick-c0 { color: #b3261e; } .nick-c1 { color: #1d6b2f; } .nick-c2 { color: #1d5fb8; }
        .nick-c3 { color: #8a4a00; } .nick-c4 { color: #7b2fa8; } .nick-c5 { color: #00727a; }
        .nick-c6 { color: #a3286b; } .nick-c7 { color: #4f5b00; }
        @media (prefers-color-scheme: dark) {
          .nick-c0 { color: #ff8a80; } .nick-c1 { color: #7fd88f; } .nick-c2 { color: #8ab8ff; }
          .nick-c3 { color: #f5b86b; } .nick-c4 { color: #d6a2ff; } .nick-c5 { color: #6fd6de; }
          .nick-c6 { color: #ff8fc8; } .nick-c7 { color: #c9d66b; }
        }

        /* Phones: the channel list becomes a strip above the messages. */
        @media (max-width: 640px) {
          .client { grid-template-columns: minmax(0, 1fr); grid-template-rows: auto minmax(0, 1fr); }
          .sidebar {
            flex-direction: row;
            align-items: center;
            padding: .4rem .5rem;
            border-right: 0;
            border-bottom: 1px solid var(--chat-border);
            overflow: visible;
          }
          .buffers { display: flex; flex: 1; min-width: 0; gap: .25rem; overflow-x: auto; scrollbar-width: none; }
          .buffer .buffer-name { max-width: 9rem; }
          .join-form { flex: 0 0 auto; }
          .join-form input { width: 6.2rem; flex: none; padding-inline: .45rem; }
          .join-form button { padding: .45rem .6rem; }
          .chat-page .buffer-header { padding: .5rem .75rem; }
          .message { display: block; padding: .2rem .75rem; }
          .message .time { margin-right: .4rem; }
          .message .nick { margin-right: .4rem; }
          .message .preview { display: block; }
          .compose { padding: .5rem .75rem; }
        }

        """#
}
