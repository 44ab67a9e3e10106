// Manila's board, drawn from the seat's view only (docs/engines/manila.md, "Views").
// The sea: one column per good, spaces 13 (top, next to Manila) down to 0, each boat
// with its seats; the harbour and the shipyard with their berths; pirate ship, pilots
// and insurance; the share market; the players. Legal actions sit where they act:
// "place" on the boat's next seat or on the space, "start_boat" on the route space,
// pilot arrows on the boat, bids in the auction box, buys on the market.
(function () {
  "use strict";
  var B = window.HMBoards;
  var el = B.el;
  var GOODS = ["ginseng", "nutmeg", "silk", "jade"];
  var PRICE_TRACK = [0, 5, 10, 20, 30];
  var ROUTE_END = 13;
  var PHASES = {
    auction: "Auction for harbour master",
    buy: "Harbour master may buy a share",
    ashore: "Harbour master chooses the good left ashore",
    start_boats: "Harbour master places the boats",
    place: "Placing accomplices",
    pilot_small: "Small pilot moves a boat",
    pilot_large: "Large pilot moves boats",
    roll: "Boats move (dice)",
    board: "Pirates may board",
    plunder: "Pirate captain sends plundered boats",
    harbor_order: "Harbour master orders the boats docking",
    shipyard_order: "Harbour master orders the boats to the shipyard",
    redeem: "Players may redeem mortgaged shares",
    deal: "Shares are dealt",
    over: "Game over",
  };

  function title(word) { return word.charAt(0).toUpperCase() + word.slice(1); }

  function seatDot(model, seat, extra) {
    return el("span", {
      class: "mn-dot" + (extra ? " " + extra : ""),
      style: { background: B.seatColour(seat), color: B.seatTextColour(seat) },
      title: B.seatLabel(model, seat),
    }, B.seatMark(seat));
  }

  var EMPTY_TIP = "Free: no accomplice stands here yet.";

  function emptyDot(text, tip) {
    return el("span", { class: "mn-dot mn-empty", title: tip || EMPTY_TIP }, text);
  }

  function where(model, pred) { return B.legalWhere(model, pred); }

  // Whether the seat is a stowaway (docs/engines/manila.md, "Stowaway"): it may take a
  // free boat seat for nothing. Read from the public view, to label the seat "free".
  function stowaway(model) {
    var v = model.view;
    var me = v.players.filter(function (p) { return p.seat === model.seat; })[0];
    if (!me) { return false; }
    var money = me.cash + 12 * (me.shares - me.mortgaged);
    var costs = [];
    GOODS.forEach(function (g) {
      var boat = v.boats[g];
      if (boat && !boat.berth && boat.next_seat_cost !== null) { costs.push(boat.next_seat_cost); }
    });
    Object.keys(v.spaces).forEach(function (k) {
      if (v.spaces[k].seat === null || v.spaces[k].seat === undefined) { costs.push(v.spaces[k].cost); }
    });
    if ((v.pirate_ship || []).length < 2) { costs.push(5); }
    return costs.length > 0 && (money === 0 || money < Math.min.apply(null, costs));
  }

  var STOWAWAY_TIP = "Free for you: you cannot pay for any place, even by mortgaging, so as a " +
    "stowaway you may take a free boat seat for nothing (or pass).";

  // The next seat of a boat as a control: its price, or "free" for a stowaway (explained).
  function seatControl(model, entry, boat) {
    if (!stowaway(model)) { return B.controlFor(model, entry, String(boat.next_seat_cost), "mn-seat-control"); }
    var button = B.controlFor(model, entry, "free", "mn-seat-control");
    button.title = entry.text + " — " + STOWAWAY_TIP;
    button.setAttribute("aria-label", button.title);
    return button;
  }

  // ------------------------------------------------------------ the boats
  function boatCard(model, good, boat) {
    var v = model.view;
    var seats = [];
    for (var i = 0; i < boat.seats; i++) {
      if (i < boat.crew.length) {
        seats.push(seatDot(model, boat.crew[i]));
      } else if (i === boat.crew.length && !boat.berth) {
        var place = where(model, function (a) { return a.type === "place" && a.space === good; });
        seats.push(place.length
          ? seatControl(model, place[0], boat)
          : emptyDot(String(boat.next_seat_cost), "next seat costs " + boat.next_seat_cost));
      } else {
        seats.push(emptyDot("", "seat"));
      }
    }
    var actions = [];
    where(model, function (a) { return a.type === "pilot" && a.good === good; }).forEach(function (e) {
      actions.push(B.controlFor(model, e, e.action.move > 0 ? "▲ +1" : "▼ −1", "mn-pilot-control"));
    });
    where(model, function (a) { return a.type === "send" && a.good === good; }).forEach(function (e) {
      actions.push(B.controlFor(model, e, "→ " + (e.action.to === "harbor" ? "harbour" : "shipyard")));
    });
    where(model, function (a) { return a.type === "board" && a.good === good; }).forEach(function (e) {
      actions.push(B.controlFor(model, e, "☠ board"));
    });
    var state = boat.plundered ? "plundered" : (boat.berth ? berthText(boat.berth) : "space " + boat.position);
    if (boat.position < 0) { state = "not yet started"; }
    return el("div", { class: "mn-boat mn-good-" + good + (boat.plundered ? " mn-plundered" : "") },
      el("div", { class: "mn-boat-head" },
        el("strong", {}, title(good)), " ",
        el("span", { class: "mn-muted", title: "If this boat reaches Manila, its crew share " + boat.payout + " pesos: each accomplice aboard gets an equal part." }, boat.payout + " ₱")),
      el("div", { class: "mn-seats", "aria-label": "seats of the " + good + " boat" }, seats),
      el("div", { class: "mn-boat-state" }, state),
      actions.length ? el("div", { class: "hm-controls mn-boat-controls" }, actions) : null);
  }

  function berthText(berth) {
    var parts = berth.split("_");
    return (parts[0] === "harbor" ? "harbour dock " : "shipyard berth ") + parts[1];
  }

  function sea(model) {
    var v = model.view;
    var columns = GOODS.filter(function (g) { return v.boats[g]; });
    var starting = where(model, function (a) { return a.type === "start_boat"; });
    var ashoreChoices = where(model, function (a) { return a.type === "leave_ashore"; });
    if (!columns.length) { columns = GOODS.slice(); }
    var grid = el("div", {
      class: "mn-sea",
      style: { "grid-template-columns": "2.2rem repeat(" + columns.length + ", minmax(0, 1fr))" },
    });
    // header: good, price, ashore choice
    grid.appendChild(el("div", { class: "mn-corner" }, ""));
    columns.forEach(function (g) {
      var leave = ashoreChoices.filter(function (e) { return e.action.good === g; });
      grid.appendChild(el("div", { class: "mn-col-head mn-good-" + g },
        el("strong", {}, title(g)),
        leave.length ? B.controlFor(model, leave[0], "leave ashore") : null));
    });
    // Manila row: boats that arrived (docked or in the shipyard)
    grid.appendChild(el("div", { class: "mn-row-label mn-manila-label" }, "⚓"));
    columns.forEach(function (g) {
      var boat = v.boats[g];
      var cell = el("div", { class: "mn-cell mn-manila" });
      if (boat && (boat.position > ROUTE_END || boat.berth)) { cell.appendChild(boatCard(model, g, boat)); }
      else { cell.appendChild(el("span", { class: "mn-muted mn-small" }, "Manila")); }
      grid.appendChild(cell);
    });
    for (var pos = ROUTE_END; pos >= 0; pos--) {
      grid.appendChild(el("div", {
        class: "mn-row-label" + (pos === ROUTE_END ? " mn-pirate-row" : ""),
        title: pos === ROUTE_END
          ? "Space 13: pirates may board a boat that stops here, and plunder it after the third roll."
          : "Space " + pos + " of the route: a boat that passes space 13 reaches Manila (⚓).",
      }, pos === ROUTE_END ? "☠13" : String(pos)));
      columns.forEach(function (g) {
        var boat = v.boats[g];
        var cell = el("div", {
          class: "mn-cell" + (pos === ROUTE_END ? " mn-pirate-cell" : "") + (pos <= 5 ? " mn-start" : ""),
          "data-good": g, "data-space": String(pos),
        });
        if (boat && boat.position === pos && !boat.berth) { cell.appendChild(boatCard(model, g, boat)); }
        starting.filter(function (e) { return e.action.good === g && e.action.space === pos; })
          .forEach(function (e) { cell.appendChild(B.controlFor(model, e, "start " + pos, "mn-start-control")); });
        grid.appendChild(cell);
      });
    }
    // boats loaded but not yet on the route (position -1)
    var waiting = columns.filter(function (g) { return v.boats[g] && v.boats[g].position < 0; });
    return B.panel("The sea" + (v.ashore ? " — " + v.ashore + " stays ashore" : ""),
      starting.length ? el("p", { class: "mn-small" }, "Start each boat on a space 0–5; the three starting spaces add up to 9.") : null,
      grid,
      waiting.length ? el("div", { class: "mn-waiting" }, el("span", { class: "mn-muted" }, "Waiting to start: "),
        waiting.map(function (g) { return boatCard(model, g, v.boats[g]); })) : null);
  }

  // -------------------------------------------------------- named spaces
  function spaceRow(model, name, label, extra) {
    var v = model.view;
    var space = v.spaces[name];
    var place = where(model, function (a) { return a.type === "place" && a.space === name; });
    var who = space.seat === null || space.seat === undefined
      ? (place.length ? B.controlFor(model, place[0], "place (" + space.cost + " ₱)", "mn-space-control") : emptyDot("", EMPTY_TIP))
      : seatDot(model, space.seat);
    return el("li", { class: "mn-space" },
      el("span", { class: "mn-space-name" }, label),
      el("span", { class: "mn-muted mn-small" }, "costs " + space.cost + (space.payout ? ", earns " + space.payout : "") + (extra || "")),
      who);
  }

  function dockedAt(v, berth) {
    return GOODS.filter(function (g) { return v.boats[g] && v.boats[g].berth === berth; })[0];
  }

  function harbour(model) {
    var v = model.view;
    var order = where(model, function (a) { return a.type === "harbor_order"; });
    var rows = ["A", "B", "C"].map(function (l) {
      var boat = dockedAt(v, "harbor_" + l);
      return spaceRow(model, "harbor_" + l, "Dock " + l, boat ? " · " + boat + " boat here" : "");
    });
    return B.panel("Harbour", el("ul", { class: "mn-spaces" }, rows),
      order.length ? el("div", { class: "hm-controls" }, el("span", { class: "mn-small" }, "Docking order:"),
        order.map(function (e) { return B.controlFor(model, e, e.action.goods.join(" → ")); })) : null);
  }

  function shipyard(model) {
    var v = model.view;
    var order = where(model, function (a) { return a.type === "shipyard_order"; });
    var rows = ["A", "B", "C"].map(function (l) {
      var boat = dockedAt(v, "shipyard_" + l);
      return spaceRow(model, "shipyard_" + l, "Berth " + l, boat ? " · " + boat + " boat here" : "");
    });
    return B.panel("Shipyard", el("ul", { class: "mn-spaces" }, rows),
      order.length ? el("div", { class: "hm-controls" }, el("span", { class: "mn-small" }, "Shipyard order:"),
        order.map(function (e) { return B.controlFor(model, e, e.action.goods.join(" → ")); })) : null);
  }

  function others(model) {
    var v = model.view;
    var pirates = v.pirate_ship || [];
    var placePirate = where(model, function (a) { return a.type === "place" && a.space === "pirate"; });
    var slots = [0, 1].map(function (i) {
      if (i < pirates.length) { return seatDot(model, pirates[i]); }
      if (i === pirates.length && placePirate.length) {
        return B.controlFor(model, placePirate[0], "place (5 ₱)", "mn-space-control");
      }
      return emptyDot("", EMPTY_TIP);
    });
    var stay = where(model, function (a) { return a.type === "stay"; });
    var pilotStop = where(model, function (a) { return a.type === "pilot_stop"; });
    return B.panel("Pirates, pilots, insurance",
      el("ul", { class: "mn-spaces" },
        el("li", { class: "mn-space" }, el("span", { class: "mn-space-name" }, "☠ Pirate ship"),
          el("span", { class: "mn-muted mn-small" }, "captain, then second · 5 each"), slots,
          stay.map(function (e) { return B.controlFor(model, e, "stay aboard"); })),
        spaceRow(model, "pilot_small", "Small pilot", " · moves 1"),
        spaceRow(model, "pilot_large", "Large pilot", " · moves 2"),
        spaceRow(model, "insurance", "Insurance", " · +10 now, pays repairs")),
      v.large_pilot_first_step ? el("p", { class: "mn-small" }, "Large pilot moved the " +
        v.large_pilot_first_step.good + " boat " + (v.large_pilot_first_step.move > 0 ? "forward" : "back") + " once.") : null,
      pilotStop.length ? el("div", { class: "hm-controls" }, pilotStop.map(function (e) {
        return B.controlFor(model, e, "pilot: move no more");
      })) : null);
  }

  // --------------------------------------------------------------- market
  function market(model) {
    var v = model.view;
    var buys = where(model, function (a) { return a.type === "buy"; });
    var rows = GOODS.map(function (g) {
      var price = v.prices[g];
      var steps = PRICE_TRACK.map(function (p) {
        return el("span", { class: "mn-price" + (p === price ? " mn-price-now" : ""), title: g + " price " + p }, String(p));
      });
      var buy = buys.filter(function (e) { return e.action.good === g; });
      return el("tr", { class: "mn-good-row mn-good-" + g },
        el("th", {}, title(g)),
        el("td", {}, el("span", { class: "mn-track" }, steps)),
        el("td", { class: "hm-num" }, String(v.supply[g])),
        el("td", {}, buy.length ? B.controlFor(model, buy[0], "buy " + v.share_cost[g] + " ₱") : el("span", { class: "mn-muted" }, v.share_cost[g] + " ₱")));
    });
    var skip = where(model, function (a) { return a.type === "skip_buy"; });
    return B.panel("Share market",
      el("table", { class: "hm-table mn-market" },
        el("thead", {}, el("tr", {}, el("th", {}, "Good"),
          el("th", { title: "What one share of the good is worth at the end; it rises a step for each boat of the good that reaches Manila." }, "Price"),
          el("th", { class: "hm-num", title: "Shares of the good the bank still has to sell." }, "Left"),
          el("th", { title: "What the harbour master pays to buy one share now." }, "Share"))),
        el("tbody", {}, rows)),
      skip.length ? el("div", { class: "hm-controls" }, skip.map(function (e) { return B.controlFor(model, e, "buy nothing"); })) : null,
      el("p", { class: "mn-small mn-muted" }, "The game ends when a price reaches 30."));
  }

  // -------------------------------------------------------------- auction
  function auction(model) {
    var v = model.view;
    var a = v.auction;
    if (!a) { return null; }
    var bids = where(model, function (x) { return x.type === "bid"; });
    var more = where(model, function (x) { return x.type === "more_bids" || x.type === "pass"; });
    return B.panel("Auction for harbour master",
      el("p", {}, a.high_bidder === null ? "No bid yet." : ["Highest bid ", el("strong", {}, a.high_bid + " ₱"), " by ", B.seatChip(model, a.high_bidder)]),
      a.passed && a.passed.some(function (x) { return x; })
        ? el("p", { class: "mn-small" }, "Passed: ", a.passed.map(function (p, s) { return p ? B.seatChip(model, s) : null; }))
        : null,
      bids.length ? el("div", { class: "hm-controls mn-bids" }, el("span", { class: "mn-small" }, "Bid (pesos):"), bids.map(function (e) {
        return B.controlFor(model, e, String(e.action.amount));
      })) : null,
      more.length ? el("div", { class: "hm-controls" }, more.map(function (e) {
        return B.controlFor(model, e, e.action.type === "pass" ? "pass" : "higher bids…");
      })) : null);
  }

  // -------------------------------------------------------------- players
  function players(model) {
    var v = model.view;
    var redeem = where(model, function (a) { return a.type === "redeem"; });
    var own = v.private && v.private.shares;
    var final = v.final;
    var rows = v.players.map(function (p) {
      var mine = model.seat === p.seat;
      var shares = String(p.shares);
      var detail = null;
      var known = mine && own ? own : (final ? final.shares[p.seat] : null);
      if (known) {
        detail = el("div", { class: "mn-small" }, GOODS.filter(function (g) { return known[g]; }).map(function (g) {
          return el("span", { class: "hm-tag mn-good-" + g }, known[g] + " " + g);
        }));
      } else if (p.shares) {
        detail = el("div", { class: "mn-small hm-hidden" }, "hidden");
      }
      return el("tr", { class: mine ? "mn-me" : null },
        el("td", {}, B.seatChip(model, p.seat), v.harbor_master === p.seat ? el("span", { title: "harbour master" }, " ⚓") : null),
        el("td", { class: "hm-num" }, String(p.cash)),
        el("td", {}, shares, detail),
        el("td", { class: "hm-num" }, p.mortgaged ? String(p.mortgaged) : "–"),
        el("td", { class: "hm-num" }, String(p.accomplices_left),
          v.phase === "place" && !p.placing ? el("div", { class: "mn-small mn-muted" }, "passed") : null),
        null);
    });
    return B.panel("Players",
      el("div", { class: "mn-table-wrap" }, el("table", { class: "hm-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", { class: "hm-num" }, "Pesos"),
          el("th", {}, "Shares"), el("th", { class: "hm-num", title: "Shares mortgaged to the bank (12 pesos each; 15 to redeem)." }, "Loans"), el("th", { class: "hm-num", title: "Accomplices left to place this voyage." }, "Acc."),
          null)),
        el("tbody", {}, rows))),
      redeem.length ? el("div", { class: "hm-controls" }, el("span", { class: "mn-small" }, "Redeem mortgaged shares (15 ₱ each):"),
        redeem.map(function (e) { return B.controlFor(model, e, e.action.count ? "redeem " + e.action.count : "redeem none"); })) : null);
  }

  function header(model) {
    var v = model.view;
    var phase = v.final ? "Game over" : (PHASES[v.phase] || v.phase);
    var bits = ["Voyage " + v.voyage];
    if (v.phase === "place") { bits.push("placement round " + v.placement_round); }
    if (v.movement) { bits.push(v.movement + " of 3 movements done"); }
    if (v.pending && v.pending.length) { bits.push("waiting: " + v.pending.join(", ")); }
    return el("div", { class: "mn-header hm-wide" },
      B.turnLine(model),
      el("p", { class: "mn-phase" }, el("strong", {}, phase), " · ", bits.join(" · ")));
  }

  function render(root, model) {
    var place = where(model, function (a) { return a.type === "pass"; });
    root.appendChild(header(model));
    var final = model.view.final;
    if (final) { root.appendChild(B.standings(model, final.scores, final.ranks, "pesos")); }
    var bidding = auction(model);
    if (bidding) { root.appendChild(bidding); }
    if (place.length && stowaway(model)) {
      root.appendChild(el("p", { class: "hm-wide mn-small mn-stowaway" }, "“free”: " + STOWAWAY_TIP));
    }
    var left = el("div", { class: "mn-left" }, sea(model));
    var right = el("div", { class: "mn-right" }, harbour(model), shipyard(model), others(model));
    root.appendChild(el("div", { class: "mn-main hm-wide" }, left, right));
    if (model.view.phase === "place" && place.length) {
      root.appendChild(el("div", { class: "hm-controls hm-wide" },
        B.controlFor(model, place[0], "Pass (place no more this voyage)")));
    }
    root.appendChild(market(model));
    root.appendChild(players(model));
    var events = B.eventList(model, 8);
    if (events) { root.appendChild(events); }
  }

  B.register("manila", render);
})();
