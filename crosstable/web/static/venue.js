/* crosstable: the venue screen — live through the tournament's event stream,
   scrolling by itself; no build step. */
(function () {
  "use strict";
  var body = document.getElementById("venue-body");
  if (!body) return;
  var speed = parseFloat(body.dataset.speed) || 1; /* pixels a tick */
  var PAUSE = 60; /* ticks at the top and the bottom (a tick: 50 ms) */
  var waits = new WeakMap();

  function scrollOne(box) {
    var room = box.scrollHeight - box.clientHeight;
    if (room <= 1) { box.scrollTop = 0; return; }
    var wait = waits.get(box) || 0;
    if (wait > 0) { waits.set(box, wait - 1); return; }
    if (box.scrollTop >= room - 1) {
      waits.set(box, PAUSE);
      box.dataset.turns = String((parseInt(box.dataset.turns, 10) || 0) + 1);
      box.scrollTop = 0;
      return;
    }
    box.scrollTop = Math.min(room, box.scrollTop + speed);
  }
  setInterval(function () {
    document.querySelectorAll(".vn-col").forEach(scrollOne);
  }, 50);

  var state = document.getElementById("venue-state");
  var busy = false, again = false;
  function reload() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(body.dataset.body, { credentials: "same-origin", cache: "no-store" })
      .then(function (answer) { return answer.ok ? answer.text() : Promise.reject(answer.status); })
      .then(function (html) {
        var kept = {};
        body.querySelectorAll(".vn-col").forEach(function (box) { kept[box.id] = box.scrollTop; });
        body.innerHTML = html;
        body.querySelectorAll(".vn-col").forEach(function (box) {
          if (kept[box.id]) box.scrollTop = kept[box.id];
        });
        var round = document.getElementById("venue-round");
        if (round) body.dataset.revision = round.dataset.revision;
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; reload(); }
      });
  }
  if (window.EventSource) {
    var source = new EventSource(body.dataset.events);
    source.addEventListener("open", function () { if (state) state.classList.remove("off"); });
    source.addEventListener("error", function () { if (state) state.classList.add("off"); });
    source.addEventListener("change", reload); /* the embedded hub */
    source.addEventListener("live", reload); /* through nginx/nchan (docs/deploy.md) */
  }
})();
