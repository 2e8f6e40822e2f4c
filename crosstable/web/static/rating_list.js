// The add-player form's look-up in the imported rating lists (issue 16 item 1):
// typing a name or a FIDE id fills the <datalist> from GET /api/v1/rating-list;
// choosing a player fills the FIDE id and the rating of the event's type, and the
// server fills the rest (title, federation, birth year, sex) from the list.
(function () {
  var input = document.querySelector("input[data-rating-list]");
  if (!input) return;
  var form = input.form, list = document.getElementById("rating-list-found");
  var found = {}, timer = null, asked = "";
  function pick() {
    var p = found[input.value];
    if (!p) return;
    form.elements.fide_id.value = p.fide_id;
    if (p.rating !== null) form.elements.rating.value = p.rating;
  }
  input.addEventListener("input", function () {
    pick();
    var q = input.value.trim();
    clearTimeout(timer);
    if (q.length < 3 || q === asked || found[input.value]) return;
    timer = setTimeout(function () {
      asked = q;
      var url = "/api/v1/rating-list?limit=10&tournament=" + input.dataset.ratingList +
        "&q=" + encodeURIComponent(q);
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
      }).catch(function () {});
    }, 200);
  });
  input.addEventListener("change", pick);
})();
