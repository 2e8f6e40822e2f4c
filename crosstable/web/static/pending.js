/* crosstable: results entered while the venue's connection is down wait in the browser
   and are sent when it is back, each exactly once.

   A result button on the round page posts its board's form (htmx). When that request
   cannot reach the server, the form's fields — with its idempotency key — are kept in
   localStorage and the board is marked as waiting; the banner #pending-results says how
   many wait. When the browser is online again (and at every load of a page with the
   banner, and every 20 seconds), each waiting result is posted again with the same key:
   the server records it once, and answers a repeat of a request it has already recorded
   with that first answer. A result the server refuses (another result was entered for
   that board meanwhile, the round is over…) is not retried: the banner lists it with the
   server's reason until it is dismissed. No inline script (the Content-Security-Policy):
   the banner's words come with the page in data attributes. */
(function () {
  "use strict";
  var WAITING = "crosstable.pending.v1", REFUSED = "crosstable.refused.v1";
  var banner = document.getElementById("pending-results");
  var sending = false;

  function read(name) {
    try { return JSON.parse(localStorage.getItem(name) || "[]"); } catch (e) { return []; }
  }
  function write(name, items) {
    try { localStorage.setItem(name, JSON.stringify(items)); } catch (e) { /* full: kept in memory only */ }
  }
  function words(name, n) {
    return (banner && banner.dataset[name] || "").replace("{n}", String(n));
  }

  function show() {
    if (!banner) return;
    var waiting = read(WAITING), refused = read(REFUSED);
    var list = banner.querySelector("ul") || banner.appendChild(document.createElement("ul"));
    var head = banner.querySelector("p") || banner.insertBefore(document.createElement("p"), list);
    list.textContent = "";
    head.textContent = waiting.length ? words("waiting", waiting.length) : (refused.length ? words("refused", refused.length) : "");
    waiting.forEach(function (item) {
      var li = document.createElement("li");
      li.className = "waiting";
      li.textContent = item.label;
      list.appendChild(li);
    });
    refused.forEach(function (item) {
      var li = document.createElement("li");
      li.className = "refused";
      li.textContent = item.label + " — " + item.why;
      list.appendChild(li);
    });
    var clear = banner.querySelector("button");
    if (refused.length && !clear) {
      clear = document.createElement("button");
      clear.type = "button";
      clear.className = "small secondary";
      clear.textContent = words("dismiss", 0);
      clear.addEventListener("click", function () { write(REFUSED, []); show(); });
      banner.appendChild(clear);
    } else if (!refused.length && clear) {
      clear.remove();
    }
    banner.hidden = !(waiting.length || refused.length);
    waiting.forEach(function (item) {
      var game = document.getElementById(item.game);
      if (game) game.classList.add("pending");
    });
  }

  function label(form, params) {
    var game = form.closest(".game");
    var board = game ? game.querySelector(".board") : null;
    return words("board", 0).replace("{board}", board ? board.textContent.trim() : "?") + ": " + (params.result || params.action);
  }

  /* the fields htmx is about to send (with the button's action), kept on the form */
  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.matches && form.matches("form.btns")) {
      var params = Object.assign({}, event.detail.parameters);
      var game = form.closest(".game");
      form._pending = { path: event.detail.path, params: params, game: game ? game.id : "", label: label(form, params) };
    }
  });

  /* the request did not reach the server (or its answer was lost): keep it. Heard on the
     request itself, not as htmx's event on the form: a live refresh may have redrawn the
     boards meanwhile, and an event on a form no longer in the page reaches no listener. */
  document.addEventListener("htmx:beforeSend", function (event) {
    var form = event.detail.elt, xhr = event.detail.xhr;
    if (!form || !form._pending || !xhr) return;
    var pending = form._pending;
    xhr.addEventListener("error", function () { keep(pending); });
  });

  function keep(pending) {
    var params = pending.params;
    if (!banner || ["record", "confirm"].indexOf(params.action) < 0 || !params.key) return;
    var waiting = read(WAITING).filter(function (item) { return item.params.key !== params.key; });
    waiting.push({ path: pending.path, params: params, game: pending.game, label: pending.label });
    write(WAITING, waiting);
    var game = pending.game ? document.getElementById(pending.game) : null;
    if (game) game.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    show();
  }

  function refusal(html) {
    var probe = document.createElement("div");
    probe.innerHTML = html;
    var error = probe.querySelector(".flash.error, [role=alert]");
    return error ? error.textContent.trim() : "";
  }

  function sendAll() {
    if (sending || !banner) return;
    var waiting = read(WAITING);
    if (!waiting.length) return;
    sending = true;
    var item = waiting[0];
    fetch(item.path, {
      method: "POST",
      body: new URLSearchParams(item.params),
      headers: { "HX-Request": "true" },
      credentials: "same-origin"
    }).then(function (response) {
      return response.text().then(function (html) {
        var why = "";
        if (!response.ok) why = refusal(html) || String(response.status);
        else if (response.headers.get("HX-Retarget")) why = words("confirm", 0);
        else why = refusal(html);
        var left = read(WAITING).filter(function (other) { return other.params.key !== item.params.key; });
        write(WAITING, left);
        if (why) {
          var refused = read(REFUSED);
          refused.push({ label: item.label, why: why });
          write(REFUSED, refused);
        }
        var game = document.getElementById(item.game);
        if (game && response.ok && !response.headers.get("HX-Retarget")) {
          game.outerHTML = html;  /* the board as the server has it now */
          var swapped = document.getElementById(item.game);
          if (swapped && window.htmx) htmx.process(swapped);
        }
        sending = false;
        show();
        sendAll();
      });
    }).catch(function () {
      sending = false;  /* still offline: the next "online" event or tick tries again */
    });
  }

  document.addEventListener("htmx:afterSwap", show);  /* a live refresh redrew the boards */
  window.addEventListener("online", sendAll);
  setInterval(function () { if (navigator.onLine) sendAll(); }, 20000);
  show();
  if (navigator.onLine) sendAll();
})();
