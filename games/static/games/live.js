/* The board page, live: poll the game's tag (ETag / If-None-Match, a 304 while nothing
   moved); when it changes, fetch the page and swap in its parts (data-live-parts), except
   a part holding what the player is typing. A background tab's title says "Your turn".
   What changed is said in the page's live region (the new moves, the new messages, "Your
   turn") for a screen reader; the focus stays on the control it was on, or on its part.
   Without JavaScript the page is the same and a reload shows the news. */
(function () {
  "use strict";
  var me = document.currentScript;
  if (!me || !window.fetch || !window.DOMParser) return;
  var url = me.dataset.liveUrl;
  var parts = (me.dataset.liveParts || "").split(/\s+/).filter(Boolean);
  if (/[?&]chat_before=/.test(location.search)) {  /* an older page of talk stays put */
    parts = parts.filter(function (id) { return id !== "chat-messages"; });
  }
  var yourTurn = me.dataset.yourTurn || "Your turn";
  var news = document.getElementById("live-news");
  var title = document.title;
  var etag = me.dataset.liveTag ? "\"" + me.dataset.liveTag + "\"" : null;
  var mine = me.dataset.mine === "yes";
  var delay = 4000;
  var MOST = 3; /* the newest few moves or messages are read out, not a whole night's */

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

  function text(el) {
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function same(a, b) {
    /* b (in the new part) is the control a was: the same id, or the same kind, name,
       value and words (the move buttons have no id) */
    if (a.id) return b.id === a.id;
    return b.tagName === a.tagName && b.getAttribute("name") === a.getAttribute("name") &&
      b.getAttribute("value") === a.getAttribute("value") && text(b) === text(a);
  }

  function refocus(part, was) {
    var all = part.querySelectorAll(was.tagName);
    for (var i = 0; i < all.length; i++) {
      if (same(was, all[i])) { all[i].focus({ preventScroll: true }); return; }
    }
    part.setAttribute("tabindex", "-1"); /* gone (played, answered): its part, not the page */
    part.focus({ preventScroll: true });
  }

  function keepOpen(old, now) {
    /* what the player opened (or closed) stays so: a group of buttons, a disclosure */
    if (old.matches("details") && now.matches("details")) now.open = old.open;
    old.querySelectorAll("details[data-group], details[id]").forEach(function (d) {
      var twin = d.id ? now.querySelector("#" + CSS.escape(d.id))
        : now.querySelector("details[data-group='" + d.dataset.group + "']");
      if (twin) twin.open = d.open;
    });
  }

  function fresh(oldList, newList, key) {
    /* the entries of newList that oldList did not have, oldest first */
    var seen = {};
    if (oldList) oldList.querySelectorAll(":scope > li").forEach(function (li) { seen[key(li)] = true; });
    var found = [];
    if (newList) newList.querySelectorAll(":scope > li").forEach(function (li) {
      if (!seen[key(li)]) found.push(li);
    });
    return found.reverse().slice(-MOST); /* (both lists are newest first) */
  }

  function offerLine(li) {
    /* an offer's own line: its number, trade, proposer and state, not its buttons */
    var line = li.cloneNode(true);
    line.querySelectorAll("ul, form, a.button, div").forEach(function (el) { el.remove(); });
    return text(line);
  }

  function said(page, turnBefore, redrawn) {
    /* each new move by its first sentence (what was done: the payouts that follow would
       make a turn a minute's listening), each new or changed trade offer, each new
       message, then whether it is now the player's turn */
    /* (only what is redrawn: a part left as it was, because the player is typing there
       or reading an older page of talk, would be said again at every update) */
    var lines = [];
    if (redrawn.moves) fresh(document.getElementById("log"), page.getElementById("log"), function (li) {
      return li.getAttribute("value");
    }).forEach(function (li) {
      var first = li.querySelector(".sentences li");
      lines.push(first ? text(first) : text(li.querySelector(".log-head strong")) + " " +
        text(li.querySelector(".log-head code")));
    });
    if (redrawn.trades) fresh(document.querySelector("#trades ul.offers"), page.querySelector("#trades ul.offers"),
      function (li) { return li.id + "|" + text(li.querySelector(".tag")); }
    ).forEach(function (li) {
      var words = li.querySelector(".sentences li"); /* the trade in words, not in notation */
      lines.push(offerLine(li) + (words ? ": " + text(words) : ""));
    });
    if (redrawn["chat-messages"]) fresh(document.getElementById("chat-log"), page.getElementById("chat-log"), function (li) {
      return li.id;
    }).forEach(function (li) {
      lines.push(text(li.querySelector(".chat-head strong")) + ": " + text(li.querySelector(".chat-text")));
    });
    if (mine && !turnBefore) lines.push(yourTurn + ".");
    return lines.join(" ");
  }

  function say(words) {
    if (!news || !words) return;
    news.textContent = "";  /* (the same words twice are read twice) */
    setTimeout(function () { news.textContent = words; }, 100);
  }

  function swap(html, turnBefore) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var redrawn = {};
    parts.forEach(function (id) {
      var old = document.getElementById(id);
      redrawn[id] = !!(old && page.getElementById(id) && !busy(old));
    });
    var words = said(page, turnBefore, redrawn);
    var focused = document.activeElement !== document.body ? document.activeElement : null;
    var at = focused ? focused.getBoundingClientRect().top : 0;
    parts.forEach(function (id) {
      var old = document.getElementById(id);
      var now = page.getElementById(id);
      if (redrawn[id]) {
        var node = document.importNode(now, true);
        keepOpen(old, node);
        var had = focused && old.contains(focused);
        old.replaceWith(node);
        if (had) {
          refocus(node, focused);
          /* the control stays where the player saw it, though the parts above it grew or shrank */
          window.scrollBy(0, document.activeElement.getBoundingClientRect().top - at);
        }
      } else if (!old && now) { /* a new part (a result, trade offers): reload once idle */
        if (!busy(document.body)) location.reload();
      }
    });
    title = page.title || title;
    showTitle();
    say(words);
    document.dispatchEvent(new CustomEvent("lords:updated"));
  }

  function showTitle() {
    document.title = mine && document.hidden ? "(" + yourTurn + ") " + title : title;
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
          var before = mine;
          mine = !!data.your_turn;
          showTitle();
          if (first) return null;
          return fetch(location.pathname, { credentials: "same-origin", cache: "no-store" })
            .then(function (p) { return p.text(); })
            .then(function (html) { swap(html, before); });
        });
      })
      .catch(function () { delay = Math.min(delay * 2, 60000); })
      .then(function () { setTimeout(poll, document.hidden ? delay * 3 : delay); });
  }

  document.addEventListener("visibilitychange", showTitle);
  poll();
})();
