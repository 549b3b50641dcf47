// Ribbit in the browser: draws whatever the server sends for this seat, for any game.
// Every text that comes from a definition or the game is put in the page with textContent,
// never as HTML.  The page knows no game: zones, boards, variables and options come from the
// layout (the definition's structure) and the seat's view.
"use strict";
(() => {
  const hash = new URLSearchParams(location.hash.slice(1));
  const token = hash.get("seat");
  const watch = hash.get("watch");
  const COLOURS = new Set(["red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "black",
    "white", "grey", "gray", "cyan", "magenta", "teal", "violet", "gold", "silver", "navy", "lime", "olive",
    "maroon", "indigo", "crimson", "turquoise"]);
  const LONG_TEXT = 40;     // a property longer than this is clamped to a few lines on the card
  const MANY_CARDS = 10;    // a zone showing more cards than this, none of them to pick, shows names only
  const ARROWS = { north: "↑", south: "↓", east: "→", west: "←", northeast: "↗", northwest: "↖",
    southeast: "↘", southwest: "↙" };
  const SEAT_HUES = [210, 10, 130, 45, 280, 180, 330, 90];

  let ws = null, layout = null, seat = null, players = 0, last = null;
  let selection = [];      // cards picked so far for a "several" decision: {zone, index, name}
  let sent = false;        // this page's own action is on its way: buttons stay disabled until it is answered
  let inflight = null;     // ...its request number (the server answers with "answered" or an error's "request")
  let requests = 0;
  let fatal = false, retry = 0;

  const $ = (id) => document.getElementById(id);
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  const seatName = (p) => `player ${p + 1}`;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  function format(value, kind) {
    if (value === null || value === undefined) return "none";
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (kind === "player" && typeof value === "number") return seatName(value);
    if (Array.isArray(value)) {
      if (kind === "list:player") return value.map(seatName).join(", ") || "nobody";
      return value.map((v) => format(v)).join(", ") || "none";
    }
    if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}: ${format(v)}`).join(", ");
    return value === "" ? "—" : String(value);
  }

  // ------------------------------------------------------------------ connection
  function connect() {
    if (!token && !watch) {
      $("conn").textContent = "no seat in this link";
      banner("This link names no seat. Open the link the server printed for you.", "bad");
      return;
    }
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${scheme}//${location.host}/ws`);
    ws.onopen = () => {
      retry = 0;
      $("conn").textContent = "connected";
      $("conn").className = "conn ok";
      ws.send(JSON.stringify(token ? { type: "hello", token } : { type: "hello", watch }));
    };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      receive(msg);
    };
    ws.onclose = () => {
      settle(inflight);  // a new connection answers nothing of the old one's
      $("conn").className = "conn bad";
      if (fatal) { $("conn").textContent = "refused"; return; }
      $("conn").textContent = "reconnecting…";
      const wait = Math.min(5000, 300 * 2 ** retry++);
      setTimeout(connect, wait);
    };
  }

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  // ------------------------------------------------------------------ this page's own actions, in flight
  // An action (or an undo) carries the id of the state it was chosen in, so the server refuses it if the
  // game has changed since (another tab, another player); until it is answered the page sends nothing more.
  function sendAction(message) {
    if (sent || !last || !ws || ws.readyState !== WebSocket.OPEN) return;
    sent = true;
    inflight = ++requests;
    send({ ...message, state_id: last.state_id, request: inflight });
    render();
  }

  // The answer to request ``r`` (the new state, or an error) has come: the buttons may be used again.
  function settle(r) {
    if (inflight !== null && r === inflight) { inflight = null; sent = false; }
  }

  function receive(msg) {
    if (msg.type === "welcome") {
      layout = msg.layout; seat = msg.seat; players = msg.players;
      $("game").textContent = layout.game + (layout.variants.length ? ` (${layout.variants.join(", ")})` : "");
      $("who").textContent = seat === null ? "watching" : `you are ${seatName(seat)}`;
      document.title = `${layout.game} · ${seat === null ? "watching" : seatName(seat)}`;
    } else if (msg.type === "state") {
      if (msg.reset) { $("narration").replaceChildren(); selection = []; }
      const before = last && last.decision ? JSON.stringify(last.decision.options) : null;
      last = msg;
      settle(msg.answered);
      if (!msg.decision || JSON.stringify(msg.decision.options) !== before) selection = [];
      narrate(msg.narration);
      render();
    } else if (msg.type === "error") {
      settle(msg.request === undefined || msg.request === null ? inflight : msg.request);
      if (msg.fatal) { fatal = true; banner(msg.message, "bad"); }
      toast(msg.message);
      if (last) render();
    } else if (msg.type === "notice") {
      $("narration").append(el("li", "notice", msg.text));
    } else if (msg.type === "log") {
      const blob = new Blob([msg.text], { type: "application/x-ndjson" });
      const a = el("a");
      a.href = URL.createObjectURL(blob);
      a.download = msg.filename;
      document.body.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    }
  }

  let toastTimer = null;
  function toast(text) {
    const t = $("toast");
    t.textContent = text; t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { t.hidden = true; }, 7000);
  }
  function banner(text, kind) {
    const b = $("banner");
    b.textContent = text;
    b.className = `banner ${kind || ""}`;
  }

  function narrate(lines) {
    const list = $("narration");
    for (const line of lines || []) list.append(el("li", null, line));
    while (list.children.length > 400) list.firstChild.remove();
    list.parentElement.scrollTop = list.parentElement.scrollHeight;  // its own scroll only: the page stays put
  }

  // ------------------------------------------------------------------ cards
  function tint(props) {
    for (const value of Object.values(props || {})) {
      const words = Array.isArray(value) ? value : [value];
      for (const w of words) if (typeof w === "string" && COLOURS.has(w.toLowerCase())) return w.toLowerCase();
    }
    return null;
  }

  function cardEl(name, zone, index, marks) {
    const props = (last.cards || {})[name] || {};
    const c = el("div", "card");
    c.dataset.zone = zone; c.dataset.index = String(index); c.dataset.name = name;
    const colour = tint(props);
    if (colour) { c.classList.add("tinted"); c.style.setProperty("--tint", colour); }
    c.append(el("div", "card-name", name));
    const list = el("ul", "props");
    for (const [key, value] of Object.entries(props)) {
      const text = value === true ? key.replace(/_/g, " ") : `${key.replace(/_/g, " ")}: ${format(value)}`;
      list.append(el("li", text.length > LONG_TEXT ? "long" : null, text));  // a long text: clamped, whole in the tooltip
    }
    if (list.children.length) { c.append(list); c.title = [...list.children].map((li) => li.textContent).join("\n"); }
    for (const [key, value] of Object.entries(marks || {})) {
      if (value) c.append(el("div", "marks", `${key} ${value}`));
    }
    return c;
  }

  function backEl(count, label) {
    const b = el("div", "card back");
    b.append(el("div", "back-count", `×${count}`));
    if (label) b.append(el("div", "back-label", label));
    b.title = `${plural(count, "card")}, face down`;
    return b;
  }

  // One zone of the view: a row of cards, a pile with its top card, or face-down cards as a count.
  function zoneEl(label, title, spec, compact) {
    const entry = last.view.zones[label];
    const box = el("div", `zone vis-${spec.visibility}`);
    box.dataset.zone = label;
    const head = el("div", "zone-head");
    head.append(el("span", "zone-name", title.replace(/_/g, " ")));
    const count = entry.cards ? entry.cards.length : entry.count;
    head.append(el("span", "zone-count", plural(count || 0, "card")));
    if (spec.description) head.title = spec.description;
    box.append(head);
    const row = el("div", compact ? "cards compact" : "cards");
    if (entry.cards) {
      const marks = entry.counters || {};
      const n = entry.cards.length;
      const markOf = (i) => {
        const m = {};
        for (const [k, v] of Object.entries(marks)) m[k] = v[i];
        return m;
      };
      if (compact) {  // on a board space: the top card in full, the ones below it as chips
        if (n) row.append(cardEl(entry.cards[n - 1], label, n - 1, markOf(n - 1)));
        if (n > 1) {
          const chips = el("div", "chips");
          for (let i = n - 2; i >= 0; i--) {
            const c = cardEl(entry.cards[i], label, i, markOf(i));
            c.classList.add("mini");
            chips.append(c);
          }
          row.append(chips);
        }
      } else {
        // Consecutive identical cards (same name, same counters) are drawn once with "×N", unless the
        // decision may pick among them; a long row nobody picks from shows the names only.
        const picking = pickZones().has(label);
        const runs = [];
        entry.cards.forEach((name, i) => {
          const m = markOf(i), key = name + "\u0000" + JSON.stringify(m);
          const prev = runs[runs.length - 1];
          if (!picking && prev && prev.key === key) prev.count++;
          else runs.push({ key, name, index: i, marks: m, count: 1 });
        });
        if (!picking && runs.length > MANY_CARDS) row.classList.add("names-only");
        for (const run of runs) {
          const c = cardEl(run.name, label, run.index, run.marks);
          if (run.count > 1) { c.append(el("div", "copies", `×${run.count}`)); c.dataset.copies = String(run.count); }
          row.append(c);
        }
      }
      if (!entry.cards.length) row.append(el("span", "empty", "empty"));
    } else if ("top" in entry) {
      if (entry.count > 1) row.append(backEl(entry.count - 1, "below"));
      if (entry.top !== null) row.append(cardEl(entry.top, label, entry.count - 1, entry.top_counters));
      if (!entry.count) row.append(el("span", "empty", "empty"));
    } else {
      row.append(entry.count ? backEl(entry.count) : el("span", "empty", "empty"));
    }
    box.append(row);
    if (entry.shown && entry.shown.length) {
      const shown = el("div", "shown");
      shown.append(el("span", "shown-label", "shown to you:"));
      for (const s of entry.shown) {
        const c = cardEl(s.card, label, entry.count - 1 - s.from_top);
        c.title = `#${s.from_top + 1} from the top`;
        shown.append(c);
      }
      box.append(shown);
    }
    return box;
  }

  // The zones holding cards this seat's decision may pick now.
  function pickZones() {
    const d = last.decision, zones = new Set();
    if (!d || seat === null || !d.waiting_for.includes(seat) || last.view.over) return zones;
    for (const o of d.options) for (const z of o.zones) zones.add(z);
    return zones;
  }

  const isEmpty = (entry) => !(entry.cards ? entry.cards.length : entry.count) && !(entry.shown && entry.shown.length);

  // Zones, the empty ones named on one line at the end rather than drawn as empty boxes.
  function zonesEl(entries) {
    const zones = el("div", "zones");
    const empty = el("div", "empty-zones");
    for (const [label, title, spec] of entries) {
      if (isEmpty(last.view.zones[label])) {
        const name = el("span", "empty-zone", title.replace(/_/g, " "));
        name.dataset.zone = label;
        if (spec.description) name.title = spec.description;
        empty.append(name);
      } else zones.append(zoneEl(label, title, spec));
    }
    if (empty.children.length) { empty.prepend(el("span", "empty-label", "empty:")); zones.append(empty); }
    return zones;
  }

  // ------------------------------------------------------------------ the table, the board, the players
  function renderTable() {
    const area = $("table-area");
    area.replaceChildren();
    const zones = zonesEl(layout.shared.filter((spec) => spec.name in last.view.zones)
      .map((spec) => [spec.name, spec.name, spec]));
    const vars = el("div", "game-vars");
    for (const [name, value] of Object.entries(last.view.variables)) {
      const kind = layout.game_variables[name];
      if (kind === "space") continue;  // drawn on the board
      const v = el("span", "var");
      v.append(el("span", "var-name", name.replace(/_/g, " ")), el("span", "var-value", format(value, kind)));
      vars.append(v);
    }
    const counters = last.view.counters || {};
    if (zones.children.length) { area.append(el("h2", null, "On the table"), zones); }
    area.append(vars);
    void counters;
  }

  function spaceEl(space, wide) {
    const cell = el("div", "space");
    cell.dataset.space = space;
    cell.append(el("div", "space-name", space));
    const stack = el("div", "space-zones");
    for (const spec of layout.per_space) {
      const label = `${spec.name}(${space})`;
      const entry = last.view.zones[label];
      if (!entry) continue;
      const count = entry.cards ? entry.cards.length : entry.count;
      if (!count && layout.per_space.length > 1) continue;
      stack.append(zoneEl(label, spec.name, spec, !wide));
    }
    cell.append(stack);
    const counters = last.view.counters || {};
    for (const [name, entry] of Object.entries(counters)) {
      const n = entry.spaces ? entry.spaces[space] : 0;
      if (n) cell.append(el("div", "marks", `${name} ${n}`));
    }
    const pieces = el("div", "pieces");
    (last.view.player_variables || []).forEach((row, p) => {
      for (const [name, value] of Object.entries(row)) {
        if (layout.player_variables[name] === "space" && value === space) {
          const piece = el("span", "piece", `P${p + 1}`);
          piece.style.setProperty("--hue", SEAT_HUES[p % SEAT_HUES.length]);
          piece.title = `${seatName(p)}: ${name.replace(/_/g, " ")}`;
          pieces.append(piece);
        }
      }
    });
    for (const [name, value] of Object.entries(last.view.variables)) {
      if (layout.game_variables[name] === "space" && value === space) {
        pieces.append(el("span", "piece marker", name.replace(/_/g, " ")));
      }
    }
    if (pieces.children.length) cell.append(pieces);
    const board = layout.board;
    for (const m of board.markers[space] || []) {
      const mark = el("div", `edge-marker dir-${m.direction}`, `${ARROWS[m.direction] || ""} ${m.direction} to ${m.to}`.trim());
      mark.title = `a step ${m.direction} from ${space} leads to ${m.to}`;
      cell.append(mark);
    }
    for (const m of board.exits[space] || []) cell.append(el("div", "exit", `${m.direction} → ${m.to}`));
    return cell;
  }

  function renderBoard() {
    const area = $("board-area");
    area.replaceChildren();
    const board = layout.board;
    if (!board) return;
    area.append(el("h2", null, board.shape === "ring" ? `The board: a ring of ${board.ring.length} spaces`
      : board.shape === "grid" ? "The board (north at the top)" : "The board"));
    if (board.shape === "grid") {
      const grid = el("div", "grid");
      grid.style.gridTemplateColumns = `repeat(${board.columns}, minmax(7rem, 1fr))`;
      for (let r = 1; r <= board.rows; r++) for (let c = 1; c <= board.columns; c++) grid.append(spaceEl(`r${r}c${c}`));
      area.append(grid);
    } else if (board.shape === "ring") {
      const ring = el("div", "ring");
      const n = board.ring.length;
      ring.append(el("div", "ring-line"));
      const centre = el("div", "ring-centre", board.forward ? `↻ ${board.forward}` : "");
      ring.append(centre);
      board.ring.forEach((space, i) => {
        const cell = spaceEl(space);
        const angle = (2 * Math.PI * i) / n - Math.PI / 2;
        cell.style.left = `${50 + 38 * Math.cos(angle)}%`;
        cell.style.top = `${50 + 38 * Math.sin(angle)}%`;
        cell.classList.add("on-ring");
        ring.append(cell);
      });
      area.append(ring);
    }
    if (board.others.length) {
      const list = el("div", "other-spaces");
      for (const space of board.others) list.append(spaceEl(space, true));
      area.append(list);
    }
  }

  function renderPlayers() {
    const area = $("players-area");
    area.replaceChildren();
    const d = last.decision;
    const waiting = new Set(d ? d.waiting_for : []);
    const decided = new Set(d ? d.decided : []);
    const counters = last.view.counters || {};
    const order = [...Array(players).keys()];
    if (seat !== null) order.sort((a, b) => (a === seat ? -1 : b === seat ? 1 : a - b));
    for (const p of order) {
      const box = el("div", "player");
      box.dataset.seat = String(p);
      box.style.setProperty("--hue", SEAT_HUES[p % SEAT_HUES.length]);
      if (p === seat) box.classList.add("you");
      if (waiting.has(p)) box.classList.add("deciding");
      const head = el("div", "player-head");
      head.append(el("span", "player-name", seatName(p) + (p === seat ? " (you)" : "")));
      if (last.bots.includes(p)) head.append(el("span", "tag", "bot"));
      if (waiting.has(p)) head.append(el("span", "tag deciding-tag", "deciding…"));
      else if (decided.has(p)) head.append(el("span", "tag", "has chosen"));
      if (last.view.over && last.view.winners.includes(p)) head.append(el("span", "tag winner", "winner"));
      box.append(head);
      const vars = el("div", "player-vars");
      const row = last.view.player_variables[p] || {};
      for (const [name, value] of Object.entries(row)) {
        const kind = layout.player_variables[name];
        if (kind === "space") continue;
        const v = el("span", "var");
        v.append(el("span", "var-name", name.replace(/_/g, " ")), el("span", "var-value", format(value, kind)));
        vars.append(v);
      }
      for (const [name, entry] of Object.entries(counters)) {
        if (entry.players) {
          const v = el("span", "var");
          v.append(el("span", "var-name", name), el("span", "var-value", String(entry.players[p])));
          vars.append(v);
        }
      }
      if (last.view.over) {
        const v = el("span", "var score");
        v.append(el("span", "var-name", "score"), el("span", "var-value", String(last.view.scores[p])));
        vars.append(v);
      }
      if (vars.children.length) box.append(vars);
      box.append(zonesEl(layout.per_player.map((spec) => [`${spec.name}(${p + 1})`, spec.name, spec])
        .filter(([label]) => label in last.view.zones)));
      area.append(box);
    }
  }

  // ------------------------------------------------------------------ the decision
  const multiset = (items) => items.map((x) => `${x.zone}\u0000${x.name}`).sort().join("\u0001");

  function matching(options) {
    const key = multiset(selection);
    const found = options.filter((o) => multiset(o.cards.map((name, i) => ({ name, zone: o.zones[i] }))) === key);
    if (found.length > 1 && selection.length) {
      const first = found.find((o) => o.cards[0] === selection[0].name);
      if (first) return first;
    }
    return found[0] || null;
  }

  function act(label) {
    sendAction({ type: "act", action: label });
  }

  function renderDecision() {
    const panel = $("decision");
    panel.replaceChildren();
    const view = last.view, d = last.decision;
    if (last.problem) { $("problem").textContent = last.problem; $("problem").hidden = false; }
    else $("problem").hidden = true;
    if (view.over) {
      panel.append(el("h2", null, "Game over"));
      const winners = view.winners.map(seatName);
      const line = !winners.length ? "Nobody wins." : winners.length === 1 ? `${winners[0]} wins.`
        : `${winners.slice(0, -1).join(", ")} and ${winners[winners.length - 1]} share the victory.`;
      panel.append(el("p", "result", line));
      const scores = el("table", "scores");
      view.scores.forEach((s, p) => {
        const tr = el("tr", view.winners.includes(p) ? "win" : "");
        tr.append(el("td", null, seatName(p) + (p === seat ? " (you)" : "")), el("td", null, String(s)));
        scores.append(tr);
      });
      panel.append(scores);
      const buttons = el("div", "buttons");
      const log = el("button", "secondary", "Download the game log");
      log.onclick = () => send({ type: "log" });
      buttons.append(log);
      if (seat !== null) {
        const again = el("button", "primary", "Play again");
        again.onclick = () => send({ type: "again" });
        buttons.append(again);
      }
      panel.append(buttons);
      banner(line, "over");
      return;
    }
    if (!d) { panel.append(el("p", null, "…")); return; }
    const waiting = d.waiting_for;
    const mine = seat !== null && waiting.includes(seat) && d.options.length > 0;
    const others = waiting.filter((p) => p !== seat);
    const waitText = others.length
      ? `Waiting for ${plural(others.length, "player")}: ${others.map(seatName).join(", ")}` : "";
    if (!mine) {
      panel.append(el("h2", null, d.prompt ? `Decision: ${d.prompt}` : "Decision"));
      if (seat !== null && d.decided.includes(seat)) panel.append(el("p", "done", "Your choice is in."));
      if (d.secret) panel.append(el("p", "secret-note", "A secret choice: nobody sees the picks until all are in."));
      panel.append(el("p", "waiting", waitText || "…"));
      banner(seat !== null && d.decided.includes(seat) ? `Your choice is in. ${waitText}.` : `${waitText}.`, "wait");
      return;
    }
    banner(`Your decision: ${d.prompt}` + (others.length ? ` (also waiting for ${plural(others.length, "player")})` : ""),
      "yours");
    panel.append(el("h2", null, `Your decision: ${d.prompt}`));
    if (d.secret) panel.append(el("p", "secret-note", "Secret: the others see only that you have chosen."));
    if (others.length) panel.append(el("p", "waiting", waitText));
    const withCards = d.options.filter((o) => o.cards.length);
    if (d.pick === "several" && withCards.length) {
      panel.append(el("p", "hint", "Click cards to select them, then confirm."));
      const picked = el("div", "picked");
      picked.append(el("span", "picked-label", selection.length ? "Selected: " : "Nothing selected yet."));
      picked.append(el("span", null, selection.map((s) => s.name).join(", ")));
      panel.append(picked);
      const match = matching(d.options);
      const buttons = el("div", "buttons");
      const confirm = el("button", "primary confirm", match ? `Confirm: ${match.label}` : "Confirm");
      confirm.disabled = !match || sent;
      confirm.onclick = () => { if (match) act(match.label); };
      const clear = el("button", "secondary", "Clear");
      clear.disabled = !selection.length;
      clear.onclick = () => { selection = []; render(); };
      buttons.append(confirm, clear);
      panel.append(buttons);
      if (!match && selection.length) {
        const counts = (items) => items.reduce((m, x) => m.set(`${x.zone}\u0000${x.name}`, (m.get(`${x.zone}\u0000${x.name}`) || 0) + 1), new Map());
        const want = counts(selection);
        const more = d.options.some((o) => {
          const have = counts(o.cards.map((name, i) => ({ name, zone: o.zones[i] })));
          return [...want].every(([k, n]) => (have.get(k) || 0) >= n);
        });
        panel.append(el("p", "hint", more ? "Select more cards." : "No option has exactly these cards."));
      }
    } else if (withCards.length) {
      panel.append(el("p", "hint", "Click a highlighted card, or choose below."));
    }
    const list = el("div", "options");
    for (const o of d.options) {
      const b = el("button", "option", o.label);
      b.disabled = sent;
      b.onclick = () => act(o.label);
      list.append(b);
    }
    if (d.pick === "several" && withCards.length) {
      const details = el("details", "all-options");
      details.append(el("summary", null, `or pick one of the ${plural(d.options.length, "option")}`));
      details.append(list);
      panel.append(details);
    } else panel.append(list);
  }

  // Cards that a decision's options name become clickable where they lie.
  function wireCards() {
    const d = last.decision;
    if (!d || seat === null || !d.waiting_for.includes(seat) || !d.options.length || last.view.over) return;
    const options = d.options.filter((o) => o.cards.length);
    if (!options.length) return;
    const candidates = new Set();
    for (const o of options) o.cards.forEach((name, i) => candidates.add(`${o.zones[i]}\u0000${name}`));
    for (const c of document.querySelectorAll(".card:not(.back)")) {
      const key = `${c.dataset.zone}\u0000${c.dataset.name}`;
      if (!candidates.has(key) || c.closest(".shown")) continue;
      c.classList.add("pickable");
      c.tabIndex = 0;
      const chosen = selection.some((s) => s.zone === c.dataset.zone && s.index === Number(c.dataset.index));
      if (chosen) c.classList.add("selected");
      const click = () => {
        if (sent) return;
        if (d.pick === "several") {
          const at = selection.findIndex((s) => s.zone === c.dataset.zone && s.index === Number(c.dataset.index));
          if (at >= 0) selection.splice(at, 1);
          else selection.push({ zone: c.dataset.zone, index: Number(c.dataset.index), name: c.dataset.name });
          render();
        } else {
          const o = options.find((x) => x.cards.length === 1 && x.cards[0] === c.dataset.name && x.zones[0] === c.dataset.zone);
          if (o) act(o.label);
        }
      };
      c.onclick = click;
      c.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); click(); } };
    }
  }

  // ------------------------------------------------------------------ undo, and who is thinking
  function renderControls() {
    const undo = $("undo");
    undo.hidden = seat === null;
    undo.disabled = sent || !last.can_undo || !!last.view.over;
    undo.onclick = () => { if (last.can_undo) sendAction({ type: "undo" }); };
  }

  function showThinking() {
    const who = (last.thinking || []).filter((p) => p !== seat);
    const note = $("thinking");
    note.textContent = who.map((p) => `${seatName(p)} is thinking…`).join(" ");
    note.hidden = !who.length;
  }

  function render() {
    if (!layout || !last) return;
    renderTable();
    renderBoard();
    renderPlayers();
    renderDecision();
    wireCards();
    renderControls();
    showThinking();
  }

  connect();
})();
