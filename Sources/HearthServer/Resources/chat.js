// The web chat's one script (/static/chat.js): IRC over WebSocket (text.ircv3.net), one IRC line per message.
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

  // The log follows new lines (and pictures, and a resized window) while it is at its bottom.
  let stuck = true;
  function follow() {
    if (stuck) $('messages').scrollTop = $('messages').scrollHeight;
  }

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

  // Joins a channel, or shows it when it is joined already.
  function joinChannel(name, key) {
    const chan = isChannel(name) ? name : '#' + name;
    const b = buffers.get(fold(chan));
    if (b && b.joined) show(b.key);
    else send('JOIN ' + chan + (key ? ' ' + key : ''));
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
    b.item.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    $('title').textContent = b.name === SERVER ? 'Server' : b.name;
    $('topic').textContent = b.topic || (isChannel(b.name) && b.members.size ? b.members.size + ' here' : '');
    stuck = true;
    follow();
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
      img.addEventListener('load', follow);
      a.append(img);
      line.append(a);
    }
    const mention = me && kind !== 'self' && kind !== 'event' && nick && fold(nick) !== fold(me)
      && new RegExp('(^|\\W)' + me.replace(/[^\w]/g, '\\$&') + '(\\W|$)', 'i').test(text);
    if (mention) line.classList.add('highlight');
    b.log.append(line);
    while (b.log.childElementCount > MAX_LINES) b.log.firstElementChild.remove();
    if (b.key === current) {
      follow();
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
    for (const b of buffers.values()) {  // a fresh start after a reconnect
      b.log.remove();
      b.item.remove();
    }
    buffers.clear();
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
        if (self) {
          b.joined = true;
          show(b.key);
        } else add(p[0], '', from + ' joined', 'event', m.tags);
        return;
      }
      case 'PART': case 'KICK': {
        const who = m.command === 'KICK' ? p[1] : from;
        const b = buffers.get(fold(p[0]));
        if (!b) return;
        b.members.delete(fold(who));
        if (fold(who) === fold(me)) {
          if (m.command === 'PART') return drop(b);
          b.joined = false;
          add(p[0], '', 'You were removed by ' + from + (p[2] ? ': ' + p[2] : ''), 'error', m.tags);
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
        joinChannel(words[0], words[1]);
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
    joinChannel(name);
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('nick').value = recall('nick') || '';
    $('account').value = recall('account') || '';
    if ($('account').value) $('signin').open = true;
    $('channels').value = recall('channels') ?? '#hearth';
    $('login').addEventListener('submit', connect);
    $('compose').addEventListener('submit', submit);
    $('join-form').addEventListener('submit', join);
    const box = $('messages');
    box.addEventListener('scroll', () => { stuck = box.scrollHeight - box.scrollTop - box.clientHeight < 60; });
    new ResizeObserver(follow).observe(box);
  });
})();
