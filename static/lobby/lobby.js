/* The lobby's pages follow their tables without a reload (plain JavaScript, no build step).
 *
 * An element with data-poll (the lobby's lists, a table's body) is refreshed from
 * that JSON URL every data-poll-ms: its HTML is replaced by the server-rendered
 * "html" of the answer, only when what it shows has changed (so a select the host
 * is using is not reset for nothing). A table whose game has started sends
 * everyone to the play page. Polls pause while the tab is hidden and slow down
 * after errors. The create form shows only the seats and player counts the chosen
 * game allows, and only the bots that play it.
 */
(function () {
  "use strict";

  function signature(data) {
    var copy = Object.assign({}, data);
    delete copy.html; // its CSRF tokens differ on every render
    return JSON.stringify(copy);
  }

  function follow(box) {
    var url = box.getAttribute("data-poll");
    var every = parseInt(box.getAttribute("data-poll-ms"), 10) || 2500;
    var last = null;
    var failures = 0;
    var stopped = false;

    function schedule() {
      if (stopped) return;
      var wait = every * Math.min(8, Math.pow(2, failures));
      window.setTimeout(poll, wait);
    }

    function poll() {
      if (document.hidden) { schedule(); return; }
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.json();
        })
        .then(function (data) {
          failures = 0;
          if (data.status === "started" && data.playUrl) {
            stopped = true;
            window.location.assign(data.playUrl);
            return;
          }
          var sig = signature(data);
          if (sig !== last) {
            var focused = document.activeElement;
            if (focused && focused.tagName === "SELECT" && box.contains(focused)) {
              return; // the visitor is choosing in a list of the box: redraw at the next poll
            }
            box.innerHTML = data.html;
          }
          last = sig;
          if (data.status === "cancelled") stopped = true;
        })
        .catch(function () { failures += 1; })
        .then(schedule);
    }

    schedule();
  }

  function createForm(form) {
    var engine = form.querySelector("#id_engine");
    var players = form.querySelector("#id_num_players");
    var rows = form.querySelectorAll(".lobby-seat-row[data-seat]");

    function update() {
      var chosen = engine.options[engine.selectedIndex];
      var min = parseInt(chosen.getAttribute("data-min"), 10);
      var max = parseInt(chosen.getAttribute("data-max"), 10);
      Array.prototype.forEach.call(players.options, function (option) {
        var n = parseInt(option.value, 10);
        option.disabled = n < min || n > max;
        option.hidden = option.disabled;
      });
      var n = parseInt(players.value, 10);
      if (n < min) players.value = String(min);
      if (n > max) players.value = String(max);
      n = parseInt(players.value, 10);
      Array.prototype.forEach.call(rows, function (row) {
        var seat = parseInt(row.getAttribute("data-seat"), 10);
        var shown = seat <= n;
        row.hidden = !shown;
        var select = row.querySelector("select");
        select.disabled = !shown;
        Array.prototype.forEach.call(select.querySelectorAll("option[data-engines]"), function (option) {
          var plays = (" " + option.getAttribute("data-engines") + " ").indexOf(" " + engine.value + " ") >= 0;
          option.disabled = !plays || option.hasAttribute("data-busy"); // a busy bot is shown, not offered
          option.hidden = !plays;
          if (option.disabled && option.selected) select.value = "";
        });
        Array.prototype.forEach.call(select.querySelectorAll("optgroup"), function (group) {
          group.hidden = !group.querySelector("option:not([hidden])");
        });
      });
    }

    engine.addEventListener("change", update);
    players.addEventListener("change", update);
    update();
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("[data-poll]"), function (box) {
      if (box.getAttribute("data-status") === "started" || box.getAttribute("data-status") === "cancelled") return;
      follow(box);
    });
    var form = document.getElementById("lobby-create");
    if (form) createForm(form);
  });
})();
