// The bot owner's chart (templates/botapi/owner_log.html): latency p50/p95 and fault rate per day.
// Data: the JSON in #owner-chart-data (botapi.selectors.owner_stats.chart_data), drawn with the vendored uPlot.
(function () {
  "use strict";
  var holder = document.getElementById("owner-chart");
  var source = document.getElementById("owner-chart-data");
  if (!holder || !source || typeof uPlot === "undefined") return;
  var data = JSON.parse(source.textContent);

  function size() {
    var width = Math.max(260, holder.clientWidth);
    return { width: width, height: width < 500 ? 220 : 280 };
  }

  function ms(u, values) {
    return values.map(function (v) { return v == null ? "" : v + " ms"; });
  }

  function percent(u, values) {
    return values.map(function (v) { return v == null ? "" : v + " %"; });
  }

  var options = Object.assign(size(), {
    cursor: { drag: { x: false, y: false } },
    // Half a day of margin each side: today's values (all a new bot has) sit off the edge.
    scales: { x: { time: true, range: function (u, min, max) { return [min - 43200, max + 43200]; } }, ms: { auto: true }, pct: { range: function (u, min, max) { return [0, Math.min(100, Math.max(10, Math.ceil((max || 0) * 1.25)))]; } } },
    series: [
      { label: "Day", value: "{YYYY}-{MM}-{DD}" },
      { label: "p50", scale: "ms", stroke: "#12559b", width: 2, spanGaps: false,
        points: { show: true, size: 7, fill: "#12559b" },
        value: function (u, v) { return v == null ? "—" : v + " ms"; } },
      { label: "p95", scale: "ms", stroke: "#d9822b", width: 2, dash: [6, 4], spanGaps: false,
        points: { show: true, size: 7, fill: "#d9822b" },
        value: function (u, v) { return v == null ? "—" : v + " ms"; } },
      { label: "fault rate", scale: "pct", stroke: "#a4161a", fill: "rgba(164, 22, 26, 0.05)", width: 1.5,
        paths: uPlot.paths.stepped({ align: 1 }),
        value: function (u, v) { return v == null ? "—" : v + " %"; } }
    ],
    axes: [
      {},
      { scale: "ms", values: ms, size: 70 },
      { scale: "pct", side: 1, values: percent, grid: { show: false }, size: 55 }
    ]
  });

  var chart = new uPlot(options, [data.x, data.p50, data.p95, data.fault_rate], holder);
  var pending = null;
  window.addEventListener("resize", function () {
    if (pending) cancelAnimationFrame(pending);
    pending = requestAnimationFrame(function () { chart.setSize(size()); });
  });
})();
