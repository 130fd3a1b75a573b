// Hearth's service worker: what makes the site installable as an app. Pages always come from
// the network (they are live); when it is gone, a page is the offline page kept at install,
// and the site's files (stylesheet, scripts, icon) come from the copies kept with it.
'use strict';
var CACHE = 'hearth-shell-1';
var SHELL = ['/offline', '/static/hearth.css', '/static/hearth.js', '/static/icon.svg'];

self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (key) { return key !== CACHE; })
      .map(function (key) { return caches.delete(key); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener('fetch', function (event) {
  var request = event.request;
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(function () { return caches.match('/offline'); }));
    return;
  }
  var url = new URL(request.url);
  if (url.origin === self.location.origin && url.pathname.indexOf('/static/') === 0) {
    // The pages link files with ?v=VERSION; offline, the kept copy of any version will do.
    event.respondWith(fetch(request).catch(function () {
      return caches.match(request, { ignoreSearch: true });
    }));
  }
});

// Push notifications (the settings page turns them on): the server sends JSON with a title, a
// text and a link on the site; a click opens that page, here (never another site).
self.addEventListener('push', function (event) {
  var note = {};
  try {
    note = event.data ? event.data.json() : {};
  } catch (e) {
    note = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(self.registration.showNotification(note.title || 'Hearth', {
    body: note.body || '', icon: '/static/icon.svg', tag: note.kind || 'hearth', data: { url: note.url || '/' }
  }));
});

self.addEventListener('notificationclick', function (event) {
  event.notification.close();
  var link = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  var target = new URL(link.pathname + link.search, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === target && 'focus' in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(target);
  }));
});
