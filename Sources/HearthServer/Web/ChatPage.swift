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

    static let script = #"""
        // Hearth web chat: IRC over WebSocket (text.ircv3.net), one IRC line per message.
        // The DOM is built with createElement and textContent only, never from message text.
        'use strict';
        (() => {
          const $ = (id) => document.getElementById(id);
          const SERVER = '*';  // the server buffer's key: no nick or channel is called that
          const WANTED = ['server-time', 'echo-message', 'message-tags'];
          const MAX_LINES = 1000;  // per buffer, so a long session stays light
          const IMAGE = /\.(png|jpe?g|gif|webp)$/i;
          const LINK = /\bhttps?:\/\/[^\s<>"]+/gi;

          let ws = null;
          let me = '';
          let registered = false;
          let caps = new Set();
          let offered = [];
          let login = null;  // {account, password} while SASL runs
          let nickTries = 0;
          let failure = '';  // why the connection is ending, shown when it has closed
          let signedIn = '';
          let autojoin = [];
          let current = SERVER;
          const buffers = new Map();
          const names = new Map();  // channel -> nicks collected from 353 until 366

          const fold = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
          const isChannel = (s) => /^[#&]/.test(s);
          const nickOf = (source) => source.split('!')[0];
          const remember = (key, value) => { try { localStorage.setItem('hearth.' + key, value); } catch (e) {} };
          const recall = (key) => { try { return localStorage.getItem('hearth.' + key); } catch (e) { return null; } };

          // One IRC line: @tags :source COMMAND params… :trailing
          function parse(line) {
            const msg = { tags: {}, source: '', command: '', params: [] };
            let rest = line;
            const word = () => {
              const space = rest.indexOf(' ');
              const w = space < 0 ? rest : rest.slice(0, space);
              rest = space < 0 ? '' : rest.slice(space + 1).replace(/^ +/, '');
              return w;
            };
            if (rest.startsWith('@')) {
              for (const pair of word().slice(1).split(';')) {
                const eq = pair.indexOf('=');
                if (eq < 0) msg.tags[pair] = '';
                else msg.tags[pair.slice(0, eq)] = pair.slice(eq + 1).replace(/\\(.?)/g,
                  (_, c) => ({ ':': ';', s: ' ', r: '\r', n: '\n' })[c] ?? c);
              }
            }
            if (rest.startsWith(':')) msg.source = word().slice(1);
            msg.command = word().toUpperCase();
            while (rest) {
              if (rest.startsWith(':')) { msg.params.push(rest.slice(1)); break; }
              msg.params.push(word());
            }
            return msg;
          }

          function send(line) {
            if (ws && ws.readyState === WebSocket.OPEN) ws.send(line);
          }

          // mIRC formatting (bold, colours, …) is dropped: the page has its own look.
          const plain = (text) => text.replace(/\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x11\x16\x1d\x1e\x1f]/g, '');

          function el(tag, className, text) {
            const node = document.createElement(tag);
            if (className) node.className = className;
            if (text !== undefined) node.textContent = text;
            return node;
          }

          function nickClass(nick) {
            let hash = 0;
            for (const c of fold(nick)) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
            return 'nick nick-c' + (hash % 8);
          }

          // Text with its links as <a>; pictures on this server also shown inline.
          function richText(text, previews) {
            const span = el('span', 'text');
            let last = 0;
            for (const match of text.matchAll(LINK)) {
              let href = match[0];
              const trail = href.match(/[.,;:!?'"]+$|\)+$/);
              if (trail && !(trail[0].startsWith(')') && href.includes('('))) href = href.slice(0, -trail[0].length);
              let url;
              try { url = new URL(href); } catch (e) { continue; }
              span.append(text.slice(last, match.index));
              const a = el('a', null, href);
              a.href = url.href;
              a.rel = 'noopener noreferrer';
              a.target = '_blank';
              span.append(a);
              last = match.index + href.length;
              // The CSP allows pictures from this origin only.
              if (url.origin === location.origin && IMAGE.test(url.pathname)) previews.push(url.href);
            }
            span.append(text.slice(last));
            return span;
          }

          function buffer(name) {
            const key = name === SERVER ? SERVER : fold(name);
            let b = buffers.get(key);
            if (b) return b;
            b = { key, name, topic: '', members: new Set(), unread: 0, log: el('ol', 'log') };
            b.log.hidden = true;
            b.log.dataset.buffer = name;
            $('messages').append(b.log);
            b.item = el('li', 'buffer');
            const open = el('button', 'buffer-name', name === SERVER ? 'Server' : name);
            open.type = 'button';
            open.addEventListener('click', () => show(key));
            b.item.append(open);
            if (name !== SERVER) {
              const close = el('button', 'buffer-close', '×');
              close.type = 'button';
              close.title = isChannel(name) ? 'Leave ' + name : 'Close';
              close.setAttribute('aria-label', close.title);
              close.addEventListener('click', () => leave(b));
              b.item.append(close);
            }
            $('buffers').append(b.item);
            buffers.set(key, b);
            return b;
          }

          function show(key) {
            const b = buffers.get(key) || buffers.get(SERVER);
            current = b.key;
            for (const other of buffers.values()) {
              other.log.hidden = other !== b;
              other.item.classList.toggle('active', other === b);
            }
            b.unread = 0;
            b.item.classList.remove('unread', 'highlight');
            $('title').textContent = b.name === SERVER ? 'Server' : b.name;
            $('topic').textContent = b.topic || (isChannel(b.name) && b.members.size ? b.members.size + ' here' : '');
            const box = $('messages');
            box.scrollTop = box.scrollHeight;
            if (matchMedia('(pointer: fine)').matches) $('input').focus();
          }

          function leave(b) {
            if (isChannel(b.name) && registered) send('PART ' + b.name);
            else drop(b);
          }

          function drop(b) {
            b.log.remove();
            b.item.remove();
            buffers.delete(b.key);
            if (current === b.key) show(SERVER);
          }

          // Adds a line to a buffer: kind is '', 'notice', 'action', 'event', 'error' or 'self'.
          function add(name, nick, text, kind, tags) {
            const b = buffer(name);
            const box = $('messages');
            const stick = box.scrollHeight - box.scrollTop - box.clientHeight < 60;
            const when = tags && tags.time ? new Date(tags.time) : new Date();
            const date = isNaN(when) ? new Date() : when;
            const line = el('li', 'message' + (kind ? ' ' + kind : ''));
            const time = el('time', 'time', date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
            time.dateTime = date.toISOString();
            time.title = date.toLocaleString();
            line.append(time);
            const shown = kind === 'notice' ? '-' + nick + '-' : kind === 'action' ? '* ' + nick : nick;
            line.append(nick ? el('span', nickClass(nick), shown) : el('span', 'nick'));
            const previews = [];
            line.append(richText(plain(text), previews));
            for (const src of previews) {
              const a = el('a', 'preview');
              a.href = src;
              a.rel = 'noopener noreferrer';
              a.target = '_blank';
              const img = el('img', 'inline-image');
              img.src = src;
              img.alt = 'picture';
              img.loading = 'lazy';
              img.addEventListener('load', () => { if (stick) box.scrollTop = box.scrollHeight; });
              a.append(img);
              line.append(a);
            }
            const mention = me && kind !== 'self' && kind !== 'event' && nick && fold(nick) !== fold(me)
              && new RegExp('(^|\\W)' + me.replace(/[^\w]/g, '\\$&') + '(\\W|$)', 'i').test(text);
            if (mention) line.classList.add('highlight');
            b.log.append(line);
            while (b.log.childElementCount > MAX_LINES) b.log.firstElementChild.remove();
            if (b.key === current) {
              if (stick) box.scrollTop = box.scrollHeight;
            } else if (kind !== 'event') {
              b.unread += 1;
              b.item.classList.add('unread');
              if (mention || !isChannel(b.name)) b.item.classList.add('highlight');
            }
          }

          const note = (text, kind) => add(current, '', text, kind || 'event');

          function status(text) { $('status').textContent = text; }

          function fail(text) {
            failure = text;
            status(text);
            send('QUIT');
          }

          function connect(event) {
            event.preventDefault();
            const account = $('account').value.trim();
            const password = $('password').value;
            const nick = $('nick').value.trim() || account;
            if (!nick) { status('Choose a nick first.'); $('nick').focus(); return; }
            if (account && !password) { status('Enter your password to sign in.'); $('password').focus(); return; }
            remember('nick', nick);
            remember('account', account);
            remember('channels', $('channels').value.trim());
            autojoin = $('channels').value.split(/[\s,]+/).filter(Boolean).map((c) => isChannel(c) ? c : '#' + c);
            login = account ? { account, password } : null;
            status('Connecting…');
            $('connect').disabled = true;
            me = nick;
            registered = false;
            nickTries = 0;
            failure = '';
            signedIn = '';
            caps = new Set();
            offered = [];
            const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/irc';
            const socket = new WebSocket(url, ['text.ircv3.net']);
            ws = socket;
            socket.onopen = () => {
              send('CAP LS 302');
              send('NICK ' + nick);
              send('USER web 0 * :Hearth web chat');
            };
            socket.onmessage = (e) => { if (socket === ws && typeof e.data === 'string') receive(parse(e.data)); };
            socket.onerror = () => { if (!registered && !failure) failure = 'Could not reach the server.'; };
            socket.onclose = () => { if (socket === ws) closed(); };
          }

          // Back to the form, which says why; a new connection starts with fresh buffers.
          function closed() {
            ws = null;
            registered = false;
            $('connect').disabled = false;
            $('client').hidden = true;
            $('login').hidden = false;
            status(failure || 'Disconnected.');
          }

          function welcome() {
            registered = true;
            $('login').hidden = true;
            $('client').hidden = false;
            for (const b of [...buffers.values()]) drop(b);  // a fresh start after a reconnect
            buffer(SERVER);
            show(SERVER);
            status('');
            $('password').value = '';
            if (autojoin.length) send('JOIN ' + autojoin.join(','));
          }

          function capEnd() { if (!registered) send('CAP END'); }

          function authenticate() {
            const bytes = new TextEncoder().encode('\0' + login.account + '\0' + login.password);
            let text = btoa(String.fromCharCode(...bytes));
            // AUTHENTICATE carries 400 bytes at most; a last piece of exactly 400 is followed by '+'.
            while (text.length >= 400) { send('AUTHENTICATE ' + text.slice(0, 400)); text = text.slice(400); }
            send('AUTHENTICATE ' + (text || '+'));
          }

          function receive(m) {
            const p = m.params;
            const from = nickOf(m.source);
            const self = me && fold(from) === fold(me);
            switch (m.command) {
              case 'PING': send('PONG :' + (p[0] || '')); return;
              case 'CAP': return capability(p);
              case 'AUTHENTICATE': if (p[0] === '+' && login) authenticate(); return;
              case '001':
                me = p[0];
                welcome();
                add(SERVER, '', p[1] || 'Welcome', 'event', m.tags);
                if (signedIn) add(SERVER, '', signedIn, 'event', m.tags);
                return;
              case '900': signedIn = p[p.length - 1]; return;
              case '903': capEnd(); return;
              case '902': case '904': case '905': case '906': case '908':
                login = null;
                fail('Sign-in failed: ' + (p[p.length - 1] || 'wrong account or password'));
                return;
              case '432':
              case '433':
                if (!registered && m.command === '433' && nickTries < 3) {
                  nickTries += 1;
                  me = me + '_';
                  send('NICK ' + me);
                } else if (!registered) {
                  fail((p[1] || '') + ': ' + p[p.length - 1]);
                } else note(p.slice(1).join(' '), 'error');
                return;
              case 'PRIVMSG': case 'NOTICE': return message(m, from, self);
              case 'JOIN': {
                const b = buffer(p[0]);
                b.members.add(fold(from));
                if (self) show(b.key); else add(p[0], '', from + ' joined', 'event', m.tags);
                return;
              }
              case 'PART': case 'KICK': {
                const who = m.command === 'KICK' ? p[1] : from;
                const b = buffers.get(fold(p[0]));
                if (!b) return;
                b.members.delete(fold(who));
                if (fold(who) === fold(me)) {
                  if (m.command === 'PART') drop(b);
                  else add(p[0], '', 'You were removed by ' + from + (p[2] ? ': ' + p[2] : ''), 'error', m.tags);
                } else {
                  const verb = m.command === 'KICK' ? ' was removed by ' + from : ' left';
                  add(p[0], '', who + verb + (p[m.command === 'KICK' ? 2 : 1] ? ': ' + p[p.length - 1] : ''),
                    'event', m.tags);
                }
                return;
              }
              case 'QUIT':
                for (const b of buffers.values()) {
                  if (b.members.delete(fold(from))) {
                    add(b.name, '', from + ' quit' + (p[0] ? ': ' + p[0] : ''), 'event', m.tags);
                  }
                }
                return;
              case 'NICK':
                if (self) { me = p[0]; add(current, '', 'You are now ' + me, 'event', m.tags); }
                for (const b of buffers.values()) {
                  if (b.members.delete(fold(from))) {
                    b.members.add(fold(p[0]));
                    if (!self) add(b.name, '', from + ' is now ' + p[0], 'event', m.tags);
                  }
                }
                return;
              case 'TOPIC': case '332': {
                const [chan, topic] = m.command === 'TOPIC' ? [p[0], p[1]] : [p[1], p[2]];
                const b = buffer(chan);
                b.topic = topic || '';
                if (m.command === 'TOPIC') {
                  add(chan, '', from + ' set the topic: ' + (topic || '(none)'), 'event', m.tags);
                }
                if (b.key === current) show(b.key);
                return;
              }
              case '353': {
                const list = names.get(fold(p[2])) || [];
                list.push(...(p[3] || '').split(' ').filter(Boolean).map((n) => n.replace(/^[~&@%+]+/, '')));
                names.set(fold(p[2]), list);
                return;
              }
              case '366': {
                const list = names.get(fold(p[1])) || [];
                names.delete(fold(p[1]));
                const b = buffers.get(fold(p[1]));
                if (!b) return;
                b.members = new Set(list.map(fold));
                add(b.name, '', 'Here: ' + list.join(', '), 'event', m.tags);
                if (b.key === current) show(b.key);
                return;
              }
              case 'ERROR': failure = failure || p[0] || 'Closed by the server.'; return;
              case 'FAIL': case 'WARN': case 'NOTE':
                note(p.slice(2).join(' '), m.command === 'NOTE' ? 'event' : 'error');
                return;
              default:
                if (/^[45]\d\d$/.test(m.command)) note(p.slice(1).join(' '), 'error');
                else if (/^\d\d\d$/.test(m.command) && registered) {
                  add(SERVER, '', p.slice(1).join(' '), 'event', m.tags);
                }
            }
          }

          function capability(p) {
            const sub = (p[1] || '').toUpperCase();
            const list = (p[p.length - 1] || '').split(' ').filter(Boolean);
            if (sub === 'LS') {
              offered.push(...list.map((c) => c.split('=')[0]));
              if (p[2] === '*') return;  // more LS lines follow
              const want = WANTED.filter((c) => offered.includes(c));
              if (login) {
                if (offered.includes('sasl')) want.push('sasl');
                else { login = null; fail('This server does not offer sign-in (SASL).'); return; }
              }
              if (want.length) send('CAP REQ :' + want.join(' ')); else capEnd();
            } else if (sub === 'ACK') {
              for (const c of list) { if (c.startsWith('-')) caps.delete(c.slice(1)); else caps.add(c); }
              if (login && caps.has('sasl') && !registered) send('AUTHENTICATE PLAIN'); else capEnd();
            } else if (sub === 'NAK') {
              if (login) fail('Sign-in is not available.'); else capEnd();
            }
          }

          function message(m, from, self) {
            const [target, raw = ''] = m.params;
            const notice = m.command === 'NOTICE';
            const fromServer = !m.source || !m.source.includes('!');
            let text = raw;
            let kind = notice ? 'notice' : '';
            if (text.startsWith('\x01ACTION ')) { text = text.slice(8).replace(/\x01$/, ''); kind = 'action'; }
            else if (text.startsWith('\x01')) return;  // other CTCP requests go unanswered
            if (self && !kind) kind = 'self';
            let where;
            if (isChannel(target)) where = target;
            else if (fromServer) where = SERVER;
            else if (self) where = target;  // our own message, echoed back
            else if (notice && !buffers.has(fold(from))) where = current;
            else where = from;
            if (!registered) return;  // the server's notices before the welcome
            add(where, fromServer ? (m.source || 'server') : from, text, kind, m.tags);
          }

          function say(text) {
            const b = buffers.get(current);
            if (!b || b.name === SERVER) {
              note('Join a channel or open a conversation first: /join #hearth or /msg NICK TEXT.', 'error');
              return;
            }
            privmsg(b.name, text);
          }

          function privmsg(target, text, action) {
            send('PRIVMSG ' + target + ' :' + (action ? '\x01ACTION ' + text + '\x01' : text));
            // Without echo-message the server does not send our own lines back.
            if (!caps.has('echo-message')) add(target, me, text, action ? 'action' : 'self');
          }

          const HELP = '/join #channel, /part [#channel], /msg NICK TEXT, /me ACTION, /nick NEWNICK, '
            + '/topic [TEXT], /quit [MESSAGE], /raw LINE. Bot commands start with ! (try !help).';

          function command(line) {
            const [, name, args = ''] = line.match(/^\/(\S+)\s*(.*)$/) || [];
            const words = args.split(/\s+/).filter(Boolean);
            const b = buffers.get(current);
            switch ((name || '').toLowerCase()) {
              case 'join': case 'j':
                if (!words[0]) return note('Usage: /join #channel [key]', 'error');
                send('JOIN ' + (isChannel(words[0]) ? words[0] : '#' + words[0]) + (words[1] ? ' ' + words[1] : ''));
                return;
              case 'part': case 'leave': {
                const chan = words[0] && isChannel(words[0]) ? words.shift() : b && b.name;
                if (!chan || !isChannel(chan)) return note('Usage: /part [#channel] [reason]', 'error');
                send('PART ' + chan + (words.length ? ' :' + words.join(' ') : ''));
                return;
              }
              case 'msg': case 'query': {
                const [to] = words;
                if (!to) return note('Usage: /msg NICK TEXT', 'error');
                const text = args.slice(args.indexOf(to) + to.length).trim();
                if (!isChannel(to)) show(buffer(to).key);
                if (text) privmsg(to, text);
                return;
              }
              case 'me':
                if (!b || b.name === SERVER) return note('Join a channel first.', 'error');
                if (args) privmsg(b.name, args, true);
                return;
              case 'nick':
                if (!words[0]) return note('Usage: /nick NEWNICK', 'error');
                send('NICK ' + words[0]);
                return;
              case 'topic':
                if (!b || !isChannel(b.name)) return note('Usage: /topic [TEXT] in a channel', 'error');
                send('TOPIC ' + b.name + (args ? ' :' + args : ''));
                return;
              case 'quit': case 'exit':
                send('QUIT :' + (args || 'Leaving'));
                return;
              case 'raw': case 'quote':
                if (args) send(args);
                return;
              case 'help':
                return note(HELP);
              default:
                note('Unknown command /' + name + '. ' + HELP, 'error');
            }
          }

          function submit(event) {
            event.preventDefault();
            const input = $('input');
            const text = input.value;
            if (!text.trim()) return;
            input.value = '';
            if (text.startsWith('//')) say(text.slice(1));
            else if (text.startsWith('/')) command(text);
            else say(text);  // !commands too: the bot answers in the channel, or privately in a query
          }

          function join(event) {
            event.preventDefault();
            const name = $('join').value.trim();
            if (!name) return;
            $('join').value = '';
            send('JOIN ' + (isChannel(name) ? name : '#' + name));
          }

          document.addEventListener('DOMContentLoaded', () => {
            $('nick').value = recall('nick') || '';
            $('account').value = recall('account') || '';
            if ($('account').value) $('signin').open = true;
            $('channels').value = recall('channels') ?? '#hearth';
            $('login').addEventListener('submit', connect);
            $('compose').addEventListener('submit', submit);
            $('join-form').addEventListener('submit', join);
          });
        })();

        """#

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
          grid-template-columns: 3.2rem 9rem minmax(0, 1fr);
          column-gap: .6rem;
          align-items: baseline;
          padding: .15rem 1rem;
        }
        .message:hover { background: var(--chat-panel); }
        .message .time { color: var(--chat-muted); font-size: .8rem; font-variant-numeric: tabular-nums; }
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
            overflow-x: auto;
            overflow-y: hidden;
          }
          .buffers { display: flex; gap: .25rem; }
          .buffer .buffer-name { max-width: 9rem; }
          .join-form { flex: 0 0 auto; }
          .join-form input { width: 7rem; flex: none; }
          .chat-page .buffer-header { padding: .5rem .75rem; }
          .message { display: block; padding: .2rem .75rem; }
          .message .time { margin-right: .4rem; }
          .message .nick { margin-right: .4rem; }
          .message .preview { display: block; }
          .compose { padding: .5rem .75rem; }
        }

        """#
}
