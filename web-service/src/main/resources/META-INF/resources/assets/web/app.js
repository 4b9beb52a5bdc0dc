// The patient pages' only script, and an optional one: every page works without it.
// The booking page: a first visit (no tz in its address) is shown again in the browser's own zone,
// which the patient can still change with the zone form (its button works without script). Nothing
// is sent anywhere else and nothing is stored.
(function () {
  'use strict';
  if (!document.querySelector('form[data-zone-form]')) {
    return;
  }
  var address = new URL(window.location.href);
  if (address.searchParams.has('tz')) {
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
