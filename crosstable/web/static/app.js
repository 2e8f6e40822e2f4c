/* crosstable: live updates by server-sent events; small, no build step. */
(function () {
  "use strict";
  var source = null, sourceUrl = null;

  function liveState(ok) {
    var el = document.getElementById("live-state");
    if (!el) return;
    el.classList.toggle("off", !ok);
    el.textContent = ok ? el.dataset.ok : el.dataset.off;
  }

  function onCrosstable(event) {
    var live = document.getElementById("live");
    if (!live || live.dataset.quiet) return;
    var before = {};
    live.querySelectorAll("tbody tr").forEach(function (tr) { before[tr.id] = tr.textContent; });
    live.innerHTML = event.data;
    live.querySelectorAll("tbody tr").forEach(function (tr) {
      if (before[tr.id] !== undefined && before[tr.id] !== tr.textContent) tr.classList.add("flash-new");
    });
    var url = live.dataset.events.replace(/rev=\d+/, "rev=" + event.lastEventId);
    live.dataset.events = url;
    if (window.htmx) htmx.process(live);
    document.dispatchEvent(new CustomEvent("crosstable:updated", { detail: { revision: event.lastEventId } }));
  }

  function onChange() {
    document.querySelectorAll("[data-live-refresh]").forEach(function (el) {
      if (el.contains(document.activeElement) && document.activeElement.tagName === "INPUT") return;
      if (window.htmx) htmx.ajax("GET", el.dataset.liveRefresh, { target: el, swap: "innerHTML" });
    });
  }

  function connect() {
    var live = document.getElementById("live");
    var url = live && live.dataset.events;
    if (url === sourceUrl && source) return;
    if (source) { source.close(); source = null; sourceUrl = null; }
    if (!url || !window.EventSource) return;
    source = new EventSource(url);
    sourceUrl = url;
    source.addEventListener("open", function () { liveState(true); });
    source.addEventListener("error", function () { liveState(false); });
    source.addEventListener("crosstable", onCrosstable);
    source.addEventListener("change", onChange);
  }

  /* a tie-break value explains itself (one listener for every table, also after live swaps) */
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".xt-wrap .tbv[data-p]");
    if (!button || !window.htmx) return;
    var tid = button.closest(".xt-wrap").dataset.t;
    var url = "/t/" + tid + "/explain/" + button.dataset.p + "?code=" + encodeURIComponent(button.dataset.c);
    htmx.ajax("GET", url, { target: "#explain", swap: "innerHTML" });
  });

  document.addEventListener("DOMContentLoaded", connect);
  document.addEventListener("htmx:load", function () { if (!source) connect(); });
  window.crosstableLive = { connect: connect };
})();
