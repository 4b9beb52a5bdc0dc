// The service's only script, and an optional one: every page works without it.
// - A page that comes back with an error summary moves the focus to it, so a screen reader reads it first.
// - The booking page of a first visit (no tz in its address; the page marks its zone form so) is shown
//   again in the browser's own zone, which the patient can still change with the zone form (its button
//   works without script). A page answering a form is never reloaded: it may say why a choice failed.
// - The console's live tables (conversations, queue): the page marks its table's region with data-live-src
//   and gives <body data-refresh-seconds>; every so many seconds the region is fetched again from this
//   service (the same session cookie) and swapped in, and the nav's unread text (#nav-unread) takes the
//   region's data-nav-unread. Not while the tab is hidden or the focus is inside the region (a form in use).
//   A session that ended (the fragment answers a redirect) reloads the page, which leads to the sign-in;
//   any other failure waits for the next turn.
// Nothing is sent anywhere else and nothing is stored.
(function () {
  'use strict';
  var summary = document.querySelector('.error-summary');
  if (summary) {
    summary.focus();
  }

  function live() {
    var region = document.querySelector('[data-live-src]');
    var seconds = parseInt(document.body.getAttribute('data-refresh-seconds'), 10);
    if (!region || !region.id || !(seconds > 0) || !window.fetch || !window.DOMParser) {
      return;
    }
    var id = region.id;
    var busy = false;
    window.setInterval(function () {
      var current = document.getElementById(id);
      if (busy || document.hidden || !current || current.contains(document.activeElement)) {
        return;
      }
      busy = true;
      window.fetch(current.getAttribute('data-live-src'), {
        credentials: 'same-origin',
        redirect: 'manual',
        headers: { 'Accept': 'text/html' }
      }).then(function (response) {
        if (response.type === 'opaqueredirect') {
          window.location.reload();
          return null;
        }
        return response.ok ? response.text() : null;
      }).then(function (html) {
        if (!html) {
          return;
        }
        var next = new window.DOMParser().parseFromString(html, 'text/html').getElementById(id);
        var now = document.getElementById(id);
        if (!next || !now || now.contains(document.activeElement)) {
          return;
        }
        now.replaceWith(document.importNode(next, true));
        var unread = document.getElementById('nav-unread');
        if (unread) {
          unread.textContent = next.getAttribute('data-nav-unread') || '';
        }
      }).catch(function () {
        // The next turn tries again.
      }).then(function () {
        busy = false;
      });
    }, seconds * 1000);
  }

  function detectZone() {
    if (!document.querySelector('form[data-detect-zone]')) {
      return;
    }
    var address = new URL(window.location.href);
    if (address.searchParams.get('tz')) {
      return;
    }
    var zone = null;
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch (e) {
      zone = null;
    }
    if (zone && zone !== 'UTC') {
      address.searchParams.set('tz', zone);
      window.location.replace(address.toString());
    }
  }

  live();
  detectZone();
})();
