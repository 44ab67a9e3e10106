// The game page's replay: a board drawn by HMBoards for every position, and the
// text list of plies below it (which alone is the replay without JavaScript).
// Position p is the state before ply p: the board shows what the mover was
// offered and the move block what it took; the last position is the end.
// Models come from the page's boards.json endpoint in pages, fetched as needed
// and kept per seat. Keys: arrow left/right, Home, End.
(function () {
  "use strict";
  var list = document.getElementById("replay");
  var stepper = document.getElementById("stepper");
  var section = document.getElementById("replay-board");
  if (!list || !stepper) { return; }
  // The list may hold one window of the plies (a long game: tournaments/ply_window.py),
  // so an item is found by its data-ply, not by its place in the list.
  var plies = Array.prototype.slice.call(list.querySelectorAll("li.ply"));
  var byPly = {};
  plies.forEach(function (item) { byPly[item.getAttribute("data-ply")] = item; });
  var slider = stepper.querySelector("input[type=range]");
  var plyCount = parseInt(slider.getAttribute("max"), 10);
  var label = stepper.querySelector(".position");
  var seatSelect = document.getElementById("replay-seat");
  var root = document.getElementById("board");
  var moveBox = document.getElementById("replay-move");
  var stopNote = document.getElementById("replay-stop");
  var boards = !!(section && root && window.HMBoards);
  var url = section ? section.getAttribute("data-url") : "";
  var total = section ? parseInt(section.getAttribute("data-positions"), 10) : plyCount + 1;
  var PAGE = 100;
  var pages = {};   // "seat:start" -> positions array (or a pending marker)
  var seat = "spectator";
  var current = total - 1;

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = text; }
    if (cls) { node.className = cls; }
    return node;
  }

  function seatName(model, s) {
    return (model && model.names && model.names[String(s)]) || ("seat " + s);
  }

  function drawMove(model, move) {
    moveBox.textContent = "";
    if (!move) {
      moveBox.appendChild(el("p", "End of the replay: every ply played.", "replay-what"));
      return;
    }
    var who = move.chance ? "chance" : seatName(model, move.seat);
    var line = el("p", null, "replay-what");
    line.appendChild(el("strong", "Ply " + move.ply + " · " + who));
    if (move.description) { line.appendChild(el("span", " — " + move.description)); }
    moveBox.appendChild(line);
    var facts = [];
    if (move.latencyMs !== undefined && move.latencyMs !== null) { facts.push("answered in " + move.latencyMs + " ms"); }
    if (move.fault) { facts.push("fault: " + move.fault + " (default action recorded)"); }
    if (move.source === "house") { facts.push("played by a house bot (the seat was substituted)"); }
    if (facts.length) { moveBox.appendChild(el("p", facts.join(" · "), "replay-facts")); }
    if (move.offered && move.offered.length) {
      var details = el("details", null, "replay-offered");
      details.appendChild(el("summary", move.offered.length + " legal action" + (move.offered.length === 1 ? "" : "s") + " offered"));
      var ol = el("ol");
      ol.start = 0;
      move.offered.forEach(function (text) {
        var li = el("li", text);
        if (text === move.description) { li.className = "replay-taken"; }
        ol.appendChild(li);
      });
      details.appendChild(ol);
      moveBox.appendChild(details);
    }
  }

  function draw() {
    if (!boards) { return; }
    var start = Math.floor(current / PAGE) * PAGE;
    var key = seat + ":" + start;
    var page = pages[key];
    if (page === undefined) { fetchPage(key, start); return; }
    if (page === "pending") { return; }
    var entry = page.positions[current - start];
    if (!entry) { return; }
    var model = entry.model;
    model.onAction = null;
    HMBoards.render(root, model);
    drawMove(model, entry.move);
    // What is drawn, for tests and styles: the position and whose view.
    root.setAttribute("data-position", String(current));
    root.setAttribute("data-seat", model.seat === null ? "spectator" : String(model.seat));
  }

  function fetchPage(key, start) {
    pages[key] = "pending";
    var query = "?seat=" + encodeURIComponent(seat) + "&start=" + start + "&count=" + PAGE;
    fetch(url + query, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) { throw new Error(body.error || ("HTTP " + response.status)); }
          return body;
        });
      })
      .then(function (body) {
        pages[key] = body;
        if (body.total < total) {
          // An older rules version: the board stops where the current rules stop.
          stopNote.hidden = false;
          stopNote.textContent = "The current rules replay this game up to position " + (body.total - 1) + "; the list below has every ply.";
        }
        if (body.total !== total) {
          total = body.total;  // fewer (older rules) or more (a running game moved on)
          slider.max = String(total - 1);
          if (current > total - 1) { show(total - 1); return; }
        }
        section.setAttribute("data-loaded", String(start));
        draw();
      })
      .catch(function (error) {
        delete pages[key];
        moveBox.textContent = "The board could not be loaded: " + error.message;
      });
  }

  function show(index) {
    current = Math.max(0, Math.min(total - 1, index));
    plies.forEach(function (item) {
      var ply = parseInt(item.getAttribute("data-ply"), 10);
      item.classList.toggle("future", ply > current);
      item.classList.toggle("current", ply === current);
    });
    slider.value = String(current);
    label.textContent = "position " + current + " of " + (total - 1) + (current < plyCount ? " (before ply " + current + ")" : " (end)");
    draw();
  }

  function scroll() {
    var item = byPly[String(current)];
    if (item && !boards) { item.scrollIntoView({ block: "nearest" }); }
  }

  stepper.addEventListener("click", function (event) {
    var step = event.target.getAttribute("data-step");
    if (step === "first") { show(0); }
    if (step === "prev") { show(current - 1); }
    if (step === "next") { show(current + 1); }
    if (step === "last") { show(total - 1); }
    if (step) { scroll(); }
  });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  if (seatSelect) {
    seatSelect.addEventListener("change", function () { seat = seatSelect.value; draw(); });
  }
  document.addEventListener("keydown", function (event) {
    var tag = event.target && event.target.tagName;
    if ((tag === "INPUT" && event.target !== slider) || tag === "SELECT" || tag === "TEXTAREA") { return; }
    var moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: total - 1 };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
      scroll();
    }
  });
  slider.max = String(total - 1);
  stepper.hidden = false;
  if (boards) { section.hidden = false; }
  show(current);
})();
