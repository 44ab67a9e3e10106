// The play page: one websocket (/ws/games/<id>/) brings the board model for this
// browser's seat (or the spectator's), the clocks and refusals; a click on a
// legal control sends {"type":"act","ply","index"}. The server decides
// everything; this only draws, counts the clocks down and reconnects (not after
// a refusal for too many open sockets, whose reason it shows). Beside the board the
// game log (log.js) keeps every public event since the start.
//
// For people (issue #32): the tab title says "your turn" and "game over"; an opt-in
// browser notification (remembered in localStorage) says when the turn comes while
// the tab is in the background; after a move focus stays on the board (its first
// control, or the board itself); P passes when passing is one of the legal actions,
// L jumps to the log; on a narrow screen the first control is scrolled into view
// when the turn comes.
(function () {
  "use strict";
  var page = document.getElementById("play");
  var root = document.getElementById("board");
  if (!page || !root || !window.HMBoards) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var baseTitle = document.title;
  var socket = null;
  var frame = null;       // the last state frame
  var receivedAt = 0;     // performance.now() when it came
  var delay = 1000;       // reconnect backoff (ms), doubled up to MAX_DELAY
  var MAX_DELAY = 30000;
  var REFUSED = 4429;     // the server's close code for a socket over its limits (socket_limits)
  var NOTIFY_KEY = "hm-notify-turn";
  var PHONE_WIDTH = 700;  // narrower than this, the first control is scrolled to on your turn
  // The legal action P plays: passing, or declining where the game calls it that.
  var PASS_TYPES = ["pass", "skip_buy", "decline", "decline_claims", "market_skip", "end_smuggling", "end_trade"];
  var log = window.HMLog ? window.HMLog.create($("play-log"), $("play-now")) : null;
  var wasMyTurn = false;
  var acted = false;      // an action was sent since the last frame

  var REFUSALS = {
    stale_ply: "The game moved on before your action arrived; the board now shows the current position.",
    not_your_turn: "It is not your turn.",
    bad_index: "That action is no longer available.",
    not_a_player: "You are watching: only the seat's player can act.",
    forfeited: "Your seat forfeited; the referee plays for it.",
    substituted: "A house bot plays your seat for the rest of the game.",
    deadline_passed: "Your time ran out; the default action is played for you.",
    rate_limited: "Too many messages at once; wait a moment.",
    not_running: "The game is not running.",
    illegal_action: "The referee refused that action.",
    bad_frame: "The page sent something the server could not read.",
    nothing_to_resign: "Your seat has already forfeited."
  };

  function url() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + location.host + page.getAttribute("data-ws");
  }

  function connect() {
    setConnection("connecting…", "");
    socket = new WebSocket(url());
    socket.onopen = function () { delay = 1000; setConnection("live", "is-open"); };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "state") { show(message); }
      else if (message.type === "error") { refused(message); }
    };
    socket.onclose = function (event) {
      socket = null;
      if (event.code === 4404) { setConnection("no such game", "is-closed"); return; }
      if (event.code === REFUSED) {
        // Over a limit of open sockets: trying again at once would be refused again.
        page.setAttribute("data-refused", event.reason || "refused");
        setConnection("not connected: " + (event.reason || "the server refused the connection") +
          " — close the site's other tabs, then reload this page", "is-closed is-refused");
        return;
      }
      var wait = Math.round(delay * (0.75 + Math.random() * 0.5));
      setConnection("disconnected — reconnecting in " + Math.ceil(wait / 1000) + " s", "is-closed");
      setTimeout(connect, wait);
      delay = Math.min(MAX_DELAY, delay * 2);
    };
  }

  function send(data) {
    if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(data)); return true; }
    return false;
  }

  function setConnection(text, cls) {
    var el = $("play-connection");
    el.textContent = text;
    el.className = "play-connection " + cls;
  }

  function name(seat) {
    // Seats are numbered from 1 on every page; the socket's seat numbers are 0-based positions.
    return (frame && frame.model.names[String(seat)]) || ("Seat " + (Number(seat) + 1));
  }

  function show(message) {
    frame = message;
    receivedAt = performance.now();
    var model = message.model;
    model.hasLog = !!log;
    var mayAct = message.yourTurn && message.status === "running";
    // Focus to keep: inside the board, or lost to the page by the click that just acted.
    var focusInBoard = root.contains(document.activeElement) ||
      (acted && document.activeElement === document.body);
    acted = false;
    model.onAction = mayAct ? function (index) {
      if (send({ type: "act", ply: message.ply, index: index })) {
        acted = true;
        if (log) { log.finish(); }  // the person acted: what led here need not play on
        HMBoards.setBusy(root, true);
        $("play-refused").hidden = true;
      }
    } : null;
    HMBoards.render(root, model);
    if (log && !log.update(message)) { send({ type: "sync" }); }  // a gap: ask for the whole log
    page.setAttribute("data-ply", String(message.ply));  // what the board shows (tests read it)
    page.setAttribute("data-your-turn", mayAct ? "true" : "false");
    $("play-role").textContent = message.seat === null
      ? "You are watching."
      : "You play " + name(message.seat) + " (seat " + (message.seat + 1) + ").";
    var turn = $("play-turn");
    turn.hidden = message.status !== "running";
    turn.textContent = mayAct ? "Your turn: choose an action on the board."
      : (model.toMove.length ? "Waiting for " + model.toMove.map(name).join(", ") + "…" : "");
    document.title = (mayAct ? "▶ Your turn — " : (message.status === "finished" ? "■ Game over — " : "")) + baseTitle;
    $("play-notify-label").hidden = !("Notification" in window) || !message.seats.length ||
      message.status !== "running";
    $("play-keys").hidden = !message.seats.length;  // P is for players; the page's keys list
    var resign = $("play-resign");
    resign.hidden = !(message.seats.length && message.status === "running" &&
      message.seats.some(function (s) { return message.forfeited.indexOf(s) < 0; }));
    showSubstitutions(message);
    showOutcome(message);
    drawClocks();
    keepFocus(focusInBoard, mayAct);
    if (mayAct && !wasMyTurn) { turnCame(); }
    if (mayAct && !wasMyTurn && document.activeElement === document.body) {
      var first = firstControl();  // the turn came and focus is nowhere: the first control
      if (first) { first.focus({ preventScroll: true }); }
    }
    wasMyTurn = mayAct;
  }

  function firstControl() {
    return root.querySelector(".hm-control[data-action-index]:not([disabled])");
  }

  // A click's button is gone once the board is drawn again: focus would fall back to the
  // page. It stays on the board: its first control when it is the person's turn again.
  function keepFocus(wasInBoard, mayAct) {
    if (!wasInBoard || !frame || frame.seat === null) { return; }
    var target = (mayAct && firstControl()) || root;
    if (document.activeElement !== target) { target.focus({ preventScroll: true }); }
  }

  function turnCame() {
    if (window.innerWidth < PHONE_WIDTH) {
      var first = firstControl();
      var smooth = !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
      if (first) { first.scrollIntoView({ block: "center", behavior: smooth ? "smooth" : "auto" }); }
    }
    if (notifying() && document.hidden) {
      try {
        var note = new Notification("Your turn — " + baseTitle, { body: "Game " + page.getAttribute("data-game") + ": choose an action on the board.", tag: "hm-turn-" + page.getAttribute("data-game") });
        note.onclick = function () { window.focus(); note.close(); };
      } catch (e) { /* a browser that refuses page notifications: the title still says it */ }
    }
  }

  // The person's choice, kept in localStorage (which a browser may refuse: then it is off).
  function remembered() {
    try { return localStorage.getItem(NOTIFY_KEY) === "on"; } catch (e) { return false; }
  }

  function remember(on) {
    try { localStorage.setItem(NOTIFY_KEY, on ? "on" : "off"); } catch (e) { /* kept for this page only */ }
  }

  function notifying() {
    return "Notification" in window && Notification.permission === "granted" && remembered();
  }

  function setUpNotifications() {
    var box = $("play-notify");
    if (!box || !("Notification" in window)) { return; }
    box.checked = notifying();
    box.addEventListener("change", function () {
      if (!box.checked) { remember(false); return; }
      Notification.requestPermission().then(function (answer) {
        box.checked = answer === "granted";
        remember(box.checked);
      });
    });
  }

  function passEntry() {
    if (!frame || !frame.yourTurn) { return null; }
    var found = frame.model.legal.filter(function (e) { return PASS_TYPES.indexOf(e.action.type) >= 0; });
    return found.length === 1 ? found[0] : null;
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) { return; }
    var t = event.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var key = event.key.toLowerCase();
    if (key === "p") {
      var pass = passEntry();
      var button = pass && root.querySelector('.hm-control[data-action-index="' + pass.index + '"]:not([disabled])');
      if (button) { event.preventDefault(); button.click(); }
    } else if (key === "l" && log) {
      var scroller = $("play-log").querySelector(".hm-log-scroll");
      if (scroller) { event.preventDefault(); scroller.focus(); }
    }
  });

  // "Seat N timed out too often: a house bot plays for it" (or "… resigned: …").
  function showSubstitutions(message) {
    var box = $("play-substituted");
    while (box.firstChild) { box.removeChild(box.firstChild); }
    var list = message.substitutions || [];
    box.hidden = !list.length;
    list.forEach(function (s) {
      var why = { resigned: " resigned", withdrawn: " left the event" }[s.reason] || " timed out too often";
      var mine = message.seats.indexOf(s.seat) >= 0 ? " (your seat)" : "";
      box.appendChild(HMBoards.el("p", { class: "play-substitution", "data-seat": String(s.seat) },
        "Seat " + (s.seat + 1) + " (" + name(s.seat) + ")" + mine + why + ": a house bot plays for it."));
    });
  }

  function showOutcome(message) {
    var box = $("play-outcome");
    if (message.status === "running") { box.hidden = true; return; }
    box.hidden = false;
    if (!message.outcome) { box.textContent = "The game is " + message.status + "."; return; }
    var ranks = message.outcome.ranks;
    var notes = (message.model && message.model.ranking && message.model.ranking.notes) || {};
    var order = ranks.map(function (r, s) { return s; }).sort(function (a, b) { return ranks[a] - ranks[b]; });
    box.textContent = "Game over: " + order.map(function (s) {
      return ranks[s] + ". " + name(s) + " (" + message.outcome.scores[s] + (notes[s] ? "; " + notes[s] : "") + ")";
    }).join(", ");
  }

  function refused(message) {
    var box = $("play-refused");
    box.hidden = false;
    box.textContent = (REFUSALS[message.code] || "Refused.") + " (" + message.detail + ")";
    HMBoards.setBusy(root, false);
  }

  function seconds(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var m = Math.floor(s / 60);
    return m + ":" + String(s % 60).padStart(2, "0");
  }

  function drawClocks() {
    var box = $("play-clocks");
    if (!frame) { return; }
    var elapsed = performance.now() - receivedAt;
    while (box.firstChild) { box.removeChild(box.firstChild); }
    box.hidden = frame.status !== "running";  // a finished game has no clocks to show
    if (box.hidden) { return; }
    frame.clocks.seats.forEach(function (c) {
      var move = c.moveMs, bank = c.bankMs;
      if (c.running && frame.status === "running") {
        move = Math.max(0, c.moveMs - elapsed);
        bank = Math.max(0, c.bankMs - Math.max(0, elapsed - c.moveMs));
      }
      var cls = "play-clock" + (c.running ? " is-running" : "") +
        (c.running && move + bank < 10000 ? " is-low" : "") +
        (frame.forfeited.indexOf(c.seat) >= 0 ? " is-forfeited" : "");
      box.appendChild(HMBoards.el("div", { class: cls, "data-seat": String(c.seat) },
        HMBoards.el("span", { class: "who" }, name(c.seat)),
        "move " + seconds(move) + (frame.clocks.timeBankMs ? " · bank " + seconds(bank) : "")));
    });
  }

  $("play-resign").addEventListener("click", function () {
    if (window.confirm("Resign? You rank last, and a house bot plays your seat until the end.")) {
      send({ type: "resign" });
    }
  });
  setInterval(drawClocks, 250);
  setUpNotifications();
  connect();
})();
