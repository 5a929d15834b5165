/* The settings page: while the time zone is still the default (UTC), propose the browser's
   own zone (preselected, with a note; saving keeps it). Without JavaScript, the list. */
(function () {
  "use strict";
  var me = document.currentScript;
  var select = document.getElementById("id_time_zone");
  if (!me || !select || select.value !== "UTC" || !window.Intl) return;
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone || zone === "UTC" || !select.querySelector('option[value="' + zone + '"]')) return;
  select.value = zone;
  var note = document.createElement("small");
  note.className = "muted";
  note.id = "zone-proposed";
  note.textContent = me.dataset.proposed + " (" + zone + ")";
  select.insertAdjacentElement("afterend", note);
})();
