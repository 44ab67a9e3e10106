// Step-through replay of a game page's move log. Without JavaScript the page
// shows every ply; with it, plies after the current one are dimmed and the
// current one is highlighted. Keys: arrow left/right, Home, End.
(function () {
  "use strict";
  var list = document.getElementById("replay");
  var stepper = document.getElementById("stepper");
  if (!list || !stepper) { return; }
  var plies = Array.prototype.slice.call(list.querySelectorAll("li.ply"));
  var slider = stepper.querySelector("input[type=range]");
  var label = stepper.querySelector(".position");
  var current = plies.length - 1;

  function show(index) {
    current = Math.max(0, Math.min(plies.length - 1, index));
    plies.forEach(function (item, i) {
      item.classList.toggle("future", i > current);
      item.classList.toggle("current", i === current);
    });
    slider.value = String(current);
    label.textContent = "ply " + current + " of " + (plies.length - 1);
  }

  stepper.addEventListener("click", function (event) {
    var step = event.target.getAttribute("data-step");
    if (step === "first") { show(0); }
    if (step === "prev") { show(current - 1); }
    if (step === "next") { show(current + 1); }
    if (step === "last") { show(plies.length - 1); }
    if (step) { plies[current].scrollIntoView({ block: "nearest" }); }
  });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.addEventListener("keydown", function (event) {
    if (event.target && event.target.tagName === "INPUT" && event.target !== slider) { return; }
    var moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: plies.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
      plies[current].scrollIntoView({ block: "nearest" });
    }
  });
  stepper.hidden = false;
  show(current);
})();
