// The Grog Island board: the five peninsulas with their clouds and buildings,
// the merchant ships under them, the five auction dice and the bid track, each
// pirate's coins, goods, crew and card counts, and the seat's own secret cards
// (objectives, treasure values, parrots) only when the view carries them: the
// renderer reads nothing but the model, so a spectator or another seat never
// sees them. Legal actions become controls where they belong: a die to place, a
// building to claim or lock, a ship to trade with, an objective card to return.
(function () {
  "use strict";
  var B = window.HMBoards;
  var el = B.el;

  // Public rules (docs/engines/grog_island.md): how people read the view's names.
  var COLOURS = ["yellow", "green", "blue", "orange", "grey"];
  var GOODS = {
    yellow: { one: "lemon", many: "lemons", short: "Lem" },
    green: { one: "coconut", many: "coconuts", short: "Coc" },
    blue: { one: "fish", many: "fish", short: "Fish" },
    orange: { one: "grog barrel", many: "grog", short: "Grog" },
    grey: { one: "treasure map", many: "maps", short: "Map" },
  };
  var BUILDINGS = {
    sword: ["Sword shop", 2], peg_leg: ["Peg-leg shop", 2], anchor: ["Anchor shop", 3],
    hat: ["Hat shop", 3], hook: ["Hook shop", 3], figurehead: ["Figurehead carver", 4],
    cannonball: ["Cannonball foundry", 4], voodoo: ["Voodoo doll shop", 4],
    pub: ["Grog Hole pub", 6], lucky_charm: ["Lucky-charm shop", 6], map_maker: ["Map maker", 6],
    rum: ["Rum distillery", 6],
  };
  var SHIPS = {
    two_coins: ["Two-coins ship", "up to 4 goods, 2 coins each"],
    three_coins: ["Three-coins ship", "up to 2 goods, 3 coins each"],
    four_coins: ["Four-coins ship", "1 good for 4 coins"],
    treasure: ["Treasure ship", "up to 2 goods, a treasure card each"],
    parrot: ["Parrot ship", "up to 2 goods, a parrot card each"],
    objectives: ["Objectives ship", "any goods: draw that many objectives, keep 1"],
  };
  var CLOUDS = {
    objective_swap: "Objective swap", vp: "+1 VP", parrot: "Parrot card", nothing: "Nothing",
    black: "Black cloud: no coin bonus",
  };
  var SPACES = ["Claim", "Claim", "+1 VP", "Lock", "+1 VP"];
  var STAGES = {
    setup: "Setup: each pirate takes a good and returns 2 objectives",
    roll: "The start player rolls the five dice",
    next_turn: "The auction",
    end_auction: "The auction is decided",
    end_round: "The round ends; the ships move on",
    bid: "The auction",
    trade_ship: "A pirate who passed picks a ship",
    trade: "Trading at a ship",
    pay: "The winner pays the bid",
    reward: "The winner claims buildings",
    lock: "The winner locks a building",
    ghost: "A ghost crew member goes ashore",
    over: "The game is over",
  };

  /** [[value, how many], ...] in first-seen order. */
  function grouped(values) {
    var out = [];
    values.forEach(function (v) {
      var found = out.filter(function (g) { return g[0] === v; })[0];
      if (found) { found[1] += 1; } else { out.push([v, 1]); }
    });
    return out;
  }

  function plural(n, one, many) { return n + " " + (n === 1 ? one : (many || one + "s")); }
  function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

  function buildingName(id) {
    var kind = id.split("/")[1];
    return (BUILDINGS[kind] || [kind])[0];
  }

  function objectiveName(card) {
    var parts = card.split("/");
    if (parts[0] === "building") { return (BUILDINGS[parts[1]] || [parts[1]])[0] + " (" + (BUILDINGS[parts[1]] || [0, 0])[1] + " VP each)"; }
    if (parts[0] === "goods") { return cap(parts[1]) + " goods: 1 VP per " + GOODS[parts[1]].one; }
    if (parts[0] === "peninsula") { return cap(parts[1]) + " peninsula: 6 VP majority, 2 present"; }
    return "Parrots: 1 VP per parrot card";
  }

  function parrotName(card) {
    if (card === "hold") { return "Hold the bid"; }
    return "Set the " + card.replace("set_", "") + " die";
  }

  /** A good: a chip in its colour with a word (colour is never the only cue). */
  function good(colour, count) {
    var info = GOODS[colour] || { short: colour, many: colour };
    return el("span", { class: "gi-good gi-c-" + colour + (count === 0 ? " gi-none" : ""), title: cap(colour) + " " + info.many },
      info.short, count === undefined ? null : el("b", {}, "×" + count));
  }

  function goodsList(colours) {
    var counts = {};
    colours.forEach(function (c) { counts[c] = (counts[c] || 0) + 1; });
    return COLOURS.filter(function (c) { return counts[c]; }).map(function (c) { return good(c, counts[c]); });
  }

  function die(colour, value, extra) {
    return el("span", { class: "gi-die gi-c-" + colour + (extra ? " " + extra : ""), title: cap(colour) + " die: " + value },
      el("span", { class: "gi-die-value" }, String(value)));
  }

  function controlRow(items, caption) {
    if (!items.length) { return null; }
    return el("div", { class: "gi-actions" }, caption ? el("span", { class: "gi-caption" }, caption) : null,
      el("div", { class: "hm-controls" }, items));
  }

  function controls(model, pred, label, cls) {
    return B.legalWhere(model, pred).map(function (entry) {
      return B.controlFor(model, entry, label(entry.action), cls);
    });
  }

  // ------------------------------------------------------------------- status
  function statusBar(model, view) {
    var hint = whatNow(model, view);
    return el("div", { class: "gi-status gi-top hm-wide" },
      el("span", { class: "gi-round" }, "Round " + view.round),
      el("span", {}, "Start player ", B.seatChip(model, view.start_player)),
      el("span", { class: "gi-stage" }, STAGES[view.stage] || view.stage),
      el("span", { class: "gi-muted", title: "Locks left: lock pieces still in the supply (bid space 4 locks a free building). Decks: cards left in each draw pile." }, "Locks left: " + view.locks_left + " · decks: " +
        view.decks.objective + " objectives, " + view.decks.treasure + " treasure, " + view.decks.parrot + " parrots"),
      hint ? el("span", { class: "gi-hint" }, hint) : null);
  }

  function whatNow(model, view) {
    if (!model.legal || !model.legal.length) { return null; }
    var t = {};
    model.legal.forEach(function (e) { t[e.action.type] = true; });
    if (t.return_objective) { return "Put an objective card back under the deck (click it in your hand)."; }
    if (t.choose_good) { return "Choose your starting good (in your row below)."; }
    if (t.keep_objective) { return "Keep one of the objectives you drew (in your hand)."; }
    if (t.place || t.bid || t.pass) { return "Put dice on the bid track from the left (never a higher die after a lower one), then confirm the bid — or pass."; }
    if (t.choose_ship) { return "Pick a ship to trade with (under the peninsulas)."; }
    if (t.exchange || t.build_pay || t.end_trade) { return "Give goods to the ship: for its exchange, or 4 towards a building."; }
    if (t.claim && view.stage === "trade") { return "Claim a building on the ship's peninsula."; }
    if (t.claim || t.decline_claims) { return "Claim a free building on the peninsulas of the dice on spaces 1 and 2."; }
    if (t.lock) { return "Lock a free building on the peninsula of the die on space 4."; }
    if (t.ghost) { return "Put a ghost crew member on a free building under the ghost ship."; }
    if (t.pay || t.pay_treasure || t.decline) { return "Pay the bid with treasure cards and coins, or decline and win nothing."; }
    return null;
  }

  // ------------------------------------------------------------------- island
  function buildingTile(model, view, id) {
    var who = view.buildings[id];
    var kind = id.split("/")[1];
    var vp = (BUILDINGS[kind] || [kind, 0])[1];
    var occupant;
    if (who === null || who === undefined) {
      occupant = null;
    } else if (who === "lock") {
      occupant = el("span", { class: "gi-lock", title: "locked" }, "locked");
    } else if (who === "ghost") {
      occupant = el("span", { class: "gi-ghost", title: "a ghost crew member" }, "ghost");
    } else {
      occupant = B.seatChip(model, who, true);
    }
    var body = [el("span", { class: "gi-bname" }, buildingName(id)), el("span", { class: "gi-bvp", title: "objective VP per building" }, vp + "★"), occupant].filter(Boolean);
    var entries = B.legalWhere(model, function (a) {
      return (a.type === "claim" || a.type === "lock" || a.type === "ghost") && a.building === id;
    });
    var cls = "gi-building" + (who === null || who === undefined ? "" : " gi-taken");
    if (!entries.length) { return el("li", { class: cls }, body); }
    var verb = { claim: "Claim", lock: "Lock", ghost: "Ghost" }[entries[0].action.type];
    var button = B.controlFor(model, entries[0], "", "gi-building-control");
    button.appendChild(el("span", { class: "gi-verb" }, verb));
    body.forEach(function (node) { button.appendChild(node); });
    var li = el("li", { class: cls + " gi-target" }, button);
    entries.slice(1).forEach(function (entry) { li.appendChild(B.controlFor(model, entry)); });
    return li;
  }

  function shipTile(model, view, space) {
    var ship = view.ships[space];
    if (!ship) { return el("div", { class: "gi-ship gi-empty" }, "no ship"); }
    var info = SHIPS[ship] || [ship, ""];
    var ghost = view.ghost && view.ghost.ship === ship;
    var disc = view.trade_discs ? view.trade_discs[space] : undefined;
    var trading = view.trade && view.trade.peninsula === space;
    var choose = controls(model, function (a) { return a.type === "choose_ship" && a.ship === ship; },
      function () { return "Trade here"; });
    return el("div", { class: "gi-ship" + (ghost ? " gi-ghost-ship" : "") + (trading ? " gi-trading" : "") },
      el("strong", {}, ghost ? "Ghost ship" : info[0]),
      el("span", { class: "gi-muted" }, ghost ? "no trade; " + plural(view.ghost.crew, "ghost crew member") + " aboard" : info[1]),
      disc !== undefined && disc !== null ? el("span", {}, "Trade disc: ", B.seatChip(model, disc, true)) : null,
      controlRow(choose));
  }

  /** Who has how many crew on a peninsula (peninsula objectives: 6 VP for a strict majority). */
  function crewCount(model, view, ids) {
    var counts = {};
    ids.forEach(function (id) {
      var who = view.buildings[id];
      if (who !== null && who !== undefined && who !== "lock") { counts[who] = (counts[who] || 0) + 1; }
    });
    var keys = Object.keys(counts);
    if (!keys.length) { return el("div", { class: "gi-crew gi-muted" }, "no crew yet"); }
    return el("div", { class: "gi-crew", title: "crew on this peninsula" }, keys.map(function (k) {
      if (k === "ghost") { return el("span", { class: "gi-ghost" }, "ghost " + counts[k]); }
      return el("span", { class: "gi-crew-n" }, B.seatChip(model, Number(k), true), "×" + counts[k]);
    }));
  }

  function island(model, view) {
    var ids = Object.keys(view.buildings);
    var columns = COLOURS.map(function (colour) {
      var mine = ids.filter(function (id) { return id.split("/")[0] === colour; });
      return el("div", { class: "gi-peninsula gi-p-" + colour },
        el("div", { class: "gi-cloud" + (view.clouds[colour] === "black" ? " gi-black" : "") },
          "Cloud: " + (CLOUDS[view.clouds[colour]] || view.clouds[colour] || "none")),
        el("h4", { class: "gi-c-" + colour }, cap(colour), el("span", {}, " · " + GOODS[colour].many)),
        crewCount(model, view, mine),
        el("ul", { class: "gi-buildings" }, mine.map(function (id) { return buildingTile(model, view, id); })),
        shipTile(model, view, colour));
    });
    columns.push(el("div", { class: "gi-peninsula gi-open-sea" },
      el("h4", {}, "Open sea"), el("p", { class: "gi-muted" }, "This ship cannot be used this round; the ships move one space right each round."),
      shipTile(model, view, "open_sea")));
    return B.panel("The island", el("div", { class: "gi-island" }, columns),
      el("p", { class: "gi-muted gi-legend" }, "n★: objective VP per building of that type. A mark on a building: that pirate's crew; ",
        el("span", { class: "gi-lock" }, "locked"), " ", el("span", { class: "gi-ghost" }, "ghost"), " crew of the ghost ship. An empty building is free."));
  }

  // ------------------------------------------------------------------ auction
  function auction(model, view) {
    var dice = view.dice || {};
    var bid = view.bid || { dice: [], total: 0 };
    var turn = view.turn;
    var draft = turn ? turn.draft : [];
    var used = {};
    draft.forEach(function (c) { used[c] = true; });
    var diceRow = COLOURS.map(function (colour) {
      var value = dice[colour];
      if (!value) { return el("div", { class: "gi-die-slot" }, el("span", { class: "gi-die gi-unrolled", title: "not rolled yet" }, "–")); }
      var place = B.legalWhere(model, function (a) { return a.type === "place" && a.colour === colour; });
      var face = die(colour, value, used[colour] ? "gi-used" : "");
      var main = place.length ? B.controlFor(model, place[0], "", "gi-die-control") : null;
      if (main) { main.appendChild(face); main.appendChild(el("span", {}, "Place")); }
      var sets = controls(model, function (a) { return a.type === "parrot" && a.card === "set_" + colour; },
        function (a) { return String(a.value); }, "gi-small");
      return el("div", { class: "gi-die-slot" }, main || face,
        sets.length ? el("div", { class: "gi-parrot-set" }, el("span", { class: "gi-caption" }, "Parrot: set to"), el("div", { class: "hm-controls" }, sets)) : null);
    });
    function track(colours, label) {
      return el("div", { class: "gi-track" }, el("span", { class: "gi-caption" }, label),
        SPACES.map(function (reward, i) {
          var c = colours[i];
          return el("div", { class: "gi-space" }, el("span", { class: "gi-space-n" }, (i + 1) + ": " + reward),
            c ? die(c, dice[c]) : el("span", { class: "gi-die gi-unrolled" }, ""));
        }));
    }
    var parts = [el("div", { class: "gi-dice" }, diceRow)];
    parts.push(track(bid.dice, "Bid"));
    parts.push(el("p", { class: "gi-bid-line" }, bid.bidder === null || bid.bidder === undefined
      ? "No bid yet."
      : ["Current bid: ", el("strong", {}, plural(bid.total, "coin")), " by ", B.seatChip(model, bid.bidder)]));
    if (turn && (draft.length || turn.holding)) {
      var sum = 0;
      draft.forEach(function (c) { sum += dice[c]; });
      parts.push(track(draft, "Draft"));
      parts.push(el("p", { class: "gi-muted" }, B.seatChip(model, view.to_move[0]), " is placing dice: " + sum + " so far" +
        (turn.holding ? " (a hold parrot was played: the bid must equal the current one)" : "") +
        ". Each die's colour says where its space's reward goes."));
    }
    parts.push(controlRow(controls(model, function (a) { return a.type === "bid" || a.type === "pass" || (a.type === "parrot" && a.card === "hold"); },
      function (a) { return a.type === "bid" ? "Bid " + a.total : a.type === "pass" ? "Pass (take goods, trade)" : "Parrot: hold the bid"; })));
    if (view.payment) {
      parts.push(el("p", {}, "To pay: " + plural(view.payment.bid, "coin") + "; treasure revealed: " + view.payment.revealed_treasure));
    }
    parts.push(controlRow(controls(model, function (a) { return a.type === "pay_treasure" || a.type === "pay" || a.type === "decline"; },
      function (a) {
        if (a.type === "pay_treasure") { return "Reveal treasure worth " + a.value; }
        if (a.type === "pay") { return a.coins ? "Pay " + plural(a.coins, "coin") : "Done: treasure covers it"; }
        return "Decline (win nothing)";
      })));
    if (view.claims) {
      parts.push(el("p", {}, "Claims left on: " + (view.claims.peninsulas.join(", ") || "none") +
        (view.claims.types_claimed.length ? "; already claimed: " + view.claims.types_claimed.map(function (k) { return (BUILDINGS[k] || [k])[0]; }).join(", ") : "")));
    }
    parts.push(controlRow(controls(model, function (a) { return a.type === "decline_claims"; }, function () { return "Claim no more"; })));
    return B.panel("Auction", parts);
  }

  // -------------------------------------------------------------------- trade
  function tradePanel(model, view) {
    var t = view.trade;
    var exchanges = controls(model, function (a) { return a.type === "exchange"; }, function () { return ""; }, "gi-goods-control");
    var builds = controls(model, function (a) { return a.type === "build_pay"; }, function () { return ""; }, "gi-goods-control");
    var decorate = function (buttons, type) {
      var entries = B.legalWhere(model, function (a) { return a.type === type; });
      buttons.forEach(function (b, i) { goodsList(entries[i].action.goods).forEach(function (g) { b.appendChild(g); }); });
    };
    decorate(exchanges, "exchange");
    decorate(builds, "build_pay");
    var end = controls(model, function (a) { return a.type === "end_trade"; }, function () { return "End the trade"; });
    if (!t && !exchanges.length && !builds.length && !end.length) { return null; }
    var parts = [];
    if (t) {
      var info = SHIPS[t.ship] || [t.ship, ""];
      parts.push(el("p", {}, B.seatChip(model, view.to_move[0]), " trades with the ", el("strong", {}, info[0]),
        " under the " + t.peninsula + " peninsula (" + info[1] + "). Exchanged: " + t.exchanged +
        (t.exchange_closed ? " (closed)" : "") + "; towards a building: " + t.building_units_paid + " / 4."));
      parts.push(el("p", { class: "gi-muted" }, "One unit is one " + t.peninsula + " good or any 3 goods."));
    }
    parts.push(controlRow(exchanges, "Exchange:"));
    parts.push(controlRow(builds, "Towards a building:"));
    parts.push(controlRow(end));
    return B.panel("Trade", parts);
  }

  // ------------------------------------------------------------------ pirates
  function pirate(model, view, p) {
    var seat = p.seat;
    var mine = model.seat === seat;
    var moving = (view.to_move || []).indexOf(seat) >= 0;
    var goodsRow = COLOURS.map(function (c) {
      var choose = mine ? B.legalWhere(model, function (a) { return a.type === "choose_good" && a.good === c; }) : [];
      if (choose.length) {
        var b = B.controlFor(model, choose[0], "", "gi-goods-control");
        b.appendChild(el("span", {}, "Take "));
        b.appendChild(good(c));
        return b;
      }
      return good(c, p.goods[c]);
    });
    var status = view.stage === "bid" ? (p.in_auction ? "in the auction" : "out of the auction") : null;
    var card = el("div", {
      class: "gi-pirate" + (moving ? " gi-moving" : "") + (mine ? " gi-mine" : ""),
      style: { "border-top-color": B.seatColour(seat) },
    },
    el("div", { class: "gi-pirate-head" }, B.seatChip(model, seat), el("span", { class: "gi-vp" }, p.vp + " VP")),
    el("dl", { class: "gi-facts" },
      el("dt", {}, "Coins"), el("dd", {}, String(p.coins) + " (bid up to " + p.potential_capital + ")"),
      el("dt", {}, "Crew"), el("dd", {}, plural(p.crew, "pirate") + " left"),
      el("dt", {}, "Goods"), el("dd", {}, goodsRow),
      el("dt", {}, "Cards"), el("dd", {}, plural(p.objectives, "objective") + ", " + plural(p.treasures, "treasure") + ", " + plural(p.parrots, "parrot") +
        (p.drawn_objectives ? ", " + p.drawn_objectives + " drawn" : "")),
      status ? el("dt", {}, "Auction") : null, status ? el("dd", {}, status) : null));
    if (mine && view.private) {
      card.appendChild(hand(model, view));
    } else if (view.revealed && view.revealed[seat]) {
      // After the game every hand is revealed (the view carries it then, not before).
      card.appendChild(el("div", { class: "gi-hand gi-revealed" }, el("span", { class: "gi-caption" }, "Objectives (revealed at the end):"),
        el("ul", { class: "gi-cards" }, (view.revealed[seat].objectives || []).map(function (c) {
          return el("li", { class: "gi-card" }, objectiveName(c));
        }))));
    }
    return card;
  }

  /** The seat's own secret cards: only present in its own view. */
  function hand(model, view) {
    var priv = view.private;
    var parts = [];
    var returns = B.legalWhere(model, function (a) { return a.type === "return_objective"; });
    var keeps = B.legalWhere(model, function (a) { return a.type === "keep_objective"; });
    var offered = {};
    var used = {};
    returns.forEach(function (e) { offered[e.action.card] = e; });
    var objectives = (priv.objectives || []).map(function (card) {
      var entry = offered[card];
      if (entry && !used[card]) {
        used[card] = true;
        return B.controlFor(model, entry, "Return: " + objectiveName(card), "gi-card-control");
      }
      return el("li", { class: "gi-card" }, objectiveName(card));
    });
    parts.push(el("div", { class: "gi-hand-row" }, el("span", { class: "gi-caption" }, "Your objectives (secret):"),
      el("ul", { class: "gi-cards" }, objectives)));
    var keepOffered = {};
    keeps.forEach(function (e) { keepOffered[e.action.card] = e; });
    if ((priv.drawn || []).length) {
      var shown = {};
      parts.push(el("div", { class: "gi-hand-row" }, el("span", { class: "gi-caption" }, "Drawn at the ship, keep one:"),
        el("ul", { class: "gi-cards" }, priv.drawn.map(function (card) {
          if (keepOffered[card] && !shown[card]) {
            shown[card] = true;
            return B.controlFor(model, keepOffered[card], "Keep: " + objectiveName(card), "gi-card-control");
          }
          return el("li", { class: "gi-card" }, objectiveName(card));
        }))));
    }
    parts.push(el("div", { class: "gi-hand-row" }, el("span", { class: "gi-caption" }, "Treasure (secret values):"),
      (priv.treasures || []).length ? grouped(priv.treasures).map(function (g) { return el("span", { class: "hm-tag" }, "worth " + g[0] + (g[1] > 1 ? " ×" + g[1] : "")); }) : el("span", { class: "gi-muted" }, "none")));
    parts.push(el("div", { class: "gi-hand-row" }, el("span", { class: "gi-caption" }, "Parrot cards:"),
      (priv.parrots || []).length ? grouped(priv.parrots).map(function (g) { return el("span", { class: "hm-tag" }, parrotName(g[0]) + (g[1] > 1 ? " ×" + g[1] : "")); }) : el("span", { class: "gi-muted" }, "none")));
    return el("div", { class: "gi-hand" }, parts);
  }

  function pirates(model, view) {
    return B.panel("Pirates", el("div", { class: "gi-pirates" }, view.players.map(function (p) { return pirate(model, view, p); })));
  }

  /** The final standings (shared look) and where each pirate's points came from. */
  function finalPanel(model, view) {
    if (!view.final) { return null; }
    var f = view.final;
    var bySeat = {};
    f.breakdown.forEach(function (b) { bySeat[b.seat] = b; });
    var panel = B.standings(model, f.scores, f.ranks, "VP", function (seat) {
      var b = bySeat[seat];
      if (!b) { return ""; }
      var objectives = 0;
      Object.keys(b.objectives).forEach(function (k) { objectives += b.objectives[k]; });
      return "(track " + b.track_vp + ", treasure " + b.treasure_vp + ", coins " + b.coin_vp +
        ", objectives " + objectives + "; " + plural(b.coins, "coin") + " left)";
    });
    var ranked = f.breakdown.slice().sort(function (a, b) { return f.ranks[a.seat] - f.ranks[b.seat] || a.seat - b.seat; });
    panel.appendChild(el("ul", { class: "gi-final-objectives" }, ranked.map(function (b) {
      return el("li", {}, B.seatChip(model, b.seat, true), " ", Object.keys(b.objectives).map(function (k) {
        return objectiveName(k).split(":")[0].split(" (")[0] + " " + b.objectives[k];
      }).join(" · ") || "no objectives");
    })));
    return panel;
  }

  function render(root, model) {
    var view = model.view;
    var top = B.turnLine(model);
    top.classList.add("gi-top");
    root.appendChild(top);
    root.appendChild(statusBar(model, view));
    // On a phone the panel of the open decision comes right after the status line.
    if (view.stage === "bid" || view.stage === "pay") { root.classList.add("gi-focus-auction"); }
    if (view.stage === "trade") { root.classList.add("gi-focus-trade"); }
    var result = finalPanel(model, view);
    if (result) { root.appendChild(result); }
    var map = island(model, view);
    map.classList.add("hm-wide");
    root.appendChild(map);
    var trade = tradePanel(model, view);
    if (view.stage !== "setup") {
      var bidding = auction(model, view);
      bidding.classList.add("gi-auction-panel");
      root.appendChild(bidding);
    }
    if (trade) { trade.classList.add("gi-trade-panel"); root.appendChild(trade); }
    var crews = pirates(model, view);
    crews.classList.add("hm-wide");
    root.appendChild(crews);
    var events = B.eventList(model, 8);
    if (events) { root.appendChild(events); }
  }

  B.register("grog_island", render);
})();
