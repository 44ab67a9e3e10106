/* Rating history charts of the competitor pages, drawn with uPlot (static/vendor/uplot).
 *
 * The data are embedded in the page (json_script "rating-history-data", from
 * stats.selectors.competitor.LadderHistory.as_chart): per rating scope, the game numbers
 * (x), the game ids and the days they finished, and per system the rating
 * after each game and, for TrueSkill and OpenSkill, the leaderboard's score
 * mu - 3 sigma (null where a system has no point for a game). One chart per
 * scope (the <figure data-scope> the page renders), a button per system to
 * switch, the legend shows the game under the cursor, and a click on the plot
 * opens the game the cursor is on. Without JavaScript the page still lists
 * every game below. */
(function () {
  "use strict";
  var blob = document.getElementById("rating-history-data");
  if (!blob || typeof uPlot === "undefined") return;
  var ladders = JSON.parse(blob.textContent);
  var MU = "#12559b";
  var SCORE = "#c2571a";
  var HEIGHT = 260;

  function widthOf(box) {
    return Math.max(240, Math.floor(box.clientWidth));
  }

  function number(value, digits) {
    return value == null ? "—" : value.toFixed(digits);
  }

  function options(ladder, system, box) {
    var conservative = system.score !== null;
    var digits = system.system === "elo" ? 0 : 2;
    var series = [
      {
        label: "Game",
        value: function (u, x, si, idx) {
          if (idx == null) return "—";
          var day = ladder.day[idx] ? " · " + ladder.day[idx] : "";
          return "no. " + x + " · #" + ladder.game[idx] + day;
        },
      },
      {
        label: conservative ? system.name + " μ" : system.name,
        stroke: MU,
        width: 2,
        points: { show: true, size: 5, fill: MU },
        value: function (u, v) { return number(v, digits); },
      },
    ];
    if (conservative) {
      series.push({
        label: "μ − 3σ",
        stroke: SCORE,
        width: 2,
        dash: [6, 4],
        points: { show: true, size: 4, fill: SCORE },
        value: function (u, v) { return number(v, digits); },
      });
    }
    return {
      width: widthOf(box),
      height: HEIGHT,
      scales: { x: { time: false } },
      series: series,
      cursor: { drag: { x: false, y: false }, points: { size: 8 } },
      legend: { live: true },
      axes: [
        {
          label: "Rated game",
          labelSize: 20,
          incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
          values: function (u, splits) {
            return splits.map(function (v) { return Number.isInteger(v) ? String(v) : ""; });
          },
        },
        {
          label: system.name,
          labelSize: 20,
          size: 52,
          values: function (u, splits) {
            return splits.map(function (v) { return v.toFixed(system.system === "elo" ? 0 : 1); });
          },
        },
      ],
    };
  }

  function data(ladder, system) {
    var columns = [ladder.number, system.value];
    if (system.score !== null) columns.push(system.score);
    return columns;
  }

  function draw(figure, ladder) {
    var box = figure.querySelector(".chart-box");
    var switcher = figure.querySelector(".chart-systems");
    var plot = null;
    var current = null;

    function show(index) {
      current = ladder.systems[index];
      if (plot) plot.destroy();
      box.textContent = "";
      plot = new uPlot(options(ladder, current, box), data(ladder, current), box);
      plot.over.addEventListener("click", function () {
        var idx = plot.cursor.idx;
        if (idx != null) window.location.href = "/games/" + ladder.game[idx] + "/";
      });
      plot.over.style.cursor = "pointer";
      plot.over.title = "Click to open the game";
      Array.prototype.forEach.call(switcher.querySelectorAll("button"), function (b, i) {
        b.setAttribute("aria-pressed", i === index ? "true" : "false");
      });
    }

    ladder.systems.forEach(function (system, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = system.name;
      button.addEventListener("click", function () { show(index); });
      switcher.appendChild(button);
    });
    switcher.hidden = ladder.systems.length < 2;
    var start = ladder.systems.findIndex(function (s) { return s.system === "trueskill"; });
    show(start < 0 ? 0 : start);

    var pending = null;
    window.addEventListener("resize", function () {
      if (pending) return;
      pending = window.requestAnimationFrame(function () {
        pending = null;
        if (plot) plot.setSize({ width: widthOf(box), height: HEIGHT });
      });
    });
  }

  ladders.forEach(function (ladder) {
    var figure = document.querySelector('figure.rating-chart[data-scope="' + ladder.scope + '"]');
    if (figure) draw(figure, ladder);
  });
})();
