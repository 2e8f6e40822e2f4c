// The look-ups in the imported rating lists: typing a name or a
// FIDE id fills the <datalist> from GET /api/v1/rating-list.
// * the manage page's add-player form (data-rating-list = the tournament): choosing a
//   player fills the FIDE id and the rating of the event's type; the server fills the
//   rest (title, federation, birth year, sex) from the list;
// * the wizard (data-rating-list-into = the player list's textarea): choosing a player
//   adds their line "name; rating; title; federation; ; FIDE id" to the list, the
//   rating of the type the form's time control gives.
// The custom lists' players (answer.custom: a national or club list with its own ids)
// are offered too, labelled with their list and id (RUS:4101); choosing one on the
// manage page sets the form's list_player, and the server fills the player from that
// list (its rating as the national rating).
(function () {
  document.querySelectorAll("input[data-rating-list], input[data-rating-list-into]")
    .forEach(function (input) {
      var form = input.form, list = document.getElementById(input.getAttribute("list"));
      var into = input.dataset.ratingListInto && document.getElementById(input.dataset.ratingListInto);
      var found = {}, timer = null, asked = "", chosen = "";
      function pick() {
        var p = found[input.value];
        var own = !into && form.elements.list_player;
        if (!p) {
          if (own && input.value !== chosen) own.value = "";  // typed over: not that player
          return;
        }
        if (p.source && own) {
          own.value = p.source;
          form.elements.fide_id.value = p.fide_id === null ? "" : p.fide_id;
          input.value = chosen = p.name;
          return;
        }
        if (form.elements.list_player) form.elements.list_player.value = "";
        if (into) {
          var line = [p.name, p.rating === null ? "" : p.rating, p.title, p.federation, "", p.fide_id]
            .join("; ");
          into.value = into.value.replace(/\s*$/, "") + (into.value.trim() ? "\n" : "") + line + "\n";
          input.value = "";
          into.dispatchEvent(new Event("input", {bubbles: true}));
          return;
        }
        form.elements.fide_id.value = p.fide_id;
        if (p.rating !== null) form.elements.rating.value = p.rating;
      }
      function where() {
        if (!into) return "&tournament=" + input.dataset.ratingList;
        var control = form.elements.time_control;
        return control && control.value ? "&time_control=" + encodeURIComponent(control.value) : "";
      }
      input.addEventListener("input", function () {
        pick();
        var q = input.value.trim();
        clearTimeout(timer);
        if (q.length < 3 || q === asked || found[input.value]) return;
        timer = setTimeout(function () {
          asked = q;
          var url = "/api/v1/rating-list?limit=10" + where() + "&q=" + encodeURIComponent(q);
          fetch(url, {credentials: "same-origin"}).then(function (r) {
            return r.ok ? r.json() : {players: []};
          }).then(function (answer) {
            found = {};
            list.replaceChildren();
            answer.players.forEach(function (p) {
              var option = document.createElement("option");
              option.value = p.name;
              option.label = [p.fide_id, p.title, p.federation, p.birth_year, p.rating]
                .filter(function (v) { return v !== null && v !== ""; }).join(" · ");
              found[p.name] = p;
              list.appendChild(option);
            });
            (answer.custom || []).forEach(function (p) {
              var option = document.createElement("option");
              var key = p.name + " (" + p.source + ")";
              option.value = into ? p.name : key;
              option.label = [p.source, p.title, p.federation, p.birth_year, p.rating]
                .filter(function (v) { return v !== null && v !== ""; }).join(" · ");
              if (into) p = Object.assign({}, p, {source: ""});
              found[option.value] = found[option.value] || p;
              list.appendChild(option);
            });
          }).catch(function () {});
        }, 200);
      });
      input.addEventListener("change", pick);
    });
})();
