// The header's "game waiting" badge for a signed-in person: the server renders
// it with the page; this keeps it current by asking /me/waiting.json every 15 s
// while the tab is visible (none while hidden, at once when shown again), and
// puts "▶ " before the tab title while a game waits.
//
// The play page owns its own title ("▶ Your turn — …", static/boards/play.js),
// and its game is left out of the badge there. So this script marks the title
// only when nothing else already starts it with "▶", and removes only the mark
// it set itself (the title still exactly as it left it); when the play page
// rewrites the title, a MutationObserver puts the mark back if still due.
(function () {
  "use strict";
  var box = document.getElementById("waiting");
  if (!box || !window.fetch) { return; }
  var url = box.getAttribute("data-url");
  var PERIOD = 15000;
  var MARK = "▶ ";
  var here = window.location.pathname;
  var count = parseInt(box.getAttribute("data-count"), 10) || 0;
  var shown = null;    // the ids drawn, as a string; null: the server's drawing
  var ours = null;     // the title exactly as this script last set it
  var timer = null;
  var busy = false;
  var stopped = false;

  function markTitle() {
    var title = document.title;
    if (count > 0) {
      if (title.indexOf("▶") === 0) { return; }  // marked already (here or by the play page)
      ours = MARK + title;
      document.title = ours;
    } else if (ours !== null) {
      if (title === ours) { document.title = title.slice(MARK.length); }
      ours = null;
    }
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text) { node.textContent = text; }
    return node;
  }

  function line(game) {
    return "Your move in " + (game.label || (game.engine + " #" + game.id));
  }

  function draw(games) {
    games = games.filter(function (game) { return game.url !== here; });
    var ids = games.map(function (game) { return game.id; }).join(",");
    count = games.length;
    markTitle();
    if (ids === shown) { return; }  // unchanged: an open list stays open
    shown = ids;
    box.textContent = "";
    box.hidden = count === 0;
    if (count === 1) {
      box.appendChild(el("a", { "class": "waiting-badge", href: games[0].url }, line(games[0])));
    } else if (count > 1) {
      var menu = el("details", { "class": "waiting-menu" });
      menu.appendChild(el("summary", { "class": "waiting-badge" }, count + " games waiting"));
      var list = el("ul", {});
      games.forEach(function (game) {
        var item = el("li", {});
        item.appendChild(el("a", { href: game.url }, line(game)));
        list.appendChild(item);
      });
      menu.appendChild(list);
      box.appendChild(menu);
    }
  }

  function schedule() {
    if (!stopped && !document.hidden && timer === null) { timer = window.setTimeout(poll, PERIOD); }
  }

  function poll() {
    timer = null;
    if (busy || stopped || document.hidden) { return; }
    busy = true;
    fetch(url, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (response.status === 403) {  // signed out in another tab: stop asking
          stopped = true;
          draw([]);
          return;
        }
        if (!response.ok) { return; }  // a passing error: keep what is shown, ask again later
        return response.json().then(function (body) { draw(body.games || []); });
      })
      .catch(function () { /* offline: ask again later */ })
      .then(function () { busy = false; schedule(); });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      window.clearTimeout(timer);
      timer = null;
    } else {
      poll();
    }
  });
  var title = document.querySelector("title");
  if (title && window.MutationObserver) {
    new MutationObserver(markTitle).observe(title, { childList: true, characterData: true, subtree: true });
  }
  markTitle();
  schedule();
})();
