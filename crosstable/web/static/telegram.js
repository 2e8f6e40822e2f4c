/* The site inside Telegram (the Mini App). Does nothing unless the page runs inside
   Telegram: Telegram's own script (loaded on the Mini App's page, /telegram/app) makes
   window.Telegram.WebApp.
   - Theme: Telegram's themeParams become the page's colours (--bg, --fg, --muted,
     --accent, --soft, --line) and --tg-theme-* variables; they are kept in this web
     view's sessionStorage, so the site's other pages opened from the Mini App keep
     Telegram's colours (those pages load only the site's own scripts).
   - Viewport: --tg-viewport-height follows Telegram's stable height; the app is expanded.
   - Sign-in: on the Mini App's page, Telegram's signed initData is sent to the site
     (POST, with the page's CSRF token), which signs the player in; then the page goes on
     to the site. A refusal is shown as the site wrote it. */
(function () {
  "use strict";
  var KEY = "crosstable.telegram";
  var COLOURS = {
    bg_color: "--bg", text_color: "--fg", hint_color: "--muted", link_color: "--accent",
    button_color: "--accent", secondary_bg_color: "--soft", section_separator_color: "--line"
  };
  var DARK = { "--win": "rgba(46,160,67,.28)", "--loss": "rgba(248,81,73,.28)", "--draw": "rgba(210,153,34,.28)" };
  var COLOUR = /^#[0-9a-fA-F]{3,8}$/;
  var NAME = /^[a-z_]{1,40}$/;
  var web = window.Telegram && window.Telegram.WebApp;

  function kept() {
    try { return JSON.parse(window.sessionStorage.getItem(KEY) || "null") || {}; } catch (e) { return {}; }
  }
  function keep(values) {
    try {
      var now = kept();
      Object.keys(values).forEach(function (k) { now[k] = values[k]; });
      window.sessionStorage.setItem(KEY, JSON.stringify(now));
    } catch (e) { /* no storage: this page only */ }
  }
  function apply(theme, scheme, height) {
    var root = document.documentElement;
    root.classList.add("in-telegram");
    Object.keys(theme || {}).forEach(function (name) {
      var value = theme[name];
      if (!NAME.test(name) || typeof value !== "string" || !COLOUR.test(value)) { return; }
      root.style.setProperty("--tg-theme-" + name.replace(/_/g, "-"), value);
      if (COLOURS[name] && !(name === "link_color" && theme.button_color)) {
        root.style.setProperty(COLOURS[name], value);
      }
    });
    if (scheme === "dark") {
      Object.keys(DARK).forEach(function (k) { root.style.setProperty(k, DARK[k]); });
    }
    if (typeof height === "number" && height > 0) {
      root.style.setProperty("--tg-viewport-height", Math.round(height) + "px");
    }
  }

  if (web) {
    var theme = web.themeParams || {};
    keep({ theme: theme, scheme: web.colorScheme || "" });
    apply(theme, web.colorScheme, web.viewportStableHeight);
    if (typeof web.ready === "function") { web.ready(); }
    if (typeof web.expand === "function") { web.expand(); }
    if (typeof web.onEvent === "function") {
      web.onEvent("themeChanged", function () {
        keep({ theme: web.themeParams || {}, scheme: web.colorScheme || "" });
        apply(web.themeParams || {}, web.colorScheme);
      });
      web.onEvent("viewportChanged", function () { apply({}, "", web.viewportStableHeight); });
    }
  } else {
    var earlier = kept();
    if (earlier.theme) { apply(earlier.theme, earlier.scheme); }
  }

  var app = document.getElementById("tg-app");
  if (!app) { return; }
  var waiting = document.getElementById("tg-app-wait");
  var outside = document.getElementById("tg-app-outside");
  var refused = document.getElementById("tg-app-error");
  var data = web && waiting && typeof web.initData === "string" ? web.initData : "";
  if (!data) {
    if (waiting) { waiting.hidden = true; }
    outside.hidden = false;
    return;
  }
  var hash = new URLSearchParams(data).get("hash") || "";
  var before = kept();
  if (app.getAttribute("data-signed-in") === "1" && hash && before.used === hash) {
    window.location.replace(before.next || "/"); // this opening already signed in here
    return;
  }
  var meta = document.querySelector('meta[name="csrf-token"]');
  fetch(app.getAttribute("data-login"), {
    method: "POST",
    credentials: "same-origin",
    headers: {
      "Content-Type": "application/json",
      "Accept": "application/json",
      "X-CSRF-Token": meta ? meta.getAttribute("content") : ""
    },
    body: JSON.stringify({ init_data: data })
  }).then(function (answer) {
    return answer.json().then(function (body) { return { ok: answer.ok, body: body }; });
  }).then(function (reply) {
    if (reply.ok && typeof reply.body.next === "string" && reply.body.next.charAt(0) === "/") {
      keep({ used: hash, next: reply.body.next });
      window.location.replace(reply.body.next);
      return;
    }
    if (waiting) { waiting.hidden = true; }
    refused.textContent = String(reply.body.detail || app.getAttribute("data-failed"));
    refused.hidden = false;
  }).catch(function () {
    if (waiting) { waiting.hidden = true; }
    refused.textContent = app.getAttribute("data-failed");
    refused.hidden = false;
  });
})();
