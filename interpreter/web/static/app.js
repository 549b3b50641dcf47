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
  const LONG_TEXT = 180;    // a card text longer than this shows its first lines on the face, all of it on a tap
  const MAX_OPTION_FACES = 12;  // a decision with more options than this shows no card faces in its list
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
  // A card's face follows the definition's table.cards: a title, at most three badges, a colour band
  // by one property's value, the ability's type and its whole text.  Every other property is one
  // click away (the "i" button, or a tap on a card that is not to be picked): nothing is cut off.
  const words = (key) => String(key).replace(/_/g, " ");
  const face = () => (layout.table && layout.table.cards) || { title: "name", badges: [], band: null, colours: {} };
  const plainFace = (f) => !f.badges.length && !f.band && !f.ability && !f.text && f.title === "name";

  function tint(props) {
    for (const value of Object.values(props || {})) {
      const words = Array.isArray(value) ? value : [value];
      for (const w of words) if (typeof w === "string" && COLOURS.has(w.toLowerCase())) return w.toLowerCase();
    }
    return null;
  }

  // The band's colour for a value: the definition's colour for it, the colour it names, or a hue of its own.
  function bandColour(value) {
    if (value === undefined || value === null || value === "") return null;
    const key = Array.isArray(value) ? value.join(", ") : String(value);
    const given = face().colours || {};
    if (Object.prototype.hasOwnProperty.call(given, key)) return given[key];
    if (COLOURS.has(key.toLowerCase())) return key.toLowerCase();
    let hue = 0;
    for (const ch of key) hue = (hue * 31 + ch.codePointAt(0)) % 360;
    return `hsl(${hue} 50% 42%)`;
  }

  function badgeText(key, value) {
    if (value === true) return words(key);
    const shown = Array.isArray(value) ? value.map((v) => format(v)).join("/") : format(value);
    return `${words(key)} ${shown}`;
  }

  function propText(key, value) {
    return value === true ? words(key) : `${words(key)}: ${format(value)}`;
  }

  function cardEl(name, zone, index, marks, options) {
    const opts = options || {};
    const props = (last.cards || {})[name] || {};
    const f = face();
    const c = el("div", "card");
    c.dataset.zone = zone; c.dataset.index = String(index); c.dataset.name = name;
    const colour = f.band ? bandColour(f.band in props ? props[f.band] : f.band_default) : tint(props);
    if (colour) { c.classList.add("tinted"); c.style.setProperty("--tint", colour); }
    const title = f.title !== "name" && props[f.title] !== undefined ? format(props[f.title]) : name;
    c.append(el("div", "card-name", title));
    if (plainFace(f)) {  // no face given: every property, whole
      const list = el("ul", "props");
      for (const [key, value] of Object.entries(props)) list.append(el("li", null, propText(key, value)));
      if (list.children.length) c.append(list);
    } else {
      const badges = el("div", "badges");
      for (const key of f.badges) if (key in props) badges.append(el("span", "badge", badgeText(key, props[key])));
      if (badges.children.length) c.append(badges);
      if (f.ability && props[f.ability]) c.append(el("div", "ability", format(props[f.ability])));
      if (f.text && props[f.text]) {
        const text = format(props[f.text]);
        c.append(el("div", text.length > LONG_TEXT ? "card-text long" : "card-text", text));
        if (text.length > LONG_TEXT && !opts.noInfo) {  // the face shows its start; the whole text is one tap away
          const more = el("span", "more", "read all");
          more.onclick = (e) => { e.stopPropagation(); showCard(name, zone, index, marks); };
          c.append(more);
        }
      }
    }
    c.title = [name, ...Object.entries(props).map(([k, v]) => propText(k, v))].join("\n");
    for (const [key, value] of Object.entries(marks || {})) {
      if (value) c.append(el("div", "marks", `${key} ${value}`));
    }
    if (!opts.noInfo) {
      const info = el("button", "card-info", "i");
      info.type = "button";
      info.title = `read the whole card: ${name}`;
      info.setAttribute("aria-label", `read the whole card: ${name}`);
      info.onclick = (e) => { e.stopPropagation(); showCard(name, zone, index, marks); };
      c.append(info);
      c.onclick = () => showCard(name, zone, index, marks);  // a card to pick is given its own click by wireCards

    }
    return c;
  }

  // The band property's value of a card (its default when the card does not say), as text.
  function bandOf(name) {
    const f = face();
    if (!f.band) return "";
    const props = (last.cards || {})[name] || {};
    const value = f.band in props ? props[f.band] : f.band_default;
    return value === undefined || value === null ? "" : String(value);
  }

  // A zone shown "grouped": its cards in groups by band value (first seen first), in order within
  // each group; any other zone: as they lie.
  function groupedOrder(cards, hint) {
    const order = cards.map((_, i) => i);
    if (hint.show !== "grouped" || !face().band) return order;
    const rank = new Map();
    for (const name of cards) if (!rank.has(bandOf(name))) rank.set(bandOf(name), rank.size);
    return order.sort((a, b) => rank.get(bandOf(cards[a])) - rank.get(bandOf(cards[b])) || a - b);
  }

  // The whole card, every property included, in a panel over the page.
  let detailOpener = null;  // what had the focus when the card opened: it gets it back when the card closes
  function closeCard() {
    const shade = $("card-detail");
    if (!shade || shade.hidden) return;
    shade.hidden = true;
    if (detailOpener && document.body.contains(detailOpener)) detailOpener.focus({ preventScroll: true });
    detailOpener = null;
  }

  function showCard(name, zone, index, marks) {
    let shade = $("card-detail");
    if (!shade) {
      shade = el("div", "card-detail");
      shade.id = "card-detail";
      shade.onclick = (e) => { if (e.target === shade) closeCard(); };
      document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeCard(); });
      document.body.append(shade);
    }
    if (shade.hidden !== false || !detailOpener) detailOpener = document.activeElement;
    const props = (last.cards || {})[name] || {};
    const box = el("div", "card-detail-box");
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", name);
    const big = cardEl(name, zone, index, marks, { noInfo: true });
    big.classList.add("big");
    box.append(big);
    const list = el("dl", "all-props");
    for (const [key, value] of Object.entries(props)) list.append(el("dt", null, words(key)), el("dd", null, format(value)));
    if (list.children.length) box.append(list);
    const close = el("button", "secondary", "Close");
    close.onclick = closeCard;
    box.append(close);
    shade.replaceChildren(box);
    shade.hidden = false;
    close.focus();
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
    head.append(el("span", "zone-name", title));
    const count = entry.cards ? entry.cards.length : entry.count;
    head.append(el("span", "zone-count", plural(count || 0, "card")));
    if (spec.description) head.title = spec.description;
    box.append(head);
    const hint = zoneHint(spec.name);
    const row = el("div", compact ? "cards compact" : hint.show === "stack" ? "cards stack" : "cards");
    if (entry.cards && hint.show === "stack" && !compact) {  // a pile, bottom to top: the top card drawn first
      const marks = entry.counters || {};
      for (let i = entry.cards.length - 1; i >= 0; i--) {
        const m = {};
        for (const [k, v] of Object.entries(marks)) m[k] = v[i];
        const c = cardEl(entry.cards[i], label, i, m);
        if (i === entry.cards.length - 1) c.classList.add("top-card");
        if (i === 0) c.classList.add("base-card");  // the base of a pile keeps its text (a card the others are stacked on)
        row.append(c);
      }
      if (entry.cards.length > 1) box.classList.add("is-stack");
      if (!entry.cards.length) row.append(el("span", "empty", "empty"));
    } else if (entry.cards) {
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
        const next = hint.next && n ? (hint.next === "top" ? n - 1 : 0) : -1;  // the card the rules take next
        const runs = [];
        const order = groupedOrder(entry.cards, hint);
        order.forEach((i) => {
          const name = entry.cards[i], m = markOf(i), key = name + "\u0000" + JSON.stringify(m);
          const prev = runs[runs.length - 1];
          if (!picking && prev && prev.key === key && i !== next && prev.index !== next) prev.count++;
          else runs.push({ key, name, index: i, marks: m, count: 1, group: bandOf(name) });
        });
        if (!picking && runs.length > MANY_CARDS) row.classList.add("names-only");
        runs.forEach((run, r) => {
          const c = cardEl(run.name, label, run.index, run.marks);
          if (run.count > 1) { c.append(el("div", "copies", `×${run.count}`)); c.dataset.copies = String(run.count); }
          if (hint.show === "grouped" && r > 0 && runs[r - 1].group !== run.group) c.classList.add("group-start");
          if (run.index === next) { c.classList.add("next-card"); c.append(el("div", "next-mark", "next")); }
          row.append(c);
        });
      }
      if (!entry.cards.length) row.append(el("span", "empty", "empty"));
    } else if ("top" in entry) {
      if (entry.count > 1) row.append(backEl(entry.count - 1, "below"));
      if (entry.top !== null) row.append(cardEl(entry.top, label, entry.count - 1, entry.top_counters));
      if (!entry.count) row.append(el("span", "empty", "empty"));
    } else {
      // The backs stand for the cards this seat cannot see; those it sees are listed below them.
      const unseen = entry.count - (entry.shown || []).length;
      if (unseen > 0) row.append(backEl(unseen));
      else if (!entry.count) row.append(el("span", "empty", "empty"));
    }
    box.append(row);
    // Cards this seat sees in a zone that hides them: those everyone saw ("public": watched going there,
    // or shown to every player) are known to all; the others were shown to this seat alone.
    const seen = entry.shown || [];
    for (const [words, cls, listed] of [["known to all:", "shown public", seen.filter((s) => s.public)],
                                        ["shown to you:", "shown", seen.filter((s) => !s.public)]]) {
      if (!listed.length) continue;
      const shown = el("div", cls);
      shown.append(el("span", "shown-label", words));
      for (const s of listed) {
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
        const name = el("span", "empty-zone", title);
        name.dataset.zone = label;
        if (spec.description) name.title = spec.description;
        empty.append(name);
      } else zones.append(zoneEl(label, title, spec));
    }
    if (empty.children.length) { empty.prepend(el("span", "empty-label", "empty:")); zones.append(empty); }
    return zones;
  }

  // ------------------------------------------------------------------ the table, the board, the players
  // Where each zone goes comes from the definition's table.zones (every zone is there, defaults filled
  // in by the loader): "shared" rows, each player's area, the board, or "box", under the table.  The
  // page draws what the seat's view holds, wherever it goes: a place never adds or removes a card.
  function zoneHint(name) {
    const zones = (layout.table && layout.table.zones) || {};
    return zones[name] || { at: null, label: words(name), show: "row" };
  }
  function zonesAt(at, specs) {
    const order = Object.keys((layout.table && layout.table.zones) || {});
    const placed = specs.filter((spec) => (zoneHint(spec.name).at || at) === at);
    return placed.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  }

  // Variables as the definition's table.variables shows them: only those, under their labels (none
  // given: every variable under its name).
  function shownVariables(row, which) {
    const chosen = layout.table && layout.table.variables ? layout.table.variables[which] : null;
    const kinds = which === "game" ? layout.game_variables : layout.player_variables;
    const names = chosen ? Object.keys(chosen).filter((n) => n in row) : Object.keys(row);
    return names.map((name) => [name, chosen ? chosen[name] : words(name), row[name], kinds[name]]);
  }
  function variableEl(label, value, kind) {
    const v = el("span", "var");
    v.append(el("span", "var-name", label), el("span", "var-value", format(value, kind)));
    return v;
  }

  function renderTable() {
    const area = $("table-area");
    area.replaceChildren();
    const zones = zonesEl(zonesAt("shared", layout.shared).filter((spec) => spec.name in last.view.zones)
      .map((spec) => [spec.name, zoneHint(spec.name).label, spec]));
    const vars = el("div", "game-vars");
    for (const [, label, value, kind] of shownVariables(last.view.variables, "game")) {
      if (kind !== "space") vars.append(variableEl(label, value, kind));  // a space: drawn on the board
    }
    if (zones.children.length) { area.append(el("h2", null, "On the table"), zones); }
    if (vars.children.length) area.append(vars);
    area.append(boxEl());
  }

  // Under the table: the zones placed in the "box" (component boxes, scratch zones), folded away but
  // never emptied: whatever the seat may see of them is one click away.
  function boxEl() {
    const entries = [];
    for (const spec of zonesAt("box", layout.shared)) if (spec.name in last.view.zones) entries.push([spec.name, zoneHint(spec.name).label, spec]);
    for (const spec of zonesAt("box", layout.per_player)) {
      for (let p = 0; p < players; p++) {
        const label = `${spec.name}(${p + 1})`;
        if (label in last.view.zones) entries.push([label, `${zoneHint(spec.name).label} (${seatName(p)})`, spec]);
      }
    }
    for (const spec of zonesAt("box", layout.per_space)) {
      for (const space of (layout.board ? layout.board.spaces : [])) {
        const label = `${spec.name}(${space})`;
        if (label in last.view.zones) entries.push([label, `${zoneHint(spec.name).label} (${space})`, spec]);
      }
    }
    const box = el("details", "under-table");
    box.id = "under-table";
    if (!entries.length) { box.hidden = true; return box; }
    if (underTableOpen) box.open = true;
    box.ontoggle = () => { underTableOpen = box.open; };
    const cards = entries.reduce((n, [label]) => {
      const e = last.view.zones[label];
      return n + (e.cards ? e.cards.length : e.count || 0);
    }, 0);
    box.append(el("summary", null, `Under the table: ${plural(entries.length, "zone")}, ${plural(cards, "card")}`));
    box.append(zonesEl(entries));
    return box;
  }
  let underTableOpen = false;

  function spaceEl(space, wide) {
    const cell = el("div", "space");
    cell.dataset.space = space;
    cell.append(el("div", "space-name", space));
    const stack = el("div", "space-zones");
    const onBoard = zonesAt("board", layout.per_space);
    for (const spec of onBoard) {
      const label = `${spec.name}(${space})`;
      const entry = last.view.zones[label];
      if (!entry) continue;
      const count = entry.cards ? entry.cards.length : entry.count;
      if (!count && onBoard.length > 1) continue;
      stack.append(zoneEl(label, zoneHint(spec.name).label, spec, !wide));
    }
    cell.append(stack);
    const counters = last.view.counters || {};
    for (const [name, entry] of Object.entries(counters)) {
      const n = entry.spaces ? entry.spaces[space] : 0;
      if (n) cell.append(el("div", "marks", `${name} ${n}`));
    }
    const pieces = el("div", "pieces");
    (last.view.player_variables || []).forEach((row, p) => {
      for (const [, label, value, kind] of shownVariables(row, "player")) {
        if (kind === "space" && value === space) {
          const piece = el("span", "piece", `P${p + 1}`);
          piece.style.setProperty("--hue", SEAT_HUES[p % SEAT_HUES.length]);
          piece.title = `${seatName(p)}: ${label}`;
          pieces.append(piece);
        }
      }
    });
    for (const [, label, value, kind] of shownVariables(last.view.variables, "game")) {
      if (kind === "space" && value === space) pieces.append(el("span", "piece marker", label));
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
      grid.style.setProperty("--columns", String(board.columns));
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
      for (const [, label, value, kind] of shownVariables(last.view.player_variables[p] || {}, "player")) {
        if (kind !== "space") vars.append(variableEl(label, value, kind));
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
      box.append(zonesEl(zonesAt("player", layout.per_player).map((spec) => [`${spec.name}(${p + 1})`, zoneHint(spec.name).label, spec])
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
    if (view.over) { renderEnding(panel); return; }
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
    const faces = d.options.length <= MAX_OPTION_FACES && !(d.pick === "several" && withCards.length);
    for (const o of d.options) {
      const b = optionEl(o, faces);
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

  // Whether a card's face says more than its name (else an option naming it needs no face).
  function informative(name) {
    const f = face(), props = (last.cards || {})[name] || {};
    if (plainFace(f)) return Object.keys(props).length > 0;
    return [...f.badges, f.ability, f.text].some((k) => k && k in props) || (f.band && (f.band in props || f.band_default));
  }

  // An option's button; one that picks cards shows their faces (a short list only: a long one is
  // picked on the table, where the cards lie).
  function optionEl(o, faces) {
    const b = el("button", "option");
    b.append(el("span", "option-label", o.label));
    if (faces && o.cards.length && o.cards.some(informative)) {
      const row = el("span", "option-cards");
      o.cards.forEach((name, i) => {
        const c = cardEl(name, o.zones[i], -1, null, { noInfo: true });
        c.classList.add("in-option");
        row.append(c);
      });
      b.append(row);
      b.classList.add("with-cards");
    }
    return b;
  }

  // The end of the game: the winner, and each player's score by the definition's own terms.
  function renderEnding(panel) {
    const view = last.view;
    const winners = view.winners.map(seatName);
    const line = !winners.length ? "Nobody wins." : winners.length === 1 ? `${winners[0]} wins!`
      : `${winners.slice(0, -1).join(", ")} and ${winners[winners.length - 1]} share the victory!`;
    const head = el("div", "winner-banner");
    head.append(el("div", "winner-title", "Game over"), el("div", "result", line));
    panel.append(head);
    const terms = (layout.table && layout.table.score) || [];
    const breakdown = last.breakdown || [];
    const scores = el("table", "scores");
    const top = el("tr");
    top.append(el("th", null, "player"));
    const shownTerms = terms.length > 1 ? terms : [];  // one term is the score itself, and heads it
    for (const [, label] of shownTerms) top.append(el("th", "term", label));
    top.append(el("th", "total", terms.length === 1 ? terms[0][1] : "score"));
    scores.append(top);
    const order = [...view.scores.keys()].sort((a, b) => view.scores[b] - view.scores[a] || a - b);
    for (const p of order) {
      const tr = el("tr", view.winners.includes(p) ? "win" : "");
      tr.dataset.seat = String(p);
      tr.append(el("td", null, seatName(p) + (p === seat ? " (you)" : "") + (view.winners.includes(p) ? " ★" : "")));
      for (const [term] of shownTerms) tr.append(el("td", "term", String((breakdown[p] || {})[term] ?? "")));
      tr.append(el("td", "total", String(view.scores[p])));
      scores.append(tr);
    }
    const wrap = el("div", "scores-wrap");
    wrap.append(scores);
    panel.append(wrap);
    const buttons = el("div", "buttons");
    const log = el("button", "secondary", "Download the game log");
    log.onclick = () => send({ type: "log" });
    buttons.append(log);
    const asked = last.again || [];
    if (seat !== null && !asked.includes(seat)) {
      const again = el("button", "primary", "Play again");
      again.onclick = () => send({ type: "again" });
      buttons.append(again);
    }
    panel.append(buttons);
    if (asked.length) {  // a new game starts when every person at the table has asked for one
      const others = last.humans.filter((p) => !asked.includes(p));
      panel.append(el("p", "waiting again-votes", (seat !== null && asked.includes(seat) ? "You asked to play again. " : "")
        + `Waiting for ${others.map(seatName).join(", ")} to agree to play again.`));
    }
    banner(line, "over");
  }

  // Cards that a decision's options name become clickable where they lie.
  function wireCards() {
    const d = last.decision;
    if (!d || seat === null || !d.waiting_for.includes(seat) || !d.options.length || last.view.over) return;
    const options = d.options.filter((o) => o.cards.length);
    if (!options.length) return;
    const candidates = new Set();
    for (const o of options) o.cards.forEach((name, i) => candidates.add(`${o.zones[i]}\u0000${name}`));
    for (const c of document.querySelectorAll(".card:not(.back):not(.in-option)")) {
      if (c.closest(".card-detail")) continue;
      const key = `${c.dataset.zone}\u0000${c.dataset.name}`;
      if (!candidates.has(key) || c.closest(".shown")) continue;
      c.classList.add("pickable");
      c.tabIndex = 0;
      c.setAttribute("role", "button");  // a card to pick is a control: said so, and whether it is selected
      const chosen = selection.some((s) => s.zone === c.dataset.zone && s.index === Number(c.dataset.index));
      if (chosen) c.classList.add("selected");
      if (d.pick === "several") c.setAttribute("aria-pressed", chosen ? "true" : "false");
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
      c.onkeydown = (e) => {  // (a key on the card's own "i" button opens the card, and picks nothing)
        if (e.target === c && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); click(); }
      };
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

  // The control the keyboard is on, found again after a redraw (every frame redraws the page): a card to
  // pick by its zone and place, a button of the decision by its text.  A person choosing with the keyboard
  // keeps their place instead of starting again from the top of the page after each key.
  function focusedPlace() {
    const a = document.activeElement;
    if (!a || a === document.body) return null;
    const card = a.closest(".card.pickable, .card-info") && a.closest(".card");
    if (card && !card.closest(".card-detail, .option")) {
      const { zone, index } = card.dataset, info = a.matches(".card-info");
      return () => {
        const again = [...document.querySelectorAll(".card")].find((c) => c.dataset.zone === zone && c.dataset.index === index
          && !c.closest(".card-detail, .option"));
        return again && info ? again.querySelector(".card-info") : again;
      };
    }
    if (a.matches("#decision button.confirm")) return () => document.querySelector("#decision button.confirm");
    if (a.matches("#decision button")) {
      const text = a.textContent;
      return () => [...document.querySelectorAll("#decision button")].find((b) => b.textContent === text);
    }
    return null;
  }
  let focusToRestore = null;  // a place whose control was gone or disabled at the last redraw (an action in flight)
  document.addEventListener("pointerdown", () => { focusToRestore = null; });

  function render() {
    if (!layout || !last) return;
    const place = focusedPlace() || focusToRestore;
    renderTable();
    renderBoard();
    renderPlayers();
    renderDecision();
    wireCards();
    renderControls();
    showThinking();
    const again = place && place();
    if (again && !again.disabled) { again.focus({ preventScroll: true }); focusToRestore = null; }
    else focusToRestore = place;
  }

  connect();
})();
