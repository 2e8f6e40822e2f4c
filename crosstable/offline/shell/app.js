// The offline app's shell: starts Pyodide, hands each action to the Python core
// (crosstable.offline.bridge) and draws its answer. No tournament logic lives here.
"use strict";
const KEY = "crosstable.offline.state";
const BACKUPS = "crosstable.offline.backups";
const KEEP = 20;
let py = null, state = null, view = null, labels = {};
const $ = (id) => document.getElementById(id);
const lang = () => localStorage.getItem("crosstable.offline.lang") || "en";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v); else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c === null || c === undefined ? "" : c);
  return node;
}

function call(request) {
  request.lang = lang();
  const answer = JSON.parse(py.handle(JSON.stringify(request)));
  $("error").textContent = answer.error || "";
  if (answer.labels) labels = answer.labels;
  if (answer.error) return null;
  if (answer.state) keep(answer.state, answer.view);
  return answer;
}

function keep(next, nextView) {
  const text = JSON.stringify(next);
  if (state && JSON.stringify(state) !== text) {
    const backups = JSON.parse(localStorage.getItem(BACKUPS) || "[]");
    backups.unshift({ at: new Date().toISOString(), state });
    localStorage.setItem(BACKUPS, JSON.stringify(backups.slice(0, KEEP)));
  }
  state = next; view = nextView;
  localStorage.setItem(KEY, text);
  draw();
}

const act = (action) => state && call({ do: "act", state, action });

function table(heads, rows) {
  return el("table", {}, el("tr", {}, ...heads.map((h) => el("th", {}, h))),
    ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c)))));
}

function resultPicker(current, onpick, attrs) {
  const select = el("select", { ...attrs, onchange: (e) => onpick(e.target.value) });
  for (const r of ["", "1-0", "½-½", "0-1", "+/-", "-/+"]) {
    const option = el("option", { value: r }, r || "…");
    if (r === current) option.selected = true;
    select.append(option);
  }
  return select;
}

