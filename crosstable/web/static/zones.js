/* crosstable: moments in the reader's time zone. Every <time datetime=ISO
   data-local> was written by the server in the series' zone, that zone named; here it is
   rewritten in the browser's zone, that zone named, the server's text kept as the title. */
(function () {
  "use strict";
  function zone() {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return ""; }
  }
  function local() {
    var here = zone(), lang = document.documentElement.lang || undefined;
    if (!here || !window.Intl) return;
    document.querySelectorAll("time[data-local]").forEach(function (el) {
      var moment = new Date(el.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      var text = new Intl.DateTimeFormat(lang, {
        day: "numeric", month: "long", year: "numeric", weekday: "short",
        hour: "2-digit", minute: "2-digit", hour12: false, timeZone: here
      }).format(moment);
      if (!el.title) el.title = el.textContent;
      el.textContent = text + " (" + here + ")";
      el.dataset.zone = here;
    });
    document.querySelectorAll("[data-reader-zone]").forEach(function (el) {
      el.textContent = here;
      el.closest("[hidden]") && el.closest("[hidden]").removeAttribute("hidden");
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", local);
  else local();
})();
