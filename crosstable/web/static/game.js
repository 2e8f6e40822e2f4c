// The game page's keyboard (docs/pgn.md): the arrow keys step through the
// moves, Home and End go to the start and the end. Without this script the links do the same.
(function () {
  "use strict";
  var view = document.getElementById("game-view");
  var img = document.getElementById("game-board");
  if (!view || !img) { return; }
  var base = view.getAttribute("data-base");
  var last = parseInt(view.getAttribute("data-last"), 10) || 0;
  var ply = parseInt(view.getAttribute("data-ply"), 10) || 0;

  function show(target) {
    ply = Math.max(0, Math.min(last, target));
    img.src = base + "/board.svg?ply=" + ply;
    view.setAttribute("data-ply", String(ply));
    var links = view.querySelectorAll(".game-moves a[data-ply]");
    for (var i = 0; i < links.length; i++) {
      var here = parseInt(links[i].getAttribute("data-ply"), 10) === ply;
      links[i].classList.toggle("current", here);
      if (here) { links[i].setAttribute("aria-current", "true"); } else { links[i].removeAttribute("aria-current"); }
    }
    var nav = { "nav-first": 0, "nav-prev": ply - 1, "nav-next": ply + 1, "nav-last": last };
    Object.keys(nav).forEach(function (id) {
      var link = document.getElementById(id);
      if (link) { link.href = base + "?ply=" + Math.max(0, Math.min(last, nav[id])) + "#game-view"; }
    });
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", base + "?ply=" + ply + "#game-view");
    }
  }

  document.addEventListener("keydown", function (event) {
    var tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var moves = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last };
    if (!(event.key in moves)) { return; }
    event.preventDefault();
    show(moves[event.key]);
  });

  view.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-ply], .game-nav a");
    if (!link) { return; }
    var match = /[?&]ply=(\d+)/.exec(link.getAttribute("href") || "");
    if (!match) { return; }
    event.preventDefault();
    show(parseInt(match[1], 10));
  });
})();