function draw() {
  const app = $("app");
  app.replaceChildren();
  $("title").textContent = labels.title || "crosstable";
  if (!state) {
    const kind = el("select", { id: "kind" }, el("option", { value: "round-robin" }, labels["round-robin"]),
      el("option", { value: "swiss" }, labels.swiss), el("option", { value: "knockout" }, labels.knockout),
      el("option", { value: "bughouse" }, labels.bughouse));
    const name = el("input", { id: "tname", placeholder: labels.name });
    app.append(el("section", {}, kind, name,
      el("button", { id: "create", onclick: () => call({ do: "new", kind: kind.value, name: name.value }) }, labels.create)));
  } else {
    app.append(el("h2", { id: "tournament" }, view.name));
    if (!view.started && view.kind === "bughouse") drawPairs(app);
    else if (!view.started) {
      const name = el("input", { id: "pname", placeholder: labels.name });
      const rating = el("input", { id: "prating", placeholder: labels.rating, inputmode: "numeric", size: 6 });
      const rounds = el("input", { id: "rounds", placeholder: labels.rounds, inputmode: "numeric", size: 4 });
      app.append(el("section", {}, name, rating,
        el("button", { id: "add", onclick: () => act({ do: "add", name: name.value, rating: rating.value }) }, labels.add)));
      const choice = (id, label, values) => el("label", {}, label + " ",
        el("select", { id }, ...values.map((v) => el("option", { value: v }, v))));
      const knockout = view.kind !== "knockout" ? "" : el("span", {},
        choice("match_format", labels.match_format, ["1", "2", "2-at-once", "4"]),
        choice("tie_rule", labels.tie_rule, ["lower-rated", "armageddon", "rapid:2,blitz:2,armageddon", "lots"]),
        choice("third_place", labels.third_place, ["no", "yes"]));
      const started = () => view.kind === "swiss" ? { do: "start", rounds: rounds.value }
        : view.kind === "knockout" ? { do: "start", knockout: Object.fromEntries(
          ["match_format", "tie_rule", "third_place"].map((k) => [k, $(k).value])) } : { do: "start" };
      app.append(el("section", {}, view.kind === "swiss" ? rounds : "", knockout,
        el("button", { id: "start", onclick: () => act(started()) }, labels.start)));
      app.append(table(["#", labels.name, labels.rating], view.players.map((p) => [p.start, p.name, p.rating ?? ""])));
    }
    for (const rnd of view.kind === "bughouse" ? view.rounds : []) drawMatches(app, rnd);
    for (const rnd of view.kind === "bughouse" ? [] : view.rounds) {
      app.append(el("h3", {}, `${labels.round} ${rnd.round}`));
      app.append(table([labels.board, labels.white, labels.black, labels.result], rnd.games.map((g) => [
        g.board, g.white, g.black,
        resultPicker(g.result, (r) => act({ do: "result", round: rnd.round, board: g.board, result: r }),
          { "data-round": rnd.round, "data-board": g.board }),
      ])));
      if (rnd.bye.length) app.append(el("p", {}, `${labels.bye}: ${rnd.bye.join(", ")}`));
    }
    for (const m of view.matches) {
      app.append(table([labels.game, labels.white, labels.black, labels.result], m.games.map((g) => [
        `${labels.round} ${m.round} · ${g.game}`, g.white, g.black,
        resultPicker(g.result, (r) => act({ do: "result", slot: m.slot, game: g.game, result: r }),
          { "data-slot": m.slot, "data-game": g.game }),
      ])));
    }
    if (view.can_pair) app.append(el("button", { id: "pair", onclick: () => act({ do: "pair" }) }, labels.pair));
    if (view.standings.length) {
      app.append(el("h3", {}, labels.standings));
      const pairs = view.kind === "bughouse";
      app.append(el("div", { id: "standings" }, table(
        [labels.place, labels.name, pairs ? labels.match_points : labels.points, ...(pairs ? [labels.game_points] : [])],
        view.standings.map((r) => [r.rank ?? "", r.name, r.points, ...(pairs ? [r.game_points] : [])]))));
    }
    if (view.placings && view.placings.length && view.started) {
      app.append(el("div", { id: "placings" }, table([labels.place, labels.name],
        view.placings.filter((p) => p.place).map((p) => [p.place, p.name]))));
    }
    if (view.finished) app.append(el("p", { id: "finished" }, labels.finished));
    app.append(el("section", {},
      el("button", { id: "undo", onclick: () => call({ do: "undo", state }) }, labels.undo),
      el("button", { id: "export", onclick: exportFile }, labels.export),
      el("button", { id: "discard", onclick: discard }, labels.discard)));
  }
  const file = el("input", { type: "file", id: "importfile", accept: ".json,application/json", onchange: importFile });
  app.append(el("section", {}, el("label", {}, labels.import + " ", file)));
  const backups = JSON.parse(localStorage.getItem(BACKUPS) || "[]");
  if (backups.length) {
    app.append(el("h3", {}, labels.backups));
    app.append(el("ul", { id: "backups" }, ...backups.map((b, i) => el("li", {}, `${b.at} (${b.state.log.length}) `,
      el("button", { onclick: () => call({ do: "view", state: backups[i].state }) }, labels.restore)))));
  }
}

