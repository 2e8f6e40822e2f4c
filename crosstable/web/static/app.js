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

  function updated(live, revision) {
    live.dataset.events = live.dataset.events.replace(/rev=-?\d+/, "rev=" + revision);
    if (window.htmx) htmx.process(live);
    document.dispatchEvent(new CustomEvent("crosstable:updated", { detail: { revision: revision } }));
  }

  function onCrosstable(event) { swapTable(event.data, event.lastEventId); }

  function swapTable(html, revision) {
    var live = document.getElementById("live");
    if (!live || live.dataset.quiet) return;
    var before = {};
    live.querySelectorAll("tbody tr").forEach(function (tr) { before[tr.id] = tr.textContent; });
    live.innerHTML = html;
    live.querySelectorAll("tbody tr").forEach(function (tr) {
      if (before[tr.id] !== undefined && before[tr.id] !== tr.textContent) tr.classList.add("flash-new");
    });
    updated(live, revision);
  }

  /* only the cells that changed since the table we have, as data:
     {base, cells: [{row: starting number, col: "o5" | "r3" | "pts" | "tb:BH" | "place", value}],
     order?} (web/live_cells.py); each cell is built here as the live templates write it.
     Anything unexpected asks for the whole table again */
  function onCells(event) {
    if (!applyCells(JSON.parse(event.data), event.lastEventId)) resync();
  }

  var CSS = { "1": "r1", "½": "rh", "0": "r0", "+": "rp", "−": "rm" };
  var BYE_CSS = { U: "r1 bye", F: "r1 bye", H: "rh bye", Z: "r0 bye" };

  function localized(text, num) {
    return String(text).replace(/[,.]/g, function (c) { return c === "," ? num.charAt(0) : num.charAt(1); });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls !== null) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  function buildCell(start, col, v, words, num, swiss) {
    var td, where;
    if (col.charAt(0) === "o") {
      var texts = v.map(function (g) { return g[2]; });
      var text = texts.join(" ");
      td = el("td", "res " + texts.map(function (t) { return CSS[t.replace(/†$/, "")] || ""; }).join(" "), text);
      if (text) td.title = words.round + " " + v.map(function (g) { return g[0] + " " + (g[1] === "w" ? "○" : "●"); }).join(", ");
      return td;
    }
    if (col.charAt(0) === "r") {
      where = words.round + " " + col.slice(1) + ": ";
      if (v.o !== undefined) {
        td = el("td", "res " + (CSS[v.s] || ""));
        td.title = where + (v.c === "w" ? words.white : words.black) + " — " + v.o;
        td.appendChild(el("span", "op", String(v.o)));
        td.appendChild(el("i", "pc " + v.c));
        if (v.s && v.s !== "·") td.appendChild(document.createTextNode(v.s));
        return td;
      }
      if (v.b !== undefined) {
        td = el("td", "res " + (BYE_CSS[v.b] || ""), v.b === "U" ? words.bye : v.b);
        td.title = where + (words[v.b] || v.b);
        return td;
      }
      td = el("td", "res absent", "–");
      td.title = where + words.np;
      return td;
    }
    if (col === "pts") {
      td = el("td", "pts");
      td.appendChild(el("b", null, localized(v, num)));
      return td;
    }
    if (col.indexOf("tb:") === 0) {
      td = el("td", "tb");
      if (v === null) { td.textContent = "—"; return td; }
      var b = el("button", "tbv", localized(v, num));
      b.type = "button"; b.dataset.p = String(start); b.dataset.c = col.slice(3);
      td.appendChild(b);
      return td;
    }
    td = el("td", swiss ? "place sticky1" : "place");
    if (v) td.appendChild(el("b", null, v));
    return td;
  }

  function applyCells(patch, revision) {
    var live = document.getElementById("live");
    if (!live || live.dataset.quiet) return true;
    var wrap = live.querySelector("[data-revision]");
    if (!wrap || wrap.dataset.revision !== String(patch.base) || !wrap.dataset.words) return false;
    var words = JSON.parse(wrap.dataset.words), num = wrap.dataset.num || ",.";
    var swiss = wrap.classList.contains("swiss"), index = {}, flash = [];
    var head = wrap.querySelector("thead tr");
    if (!head) return false;
    Array.prototype.forEach.call(head.children, function (th, i) { if (th.dataset.col) index[th.dataset.col] = i; });
    var body = wrap.querySelector("tbody");
    var fits = patch.cells.every(function (c) {
      var tr = document.getElementById("p" + c.row);
      return tr && tr.parentNode === body && index[c.col] !== undefined && tr.children[index[c.col]];
    }) && (!patch.order || patch.order.every(function (s) { return document.getElementById("p" + s); }));
    if (!fits) return false;
    patch.cells.forEach(function (c) {
      var tr = document.getElementById("p" + c.row);
      tr.replaceChild(buildCell(c.row, c.col, c.value, words, num, swiss), tr.children[index[c.col]]);
      if (flash.indexOf(tr) < 0) flash.push(tr);
    });
    if (patch.order) patch.order.forEach(function (s) { body.appendChild(document.getElementById("p" + s)); });
    flash.forEach(function (tr) { tr.classList.remove("flash-new"); void tr.offsetWidth; tr.classList.add("flash-new"); });
    wrap.dataset.revision = String(revision);
    updated(live, revision);
    return true;
  }

  /* through a push server (nginx/nchan, docs/deploy.md): one event per change, JSON
     {revision, change, base+cells | table, full}; older than what we have: skipped */
  function liveRevision(live) {
    var m = /rev=(-?\d+)/.exec(live.dataset.events || "");
    return m ? parseInt(m[1], 10) : -1;
  }

  function onLive(event) {
    var live = document.getElementById("live"), m;
    if (!live) return;
    try { m = JSON.parse(event.data); } catch (e) { return; }
    if (m.revision <= liveRevision(live)) return;
    if (live.dataset.quiet) updated(live, m.revision);
    else if (m.cells && applyCells(m, m.revision)) { /* applied */ }
    else if (m.table) swapTable(m.table, m.revision);
    else if (m.fetch) later(m.full, m.revision);
    else fetchTable(m.full, m.revision);
    onChange({ data: JSON.stringify(m.change || [{ kind: "refresh" }]) });
  }

  /* a marker (the channel had no spectator when the change was published): the table
     usually follows at once; only when it does not, after a moment, fetch it (spread out,
     so that the spectators who reconnected together do not all ask at once) */
  function later(url, revision) {
    setTimeout(function () {
      var live = document.getElementById("live");
      if (live && liveRevision(live) < revision) fetchTable(url, revision);
    }, 400 + Math.floor(Math.random() * 800));
  }

  /* the whole table, kept by the push server (else from the app); one read at a time
     (the kept messages a page gets on connecting may all be too new for its table) */
  var fetching = false, wanted = -1;
  function fetchTable(url, revision) {
    var live = document.getElementById("live");
    wanted = Math.max(wanted, revision);
    if (fetching) return;
    fetching = true;
    fetch(url, { cache: "no-store" }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (t) {
      if (t.revision >= revision && t.revision > liveRevision(live)) swapTable(t.table, t.revision);
      else throw new Error("stale");
    }).catch(function () {
      if (liveRevision(live) >= revision) return; /* (a newer table came meanwhile) */
      var m = /\/t\/(\d+)\//.exec(live.dataset.events || "");
      if (m) return fetch("/t/" + m[1] + "/live", { cache: "no-store" }).then(function (r) { return r.text(); }).then(function (html) {
        var probe = document.createElement("div"); probe.innerHTML = html;
        var wrap = probe.querySelector("[data-revision]");
        swapTable(html, wrap ? wrap.dataset.revision : revision);
      });
    }).then(done, done);
    /* a newer revision was asked for meanwhile (or the read failed): again, a moment later */
    function done() {
      fetching = false;
      if (document.getElementById("live") === live && liveRevision(live) < wanted) later(url, wanted);
    }
  }

  function resync() {
    var live = document.getElementById("live");
    if (source) { source.close(); source = null; sourceUrl = null; }
    if (live) live.dataset.events = live.dataset.events.replace(/rev=-?\d+/, "rev=-1");
    connect();
  }

  /* changes that only touch results: the tab bar stays as it is */
  var RESULT_KINDS = ["result", "report", "confirmation", "correction", "rejection"];

  function onChange(event) {
    document.querySelectorAll("[data-live-refresh]").forEach(function (el) {
      if (el.contains(document.activeElement) && document.activeElement.tagName === "INPUT") return;
      if (window.htmx) htmx.ajax("GET", el.dataset.liveRefresh, { target: el, swap: "innerHTML" });
    });
    /* a round published, the start, an undo: the tabs may change (a Rounds tab appears) */
    var changes = [];
    try { changes = JSON.parse(event.data); } catch (e) { changes = [{ kind: "refresh" }]; }
    var tabs = document.querySelector("[data-live-tabs]");
    if (tabs && window.htmx && changes.some(function (c) { return RESULT_KINDS.indexOf(c.kind) < 0; })) {
      htmx.ajax("GET", tabs.dataset.liveTabs, { target: tabs, swap: "innerHTML" });
    }
  }

  function connect() {
    var live = document.getElementById("live");
    var url = live && live.dataset.events;
    if (url === sourceUrl && source) return;
    if (source) { source.close(); source = null; sourceUrl = null; }
    if (!url || !window.EventSource) return;
    wanted = -1;
    source = new EventSource(url + (url.indexOf("?") < 0 ? "?" : "&") + "cells=1");
    sourceUrl = url;
    source.addEventListener("open", function () { liveState(true); });
    source.addEventListener("error", function () { liveState(false); });
    source.addEventListener("crosstable", onCrosstable);
    source.addEventListener("cells", onCells);
    source.addEventListener("change", onChange);
    source.addEventListener("live", onLive);
  }

  /* a tie-break value explains itself (one listener for every table, also after live swaps) */
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".xt-wrap .tbv[data-p]");
    if (!button || !window.htmx) return;
    var tid = button.closest(".xt-wrap").dataset.t;
    var url = "/t/" + tid + "/explain/" + button.dataset.p + "?code=" + encodeURIComponent(button.dataset.c);
    htmx.ajax("GET", url, { target: "#explain", swap: "innerHTML" });
  });

  /* the pages carry no inline script (the Content-Security-Policy forbids it): the result
     buttons, the explanation's close button, the confirmations and the print button are wired
     here by their data attributes */
  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest("[data-result], [data-close-explain], [data-print]");
    if (!el) return;
    if (el.hasAttribute("data-result") && el.form && el.form.elements.result) {
      el.form.elements.result.value = el.dataset.result;
    } else if (el.hasAttribute("data-close-explain")) {
      var box = el.closest(".explain");
      if (box) box.innerHTML = "";
    } else if (el.hasAttribute("data-print")) {
      window.print();
    }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  /* no inline styles or eval under the Content-Security-Policy (read before htmx starts) */
  if (window.htmx) { htmx.config.includeIndicatorStyles = false; htmx.config.allowEval = false; }

  document.addEventListener("DOMContentLoaded", connect);
  document.addEventListener("htmx:load", function () { if (!source) connect(); });
  window.crosstableLive = { connect: connect };
})();
