// Batavia's board, drawn from the seat's view only (docs/engines/batavia.md, "Views").
// The track of 35 trading posts (face-down ones stay blank) with the merchants and the
// final hex; the five companies with their seals, cards in play and the lot; the
// auction; your hand and letters (only your own: the view has nobody else's); each
// player's cards in front, posts, warehouses and gold. Controls sit where they act:
// "play" on the company, "move" on the post it leads to, bids in the auction box.
(function () {
  "use strict";
  var B = window.HMBoards;
  var el = B.el;
  var COMPANIES = ["england", "netherlands", "france", "denmark", "sweden"];
  var NAMES = { england: "English", netherlands: "Dutch", france: "French", denmark: "Danish", sweden: "Swedish" };
  var SHORT = { england: "EN", netherlands: "NL", france: "FR", denmark: "DK", sweden: "SE" };
  var GOODS = ["tea", "cotton", "porcelain", "silk", "ginger", "nutmeg", "pepper"];
  var PHASES = {
    deal: "Dealing the cards",
    roll: "The auctioneer rolls the die",
    lot: "Ship cards join the lot",
    draw: "Drawing ship cards",
    reveal: "Turning up trading posts",
    bid: "Auction for the lot",
    act: "Draw or play cards",
    play: "Playing cards",
    move: "Moving the merchant",
    convert: "Converting posts into gold",
    over: "Game over",
  };

  function where(model, pred) { return B.legalWhere(model, pred); }

  function companyTag(c, text) {
    return el("span", { class: "bt-co bt-co-" + c, title: NAMES[c] + " company" }, text || SHORT[c]);
  }

  function seatDot(model, seat) {
    return el("span", {
      class: "bt-dot",
      style: { background: B.seatColour(seat), color: B.seatTextColour(seat) },
      title: B.seatLabel(model, seat),
    }, B.seatMark(seat));
  }

  function me(model) {
    var v = model.view;
    if (model.seat === null || model.seat === undefined) { return null; }
    return v.players.filter(function (p) { return p.seat === model.seat; })[0] || null;
  }

  // The space a "move" along company c lands on: the next face-up, untaken post of c
  // ahead of the merchant (spaces holding another merchant are taken posts). None: the
  // final hex.
  function destination(v, from, company) {
    for (var i = 0; i < v.track.length; i++) {
      var post = v.track[i];
      if (post.space <= from || post.face_down || post.taken_by !== undefined && post.taken_by !== null) { continue; }
      if (post.company === company) { return post.space; }
    }
    return null;
  }

  // ---------------------------------------------------------------- track
  function track(model) {
    var v = model.view;
    var mine = me(model);
    var moves = where(model, function (a) { return a.type === "move"; });
    var movesAt = {};
    var toHex = [];
    moves.forEach(function (e) {
      var at = mine ? destination(v, mine.merchant, e.action.company) : null;
      if (at === null) { toHex.push(e); } else { (movesAt[at] = movesAt[at] || []).push(e); }
    });
    var merchantsAt = {};
    v.players.forEach(function (p) {
      if (!p.final_hex) { (merchantsAt[p.merchant] = merchantsAt[p.merchant] || []).push(p.seat); }
    });
    var tiles = [el("li", { class: "bt-tile bt-start" },
      el("span", { class: "bt-space" }, "start"),
      el("div", { class: "bt-merchants" }, (merchantsAt[-1] || []).map(function (s) { return seatDot(model, s); })))];
    v.track.forEach(function (post) {
      var taken = post.taken_by !== undefined && post.taken_by !== null;
      var cls = "bt-tile" + (post.face_down ? " bt-face-down" : " bt-co-" + post.company) + (taken ? " bt-taken" : "");
      var body = post.face_down
        ? el("span", { class: "bt-good bt-muted" }, "?")
        : [el("span", { class: "bt-coname" }, SHORT[post.company]), el("span", { class: "bt-good" }, post.good)];
      tiles.push(el("li", { class: cls, "data-space": String(post.space),
        title: post.face_down ? "face-down post" : NAMES[post.company] + " post: " + post.good + (taken ? " (taken)" : "") },
        el("span", { class: "bt-space" }, String(post.space + 1)),
        body,
        el("div", { class: "bt-merchants" }, (merchantsAt[post.space] || []).map(function (s) { return seatDot(model, s); })),
        (movesAt[post.space] || []).map(function (e) { return B.controlFor(model, e, "move here", "bt-move-control"); })));
    });
    var hexers = v.players.filter(function (p) { return p.final_hex; }).map(function (p) { return seatDot(model, p.seat); });
    tiles.push(el("li", { class: "bt-tile bt-hex", title: "final hex: 4 gold, ends the game" },
      el("span", { class: "bt-space" }, "end"), el("span", { class: "bt-coname" }, "Final hex"), el("span", { class: "bt-good" }, "4 gold"),
      el("div", { class: "bt-merchants" }, hexers),
      toHex.map(function (e) { return B.controlFor(model, e, "move " + SHORT[e.action.company] + " here", "bt-move-control"); })));
    return B.panel("The track", el("ol", { class: "bt-track" }, tiles),
      el("p", { class: "bt-small bt-muted" }, "Merchants move forward only, to the next open post of a company whose seal they hold; taken posts are faded."));
  }

  // ------------------------------------------------------------ companies
  function companies(model) {
    var v = model.view;
    var hand = v.private && v.private.hand;
    var plays = where(model, function (a) { return a.type === "play"; });
    var converts = where(model, function (a) { return a.type === "convert"; });
    var turn = v.turn || {};
    var rows = COMPANIES.map(function (c) {
      var holder = v.seals[c];
      var play = plays.filter(function (e) { return e.action.company === c; });
      var conv = converts.filter(function (e) { return e.action.company === c; });
      return el("tr", {},
        el("th", {}, companyTag(c, NAMES[c])),
        el("td", {}, holder === null || holder === undefined ? el("span", { class: "bt-muted" }, "–") : seatDot(model, holder)),
        el("td", { class: "hm-num", title: turn.played && turn.played[c] ? turn.played[c] + " played this turn" : null },
          String(v.cards_in_play[c]) + (turn.played && turn.played[c] ? " (+" + turn.played[c] + ")" : "")),
        el("td", { class: "hm-num" }, v.lot[c] ? String(v.lot[c]) : "–"),
        hand ? el("td", { class: "hm-num" }, String(hand[c])) : null,
        el("td", {},
          play.map(function (e) { return B.controlFor(model, e, "play 1"); }),
          conv.map(function (e) { return B.controlFor(model, e, "return a post"); })));
    });
    var extra = where(model, function (a) { return a.type === "done" || a.type === "convert_done"; });
    return B.panel("Companies",
      el("div", { class: "bt-table-wrap" }, el("table", { class: "hm-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "Company"), el("th", {}, "Seal"), el("th", { class: "hm-num" }, "In play"),
          el("th", { class: "hm-num" }, "Lot"), hand ? el("th", { class: "hm-num" }, "Hand") : null, el("th", {}, ""))),
        el("tbody", {}, rows))),
      pirateLine(v),
      turn.convertible && turn.convertible.length ? el("p", { class: "bt-small" }, "New post: ", companyTag(turn.new_post_company),
        " · may return one post of: ", turn.convertible.map(function (c) { return companyTag(c); }),
        turn.convert_chosen && turn.convert_chosen.length ? [" · chosen: ", turn.convert_chosen.map(function (c) { return companyTag(c); })] : null) : null,
      extra.length ? el("div", { class: "hm-controls" }, extra.map(function (e) {
        return B.controlFor(model, e, e.action.type === "done" ? "stop playing, move" : "finish converting");
      })) : null);
  }

  // The pirates' count: during play how near the attack is; after the end (when the hands
  // are laid out and the count can pass the limit) that it no longer matters.
  function pirateLine(v) {
    var rule = "Ship cards in front of all players together. As soon as they reach " +
      v.pirate_threshold + " (right after a player's action), pirates attack the company with the " +
      "most cards in play: all its cards in play are discarded.";
    if (v.final) {
      return el("p", { class: "bt-small", title: rule }, "Cards in play at the end: ",
        el("strong", {}, String(v.cards_in_play_total)),
        ". The game is over, so pirates no longer attack (during play they attack at " +
        v.pirate_threshold + ").");
    }
    return el("p", { class: "bt-small", title: rule }, "Cards in play: ", el("strong", {}, String(v.cards_in_play_total)),
      " of " + v.pirate_threshold + " before pirates attack the biggest company.");
  }

  // -------------------------------------------------------------- auction
  function auction(model) {
    var v = model.view;
    var bids = where(model, function (a) { return a.type === "bid"; });
    var passes = where(model, function (a) { return a.type === "pass"; });
    var lot = COMPANIES.filter(function (c) { return v.lot[c]; });
    if (v.phase !== "bid" && !lot.length) { return null; }
    var a = v.auction || {};
    return B.panel("Auction",
      el("p", {}, "Lot: ", lot.length ? lot.map(function (c) { return companyTag(c, v.lot[c] + " " + NAMES[c]); }) : "empty",
        " + the first-player ship", v.die ? " (die: " + v.die + ")" : ""),
      v.phase === "bid" ? el("p", {}, a.high_bidder === null || a.high_bidder === undefined ? "No bid yet."
        : ["Highest bid ", el("strong", {}, a.bid + " letters"), " by ", B.seatChip(model, a.high_bidder)],
        a.still_in ? [" · still in: ", a.still_in.map(function (s) { return seatDot(model, s); })] : null) : null,
      bids.length ? el("div", { class: "hm-controls bt-bids" }, el("span", { class: "bt-small" }, "Bid (letters):"), bids.map(function (e) {
        return B.controlFor(model, e, String(e.action.amount));
      })) : null,
      passes.length ? el("div", { class: "hm-controls" }, passes.map(function (e) { return B.controlFor(model, e, "pass"); })) : null);
  }

  // ---------------------------------------------------------------- hand
  function yourHand(model) {
    var v = model.view;
    var priv = v.private;
    var draws = where(model, function (a) { return a.type === "draw"; });
    if (!priv && !draws.length) { return null; }
    var hand = priv ? priv.hand : {};
    return B.panel(priv ? "Your hand and letters" : "Deck",
      priv ? el("div", { class: "bt-hand" }, COMPANIES.map(function (c) {
        var n = hand[c] || 0;
        return el("span", { class: "bt-card bt-co-" + c + (n ? "" : " bt-none"), title: n + " " + NAMES[c] + " ship cards" },
          el("strong", {}, String(n)), " " + NAMES[c]);
      })) : null,
      priv ? el("p", {}, "Letters of exchange: ", el("strong", {}, String(priv.letters))) : null,
      el("p", { class: "bt-small bt-muted" }, "Deck " + v.deck_size + " · discard " + v.discard_size),
      draws.length ? el("div", { class: "hm-controls" }, draws.map(function (e) { return B.controlFor(model, e, "Draw 2 cards"); })) : null);
  }

  // -------------------------------------------------------------- players
  function players(model) {
    var v = model.view;
    var final = v.final;
    var rows = v.players.map(function (p) {
      var own = model.seat === p.seat;
      var letters = own && v.private ? String(v.private.letters) : (v.letters ? String(v.letters[p.seat]) : "hidden");
      var bd = final && final.breakdown ? final.breakdown.filter(function (b) { return b.seat === p.seat; })[0] : null;
      return el("tr", { class: own ? "bt-me" : null },
        el("td", { "data-label": "" }, B.seatChip(model, p.seat),
          v.first_player === p.seat ? el("span", { class: "hm-tag", title: "first player (has the first-player ship)" }, "first") : null,
          v.auctioneer === p.seat ? el("span", { class: "hm-tag", title: "auctioneer" }, "auctioneer") : null),
        el("td", { class: "hm-num", "data-label": "Cards" }, String(p.hand_size)),
        el("td", { class: letters === "hidden" ? "hm-hidden" : "hm-num", "data-label": "Letters" }, letters),
        el("td", { "data-label": "In front" }, COMPANIES.filter(function (c) { return p.front[c]; }).map(function (c) { return companyTag(c, p.front[c] + " " + SHORT[c]); })),
        el("td", { "data-label": "Posts" }, COMPANIES.filter(function (c) { return p.posts[c]; }).map(function (c) { return companyTag(c, p.posts[c] + " " + SHORT[c]); })),
        el("td", { class: "bt-small", "data-label": "Warehouses" }, GOODS.filter(function (g) { return p.crates[g]; }).map(function (g) {
          return el("span", { class: "hm-tag" }, p.crates[g] + " " + g);
        }), el("span", { class: "bt-muted" }, " (" + p.crates_left + " left)")),
        el("td", { class: "hm-num", "data-label": "Gold" }, String(p.gold) + (p.final_hex ? " + hex" : "")),
        final ? el("td", { class: "hm-num", "data-label": "Score", title: bd ? "conversions " + bd.conversions + ", letters " + bd.letters + ", final hex " + bd.final_hex + ", seals " + bd.seals : "" },
          String(final.scores[p.seat])) : null);
    });
    return B.panel("Players",
      el("div", { class: "bt-table-wrap" }, el("table", { class: "hm-table bt-players" },
        el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", { class: "hm-num" }, "Cards"), el("th", { class: "hm-num" }, "Letters"),
          el("th", {}, "In front"), el("th", {}, "Posts"), el("th", {}, "Warehouses"), el("th", { class: "hm-num" }, "Gold"),
          final ? el("th", { class: "hm-num" }, "Score") : null)),
        el("tbody", {}, rows))));
  }

  function header(model) {
    var v = model.view;
    var phase = PHASES[v.phase] || v.phase;
    return el("div", { class: "bt-header hm-wide" }, B.turnLine(model),
      el("p", { class: "bt-phase" }, el("strong", {}, phase), " · round " + v.round,
        v.final ? " · ended: " + String(v.final.reason).replace(/_/g, " ") : ""));
  }

  function render(root, model) {
    root.appendChild(header(model));
    var final = model.view.final;
    if (final) {
      var ranks = final.ranks || final.scores.map(function (x) {
        return 1 + final.scores.filter(function (y) { return y > x; }).length;
      });
      root.appendChild(B.standings(model, final.scores, ranks, "gold", function (s) {
        var bd = (final.breakdown || []).filter(function (b) { return b.seat === s; })[0];
        if (!bd) { return ""; }
        var goods = Object.keys(bd.goods || {}).reduce(function (t, g) { return t + bd.goods[g]; }, 0);
        return "(goods " + goods + ", conversions " + bd.conversions + ", seals " + bd.seals +
          ", letters " + bd.letters + ", final hex " + bd.final_hex + ")";
      }));
    }
    var bidding = auction(model);
    var hand = yourHand(model);
    root.appendChild(el("div", { class: "bt-top hm-wide" }, bidding, hand, companies(model)));
    root.appendChild(el("div", { class: "hm-wide" }, track(model)));
    root.appendChild(el("div", { class: "hm-wide" }, players(model)));
    var events = B.eventList(model, 8);
    if (events) { root.appendChild(events); }
  }

  B.register("batavia", render);
})();
