/* Where the focus lands when a page opens after a form was sent (docs/decisions/0032).
 *
 * 1. An action on a page's panel (table talk, notes, the players' table, trades, the
 *    calendar address...) redirects back to that panel (#chat, #table...), and its result,
 *    above all a refusal, is a flash message at the top of the page: out of sight, and
 *    never read aloud (a status present when the page loads is not announced). So the
 *    messages move into the panel the browser scrolled to, under its heading, and take the
 *    focus: they are seen and read where the player is, and Tab goes on from there.
 * 2. A form drawn again with its refusals (a 400 page) puts the focus on its first refused
 *    field, whose aria-describedby names its error (Django's), or on the form's own refusal
 *    when it is not a field's, unless the page already placed the focus (autofocus).
 *
 * Without JavaScript the messages stay at the top, as before. A static file: the CSP allows
 * no inline script. */
(function () {
  "use strict";

  /* The part of the page live.js redraws (templates/games/_live.html) that holds
   * ``target``, if any: a message put inside it would vanish at the table's next change. */
  function livePart(target) {
    var script = document.querySelector("script[data-live-parts]");
    if (!script) return null;
    var parts = script.getAttribute("data-live-parts").split(/\s+/);
    for (var node = target; node && node !== document.body; node = node.parentElement) {
      if (node.id && parts.indexOf(node.id) !== -1) return node;
    }
    return null;
  }

  function place(flash, target) {
    var live = livePart(target);
    if (live) {
      live.insertAdjacentElement("beforebegin", flash);
      return;
    }
    var first = target.firstElementChild;
    if (/^H[1-6]$/.test(target.tagName)) {
      target.insertAdjacentElement("afterend", flash);
    } else if (first && /^H[1-6]$/.test(first.tagName)) {
      first.insertAdjacentElement("afterend", flash);
    } else {
      target.insertAdjacentElement("afterbegin", flash);
    }
  }

  function focus(element) {
    if (!element.hasAttribute("tabindex") && !element.matches("input, select, textarea, button, a[href]")) {
      element.setAttribute("tabindex", "-1");
    }
    element.focus();
  }

  function later(then) {
    if (document.readyState === "complete") {
      setTimeout(then, 0);
    } else {
      window.addEventListener("load", function () { setTimeout(then, 0); });
    }
  }

  function nothingFocused() {
    return !document.activeElement || document.activeElement === document.body;
  }

  function arrive() {
    var flash = document.getElementById("flash");
    var id = "";
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch (e) { /* a malformed fragment (#%E0): no panel to go to */ }
    var target = id ? document.getElementById(id) : null;
    var panel = target && !target.matches("input, select, textarea, button, a, label");
    if (flash && panel && !target.contains(flash) && target.closest("main")) {
      place(flash, target);
      flash.classList.add("in-panel");
      /* after the browser's own move to the fragment, which leaves the focus nowhere */
      later(function () { focus(flash); });
      return;
    }
    if (!nothingFocused()) return;
    var refused = document.querySelector('main [aria-invalid="true"]');
    if (!refused) {
      try {
        refused = document.querySelector('main .error[role="alert"]:has(.nonfield)');
      } catch (e) { /* a browser without :has() */ }
    }
    if (refused) focus(refused);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", arrive);
  } else {
    arrive();
  }
})();