// A Bughouse event: pairs of two players, each match on two boards (crosstable.offline.bughouse).
function drawPairs(app) {
  const input = (id, label, numeric) => el("input", numeric
    ? { id, placeholder: label, inputmode: "numeric", size: 6 } : { id, placeholder: label });
  const fields = [input("pname", labels.pair_name), input("p1name", labels.player_one),
    input("p1rating", labels.rating, true), input("p2name", labels.player_two), input("p2rating", labels.rating, true)];
  const player = (n) => ({ name: $(`p${n}name`).value, rating: $(`p${n}rating`).value });
  app.append(el("section", {}, ...fields, el("button", { id: "add", onclick: () =>
    act({ do: "add", name: $("pname").value, players: [player(1), player(2)] }) }, labels.add)));
  const choice = (id, label, values) => el("label", {}, label + " ",
    el("select", { id }, ...values.map(([v, text]) => el("option", { value: v }, text))));
  app.append(el("section", {},
    choice("system", labels.system, [["round-robin", labels["round-robin"]], ["swiss", labels.swiss],
      ["knockout", labels.knockout]]),
    choice("rule", labels.rule, [["sum", labels.rule_sum], ["first", labels.rule_first]]),
    input("rounds", labels.rounds, true),
    choice("match_format", labels.match_format, ["1", "2", "2-at-once", "4"].map((v) => [v, v])),
    choice("tie_rule", labels.tie_rule, ["lower-rated", "armageddon", "rapid:2,blitz:2,armageddon", "lots"].map((v) => [v, v])),
    choice("third_place", labels.third_place, ["no", "yes"].map((v) => [v, v])),
    el("button", { id: "start", onclick: () => {
      const system = $("system").value;
      const knockout = Object.fromEntries(["match_format", "tie_rule", "third_place"].map((k) => [k, $(k).value]));
      act({ do: "start", system, rule: $("rule").value, rounds: system === "swiss" ? $("rounds").value : "",
        ...(system === "knockout" ? { knockout } : {}) });
    } }, labels.start)));
  app.append(table(["#", labels.name, labels.rating, labels.player_one, labels.player_two],
    view.players.map((p) => [p.start, p.name, p.rating ?? "",
      ...p.members.map((m) => `${m.name}${m.rating ? " (" + m.rating + ")" : ""}`)])));
}

function drawMatches(app, rnd) {
  app.append(el("h3", {}, `${labels.round} ${rnd.round}`));
  const first = view.rule === "first";
  app.append(table([labels.board, labels.match, labels.white, labels.black, labels.result, ...(first ? [labels.first] : [])],
    rnd.games.map((g) => [g.board, g.pair, g.white, g.black,
      resultPicker(g.result, (r) => act({ do: "result", round: rnd.round, board: g.board, result: r }),
        { "data-round": rnd.round, "data-board": g.board }),
      ...(first ? [g.first ? "✓" : el("button", { "data-first": `${rnd.round}:${g.board}`,
        onclick: () => act({ do: "first", round: rnd.round, board: g.board }) }, labels.first)] : [])])));
  app.append(table([labels.match, labels.match_points], rnd.matches.map((m) =>
    [`${m.white} – ${m.black}`, el("span", { "data-match": `${rnd.round}:${m.boards[0]}` }, m.score || "…")])));
  if (rnd.bye.length) app.append(el("p", {}, `${labels.bye}: ${rnd.bye.join(", ")}`));
}

function exportFile() {
  const answer = call({ do: "export", state });
  if (!answer) return;
  const blob = new Blob([JSON.stringify(answer.export, null, 1)], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: (view.name || "tournament") + ".json" });
  document.body.append(link); link.click(); link.remove();
}

async function importFile(event) {
  const file = event.target.files[0];
  if (file) call({ do: "import", text: await file.text(), source: file.name });
}

function discard() {
  keep(state, view);  // the current state goes into the backups first
  state = null; view = null;
  localStorage.removeItem(KEY);
  draw();
}

async function main() {
  if ("serviceWorker" in navigator) {
    try { await navigator.serviceWorker.register("sw.js"); } catch (e) { /* the app still runs online */ }
  }
  $("lang").value = lang();
  $("lang").addEventListener("change", (e) => {
    localStorage.setItem("crosstable.offline.lang", e.target.value);
    call(state ? { do: "view", state } : { do: "labels" }); draw();
  });
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
  const manifest = await (await fetch("manifest.json")).json();
  for (const archive of ["crosstable.zip", ...manifest.wheels]) {
    const data = await (await fetch(archive)).arrayBuffer();
    pyodide.unpackArchive(data, "zip", { extractDir: "/home/pyodide" });
  }
  py = pyodide.pyimport("crosstable.offline.bridge");
  const saved = localStorage.getItem(KEY);
  if (saved) call({ do: "view", state: JSON.parse(saved) }); else call({ do: "labels" });
  draw();
  $("status").textContent = labels.offline;
  $("status").dataset.ready = "yes";
}

main().catch((e) => { $("error").textContent = String(e); });
