// The patient pages' only script, and an optional one: every page works without it.
// - A page that comes back with an error summary moves the focus to it, so a screen reader reads it first.
// - The booking page of a first visit (no tz in its address; the page marks its zone form so) is shown
//   again in the browser's own zone, which the patient can still change with the zone form (its button
//   works without script). A page answering a form is never reloaded: it may say why a choice failed.
// Nothing is sent anywhere else and nothing is stored.
(function () {
  'use strict';
  var summary = document.querySelector('.error-summary');
  if (summary) {
    summary.focus();
  }
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
})();
