// Hearth's small page behaviours. Every page works without them: forms post and redirect.
// Each behaviour is switched on by a data attribute, so this one file serves every page.
(function () {
  'use strict';

  // <form data-preview="IMG-ID">: the form's fields, 300 ms after the last keystroke, become the
  // query of the preview picture (drawn by the server with the same renderer as the meme).
  function livePreview(form) {
    var img = document.getElementById(form.dataset.preview);
    if (!img) return;
    var status = form.querySelector('[data-preview-status]');
    var base = img.getAttribute('src').split('?')[0];
    var shown = img.getAttribute('src');
    var good = shown;
    var timer = 0;
    function say(text) { if (status) status.textContent = text; }
    function update() {
      var query = new URLSearchParams();
      Array.prototype.forEach.call(form.elements, function (field) {
        if (!field.name || field.name === 'csrf' || field.type === 'file' || field.value === '') return;
        query.append(field.name, field.value);
      });
      var src = base + '?' + query.toString();
      if (src === shown) return;
      shown = src;
      img.classList.add('loading');
      img.src = src;
    }
    img.addEventListener('load', function () {
      img.classList.remove('loading');
      good = img.getAttribute('src');
      say('');
    });
    img.addEventListener('error', function () {
      img.classList.remove('loading');
      say('The preview could not be drawn just now (too long, or too many at once); keep typing or post.');
      if (img.getAttribute('src') !== good) img.src = good;
    });
    form.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(update, 300);
    });
  }

  // <input data-filter="GRID-ID">: hides the grid's tiles whose data-keywords miss a typed word.
  function liveFilter(input) {
    var grid = document.getElementById(input.dataset.filter);
    if (!grid) return;
    input.addEventListener('input', function () {
      var words = input.value.toLowerCase().trim().split(/\s+/).filter(Boolean);
      Array.prototype.forEach.call(grid.querySelectorAll('[data-keywords]'), function (tile) {
        var keywords = tile.dataset.keywords;
        tile.hidden = !words.every(function (word) { return keywords.indexOf(word) >= 0; });
      });
    });
  }

  // <form data-drop>: a picture dropped on it, or chosen (camera or album on a phone), is sent.
  function dropUpload(form) {
    var input = form.querySelector('input[type=file]');
    var zone = form.querySelector('.dropzone') || form;
    if (!input) return;
    ['dragenter', 'dragover'].forEach(function (type) {
      zone.addEventListener(type, function (event) { event.preventDefault(); zone.classList.add('over'); });
    });
    ['dragleave', 'drop'].forEach(function (type) {
      zone.addEventListener(type, function () { zone.classList.remove('over'); });
    });
    zone.addEventListener('drop', function (event) {
      event.preventDefault();
      if (!event.dataTransfer || !event.dataTransfer.files.length) return;
      input.files = event.dataTransfer.files;
      form.submit();
    });
    input.addEventListener('change', function () { if (input.files.length) form.submit(); });
  }

  // <div data-share-url="/m/12">: Share (the Web Share API, where there is one) and Copy link.
  function shareButtons(box) {
    var url = new URL(box.dataset.shareUrl, location.href).href;
    var title = box.dataset.shareTitle || document.title;
    var share = box.querySelector('[data-share]');
    var copy = box.querySelector('[data-copy]');
    var status = box.querySelector('[data-share-status]');
    function say(text) { if (status) status.textContent = text; }
    if (share && navigator.share) {
      share.hidden = false;
      share.addEventListener('click', function () {
        navigator.share({ title: title, url: url }).catch(function () {});
      });
    }
    if (!copy) return;
    copy.hidden = false;
    copy.addEventListener('click', function () {
      function fallback() {
        var field = document.createElement('input');
        field.value = url;
        field.readOnly = true;
        box.appendChild(field);
        field.select();
        var done = false;
        try { done = document.execCommand('copy'); } catch (e) { done = false; }
        if (done) { field.remove(); say('Link copied.'); } else { say('Copy this link:'); }
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(function () { say('Link copied.'); }, fallback);
      } else {
        fallback();
      }
    });
  }

  // <form data-crop>: draws the square of the chosen picture that its range input picks, the
  // square the server cuts (0: the left or top end of a long side, 100: the right or bottom).
  function cropPreview(form) {
    var input = form.querySelector('input[type=file]');
    var range = form.querySelector('input[type=range]');
    var canvas = form.querySelector('canvas');
    if (!input || !range || !canvas || !window.createImageBitmap) return;
    var picture = null;
    function draw() {
      if (!picture) return;
      var side = Math.min(picture.width, picture.height);
      var at = Math.round((Math.max(picture.width, picture.height) - side) * range.value / 100);
      var wide = picture.width > picture.height;
      var g = canvas.getContext('2d');
      g.clearRect(0, 0, canvas.width, canvas.height);
      g.drawImage(picture, wide ? at : 0, wide ? 0 : at, side, side, 0, 0, canvas.width, canvas.height);
      canvas.hidden = false;
    }
    input.addEventListener('change', function () {
      var file = input.files && input.files[0];
      if (!file) return;
      createImageBitmap(file).then(function (bitmap) { picture = bitmap; draw(); },
        function () { picture = null; canvas.hidden = true; });
    });
    range.addEventListener('input', draw);
  }

  // <form data-geolocate>: a button (shown only with a script) asks the browser where we are —
  // the browser asks the person first — and posts the coordinates; without it, a place name.
  function geolocate(form) {
    var button = form.querySelector('[data-geolocate-button]');
    var status = form.querySelector('[data-geolocate-status]');
    if (!button || !('geolocation' in navigator)) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      status.textContent = 'Asking where you are…';
      navigator.geolocation.getCurrentPosition(function (position) {
        form.elements.lat.value = position.coords.latitude.toFixed(5);
        form.elements.lon.value = position.coords.longitude.toFixed(5);
        form.submit();
      }, function () {
        status.textContent = 'No position (refused or unavailable): type a place instead.';
      }, { timeout: 15000 });
    });
  }

  // The site as an app: the service worker keeps an offline page (see /sw.js).
  if ('serviceWorker' in navigator && document.querySelector('link[rel=manifest]')) {
    navigator.serviceWorker.register('/sw.js').catch(function () {});
  }

  function each(selector, behaviour) {
    Array.prototype.forEach.call(document.querySelectorAll(selector), behaviour);
  }
  each('form[data-preview]', livePreview);
  each('input[data-filter]', liveFilter);
  each('form[data-drop]', dropUpload);
  each('[data-share-url]', shareButtons);
  each('form[data-crop]', cropPreview);
  each('form[data-geolocate]', geolocate);
})();
