// The Cargo Noir board: Macao (casino and black market), the ports with their
// goods and bid stacks, each family's safe, ships, warehouse and cards, the
// victory cards for sale. Drawn from the model only (the engine's view for one
// seat plus that seat's legal actions); every legal action becomes a control
// where it belongs on the board: send and bid on the port, raise or withdraw on
// the outbid port, swap at the black market, add and discard on the goods, buy
// on the card. Nothing in Cargo Noir is private, so every seat sees the same.
(function () {
  "use strict";
  var B = window.HMBoards;
  var el = B.el;

  // Public rules (docs/engines/cargo_noir.md): the view names goods and cards,
  // these tables say how people read them.
  var GOODS = {
    alcohol: { label: "Alcohol", short: "Al" },
    weapons: { label: "Weapons", short: "We" },
    art: { label: "Art", short: "Ar" },
    cars: { label: "Cars", short: "Ca" },
    cigars: { label: "Cigars", short: "Ci" },
    ivory: { label: "Ivory", short: "Iv" },
    jewels: { label: "Jewels", short: "Je" },
    gold: { label: "Gold", short: "Go" },
    uranium: { label: "Uranium", short: "Ur" },
    wild: { label: "Wild (any good)", short: "★" },
  };
  var GOOD_ORDER = ["alcohol", "weapons", "art", "cars", "cigars", "ivory", "jewels", "gold",
    "uranium", "wild"];
  var CARDS = [
    { name: "Cargo Ship", cost: 15, vp: 5, effect: "+1 ship at once (at most 2)" },
    { name: "Warehouse", cost: 10, vp: 3, effect: "+2 warehouse slots (at most 2)" },
    { name: "Syndicate", cost: 10, vp: 3, effect: "+2 coins when you abandon an outbid port (at most 2)" },
    { name: "Dive Bar", cost: 6, vp: 6 },
    { name: "Night Club", cost: 10, vp: 10 },
    { name: "Yacht", cost: 15, vp: 15 },
    { name: "Villa", cost: 21, vp: 21 },
    { name: "Paparazzi", cost: 25, vp: 30 },
    { name: "Militia", cost: 28, vp: 35 },
    { name: "Show Business", cost: 36, vp: 45 },
    { name: "Cronies", cost: 49, vp: 60 },
    { name: "Bank", cost: 64, vp: 80 },
    { name: "Principality", cost: 81, vp: 100 },
  ];
  var DIFFERENT = [0, 1, 3, 6, 10, 15, 21, 28, 36, 45];
  var SAME = [0, 1, 4, 9, 16, 25, 36, 49, 64, 81];
  var PHASES = {
    ships: "Phase I: the ships sent last turn come back",
    smuggle: "Phase II: smuggling",
    discard: "End of phase II: the warehouse is over capacity",
    send: "Phase III: sending ships",
    over: "The game is over",
  };

  function plural(n, one, many) { return n + " " + (n === 1 ? one : (many || one + "s")); }

  function placeName(name) {
    if (name === "casino") { return "the casino"; }
    if (name === "black_market") { return "the black market"; }
    return name;
  }

  /** One goods token: a coloured disc with a two-letter label (colour is never the only cue). */
  function token(good, extra) {
    var info = GOODS[good] || { label: good, short: "?" };
    return el("span", {
      class: "cn-token cn-good-" + good + (extra ? " " + extra : ""),
      title: info.label,
      "aria-label": info.label,
    }, info.short);
  }

  function emptySlot() { return el("span", { class: "cn-token cn-empty", title: "empty slot" }); }

  /** A stack of coins left by a seat on a port, with the seat's ship on it. */
  function stack(model, bid, highest) {
    return el("div", {
      class: "cn-stack" + (highest ? " cn-highest" : ""),
      style: { "border-color": B.seatColour(bid.seat) },
      title: B.seatLabel(model, bid.seat) + ": a ship on a stack of " + plural(bid.coins, "coin"),
    }, B.seatChip(model, bid.seat, true), shipIcon(),
    el("strong", {}, String(bid.coins)), el("span", { class: "cn-unit" }, "¢"));
  }

  /** A small hull and sail (an inline SVG: no emoji font needed). */
  function shipIcon() {
    return B.svg("svg", { class: "cn-ship-icon", viewBox: "0 0 20 16", width: "18", height: "14", "aria-hidden": "true" },
      B.svg("path", { d: "M2 10 H18 L15 15 H5 Z", fill: "#3b2a1a" }),
      B.svg("path", { d: "M10 1 V9 H4 Z", fill: "#f4ecff", stroke: "#3b2a1a", "stroke-width": "0.8" }),
      B.svg("path", { d: "M11 3 V9 H16 Z", fill: "#d9d0e6", stroke: "#3b2a1a", "stroke-width": "0.8" }));
  }

  function shipsOf(model, count, seat) {
    var out = [];
    for (var i = 0; i < count; i++) {
      out.push(el("span", {
        class: "cn-ship", style: { background: B.seatColour(seat), color: B.seatTextColour(seat) },
        title: B.seatLabel(model, seat) + "'s ship",
      }, B.seatMark(seat)));
    }
    return out;
  }

  /** The controls of every legal action that matches pred, labelled by label(action). */
  function controls(model, pred, label, cls) {
    return B.legalWhere(model, pred).map(function (entry) {
      return B.controlFor(model, entry, label(entry.action), cls);
    });
  }

  /** A token-shaped control per legal action of this type (its good), with the count held. */
  function tokenControls(model, type, held) {
    return B.legalWhere(model, function (a) { return a.type === type; }).map(function (entry) {
      var b = B.controlFor(model, entry, "", "cn-token-control");
      b.appendChild(token(entry.action.good));
      if (held) { b.appendChild(document.createTextNode("×" + (held[entry.action.good] || 0))); }
      return b;
    });
  }

  function controlRow(items, caption) {
    if (!items.length) { return null; }
    return el("div", { class: "cn-actions" }, caption ? el("span", { class: "cn-caption" }, caption) : null,
      el("div", { class: "hm-controls" }, items));
  }

  // ------------------------------------------------------------------- status
  function statusBar(model, view) {
    var hint = whatNow(model, view);
    return el("div", { class: "cn-status cn-top hm-wide" },
      el("span", { class: "cn-round" + (view.last_round ? " cn-last" : "") },
        "Round " + view.round + " of " + view.rounds + (view.last_round ? " (last round: coins count when buying cards)" : "")),
      el("span", { class: "cn-phase" }, PHASES[view.phase] || view.phase),
      hint ? el("span", { class: "cn-hint" }, hint) : null);
  }

  function whatNow(model, view) {
    if (!model.legal || !model.legal.length) { return null; }
    var types = {};
    model.legal.forEach(function (e) { types[e.action.type] = true; });
    var pending = view.turn && view.turn.pending;
    if (types.resolve) { return "Pick the ship to bring back first (buttons on the board)."; }
    if (types.raise || types.withdraw) { return "You were outbid at " + pending + ": raise your stack or withdraw."; }
    if (types.market_swap || types.market_draw) { return "Your ship is at the black market: swap a good or draw one."; }
    if (types.bid) { return "Choose the stack of coins for your ship at " + pending + "."; }
    if (types.send) { return "Send your next ship: to the casino, the black market or a port."; }
    if (types.add || types.smuggle) { return "Add goods to the combination, then smuggle it."; }
    if (types.start_combination || types.buy) { return "Smuggle goods into credit and buy victory cards, or end smuggling."; }
    if (types.discard) { return "Your warehouse is too full: discard goods one at a time."; }
    return null;
  }

  // -------------------------------------------------------------------- Macao
  function macao(model, view) {
    var players = view.players;
    var casinoShips = [];
    var marketShips = [];
    players.forEach(function (p, seat) {
      casinoShips = casinoShips.concat(shipsOf(model, p.ships_at_casino, seat));
      marketShips = marketShips.concat(shipsOf(model, p.ships_at_black_market, seat));
    });
    var atPlace = function (name) {
      return function (a) { return (a.type === "send" && a.to === name) || (a.type === "resolve" && a.at === name); };
    };
    var label = function (a) { return a.type === "send" ? "Send a ship here" : "Bring this ship back"; };
    var casino = el("div", { class: "cn-place cn-casino" },
      el("h4", {}, "Casino"),
      el("p", { class: "cn-note" }, "Each ship brings back 2 coins."),
      el("div", { class: "cn-ships" }, casinoShips.length ? casinoShips : el("span", { class: "cn-note" }, "no ships")),
      controlRow(controls(model, atPlace("casino"), label)));

    var market = view.black_market.map(function (g) { return token(g); });
    var swaps = B.legalWhere(model, function (a) { return a.type === "market_swap"; });
    var byGive = {};
    swaps.forEach(function (entry) { (byGive[entry.action.give] = byGive[entry.action.give] || []).push(entry); });
    var swapRows = GOOD_ORDER.filter(function (g) { return byGive[g]; }).map(function (give) {
      return el("div", { class: "cn-swap-row" },
        el("span", { class: "cn-caption" }, "Give ", token(give), " for"),
        el("div", { class: "hm-controls" }, byGive[give].map(function (entry) {
          var b = B.controlFor(model, entry, "", "cn-token-control");
          b.appendChild(token(entry.action.take));
          return b;
        })));
    });
    var blackMarket = el("div", { class: "cn-place cn-black-market" },
      el("h4", {}, "Black market"),
      el("div", { class: "cn-goods" }, market.length ? market : el("span", { class: "cn-note" }, "empty")),
      el("div", { class: "cn-ships" }, marketShips.length ? marketShips : el("span", { class: "cn-note" }, "no ships")),
      controlRow(controls(model, atPlace("black_market"), label)),
      swapRows.length ? el("div", { class: "cn-swaps" }, swapRows) : null,
      controlRow(controls(model, function (a) { return a.type === "market_draw" || a.type === "market_skip"; },
        function (a) { return a.type === "market_draw" ? "Draw from the bag instead" : "Do nothing"; })));
    return el("div", { class: "cn-macao" },
      el("h3", { class: "cn-macao-title" }, "Macao"), casino, blackMarket,
      el("p", { class: "cn-note cn-bag" }, "Bag: " + plural(view.bag_size, "token") + " · discarded: " + view.discard_size),
      el("ul", { class: "cn-legend", "aria-label": "goods" }, GOOD_ORDER.map(function (g) {
        return el("li", {}, token(g), " " + GOODS[g].label.split(" (")[0]);
      })));
  }

  // -------------------------------------------------------------------- ports
  function port(model, view, p) {
    var turn = view.turn || {};
    var pending = turn.pending === p.name;
    var highest = 0;
    p.bids.forEach(function (b) { highest = Math.max(highest, b.coins); });
    var slots = [];
    for (var i = 0; i < Math.max(p.slots, p.goods.length); i++) {
      slots.push(i < p.goods.length ? token(p.goods[i]) : emptySlot());
    }
    var notes = [];
    if (turn.resolved && turn.resolved.indexOf(p.name) >= 0) { notes.push("ship brought back this turn"); }
    if (turn.abandoned && turn.abandoned.indexOf(p.name) >= 0) { notes.push("abandoned this turn"); }
    var here = function (a) {
      return (a.type === "send" && a.to === p.name) || (a.type === "resolve" && a.at === p.name);
    };
    var bids = controls(model, function (a) { return a.type === "bid" && a.port === p.name; },
      function (a) { return String(a.coins); }, "cn-amount");
    var raises = controls(model, function (a) { return a.type === "raise" && a.port === p.name; },
      function (a) { return "+" + a.add; }, "cn-amount");
    var withdraw = controls(model, function (a) { return a.type === "withdraw" && a.port === p.name; },
      function () { return "Withdraw (coins back)"; });
    return el("div", { class: "cn-port" + (pending ? " cn-pending" : ""), "data-port": p.name },
      el("h4", {}, p.name, el("span", { class: "cn-slots" }, " · " + plural(p.slots, "slot"))),
      el("div", { class: "cn-goods" }, slots),
      el("div", { class: "cn-stacks" }, p.bids.length
        ? p.bids.slice().sort(function (a, b) { return b.coins - a.coins; }).map(function (b) { return stack(model, b, b.coins === highest); })
        : el("span", { class: "cn-note" }, "no bids")),
      notes.length ? el("p", { class: "cn-note" }, notes.join("; ")) : null,
      p.bids.length ? el("p", { class: "cn-note" }, "A new ship here needs a stack of " + plural(highest + 1, "coin") + " or more.") : null,
      controlRow(controls(model, here, function (a) { return a.type === "send" ? "Send a ship here" : "Bring this ship back"; })),
      controlRow(bids, "Stack of coins:"),
      controlRow(raises, "Add coins:"),
      controlRow(withdraw));
  }

  function harbour(model, view) {
    return B.panel("Macao and the ports",
      el("div", { class: "cn-map" }, macao(model, view),
        el("div", { class: "cn-ports" }, view.ports.map(function (p) { return port(model, view, p); }))));
  }

  // ------------------------------------------------------------------ players
  function playerCard(model, view, p, seat) {
    var mine = model.seat === seat;
    var moving = view.phase !== "over" && view.seat === seat;
    var atPorts = 0;
    view.ports.forEach(function (port) { port.bids.forEach(function (b) { if (b.seat === seat) { atPorts++; } }); });
    var stored = 0;
    var goods = [];
    GOOD_ORDER.forEach(function (g) {
      var n = p.warehouse[g] || 0;
      stored += n;
      if (n) { goods.push(el("span", { class: "cn-count" }, token(g), "×" + n)); }
    });
    var cards = CARDS.filter(function (c) { return p.cards[c.name]; }).map(function (c) {
      return el("span", { class: "hm-tag", title: c.vp + " VP each" }, c.name + (p.cards[c.name] > 1 ? " ×" + p.cards[c.name] : ""));
    });
    var discards = moving ? tokenControls(model, "discard", p.warehouse) : [];
    return el("div", {
      class: "cn-player" + (moving ? " cn-moving" : "") + (mine ? " cn-mine" : ""),
      style: { "border-top-color": B.seatColour(seat) },
    },
    el("div", { class: "cn-player-head" }, B.seatChip(model, seat),
      el("span", { class: "cn-vp", title: "victory points of the cards held" }, p.victory_points + " VP")),
    el("dl", { class: "cn-facts" },
      el("dt", { title: "Coins the family holds, to leave at ports and to buy victory cards." }, "Safe"), el("dd", {}, plural(p.coins, "coin")),
      el("dt", {}, "Ships"), el("dd", {},
        shipsOf(model, p.ships_home, seat), " ",
        el("span", { class: "cn-note" }, p.ships + " in all: " + p.ships_home + " home, " + p.ships_at_casino + " casino, " +
          p.ships_at_black_market + " market, " + atPorts + " at ports")),
      el("dt", { title: "Goods stored now / how many the warehouse holds; over capacity, goods must be discarded at the end of phase II." }, "Warehouse"), el("dd", {}, el("span", { class: stored > p.capacity ? "cn-over" : "" }, stored + " / " + p.capacity), " ", goods),
      el("dt", {}, "Cards"), el("dd", {}, cards.length ? cards : el("span", { class: "cn-note" }, "none"))),
    controlRow(discards, "Discard:"));
  }

  function familyPanel(model, view) {
    return B.panel("Families", el("div", { class: "cn-players" },
      view.players.map(function (p, seat) { return playerCard(model, view, p, seat); })));
  }

  // ---------------------------------------------------------------- smuggling
  function smugglePanel(model, view) {
    var turn = view.turn || {};
    var combo = turn.combination;
    var inPhase = view.phase === "smuggle";
    if (!inPhase && !combo) { return null; }
    var who = view.players[view.seat];
    var parts = [];
    parts.push(el("p", {}, B.seatChip(model, view.seat), " has ", el("strong", {}, String(turn.credit || 0)),
      " smuggling value to spend", view.last_round ? " + " + plural(who.coins, "coin") + " from the safe (last round)" : "",
      ". Unspent value is lost at the end of the phase."));
    var held = GOOD_ORDER.filter(function (g) { return who.warehouse[g]; }).map(function (g) {
      return el("span", { class: "cn-count" }, token(g), "×" + who.warehouse[g]);
    });
    parts.push(el("div", { class: "cn-combo-held" }, el("span", { class: "cn-caption" }, "In the warehouse:"),
      held.length ? held : el("span", { class: "cn-note" }, "nothing")));
    parts.push(el("p", { class: "cn-note" }, "Values: all different 1, 3, 6, 10, 15, 21, 28, 36, 45 · all one type 1, 4, 9, 16, 25, 36, 49, 64, 81 (for 1 to 9 goods; wilds stand for any good)."));
    if (combo) {
      var n = combo.goods.length;
      var table = combo.kind === "same" ? SAME : DIFFERENT;
      parts.push(el("div", { class: "cn-combo" },
        el("span", { class: "cn-caption" }, combo.kind === "same" ? "Combination, all one type:" : "Combination, all different:"),
        el("span", { class: "cn-goods" }, combo.goods.map(function (g) { return token(g); })),
        el("span", {}, " worth " + (table[n] || 0) + (n < 9 ? " (one more: " + table[n + 1] + ")" : ""))));
    }
    var adds = tokenControls(model, "add", who.warehouse);
    parts.push(controlRow(adds, "Add a good:"));
    parts.push(controlRow(controls(model, function (a) { return a.type === "start_combination" || a.type === "smuggle" || a.type === "end_smuggling"; },
      function (a) {
        if (a.type === "start_combination") { return a.kind === "same" ? "New combination: same type" : "New combination: all different"; }
        if (a.type === "smuggle") { return "Smuggle it"; }
        return "End smuggling";
      })));
    return B.panel("Smuggling", parts);
  }

  function cardsPanel(model, view) {
    var left = view.cards_left || {};
    var rows = CARDS.map(function (c) {
      var buy = controls(model, function (a) { return a.type === "buy" && a.card === c.name; }, function () { return "Buy"; });
      return el("tr", { class: left[c.name] ? "" : "cn-sold-out" },
        el("td", {}, el("strong", {}, c.name), c.effect ? el("div", { class: "cn-note" }, c.effect) : null),
        el("td", { class: "hm-num" }, String(c.cost)),
        el("td", { class: "hm-num" }, String(c.vp)),
        el("td", { class: "hm-num" }, String(left[c.name] || 0)),
        el("td", {}, buy));
    });
    return B.panel("Victory cards",
      el("table", { class: "hm-table cn-cards" },
        el("thead", {}, el("tr", {}, el("th", {}, "Card"), el("th", { class: "hm-num" }, "Cost"),
          el("th", { class: "hm-num" }, "VP"), el("th", { class: "hm-num" }, "Left"), el("th", {}, ""))),
        el("tbody", {}, rows)));
  }

  /** The final standings (shared look), with each family's best card: it breaks VP ties. */
  function outcomePanel(model, view) {
    if (!view.outcome) { return null; }
    return B.standings(model, view.outcome.scores, view.outcome.ranks, "VP", function (seat) {
      var held = view.players[seat].cards;
      var best = CARDS.filter(function (c) { return held[c.name]; })
        .sort(function (a, b) { return b.vp - a.vp; })[0];
      return best ? "(best card: " + best.name + ")" : "(no cards)";
    });
  }

  function render(root, model) {
    var view = model.view;
    var top = B.turnLine(model);
    top.classList.add("cn-top");
    root.appendChild(top);
    root.appendChild(statusBar(model, view));
    // On a phone the smuggling panel comes right after the status line in phase II.
    if (view.phase === "smuggle") { root.classList.add("cn-focus-smuggle"); }
    var result = outcomePanel(model, view);
    if (result) { root.appendChild(result); }
    var map = harbour(model, view);
    map.classList.add("hm-wide");
    root.appendChild(map);
    var smuggle = smugglePanel(model, view);
    if (smuggle) { smuggle.classList.add("hm-wide", "cn-smuggle-panel"); root.appendChild(smuggle); }
    var families = familyPanel(model, view);
    families.classList.add("hm-wide");
    root.appendChild(families);
    root.appendChild(cardsPanel(model, view));
    var events = B.eventList(model, 8);
    if (events) { root.appendChild(events); }
  }

  B.register("cargo_noir", render);
})();
