// HMBoards: the one contract every game board follows. Plain modern JavaScript,
// no framework, no build step. A renderer is a function (root, model) that draws
// the board for one seat from the engine's per-seat view ONLY, so a board can
// never show more than that seat may see. The model:
//
//   {engine, numPlayers, seat /* int or null (spectator) */, names /* seat -> name */,
//    view /* engine view for that seat */, legal /* [{index, action, text}], [] if not
//    this seat's turn */, onAction /* function(index) or null */, events /* [text] */,
//    toMove /* [seat] */, hasLog /* true: the page shows the game log (log.js) */}
//
// Legal actions become controls on the board via `control()`; renderers call
// `ctx.take(entry)` style helpers through `controlFor(model, entry, label)` so every
// legal entry they place is marked as used, and `render()` appends a fallback list
// with every legal entry no renderer placed: nothing legal is unreachable, and
// nothing illegal is clickable (controls only exist for `legal` entries).
(function (global) {
  "use strict";

  var renderers = {};

  // Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
  // Each seat also has a letter-free shape marker (see seatMark) so colour is never
  // the only cue.
  var PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9"];
  var TEXT_ON = ["#fff", "#000", "#000", "#000", "#000"];  // each ≥ 4.5:1 on its colour
  var MARKS = ["●", "▲", "■", "◆", "★"];

  function append(node, child) {
    if (child === null || child === undefined || child === false) { return; }
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    if (typeof child === "string" || typeof child === "number") {
      node.appendChild(document.createTextNode(String(child)));
      return;
    }
    node.appendChild(child);
  }

  function setAttrs(node, attrs, isSvg) {
    Object.keys(attrs || {}).forEach(function (key) {
      var value = attrs[key];
      if (value === null || value === undefined || value === false) { return; }
      if (key === "class" || key === "className") {
        node.setAttribute("class", value);
      } else if (key === "style" && typeof value === "object") {
        Object.keys(value).forEach(function (k) { node.style.setProperty(k, value[k]); });
      } else if (key.slice(0, 2) === "on" && typeof value === "function") {
        node.addEventListener(key.slice(2).toLowerCase(), value);
      } else if (key === "text") {
        node.textContent = String(value);
      } else {
        node.setAttribute(key, value === true ? "" : String(value));
      }
    });
    return isSvg;
  }

  /** An HTML element: el("div", {class: "x"}, "text", child, [more]). */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    setAttrs(node, attrs, false);
    append(node, Array.prototype.slice.call(arguments, 2));
    return node;
  }

  /** An SVG element, same signature as el(); svg("svg", {viewBox: "0 0 10 10"}, ...). */
  function svg(tag, attrs) {
    var node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    setAttrs(node, attrs, true);
    append(node, Array.prototype.slice.call(arguments, 2));
    return node;
  }

  /** The seat's colour (colour-blind-safe, up to 5 seats); grey for none/chance. */
  function seatColour(seat) {
    if (seat === null || seat === undefined || seat < 0) { return "#6b6b6b"; }
    return PALETTE[seat % PALETTE.length];
  }

  /** A readable text colour on seatColour(seat). */
  function seatTextColour(seat) {
    if (seat === null || seat === undefined || seat < 0) { return "#fff"; }
    return TEXT_ON[seat % TEXT_ON.length];
  }

  /** A shape per seat, so colour is never the only cue. */
  function seatMark(seat) {
    if (seat === null || seat === undefined || seat < 0) { return "○"; }
    return MARKS[seat % MARKS.length];
  }

  /** "Ana (you)" / "Seat 2": the display name of a seat (numbered from 1, as on every page;
   *  the model's seat numbers are the API's 0-based positions). */
  function seatLabel(model, seat) {
    if (seat === null || seat === undefined) { return "nobody"; }
    var names = (model && model.names) || {};
    var name = names[seat] || names[String(seat)] || "Seat " + (Number(seat) + 1);
    if (model && model.seat === seat) { name += " (you)"; }
    return name;
  }

  /** A coloured chip naming a seat: mark + name. */
  function seatChip(model, seat, short) {
    return el("span", {
      class: "hm-seat-chip",
      style: { background: seatColour(seat), color: seatTextColour(seat) },
      title: seatLabel(model, seat),
    }, seatMark(seat), short ? null : " " + seatLabel(model, seat));
  }

  /**
   * A button for one legal action. `title` carries the engine's description of
   * the action (shown as tooltip and to screen readers). onClick is called once.
   */
  function control(label, title, onClick) {
    var button = el("button", {
      type: "button",
      class: "hm-control",
      title: title || label,
      "aria-label": title || label,
    }, label);
    button.addEventListener("click", function (event) {
      event.preventDefault();
      event.stopPropagation();
      if (button.disabled) { return; }
      if (onClick) { onClick(); }
    });
    return button;
  }

  /** A titled box of the board. */
  function panel(title) {
    var children = Array.prototype.slice.call(arguments, 1);
    return el("section", { class: "hm-panel" },
      title ? el("h3", { class: "hm-panel-title" }, title) : null, children);
  }

  /**
   * The control for one legal entry {index, action, text}; marks it placed so the
   * fallback list leaves it out. Clicking calls model.onAction(index); when there is
   * no onAction (watching, replay) the control is disabled.
   */
  function controlFor(model, entry, label, extraClass) {
    model._placed = model._placed || {};
    model._placed[entry.index] = true;
    var button = control(label === undefined ? entry.text : label, entry.text, function () {
      if (model.onAction) { model.onAction(entry.index); }
    });
    button.setAttribute("data-action-index", String(entry.index));
    if (extraClass) { button.classList.add(extraClass); }
    if (!model.onAction) { button.disabled = true; }
    return button;
  }

  /** The legal entries whose action matches `pred(action)`. */
  function legalWhere(model, pred) {
    return (model.legal || []).filter(function (entry) { return pred(entry.action); });
  }

  /** Whose turn it is, as a line. */
  function turnLine(model) {
    var movers = model.toMove || [];
    if (!movers.length) { return el("p", { class: "hm-turn hm-over" }, "The game is over."); }
    if (movers.length === 1 && movers[0] === -1) {
      return el("p", { class: "hm-turn" }, "Chance is to move (dice, deal or draw).");
    }
    var mine = model.seat !== null && model.seat !== undefined && movers.indexOf(model.seat) >= 0;
    // "Your turn" only for the person playing; a replay of a seat's view says "To move".
    var yours = mine && model.playing !== false;
    return el("p", { class: "hm-turn" + (yours ? " hm-your-turn" : "") },
      yours ? "Your turn: " : "To move: ",
      movers.map(function (s) { return seatChip(model, s); }));
  }

  /**
   * The recent public events as a list, for a board without the game log (the
   * preview, the replay). A live page keeps the whole log beside the board
   * (static/boards/log.js) and sets `model.hasLog`: then nothing here.
   */
  function eventList(model, limit) {
    if (model.hasLog) { return null; }
    var events = (model.events || []).slice(-(limit || 8));
    if (!events.length) { return null; }
    return panel("Recent events", el("ol", { class: "hm-events" },
      events.map(function (text) { return el("li", {}, text); })));
  }

  /**
   * The final standings as a panel: scores[seat], ranks[seat] (1 = best), a unit
   * ("pesos", "gold") and an optional detail(seat) -> string shown after the score.
   * The server's model.ranking, when given (a finished game's recorded ranks, forfeited
   * seats last with a note in words), replaces the engine's ranks: one ranking everywhere.
   */
  function standings(model, scores, ranks, unit, detail) {
    var ranking = model.ranking || null;
    if (ranking) { ranks = ranking.ranks; }
    var notes = (ranking && ranking.notes) || {};
    var order = scores.map(function (_, s) { return s; }).sort(function (a, b) {
      return ranks[a] - ranks[b] || a - b;
    });
    return el("section", { class: "hm-panel hm-standings hm-wide" },
      el("h3", { class: "hm-panel-title" }, "Final standings"),
      el("ol", { class: "hm-standings-list" }, order.map(function (s) {
        return el("li", { "data-seat": String(s), "data-rank": String(ranks[s]) },
          el("span", { class: "hm-rank" }, "#" + ranks[s]), " ", seatChip(model, s), " ",
          el("strong", {}, scores[s] + " " + (unit || "")),
          detail ? el("span", { class: "hm-muted" }, " " + detail(s)) : null,
          notes[s] ? el("span", { class: "hm-rank-note" }, " (" + notes[s] + ")") : null);
      })));
  }

  /**
   * Disable (busy=true) or re-enable every action control under root, e.g. while the
   * play page waits for the server to accept a clicked action (no double submit).
   */
  function setBusy(root, busy) {
    root.querySelectorAll(".hm-control[data-action-index]").forEach(function (b) { b.disabled = !!busy; });
    root.classList.toggle("hm-busy", !!busy);
  }

  function register(engine, render) { renderers[engine] = render; }

  function fallback(model) {
    var rest = (model.legal || []).filter(function (entry) {
      return !(model._placed && model._placed[entry.index]);
    });
    if (!rest.length) { return null; }
    return el("section", { class: "hm-panel hm-fallback" },
      el("h3", { class: "hm-panel-title" }, "Other actions"),
      el("div", { class: "hm-controls" }, rest.map(function (entry) {
        return controlFor(model, entry, entry.text);
      })));
  }

  /** Clear root and draw the model with its engine's renderer (+ fallback controls). */
  function render(root, model) {
    while (root.firstChild) { root.removeChild(root.firstChild); }
    model._placed = {};
    root.classList.add("hm-board-root");
    var fn = renderers[model.engine];
    var board = el("div", { class: "hm-board hm-board-" + model.engine });
    root.appendChild(board);
    if (!fn) {
      board.appendChild(el("p", { class: "hm-error" }, "No board for " + model.engine + "."));
    } else {
      fn(board, model);
    }
    var rest = fallback(model);
    if (rest) { board.appendChild(rest); }
    return board;
  }

  global.HMBoards = {
    register: register,
    render: render,
    el: el,
    svg: svg,
    seatColour: seatColour,
    seatTextColour: seatTextColour,
    seatMark: seatMark,
    seatLabel: seatLabel,
    seatChip: seatChip,
    control: control,
    controlFor: controlFor,
    legalWhere: legalWhere,
    panel: panel,
    standings: standings,
    setBusy: setBusy,
    turnLine: turnLine,
    eventList: eventList,
    renderers: renderers,
  };
})(window);
