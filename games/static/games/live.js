/* The board page, live: poll the game's tag (ETag / If-None-Match, a 304 while nothing
   moved); when it changes, fetch the page and swap in its parts (data-live-parts), except
   a part holding what the player is typing. A background tab's title says "Your turn".
   Without JavaScript the page is the same and a reload shows the news. */
(function () {
  "use strict";
  var me = document.currentScript;
  if (!me || !window.fetch || !window.DOMParser) return;
  var url = me.dataset.liveUrl;
  var parts = (me.dataset.liveParts || "").split(/\s+/).filter(Boolean);
  var yourTurn = me.dataset.yourTurn || "Your turn";
  var title = document.title;
  var etag = me.dataset.liveTag ? "\"" + me.dataset.liveTag + "\"" : null;
  var mine = false;
  var delay = 4000;

  function busy(el) {
    /* the player is writing here: a focused field, or text not as the page drew it */
    if (el.contains(document.activeElement) && document.activeElement !== document.body &&
        document.activeElement.matches("textarea, input, select")) return true;
    var fields = el.querySelectorAll("textarea, input[type=text], input[type=number]");
    for (var i = 0; i < fields.length; i++) {
      if (fields[i].value !== fields[i].defaultValue) return true;
    }
    return false;
  }

  function showTitle() {
    document.title = mine && document.hidden ? "(" + yourTurn + ") " + title : title;
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    parts.forEach(function (id) {
      var old = document.getElementById(id);
      var now = fresh.getElementById(id);
      if (old && now && !busy(old)) old.replaceWith(document.importNode(now, true));
      else if (!old && now) { /* a new part (a result, trade offers): reload once idle */
        if (!busy(document.body)) location.reload();
      }
    });
    title = fresh.title || title;
    showTitle();
    document.dispatchEvent(new CustomEvent("lords:updated"));
  }

  function poll() {
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (r.status === 304) return null;
        if (!r.ok) throw new Error(r.status);
        var first = etag === null;
        etag = r.headers.get("ETag");
        return r.json().then(function (data) {
          mine = !!data.your_turn;
          showTitle();
          if (first) return null;
          return fetch(location.pathname, { credentials: "same-origin", cache: "no-store" })
            .then(function (p) { return p.text(); }).then(swap);
        });
      })
      .catch(function () { delay = Math.min(delay * 2, 60000); })
      .then(function () { setTimeout(poll, document.hidden ? delay * 3 : delay); });
  }

  document.addEventListener("visibilitychange", showTitle);
  poll();
})();
