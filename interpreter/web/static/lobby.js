// The lobby: start a table of any game the server offers, get its links, see the tables.
// Every text that comes from a definition or the server is put in the page with textContent, never as
// HTML.  The page knows no game: games, variants, their settings and the bots come from /api/lobby.
"use strict";
(() => {
  const REFRESH = 5000;  // ms between two listings of the tables
  let data = null;       // the last /api/lobby answer

  const $ = (id) => document.getElementById(id);
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  function banner(text, kind) {
    $("banner").textContent = text;
    $("banner").className = `banner ${kind || ""}`;
  }
  function showError(text) {
    $("error").textContent = text;
    $("error").hidden = !text;
  }

  async function refresh(first) {
    let answer;
    try {
      const response = await fetch("/api/lobby", { cache: "no-store" });
      answer = await response.json();
    } catch (e) {
      banner("The server cannot be reached; retrying…", "bad");
      return;
    }
    data = answer;
    if (first || !$("game").options.length) fillGames();
    drawTables();
    banner(`${plural(data.tables.length, "table")} of at most ${data.max_tables}.`, "");
  }

  // ------------------------------------------------------------------ the form
  function currentGame() {
    return data.games.find((g) => g.id === $("game").value) || data.games[0];
  }

  function fillGames() {
    const select = $("game");
    select.replaceChildren();
    for (const game of data.games) {
      const option = el("option", null, `${game.name} (${game.min_players === game.max_players ? game.min_players :
        `${game.min_players}–${game.max_players}`} players)`);
      option.value = game.id;
      select.append(option);
    }
    select.onchange = fillGame;
    fillGame();
  }

  function fillGame() {
    const game = currentGame();
    $("game-about").textContent = game.description;
    const players = $("players");
    players.min = game.min_players;
    players.max = game.max_players;
    players.value = Math.max(game.min_players, Math.min(game.max_players, Number(players.value) || game.min_players));
    players.oninput = fillSeats;
    fillSeats();
    fillVariants(game);
  }

  function fillSeats() {
    const box = $("seats");
    const kept = {};
    for (const row of box.querySelectorAll(".seat")) {
      kept[row.dataset.seat] = [row.querySelector("select").value, row.querySelector("input").value];
    }
    box.querySelectorAll(".seat").forEach((row) => row.remove());
    const count = Math.min(Number($("players").value) || 0, 64);
    for (let seat = 1; seat <= count; seat++) {
      const row = el("div", "seat");
      row.dataset.seat = String(seat);
      const label = el("label", "row", `Seat ${seat}`);
      const who = el("select");
      who.name = `seat${seat}`;
      const person = el("option", null, "a person (gets a link)");
      person.value = "";
      who.append(person);
      for (const bot of data.bots) {
        const option = el("option", null, `bot: ${bot.name}`);
        option.value = bot.name;
        who.append(option);
      }
      const params = el("input");
      params.type = "text";
      params.name = `params${seat}`;
      params.placeholder = "parameters, e.g. iterations=400";
      params.hidden = true;
      const shown = () => {
        params.hidden = !who.value;
        const bot = data.bots.find((b) => b.name === who.value);
        params.title = bot ? `takes ${bot.parameters}` : "";
      };
      who.onchange = () => { params.value = ""; shown(); };  // another bot's parameters do not carry over
      if (kept[seat]) { who.value = kept[seat][0]; params.value = kept[seat][1]; }
      shown();
      label.append(who);
      row.append(label, params);
      box.append(row);
    }
  }

  function fillVariants(game) {
    const box = $("variants");
    box.querySelectorAll(".variant, .empty").forEach((e) => e.remove());
    box.hidden = false;
    if (!game.variants.length) {
      box.append(el("p", "empty", "This game has no variants here."));
      return;
    }
    for (const variant of game.variants) {
      const row = el("div", "variant");
      row.dataset.variant = variant.id;
      const label = el("label");
      const check = el("input");
      check.type = "checkbox";
      check.name = `variant-${variant.id}`;
      label.append(check, document.createTextNode(` ${variant.name}`));
      row.append(label);
      if (variant.description) row.append(el("p", "hint", variant.description));
      const settings = el("div", "variant-settings");
      settings.hidden = true;
      for (const param of variant.parameters) {
        const line = el("label", "row", param.name);
        let input;
        if (param.one_of) {
          input = el("select");
          for (const value of param.one_of) {
            const option = el("option", null, String(value));
            option.value = String(value);
            input.append(option);
          }
        } else if (param.kind === "bool") {
          input = el("select");
          for (const value of ["true", "false"]) {
            const option = el("option", null, value === "true" ? "yes" : "no");
            option.value = value;
            input.append(option);
          }
        } else {
          input = el("input");
          input.type = param.kind === "int" ? "number" : "text";
        }
        input.value = String(param.default);
        input.dataset.param = param.name;
        input.name = `${variant.id}-${param.name}`;
        if (param.description) line.title = param.description;
        line.append(input);
        settings.append(line);
      }
      check.onchange = () => { settings.hidden = !check.checked; };
      row.append(settings);
      box.append(row);
    }
  }

  function request() {
    const bots = {};
    for (const row of $("seats").querySelectorAll(".seat")) {
      const name = row.querySelector("select").value;
      const params = row.querySelector("input").value.trim();
      if (name) bots[row.dataset.seat] = params ? `${name}:${params}` : name;
    }
    const variants = [];
    for (const row of $("variants").querySelectorAll(".variant")) {
      if (!row.querySelector("input[type=checkbox]").checked) continue;
      const settings = {};
      for (const input of row.querySelectorAll("[data-param]")) settings[input.dataset.param] = input.value;
      variants.push([row.dataset.variant, settings]);
    }
    return { game: $("game").value, players: Number($("players").value), bots, variants };
  }

  async function create(event) {
    event.preventDefault();
    showError("");
    $("start").disabled = true;
    try {
      const response = await fetch("/api/tables", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request()),
      });
      let answer;
      try { answer = await response.json(); } catch (e) { answer = { message: `the server said ${response.status}` }; }
      if (!response.ok || answer.type !== "created") {
        showError(answer.message || "the table could not be started");
        return;
      }
      showLinks(answer);
      refresh(false);
    } catch (e) {
      showError("The server cannot be reached.");
    } finally {
      $("start").disabled = false;
    }
  }

  function linkRow(who, url) {
    const item = el("li");
    item.append(el("span", "who", who));
    const a = el("a", null, url);
    a.href = url;
    a.target = "_blank";
    a.rel = "noopener";
    item.append(a);
    return item;
  }

  function showLinks(answer) {
    const list = $("links");
    list.replaceChildren();
    for (const seat of answer.seats) {
      if (seat.token) list.append(linkRow(`player ${seat.seat}`, `${location.origin}/#seat=${seat.token}`));
      else list.append(el("li", "hint", `player ${seat.seat}: bot (${seat.bot})`));
    }
    list.append(linkRow("spectators", `${location.origin}/#watch=${answer.table}`));
    $("created").hidden = false;
    $("created").scrollIntoView({ block: "nearest" });
  }

  // ------------------------------------------------------------------ the tables
  function drawTables() {
    const body = $("tables").querySelector("tbody");
    body.replaceChildren();
    $("no-tables").hidden = data.tables.length > 0;
    $("count").textContent = plural(data.tables.length, "table");
    for (const table of data.tables) {
      const row = el("tr");
      row.dataset.table = table.id;
      const name = table.variants.length ? `${table.game} (${table.variants.join(", ")})` : table.game;
      row.append(el("td", null, name));
      const people = table.seats.filter((s) => s.bot === undefined);
      const taken = people.filter((s) => s.taken).length;
      const bots = table.seats.length - people.length;
      row.append(el("td", null, `${table.players}: ${taken} of ${people.length} ` +
        `${people.length === 1 ? "person" : "people"} here` + (bots ? `, ${plural(bots, "bot")}` : "")));
      const state = table.problem ? "stopped" : table.finished ? "finished" : "playing";
      row.append(el("td", "state", table.game_number > 1 ? `${state} (game ${table.game_number})` : state));
      const watch = el("td");
      const a = el("a", null, "watch");
      a.href = `/#watch=${table.id}`;
      a.target = "_blank";
      a.rel = "noopener";
      watch.append(a);
      row.append(watch);
      body.append(row);
    }
  }

  $("create").addEventListener("submit", create);
  refresh(true);
  setInterval(() => refresh(false), REFRESH);
})();
