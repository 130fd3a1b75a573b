// The web chat's one script (/static/chat.js): IRC over WebSocket (text.ircv3.net), one IRC line per message.
// The DOM is built with createElement and textContent only, never from message text.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const SERVER = '*';  // the server buffer's key: no nick or channel is called that
  const MENTIONS = '!mentions';  // the two views' keys: no nick or channel starts with '!'
  const LIST = '!list';
  const SEARCH = '!search';
  const WANTED = ['server-time', 'echo-message', 'message-tags', 'batch', 'draft/chathistory',
    'draft/read-marker', 'account-tag', 'multi-prefix', 'draft/message-redaction', 'draft/event-playback',
    'draft/message-edit', 'soju.im/search'];
  const REACTION = '👍';
  const MAX_LINES = 2000;  // per buffer, so a long session stays light
  const PAGE = 100;  // history lines asked for at once (the server may allow fewer: ISUPPORT CHATHISTORY)
  const TYPING_EVERY = 3000;  // ms between "+typing=active" while typing (IRCv3 typing spec)
  const TYPING_SHOWN = 6000;  // ms a typing notice stays without a new one
  const RECONNECT_TRIES = 5;
  const IMAGE = /\.(png|jpe?g|gif|webp)$/i;
  const LINK = /\bhttps?:\/\/[^\s<>"]+/gi;

  let ws = null;
  let me = '';
  let registered = false;
  let caps = new Set();
  let offered = [];
  let login = null;  // {account, password} while SASL runs
  let site = null;  // the site's signed-in account, when the chat signs in with its session
  let nickTries = 0;
  let failure = '';  // why the connection is ending, shown when it has closed
  let quitting = false;
  let reconnects = 0;
  let signedIn = '';
  let autojoin = [];
  let current = SERVER;
  let page = PAGE;
  const buffers = new Map();
  const names = new Map();  // channel -> nicks collected from 353 until 366
  const batches = new Map();  // open BATCHes: id -> {type, target, lines}
  const channelList = [];  // LIST's 322 lines until 323

  // The log follows new lines (and pictures, and a resized window) while it is at its bottom.
  let stuck = true;
  function follow() {
    if (stuck) $('messages').scrollTop = $('messages').scrollHeight;
  }

  const fold = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const isChannel = (s) => /^[#&]/.test(s);
  const isView = (key) => key === MENTIONS || key === LIST || key === SEARCH;
  const nickOf = (source) => source.split('!')[0];
  const remember = (key, value) => { try { localStorage.setItem('hearth.' + key, value); } catch (e) {} };
  const recall = (key) => { try { return localStorage.getItem('hearth.' + key); } catch (e) { return null; } };
  const stamp = (date) => date.toISOString();

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

  // Opens a conversation with a nick (and its history).
  function openQuery(nick) {
    const b = buffer(nick);
    show(b.key);
    return b;
  }

  function send(line) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(line);
  }

  // mIRC formatting (bold, colours, …) is dropped: the page has its own look.
  const plain = (text) => text.replace(/\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x11\x16\x1d\x1e\x1f]/g, '');

  // A tag value on the wire (IRCv3 message-tags escaping).
  const ESCAPES = { '\\': '\\\\', ';': '\\:', ' ': '\\s', '\r': '\\r', '\n': '\\n' };
  const tagValue = (v) => v.replace(/[\\; \r\n]/g, (c) => ESCAPES[c]);

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(className, text, title, onClick) {
    const b = el('button', className, text);
    b.type = 'button';
    if (title) { b.title = title; b.setAttribute('aria-label', title); }
    b.addEventListener('click', onClick);
    return b;
  }

  function nickClass(nick) {
    let hash = 0;
    for (const c of fold(nick)) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
    return 'nick-c' + (hash % 8);
  }

  // Avatars: the account's profile picture (GET /chat/avatars), else its initial.
  const avatars = new Map();  // folded name -> path or null
  const wantedAvatars = new Set();
  let avatarTimer = 0;
  function avatar(name) {
    const key = fold(name);
    // The initial comes from CSS, so the line's text (and a copy of it) stays the words alone.
    const span = el('span', 'avatar ' + nickClass(name));
    span.dataset.initial = name.slice(0, 1).toUpperCase();
    span.dataset.avatar = key;
    span.setAttribute('aria-hidden', 'true');
    if (avatars.get(key)) setAvatar(span, avatars.get(key));
    else if (!avatars.has(key)) {
      wantedAvatars.add(key);
      if (!avatarTimer) avatarTimer = setTimeout(fetchAvatars, 150);
    }
    return span;
  }
  function setAvatar(span, path) {
    const img = el('img');
    img.src = path;
    img.alt = '';
    span.textContent = '';
    span.append(img);
  }
  async function fetchAvatars() {
    avatarTimer = 0;
    const asked = [...wantedAvatars].slice(0, 50);
    asked.forEach((k) => { wantedAvatars.delete(k); avatars.set(k, null); });
    if (wantedAvatars.size) avatarTimer = setTimeout(fetchAvatars, 150);
    try {
      const reply = await fetch('/chat/avatars?names=' + encodeURIComponent(asked.join(',')));
      if (!reply.ok) return;
      const found = await reply.json();
      for (const [key, path] of Object.entries(found)) {
        if (typeof path !== 'string' || !path.startsWith('/i/')) continue;
        avatars.set(key, path);
        for (const span of document.querySelectorAll('.avatar')) {
          if (span.dataset.avatar === key) setAvatar(span, path);
        }
      }
    } catch (e) { /* no pictures then */ }
  }

  // Links to this site's pages get a card from the page's own og: tags.
  const cards = new Map();  // url -> promise of {title, description, image} or null
  function card(url) {
    if (!cards.has(url)) {
      cards.set(url, fetch(url, { credentials: 'same-origin', headers: { Accept: 'text/html' } })
        .then((r) => r.ok && (r.headers.get('Content-Type') || '').startsWith('text/html') ? r.text() : null)
        .then((html) => {
          if (!html) return null;
          const doc = new DOMParser().parseFromString(html, 'text/html');
          const meta = (p) => (doc.querySelector('meta[property="og:' + p + '"]') || {}).content || '';
          const title = meta('title');
          return title ? { title, description: meta('description'), image: meta('image') } : null;
        })
        .catch(() => null));
    }
    return cards.get(url);
  }
  function addCard(line, url) {
    card(url).then((info) => {
      if (!info) return;
      const a = el('a', 'card');
      a.href = url;
      if (info.image) {
        try {
          const src = new URL(info.image, location.href);
          if (src.origin === location.origin) {
            const img = el('img');
            img.src = src.href;
            img.alt = '';
            img.loading = 'lazy';
            img.addEventListener('load', follow);
            a.append(img);
          }
        } catch (e) { /* no picture */ }
      }
      const words = el('span', 'card-text');
      words.append(el('strong', null, info.title));
      if (info.description) words.append(el('span', null, info.description));
      a.append(words);
      line.append(a);
      follow();
    });
  }

  // Text with its links as <a>; pictures on this server shown inline, its pages as cards.
  function richText(text, previews, pages) {
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
      // The CSP allows pictures (and fetches) from this origin only.
      if (url.origin === location.origin) {
        if (IMAGE.test(url.pathname)) previews.push(url.href);
        else if (!url.pathname.startsWith('/upload') && url.pathname !== '/chat') pages.push(url.href);
      }
    }
    span.append(text.slice(last));
    return span;
  }

  function buffer(name) {
    const key = isView(name) || name === SERVER ? name : fold(name);
    let b = buffers.get(key);
    if (b) return b;
    b = {
      key, name, topic: '', members: new Set(), unread: 0, log: el('ol', 'log'), msgids: new Set(),
      readAt: null, complete: false, loading: false, typing: new Map(),
    };
    b.log.hidden = true;
    b.log.dataset.buffer = name;
    $('messages').append(b.log);
    buffers.set(key, b);
    b.complete = isView(key) || key === SERVER;  // no history to ask for
    if (isView(key)) {
      b.item = $({ [MENTIONS]: 'mentions-view', [LIST]: 'list-view', [SEARCH]: 'search-form' }[key]);
      return b;
    }
    b.item = el('li', 'buffer');
    b.item.dataset.buffer = name;
    const open = button('buffer-name', '', null, () => show(key));
    open.append(el('span', 'label', name === SERVER ? 'Server' : name));
    b.badge = el('span', 'count');
    b.badge.hidden = true;
    open.append(b.badge);
    b.item.append(open);
    if (name !== SERVER) {
      b.item.append(button('buffer-close', '×', isChannel(name) ? 'Leave ' + name : 'Close', () => leave(b)));
    }
    $('buffers').append(b.item);
    // A conversation opened now brings its history along.
    if (!isChannel(name) && name !== SERVER && registered) latest(b);
    return b;
  }

  function setUnread(b, count) {
    b.unread = count;
    if (!b.badge) return;
    b.badge.textContent = count > 99 ? '99+' : String(count);
    b.badge.hidden = count === 0;
    b.item.classList.toggle('unread', count > 0);
    if (count === 0) b.item.classList.remove('highlight');
  }

  // Unread: lines by others after the read marker (or, without one, since this page opened).
  function countUnread(b) {
    if (!b.readAt) return;
    let count = 0;
    for (const li of b.log.children) {
      if (li.dataset.counts && li.dataset.time > b.readAt) count += 1;
    }
    setUnread(b, count);
  }

  const visible = () => document.visibilityState === 'visible';

  // Marks the buffer on screen read up to its last line, for this device and the others.
  function markRead() {
    const b = buffers.get(current);
    if (!b || isView(b.key) || b.key === SERVER || !visible() || !stuck) return;
    const last = [...b.log.children].reverse().find((li) => li.dataset.msgid);
    const time = last ? last.dataset.time : null;
    setUnread(b, 0);
    if (!time || (b.readAt && b.readAt >= time)) return;
    b.readAt = time;
    if (caps.has('draft/read-marker')) send('MARKREAD ' + b.name + ' timestamp=' + time);
  }

  function show(key) {
    const b = buffers.get(key) || buffers.get(SERVER);
    current = b.key;
    for (const other of buffers.values()) {
      other.log.hidden = other !== b;
      other.item.classList.toggle('active', other === b);
    }
    if (b.item.scrollIntoView) b.item.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const title = { [SERVER]: 'Server', [MENTIONS]: 'Mentions', [LIST]: 'Channels', [SEARCH]: 'Search' }[b.key]
      || b.name;
    $('title').textContent = title;
    $('topic').textContent = b.topic || (isChannel(b.name) && b.members.size ? b.members.size + ' here' : '');
    $('compose').hidden = isView(b.key);
    if (b.key === LIST) send('LIST');
    if (b.key === MENTIONS) setMentions(0);
    showTyping();
    stuck = true;
    follow();
    markRead();
    if (matchMedia('(pointer: fine)').matches && !isView(b.key)) $('input').focus();
  }

  function leave(b) {
    if (isChannel(b.name) && registered && b.joined) send('PART ' + b.name);
    else drop(b);
  }

  function drop(b) {
    b.log.remove();
    b.item.remove();
    buffers.delete(b.key);
    if (current === b.key) show(SERVER);
  }

  // A message's line: kind is '', 'notice', 'action', 'event', 'error' or 'self'.
  function line(nick, text, kind, tags, date) {
    const li = el('li', 'message' + (kind ? ' ' + kind : ''));
    li.dataset.time = stamp(date);
    if (tags && tags.msgid) li.dataset.msgid = tags.msgid;
    const time = el('time', 'time', date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
    time.dateTime = stamp(date);
    time.title = date.toLocaleString();
    li.append(time);
    const shown = kind === 'notice' ? '-' + nick + '-' : kind === 'action' ? '* ' + nick : nick;
    const who = el('span', 'nick' + (nick ? ' ' + nickClass(nick) : ''));
    if (nick && kind !== 'event' && kind !== 'error') {
      who.append(avatar((tags && tags.account) || nick));
      who.append(button('name', shown, 'Message ' + nick, () => openQuery(nick)));
    } else who.textContent = shown;
    li.append(who);
    const previews = [];
    const pages = [];
    li.append(richText(plain(text), previews, pages));
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
      li.append(a);
    }
    for (const url of pages.slice(0, 2)) addCard(li, url);
    return li;
  }

  function mentions(nick, text, kind) {
    return me && kind !== 'self' && kind !== 'event' && kind !== 'error' && nick && fold(nick) !== fold(me)
      && new RegExp('(^|\\W)' + me.replace(/[^\w]/g, '\\$&') + '(\\W|$)', 'i').test(text);
  }

  let mentionCount = 0;
  function setMentions(count) {
    mentionCount = count;
    $('mentions-count').textContent = String(count);
    $('mentions-count').hidden = count === 0;
  }

  // A copy of a line that mentions me, in the Mentions view, leading to where it was said.
  function addMention(b, li) {
    const view = buffer(MENTIONS);
    if (li.dataset.msgid && view.msgids.has(li.dataset.msgid)) return;
    if (li.dataset.msgid) view.msgids.add(li.dataset.msgid);
    const copy = li.cloneNode(true);
    copy.classList.remove('highlight');
    copy.querySelector('.nick').prepend(button('where', b.name, 'Open ' + b.name, () => show(b.key)));
    insertSorted(view, copy);
    // Counted when not seen where it was said.
    if (current !== MENTIONS && !(b.key === current && visible())) setMentions(mentionCount + 1);
  }

  function insertSorted(b, li) {
    const time = li.dataset.time;
    let next = b.log.lastElementChild;
    if (next && next.dataset.time <= time) { b.log.append(li); return; }
    while (next && next.previousElementSibling && next.previousElementSibling.dataset.time > time) {
      next = next.previousElementSibling;
    }
    b.log.insertBefore(li, next);
  }

  // Adds a line to a buffer; `old` lines (history) go before `old.anchor` (null: at the end) and
  // are counted by the read marker only.
  function add(name, nick, text, kind, tags, old) {
    if (tags && tags.msgid && buffers.has(fold(name)) && buffers.get(fold(name)).msgids.has(tags.msgid)) return;
    const b = buffer(name);
    if (tags && tags.msgid) b.msgids.add(tags.msgid);
    const when = tags && tags.time ? new Date(tags.time) : new Date();
    const date = isNaN(when) ? new Date() : when;
    const li = line(nick, text, kind, tags, date);
    const mention = mentions(nick, text, kind);
    if (mention) li.classList.add('highlight');
    const counts = kind !== 'event' && kind !== 'error' && kind !== 'self' && b.key !== SERVER;
    if (counts) li.dataset.counts = '1';
    if (old) b.log.insertBefore(li, old.anchor); else b.log.append(li);
    while (b.log.childElementCount > MAX_LINES) { b.log.firstElementChild.remove(); b.complete = false; }
    const unseen = !b.readAt || li.dataset.time > b.readAt;
    if (mention && unseen) addMention(b, li);
    if (old) return;
    if (b.key === current && visible()) {
      follow();
      markRead();
    } else if (b.key === current) {
      follow();
      if (counts) setUnread(b, b.unread + 1);
    } else if (counts && unseen) {
      setUnread(b, b.unread + 1);
      if (mention || !isChannel(b.name)) b.item.classList.add('highlight');
    }
    if (counts && (mention || !isChannel(b.name)) && !visible()) notify(b, nick, text);
  }

  const note = (text, kind) => add(isView(current) ? SERVER : current, '', text, kind || 'event');

  function notify(b, nick, text) {
    if (!('Notification' in window) || Notification.permission !== 'granted') return;
    try {
      const title = isChannel(b.name) ? nick + ' in ' + b.name : nick;
      const n = new Notification(title, { body: plain(text), tag: b.key });
      n.onclick = () => { window.focus(); show(b.key); n.close(); };
    } catch (e) { /* a phone's browser shows them only from a service worker */ }
  }

  function status(text) { $('status').textContent = text; }

  function fail(text) {
    failure = text;
    status(text);
    send('QUIT');
  }

  // Asks the site whether its visitor is signed in: then the chat signs in with a one-time ticket.
  async function ticket() {
    try {
      const reply = await fetch('/chat/ticket', { method: 'POST', headers: { 'X-Hearth-Chat': '1' } });
      const answer = reply.ok ? await reply.json() : {};
      return answer.account && answer.ticket ? answer : null;
    } catch (e) {
      return null;
    }
  }

  async function start() {
    const pass = await ticket();
    if (ws) return;  // the form was used meanwhile
    $('starting').hidden = true;
    if (!pass) {
      $('login').hidden = false;
      return;
    }
    site = pass.account;
    const channels = recall('channels') ?? '#hearth';
    open(pass.account, { account: pass.account, password: pass.ticket }, channels);
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
    site = null;
    open(nick, account ? { account, password } : null, $('channels').value);
  }

  function open(nick, credentials, channels) {
    autojoin = channels.split(/[\s,]+/).filter(Boolean).map((c) => isChannel(c) ? c : '#' + c);
    login = credentials;
    status('Connecting…');
    $('connect').disabled = true;
    me = nick;
    registered = false;
    nickTries = 0;
    failure = '';
    quitting = false;
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

  // Back to the form, which says why; a new connection starts with fresh buffers. A chat signed
  // in by the site's session tries again by itself, a few times.
  function closed() {
    const wasRegistered = registered;
    ws = null;
    registered = false;
    $('connect').disabled = false;
    if (site && !quitting && wasRegistered && reconnects < RECONNECT_TRIES) {
      reconnects += 1;
      note('Disconnected; reconnecting…', 'error');
      setTimeout(() => { if (!ws) start(); }, 1000 * 2 ** reconnects);
      return;
    }
    $('client').hidden = true;
    $('starting').hidden = true;
    $('login').hidden = false;
    status(failure || 'Disconnected.');
  }

  function welcome() {
    registered = true;
    reconnects = 0;
    $('login').hidden = true;
    $('starting').hidden = true;
    $('client').hidden = false;
    $('notify').hidden = !('Notification' in window) || Notification.permission !== 'default';
    $('file').closest('label').hidden = !site;
    $('camera').closest('label').hidden = !site;
    for (const b of buffers.values()) {  // a fresh start after a reconnect
      b.log.remove();
      if (!isView(b.key)) b.item.remove();
    }
    buffers.clear();
    batches.clear();
    setMentions(0);
    buffer(SERVER);
    show(SERVER);
    status('');
    $('password').value = '';
    if (autojoin.length) send('JOIN ' + autojoin.join(','));
    // Conversations of the last week come back (their history with them).
    if (caps.has('draft/chathistory') && signedIn) {
      const week = new Date(Date.now() - 7 * 86400000);
      send('CHATHISTORY TARGETS timestamp=' + stamp(week) + ' timestamp=' + stamp(new Date()) + ' 20');
    }
  }

  function capEnd() { if (!registered) send('CAP END'); }

  function authenticate() {
    const bytes = new TextEncoder().encode('\0' + login.account + '\0' + login.password);
    let text = btoa(String.fromCharCode(...bytes));
    // AUTHENTICATE carries 400 bytes at most; a last piece of exactly 400 is followed by '+'.
    while (text.length >= 400) { send('AUTHENTICATE ' + text.slice(0, 400)); text = text.slice(400); }
    send('AUTHENTICATE ' + (text || '+'));
  }

  // History: the latest page of a buffer, and the page before its oldest line.
  function latest(b) {
    if (!caps.has('draft/chathistory') || b.loading) return;
    b.loading = 'latest';
    send('CHATHISTORY LATEST ' + b.name + ' * ' + page);
  }
  function earlier(b) {
    if (!caps.has('draft/chathistory') || b.loading || b.complete) return;
    const oldest = [...b.log.children].find((li) => li.dataset.time);
    if (!oldest) return latest(b);
    b.loading = 'before';
    const ref = oldest.dataset.msgid ? 'msgid=' + oldest.dataset.msgid : 'timestamp=' + oldest.dataset.time;
    send('CHATHISTORY BEFORE ' + b.name + ' ' + ref + ' ' + page);
  }

  function historyDone(batch) {
    const b = buffers.get(fold(batch.target));
    if (!b) return;
    const box = $('messages');
    const fromBottom = box.scrollHeight - box.scrollTop;
    // Lines of the same millisecond keep the server's order: the page goes in as one block, above
    // everything (BEFORE) or above the first line newer than its last (LATEST).
    const lastTime = batch.lines.length ? batch.lines[batch.lines.length - 1].tags.time || '' : '';
    const anchor = b.loading === 'before' ? b.log.firstElementChild
      : [...b.log.children].find((li) => li.dataset.time > lastTime) || null;
    for (const m of batch.lines) {
      const self = fold(nickOf(m.source)) === fold(me);
      if (m.command === 'TAGMSG') tagmsg(m, nickOf(m.source), self);
      else if (m.command === 'EDIT') edited(m, nickOf(m.source), self);
      else if (m.command === 'TOPIC') {
        // An old topic change, shown where it happened; the channel's topic now is not changed.
        add(b.name, '', nickOf(m.source) + ' set the topic: ' + (m.params[1] || '(none)'), 'event', m.tags, { anchor });
      } else message(m, nickOf(m.source), self, { anchor });
    }
    b.loading = false;
    if (batch.lines.length < page) b.complete = true;
    countUnread(b);
    if (b.key !== current) return;
    // Earlier lines go above without moving what is on screen.
    if (!stuck) box.scrollTop = box.scrollHeight - fromBottom;
    follow();
    markRead();
  }

  function batch(m) {
    const id = m.params[0].slice(1);
    if (m.params[0].startsWith('+')) {
      batches.set(id, { type: m.params[1], target: m.params[2], lines: [] });
      return;
    }
    const done = batches.get(id);
    batches.delete(id);
    if (done && done.type === 'chathistory') historyDone(done);
    if (done && done.type === 'soju.im/search') found(done.lines);
    if (done && done.type === 'draft/chathistory-targets') {
      // Conversations come back to the sidebar; channels come back by joining.
      for (const t of done.lines) {
        if (t.command === 'CHATHISTORY' && t.params[1] && !isChannel(t.params[1])) buffer(t.params[1]);
      }
    }
  }

  function receive(m) {
    const inBatch = m.tags.batch && batches.get(m.tags.batch);
    if (inBatch && m.command !== 'BATCH') { inBatch.lines.push(m); return; }
    const p = m.params;
    const from = nickOf(m.source);
    const self = me && fold(from) === fold(me);
    switch (m.command) {
      case 'PING': send('PONG :' + (p[0] || '')); return;
      case 'CAP': return capability(p);
      case 'AUTHENTICATE': if (p[0] === '+' && login) authenticate(); return;
      case 'BATCH': return batch(m);
      case '001':
        me = p[0];
        welcome();
        add(SERVER, '', p[1] || 'Welcome', 'event', m.tags);
        if (signedIn) add(SERVER, '', signedIn, 'event', m.tags);
        return;
      case '005':
        for (const token of p.slice(1, -1)) {
          const [name, value] = token.split('=');
          if (name === 'CHATHISTORY' && Number(value) > 0) page = Math.min(PAGE, Number(value));
        }
        return;
      case '900': signedIn = p[p.length - 1]; return;
      case '903': login = null; capEnd(); return;
      case '902': case '904': case '905': case '906': case '908':
        login = null;
        if (site) site = null;
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
      case 'PRIVMSG': case 'NOTICE': return message(m, from, self, false);
      case 'TAGMSG': return tagmsg(m, from, self);
      case 'EDIT': return edited(m, from, self);
      case 'MARKREAD': {
        const b = buffers.get(fold(p[0] || ''));
        const value = (p[1] || '').replace(/^timestamp=/, '');
        if (!b || !value || value === '*' || (b.readAt && b.readAt >= value)) return;
        b.readAt = value;
        countUnread(b);
        return;
      }
      case 'REDACT': {
        const b = buffers.get(fold(isChannel(p[0]) || self ? p[0] : from));
        for (const log of [b && b.log, buffers.has(MENTIONS) && buffers.get(MENTIONS).log]) {
          const li = log && [...log.children].find((x) => x.dataset.msgid === p[1]);
          if (li) redacted(li);
        }
        return;
      }
      case 'JOIN': {
        const b = buffer(p[0]);
        b.members.add(fold(from));
        if (self) {
          const first = !b.joined;
          b.joined = true;
          show(b.key);
          if (first) latest(b);
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
        if (self) { me = p[0]; note('You are now ' + me); }
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
        if (b.key === current) $('topic').textContent = b.topic;
        return;
      }
      case '321': channelList.length = 0; return;
      case '322': channelList.push({ name: p[1], users: Number(p[2]) || 0, topic: p[3] || '' }); return;
      case '323': return showList();
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
        if (b.key === current) $('topic').textContent = b.topic || b.members.size + ' here';
        return;
      }
      case 'ERROR': failure = failure || p[0] || 'Closed by the server.'; return;
      case 'FAIL': case 'WARN': case 'NOTE': {
        if (m.command === 'FAIL' && p[0] === 'CHATHISTORY') {
          for (const b of buffers.values()) { if (b.loading) { b.loading = false; b.complete = true; } }
        }
        note(p.slice(2).join(' '), m.command === 'NOTE' ? 'event' : 'error');
        return;
      }
      default:
        if (/^[45]\d\d$/.test(m.command)) note(p.slice(1).join(' '), 'error');
        else if (/^\d\d\d$/.test(m.command) && registered) {
          add(SERVER, '', p.slice(1).join(' '), 'event', m.tags);
        }
    }
  }

  function redacted(li) {
    li.classList.add('deleted');
    li.querySelector('.text').textContent = '(deleted)';
    for (const extra of li.querySelectorAll('.preview, .card, .actions')) extra.remove();
    delete li.dataset.counts;
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

  // Where a message belongs: its channel, the conversation with the other nick, or the server's.
  function place(m, from, self) {
    const target = m.params[0];
    const fromServer = !m.source || !m.source.includes('!');
    if (isChannel(target)) return target;
    if (fromServer) return SERVER;
    if (self) return target;  // our own message, echoed back (or from history)
    if (m.command === 'NOTICE' && !buffers.has(fold(from))) return isView(current) ? SERVER : current;
    return from;
  }

  function message(m, from, self, old) {
    const raw = m.params[1] || '';
    const notice = m.command === 'NOTICE';
    const fromServer = !m.source || !m.source.includes('!');
    let text = raw;
    let kind = notice ? 'notice' : '';
    if (text.startsWith('\x01ACTION ')) { text = text.slice(8).replace(/\x01$/, ''); kind = 'action'; }
    else if (text.startsWith('\x01')) return;  // other CTCP requests go unanswered
    if (self && !kind) kind = 'self';
    if (!registered) return;  // the server's notices before the welcome
    const where = place(m, from, self);
    if (!old) stopTyping(where, from);
    add(where, fromServer ? (m.source || 'server') : from, text, kind, m.tags, old);
    const b = buffers.get(isChannel(where) ? fold(where) : where === SERVER ? SERVER : fold(where));
    const li = b && m.tags.msgid && lineOf(b, m.tags.msgid);
    if (!li || fromServer || li.querySelector('.actions')) return;
    const reply = m.tags['+draft/reply'];
    if (reply) {
      const to = lineOf(b, reply);
      const quote = el('span', 'quote', '↪ ' + (to ? to.dataset.nick + ': ' + excerpt(to) : 'an earlier message'));
      li.querySelector('.text').prepend(quote);
    }
    li.dataset.nick = from;
    li.dataset.words = plain(text);
    const actions = el('span', 'actions');
    if (caps.has('message-tags')) {
      actions.append(button('react', REACTION, 'React ' + REACTION, () => {
        send('@+draft/react=' + REACTION + ';+draft/reply=' + m.tags.msgid + ' TAGMSG ' + b.name);
      }));
      actions.append(button('reply', 'Reply', 'Reply to ' + from, () => startReply(li, m.tags.msgid)));
    }
    if (self && caps.has('draft/message-edit')) {
      actions.append(button('edit', 'Edit', 'Edit this message', () => startEdit(li, m.tags.msgid)));
    }
    if (self && caps.has('draft/message-redaction')) {
      actions.append(button('delete', 'Delete', 'Delete this message', () => {
        send('REDACT ' + b.name + ' ' + m.tags.msgid);
      }));
    }
    li.append(actions);
  }

  const lineOf = (b, msgid) => [...b.log.children].find((x) => x.dataset.msgid === msgid);
  const excerpt = (li) => {
    const words = li.dataset.words || '';
    return words.length > 40 ? words.slice(0, 40) + '…' : words;
  };

  // Replying and editing: the input line says which message it is about until sent or cancelled.
  let pending = null;  // {kind: 'reply'|'edit', msgid, target}
  function startReply(li, msgid) {
    pending = { kind: 'reply', msgid, target: current };
    $('pending-text').textContent = '↪ Replying to ' + li.dataset.nick + ': ' + excerpt(li);
    $('pending').hidden = false;
    $('input').focus();
  }
  function startEdit(li, msgid) {
    pending = { kind: 'edit', msgid, target: current };
    $('pending-text').textContent = 'Editing your message';
    $('pending').hidden = false;
    $('input').value = li.dataset.words || '';
    $('input').focus();
  }
  function cancelPending() {
    pending = null;
    $('pending').hidden = true;
  }

  // EDIT (draft/message-edit): the line shows its new words, marked "(edited)".
  function edited(m, from) {
    const target = isChannel(m.params[0]) || fold(from) === fold(me) ? m.params[0] : from;
    const b = buffers.get(fold(target));
    const li = b && lineOf(b, m.tags['draft/target-msgid'] || '');
    const text = m.tags['draft/edit-text'];
    if (!li || text === undefined) return;
    const span = li.querySelector('.text');
    const quote = span.querySelector('.quote');
    span.replaceWith(richText(plain(text), [], []));
    if (quote) li.querySelector('.text').prepend(quote);
    li.querySelector('.text').append(el('span', 'edited', ' (edited)'));
    li.dataset.words = plain(text);
  }

  // +draft/react: chips under the line, one per emoji with how many reacted.
  function reacted(b, msgid, emoji, from) {
    const li = lineOf(b, msgid);
    if (!li) return;
    li.reactions = li.reactions || new Map();
    const who = li.reactions.get(emoji) || new Set();
    who.add(fold(from));
    li.reactions.set(emoji, who);
    let chips = li.querySelector('.reactions');
    if (!chips) { chips = el('span', 'reactions'); li.insertBefore(chips, li.querySelector('.actions')); }
    chips.textContent = '';
    for (const [e, nicks] of li.reactions) {
      const chip = el('span', 'reaction' + (nicks.has(fold(me)) ? ' mine' : ''), e + ' ' + nicks.size);
      chip.title = [...nicks].join(', ');
      chips.append(chip);
    }
  }

  // +typing: who is writing in the buffer on screen, shown under its lines.
  function tagmsg(m, from, self) {
    const state = m.tags['+typing'];
    const target = isChannel(m.params[0]) || self ? m.params[0] : from;
    const b = buffers.get(fold(target));
    if (!b || !registered) return;
    const react = m.tags['+draft/react'];
    if (react && m.tags['+draft/reply']) reacted(b, m.tags['+draft/reply'], react, from);
    if (!state || self) return;
    clearTimeout(b.typing.get(from));
    if (state === 'active') b.typing.set(from, setTimeout(() => stopTyping(target, from), TYPING_SHOWN));
    else b.typing.delete(from);
    showTyping();
  }
  function stopTyping(target, from) {
    const b = buffers.get(fold(target));
    if (!b || !b.typing.has(from)) return;
    clearTimeout(b.typing.get(from));
    b.typing.delete(from);
    showTyping();
  }
  function showTyping() {
    const b = buffers.get(current);
    const who = b ? [...b.typing.keys()] : [];
    $('typing').textContent = who.length === 0 ? '' : who.length > 3 ? 'Several people are typing…'
      : who.join(', ') + (who.length === 1 ? ' is typing…' : ' are typing…');
  }

  let typingSent = 0;
  function typing() {
    const b = buffers.get(current);
    if (!b || b.key === SERVER || isView(b.key) || !caps.has('message-tags')) return;
    const text = $('input').value;
    if (!text || text.startsWith('/')) {
      if (typingSent) send('@+typing=done TAGMSG ' + b.name);
      typingSent = 0;
    } else if (Date.now() - typingSent > TYPING_EVERY) {
      typingSent = Date.now();
      send('@+typing=active TAGMSG ' + b.name);
    }
  }

  // SEARCH (soju.im/search): the history you may read, its matches in the Search view.
  function search(event) {
    event.preventDefault();
    const words = $('search').value.trim();
    if (!words || !registered) return;
    if (!caps.has('soju.im/search')) return note('This server does not search history.', 'error');
    send('SEARCH text=' + tagValue(words));
    const b = buffer(SEARCH);
    b.log.textContent = '';
    b.log.append(el('li', 'message event', 'Searching for ' + words + '…'));
    show(b.key);
  }
  function found(lines) {
    const b = buffer(SEARCH);
    b.log.textContent = '';
    if (!lines.length) b.log.append(el('li', 'message event', 'Nothing found.'));
    for (const m of lines) {
      if (m.command !== 'PRIVMSG' && m.command !== 'NOTICE') continue;
      const from = nickOf(m.source);
      const where = place(m, from, fold(from) === fold(me));
      const li = line(from, plain(m.params[1] || ''), '', m.tags, new Date(m.tags.time || Date.now()));
      li.querySelector('.nick').prepend(button('where', where, 'Open ' + where, () => {
        if (isChannel(where)) joinChannel(where); else openQuery(where);
      }));
      b.log.append(li);
    }
    if (current === SEARCH) follow();
  }

  // LIST's answer, in the Channels view: each with its people, topic and a Join button.
  function showList() {
    const b = buffer(LIST);
    b.log.textContent = '';
    channelList.sort((x, y) => y.users - x.users || x.name.localeCompare(y.name));
    if (!channelList.length) b.log.append(el('li', 'message event', 'No channels yet: open one with its name.'));
    for (const c of channelList) {
      const li = el('li', 'channel-row');
      const joined = buffers.has(fold(c.name)) && buffers.get(fold(c.name)).joined;
      li.append(button('join-channel', joined ? 'Open' : 'Join', (joined ? 'Open ' : 'Join ') + c.name,
        () => joinChannel(c.name)));
      li.append(el('strong', 'channel-name', c.name));
      li.append(el('span', 'channel-users', c.users + (c.users === 1 ? ' person' : ' people')));
      li.append(el('span', 'channel-topic', plain(c.topic)));
      b.log.append(li);
    }
  }

  function say(text) {
    const b = buffers.get(current);
    if (!b || b.name === SERVER || isView(b.key)) {
      note('Join a channel or open a conversation first: /join #hearth or /msg NICK TEXT.', 'error');
      return;
    }
    const about = pending && pending.target === b.key ? pending : null;
    cancelPending();
    if (about && about.kind === 'edit') {
      send('@draft/target-msgid=' + about.msgid + ';draft/edit-text=' + tagValue(text) + ' EDIT ' + b.name);
      return;
    }
    privmsg(b.name, text, false, about ? about.msgid : null);
  }

  function privmsg(target, text, action, replyTo) {
    const tags = replyTo && caps.has('message-tags') ? '@+draft/reply=' + replyTo + ' ' : '';
    send(tags + 'PRIVMSG ' + target + ' :' + (action ? '\x01ACTION ' + text + '\x01' : text));
    // Without echo-message the server does not send our own lines back.
    if (!caps.has('echo-message')) add(target, me, text, action ? 'action' : 'self');
  }

  // Pictures: pasted, dropped or chosen (or taken with the camera) are uploaded for the signed-in
  // account and their link said where the chat is.
  async function upload(file) {
    const b = buffers.get(current);
    if (!b || b.key === SERVER || isView(b.key)) return note('Open a channel or conversation first.', 'error');
    if (!site) return note('Sign in on the site to send pictures.', 'error');
    if (!file.type.startsWith('image/')) return note('Only pictures can be sent.', 'error');
    note('Uploading ' + (file.name || 'the picture') + '…');
    try {
      const reply = await fetch('/chat/upload', {
        method: 'POST', headers: { 'X-Hearth-Chat': '1', 'Content-Type': file.type }, body: file,
      });
      const answer = await reply.json();
      if (!reply.ok || !answer.url) return note(answer.error || 'The picture was not stored.', 'error');
      privmsg(b.name, answer.url);
    } catch (e) {
      note('The picture was not sent: ' + e.message, 'error');
    }
  }
  function uploadAll(files) {
    const pictures = [...(files || [])].filter((f) => f.type.startsWith('image/'));
    for (const f of pictures) upload(f);
    return pictures.length > 0;
  }

  const HELP = '/join #channel, /part [#channel], /msg NICK TEXT, /me ACTION, /nick NEWNICK, '
    + '/topic [TEXT], /list, /quit [MESSAGE], /raw LINE. Bot commands start with ! (try !help).';

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
        if (!b || b.name === SERVER || isView(b.key)) return note('Join a channel first.', 'error');
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
      case 'list':
        return show(buffer(LIST).key);
      case 'quit': case 'exit':
        quitting = true;
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
    typing();
    if (text.startsWith('//')) say(text.slice(1));
    else if (text.startsWith('/')) command(text);
    else say(text);  // !commands too: the bot answers in the channel, or privately in a query
  }

  // The sidebar's box joins a channel ('kitchen' is #kitchen), or opens a conversation with @nick.
  function join(event) {
    event.preventDefault();
    const name = $('join').value.trim();
    if (!name) return;
    $('join').value = '';
    if (name.startsWith('@') && name.length > 1) openQuery(name.slice(1));
    else joinChannel(name);
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('nick').value = recall('nick') || '';
    $('account').value = recall('account') || '';
    if ($('account').value) $('signin').open = true;
    $('channels').value = recall('channels') ?? '#hearth';
    $('login').addEventListener('submit', connect);
    $('compose').addEventListener('submit', submit);
    $('join-form').addEventListener('submit', join);
    $('mentions-view').addEventListener('click', () => show(buffer(MENTIONS).key));
    $('pending-cancel').addEventListener('click', () => {
      if (pending && pending.kind === 'edit') $('input').value = '';
      cancelPending();
    });
    $('list-view').addEventListener('click', () => show(buffer(LIST).key));
    $('search-form').addEventListener('submit', search);
    $('notify').addEventListener('click', () => {
      Notification.requestPermission().then(() => { $('notify').hidden = Notification.permission !== 'default'; });
    });
    $('input').addEventListener('input', typing);
    $('input').addEventListener('paste', (e) => {
      if (uploadAll(e.clipboardData && e.clipboardData.files)) e.preventDefault();
    });
    for (const id of ['file', 'camera']) {
      $(id).addEventListener('change', () => { uploadAll($(id).files); $(id).value = ''; });
    }
    const main = $('main');
    main.addEventListener('dragover', (e) => { e.preventDefault(); main.classList.add('dropping'); });
    main.addEventListener('dragleave', () => main.classList.remove('dropping'));
    main.addEventListener('drop', (e) => {
      e.preventDefault();
      main.classList.remove('dropping');
      uploadAll(e.dataTransfer && e.dataTransfer.files);
    });
    const box = $('messages');
    box.addEventListener('scroll', () => {
      stuck = box.scrollHeight - box.scrollTop - box.clientHeight < 60;
      if (box.scrollTop < 200) { const b = buffers.get(current); if (b) earlier(b); }
      if (stuck) markRead();
    });
    document.addEventListener('visibilitychange', markRead);
    new ResizeObserver(follow).observe(box);
    start();
  });
})();
