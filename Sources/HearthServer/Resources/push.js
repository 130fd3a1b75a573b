// Notifications on this device (the settings page's section): subscribes the browser's push
// service with the server's VAPID key, tells the server the endpoint, its keys and the kinds
// switched on, and renews the subscription each time the page is opened.
'use strict';
(function () {
  var section = document.getElementById('push');
  if (!section) return;
  var status = section.querySelector('.push-status');
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return;
  var toggle = section.querySelector('[data-push-toggle]');
  var kindsBox = section.querySelector('.push-kinds');
  var boxes = section.querySelectorAll('input[name=kind]');
  var csrf = section.querySelector('input[name=csrf]').value;
  var current = null;

  function keyBytes(text) {
    var plain = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4));
    var bytes = new Uint8Array(plain.length);
    for (var i = 0; i < plain.length; i++) bytes[i] = plain.charCodeAt(i);
    return bytes;
  }

  function kinds() {
    return Array.prototype.filter.call(boxes, function (box) { return box.checked; })
      .map(function (box) { return box.value; }).join(',');
  }

  function post(path, subscription, withKinds) {
    var json = subscription.toJSON();
    var body = new URLSearchParams();
    body.set('csrf', csrf);
    body.set('endpoint', json.endpoint);
    if (json.keys) {
      body.set('p256dh', json.keys.p256dh);
      body.set('auth', json.keys.auth);
    }
    if (withKinds) body.set('kinds', kinds());
    return fetch(path, { method: 'POST', body: body, credentials: 'same-origin' }).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) throw new Error(answer.error || 'refused');
        return answer;
      });
    });
  }

  function show(subscription, answer) {
    current = subscription;
    toggle.hidden = false;
    kindsBox.hidden = !subscription;
    toggle.textContent = subscription ? 'Turn off notifications here' : 'Turn on notifications here';
    status.textContent = subscription ? 'Notifications are on for this device.'
      : Notification.permission === 'denied' ? 'This browser blocks notifications from this site.'
        : 'Notifications are off for this device.';
    if (answer && answer.kinds !== undefined) {
      var on = answer.kinds.split(',');
      boxes.forEach(function (box) { box.checked = on.indexOf(box.value) >= 0; });
    }
  }

  function failed(error) { status.textContent = 'Notifications: ' + error.message; }

  navigator.serviceWorker.ready.then(function (registration) {
    return registration.pushManager.getSubscription().then(function (subscription) {
      if (!subscription) return show(null);
      return post('/push/subscribe', subscription, false).then(function (answer) { show(subscription, answer); });
    }).then(function () {
      toggle.addEventListener('click', function () {
        if (current) {
          var leaving = current;
          leaving.unsubscribe().then(function () { return post('/push/unsubscribe', leaving, false); })
            .then(function () { show(null); }, failed);
          return;
        }
        Notification.requestPermission().then(function (permission) {
          if (permission !== 'granted') throw new Error('permission was not given');
          return registration.pushManager.subscribe({
            userVisibleOnly: true, applicationServerKey: keyBytes(section.getAttribute('data-vapid'))
          });
        }).then(function (subscription) {
          return post('/push/subscribe', subscription, true).then(function (answer) { show(subscription, answer); });
        }).catch(failed);
      });
      boxes.forEach(function (box) {
        box.addEventListener('change', function () {
          if (!current) return;
          post('/push/subscribe', current, true).then(function (answer) { show(current, answer); }, failed);
        });
      });
    });
  }).catch(failed);
})();
