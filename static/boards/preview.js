// The board preview page: draws the model from the page's JSON and, on a click,
// shows which legal action index was chosen (and marks it on the board). Nothing
// is sent anywhere; the play page wires onAction to its websocket instead.
(function () {
  "use strict";
  var root = document.getElementById("board");
  var data = document.getElementById("board-model");
  var chosen = document.getElementById("board-chosen");
  if (!root || !data || !window.HMBoards) { return; }
  var model = JSON.parse(data.textContent);
  function draw() {
    HMBoards.render(root, model);
  }
  if (model.playing) {
    model.onAction = function (index) {
      var entry = model.legal.filter(function (e) { return e.index === index; })[0];
      chosen.hidden = false;
      chosen.setAttribute("data-chosen-index", String(index));
      chosen.textContent = "Chosen: action " + index + (entry ? " — " + entry.text : "");
      root.querySelectorAll(".hm-control").forEach(function (b) {
        b.classList.toggle("hm-chosen", b.getAttribute("data-action-index") === String(index));
      });
    };
  } else {
    model.onAction = null;
  }
  draw();
})();
