// HMLog: the game log beside a live board (issue #32). The play page's socket brings
// the whole public history on its first frame and then, with each frame, the plies
// that came since (web/sockets/person_moves.frame, games/selectors/game_log.py); this
// keeps them, shows them grouped by round and phase with the players' names and
// colours (the engines write "seat N", replaced here by the seat's chip), newest at
// the bottom, and highlights what happened since the viewer's own last move.
//
// When one frame brings several events (a voyage's dice, an auction won by a bot,
// chance's deals), they are played one after another: each appears in the log and in
// a "now" line for a short step, with a button to skip; instant when the person asks
// for reduced motion. The board itself is already drawn at the newest position (its
// controls must not wait): the steps are for reading what led there.
//
// Nothing here decides what may be seen: the server sends a seat its own moves
// ("mine") and nobody else's, and to everyone only public events.
(function (global) {
  "use strict";
  var B = global.HMBoards;
  if (!B) { return; }
  var el = B.el;

  var STEP_MS = 650;           // one event's step while playing a frame's events
  var PLAYBACK_MAX_MS = 9000;  // what waits plays faster, never longer than this in all

  // Per engine: the event types that begin a phase (its heading). A round begins with
  // an event carrying `round` (Batavia, Cargo Noir, Grog Island) or `voyage` (Manila).
  var PHASES = {
    manila: {
      dealt: "Setting up", supply: "Setting up", voyage: "Auction for harbour master",
      harbor_master: "The harbour master buys a share and starts the boats",
      placed: "Placing accomplices", roll: "Boats move (dice)", piloted: "Pilots",
      pilot_stop: "Pilots", boarded: "Pirates", stayed: "Pirates", plundered: "Pirates",
      docked: "Boats arrive", repaired: "Boats arrive", profits: "Profits",
      insurance_paid: "Profits", prices: "Prices rise", game_over: "Game over",
    },
    batavia: {
      post_revealed: "Setting up", dealt: "Setting up", round: "The lot", die: "The lot",
      lot_card: "The lot", bid: "Auction for the lot", pass: "Auction for the lot",
      auction_won: "Auction for the lot", auction_unsold: "Auction for the lot",
      draw: "Draw or play cards", drew: "Draw or play cards", played: "Draw or play cards",
      reveal_for_move: "Moving the merchant", moved: "Moving the merchant",
      final_hex: "Moving the merchant", converted: "Converting posts into gold",
      pirates: "Pirates attack", hand_played: "The end: hands laid down", game_over: "Game over",
    },
    cargo_noir: {
      setup: "Setting up", casino: "Ships come back", outbid: "Ships come back",
      bought_goods: "Ships come back", market_swap: "Ships come back", market_draw: "Ships come back",
      market_skip: "Ships come back", raise: "Ships come back", withdraw: "Ships come back",
      smuggled: "Smuggling", bought_card: "Smuggling", credit_lost: "Smuggling",
      discarded: "Smuggling", sent: "Sending ships", game_over: "Game over",
    },
    grog_island: {
      drew: "Setting up", chose_good: "Setting up", returned_objective: "Setting up",
      round: "Dice and ships", rolled: "Dice and ships", cloud: "Dice and ships", ship: "Dice and ships",
      bid: "Auction", passed: "Auction", parrot_played: "Auction", won_auction: "Auction",
      trade_ship: "Trade", exchanged: "Trade", kept_objective: "Trade", trade_skipped: "Trade",
      paid_for_building: "Buildings", claimed: "Buildings", declined_claims: "Buildings",
      locked: "Buildings", paid: "Payments", treasure_paid: "Payments",
      declined_payment: "Payments", game_over: "Game over",
    },
  };

  var DEFAULTS = {
    timeout: ["timed out", "No answer in time: the referee played the default action for this seat."],
    fault: ["default played", "The seat's answer was refused: the referee played the default action for it."],
  };

  function reducedMotion() {
    return !!(global.matchMedia && global.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  /** Text with every "seat N" / "Seat N" replaced by that seat's coloured chip. */
  function withNames(model, text) {
    var out = [];
    var re = /\b[Ss]eat (\d+)\b/g;
    var last = 0;
    var m;
    while ((m = re.exec(text)) !== null) {
      var seat = Number(m[1]);
      if (seat >= model.numPlayers) { continue; }
      if (m.index > last) { out.push(text.slice(last, m.index)); }
      out.push(B.seatChip(model, seat));
      last = re.lastIndex;
    }
    if (last < text.length) { out.push(text.slice(last)); }
    return out;
  }

  /** "Seat N" of a heading, as a plain name (headings carry no chips). */
  function plainNames(model, text) {
    return text.replace(/\b[Ss]eat (\d+)\b/g, function (all, n) { return B.seatLabel(model, Number(n)); });
  }

  function roundOf(event) {
    if (typeof event.voyage === "number") { return "Voyage " + event.voyage; }
    if (typeof event.round === "number") { return "Round " + event.round; }
    return null;
  }

  /**
   * The log of one page, drawn into the empty element `box`; the "Now:" line and its skip
   * button go into `barHost` when given (above the board, where a phone's reader is),
   * else above the log. `update(frame)` takes each state frame; `finish()` shows at once
   * whatever is still waiting for its step.
   */
  function create(box, barHost) {
    var entries = [];         // every ply's entry, in order (from the frames' "log")
    var model = null;         // the newest board model (names, seat)
    var round = null;         // the current round heading, while drawing
    var phase = null;         // the current phase heading
    var queue = [];           // list items waiting for their step
    var timer = null;

    var list = el("ol", { class: "hm-log-list", "aria-label": "Game log, oldest first" });
    var now = el("p", { class: "hm-log-now", "aria-live": "polite", hidden: true });
    var skip = el("button", { type: "button", class: "hm-log-skip", hidden: true }, "Show all now");
    skip.addEventListener("click", function () { finish(); });
    var count = el("span", { class: "hm-muted hm-log-count" }, "");
    var scroller = el("div", { class: "hm-log-scroll", tabindex: "0", role: "region", "aria-label": "Game log" }, list);
    box.classList.add("hm-panel", "hm-log");
    box.appendChild(el("h2", { class: "hm-panel-title" }, "Game log ", count));
    (barHost || box).appendChild(el("div", { class: "hm-log-bar" }, now, skip));
    box.appendChild(scroller);

    function nearBottom() {
      return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 60;
    }

    function heading(cls, text) {
      return el("li", { class: cls, role: "presentation" }, text);
    }

    /** The list items of one ply's entry: headings it opens, then its events. */
    function itemsOf(entry) {
      var items = [];
      var table = PHASES[model.engine] || {};
      var mark = entry["default"] && DEFAULTS[entry["default"]];
      entry.events.forEach(function (event, i) {
        var r = roundOf(event);
        if (r && r !== round && (event.type === "voyage" || event.type === "round" || event.type === "turn")) {
          round = r;
          phase = null;
          items.push(heading("hm-log-round", r));
        }
        var p = table[event.type];
        if (event.type === "turn") {  // Cargo Noir: each family's turn is a phase of the round
          p = typeof event.seat !== "number" ? null
            : (event.seat === model.seat ? "Your turn" : plainNames(model, "Seat " + event.seat) + "'s turn");
        }
        if (p && p !== phase) {
          phase = p;
          items.push(heading("hm-log-phase", p));
        }
        if (event.type === "turn") { return; }  // its heading says it all
        items.push(el("li", {
          class: "hm-log-event", "data-ply": String(entry.ply), "data-type": String(event.type),
        }, withNames(model, event.text),
          i === 0 && mark ? el("span", { class: "hm-log-default", title: mark[1] }, " " + mark[0]) : null));
      });
      if (!entry.events.length && mark) {
        items.push(el("li", { class: "hm-log-event", "data-ply": String(entry.ply) },
          withNames(model, "Seat " + entry.seat + " moved."),
          el("span", { class: "hm-log-default", title: mark[1] }, " " + mark[0])));
      }
      // The seat's own move, unless the ply's public events already tell it (they name the
      // seat): what is left is what only its holder knows (a combination being built).
      var told = new RegExp("\\b[Ss]eat " + entry.seat + "\\b");
      if (entry.mine && !entry.events.some(function (e) { return told.test(e.text); })) {
        items.push(el("li", { class: "hm-log-event hm-log-mine", "data-ply": String(entry.ply) },
          el("span", { class: "hm-log-private", title: "Only you see this line." }, "you chose: "),
          entry.mine));
      }
      return items;
    }

    /** Mark what came after the viewer's own last move ("since your last move"). */
    function highlight() {
      if (!model || model.seat === null || model.seat === undefined) { return; }
      var lastOwn = -1;
      entries.forEach(function (e) { if (e.seat === model.seat) { lastOwn = e.ply; } });
      list.querySelectorAll(".hm-log-event").forEach(function (li) {
        var ply = Number(li.getAttribute("data-ply"));
        li.classList.toggle("hm-log-new", lastOwn >= 0 && ply > lastOwn);
      });
    }

    function redrawAll() {
      while (list.firstChild) { list.removeChild(list.firstChild); }
      round = null;
      phase = null;
      entries.forEach(function (entry) { itemsOf(entry).forEach(function (li) { list.appendChild(li); }); });
    }

    /** Show a waiting item; an event is also shown in the "now" line for its step. */
    function reveal(li) {
      li.hidden = false;
      if (!li.classList.contains("hm-log-event")) { return; }
      while (now.firstChild) { now.removeChild(now.firstChild); }
      now.appendChild(el("span", { class: "hm-log-now-label" }, "Now: "));
      Array.prototype.forEach.call(li.childNodes, function (n) { now.appendChild(n.cloneNode(true)); });
      now.hidden = false;
    }

    function finish() {
      if (timer !== null) { clearTimeout(timer); timer = null; }
      queue.forEach(function (li) { li.hidden = false; });
      queue = [];
      skip.hidden = true;
      now.hidden = true;
      box.removeAttribute("data-playing");
      scroller.scrollTop = scroller.scrollHeight;
    }

    /** The step of each waiting event: short enough that all of them play in PLAYBACK_MAX_MS. */
    function stepMs() {
      var waiting = queue.filter(function (li) { return li.classList.contains("hm-log-event"); }).length;
      return Math.min(STEP_MS, Math.floor(PLAYBACK_MAX_MS / Math.max(1, waiting)));
    }

    function step() {
      var li = queue.shift();
      if (!li) { finish(); return; }
      reveal(li);
      scroller.scrollTop = scroller.scrollHeight;
      timer = setTimeout(step, li.classList.contains("hm-log-event") ? stepMs() : 0);
    }

    function play(items) {
      var events = items.filter(function (li) { return li.classList.contains("hm-log-event"); }).length;
      if (reducedMotion() || (events < 2 && !queue.length)) {
        finish();  // anything still waiting first, so the order stays
        items.forEach(function (li) { li.hidden = false; });
        scroller.scrollTop = scroller.scrollHeight;
        return;
      }
      items.forEach(function (li) { li.hidden = true; queue.push(li); });
      skip.hidden = false;
      box.setAttribute("data-playing", "true");
      if (timer === null) { step(); }
    }

    /** Take a state frame's log part; false if it does not continue what is kept. */
    function update(frame) {
      model = frame.model;
      var part = frame.log;
      if (!part) { return true; }
      if (part.from > entries.length) { return false; }  // a gap: the page asks for it whole
      var whole = part.from === 0 || part.from < entries.length;
      var stick = nearBottom();
      entries = entries.slice(0, part.from).concat(part.entries);
      if (whole) {
        finish();
        redrawAll();
        scroller.scrollTop = scroller.scrollHeight;
      } else {
        var items = [];
        part.entries.forEach(function (entry) { items = items.concat(itemsOf(entry)); });
        items.forEach(function (li) { list.appendChild(li); });
        if (stick || queue.length) { play(items); } else { items.forEach(function (li) { li.hidden = false; }); }
      }
      highlight();
      count.textContent = "(" + list.querySelectorAll(".hm-log-event").length + " events)";
      box.setAttribute("data-plies", String(entries.length));
      return true;
    }

    return { update: update, finish: finish, entries: function () { return entries; } };
  }

  global.HMLog = { create: create, withNames: withNames, PHASES: PHASES };
})(window);
