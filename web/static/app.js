// The shanghai page: enter a position by tapping cards or typing notation, solve it,
// share it, and play against AI players. Plain JavaScript, no build step, no network
// but this server; cards are the <symbol>s of the sprite the server inlines (solver/svg.py).
"use strict";

const GAME = document.body.dataset.game;
const SUITS = ["S", "H", "D", "C"];
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const JOKERS = ["RJ", "BJ", "JK"];
const SVGNS = "http://www.w3.org/2000/svg";
const GAME_TITLE = { manipulation: "Manipulation Shanghai", contract: "Contract Shanghai", zsy: "Zheng Shang You" };

// --- small helpers -------------------------------------------------------------------------

function $(sel, root) { return (root || document).querySelector(sel); }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

function svgUse(id, viewBox) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", viewBox);
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(SVGNS, "use");
  use.setAttribute("href", "#" + id);
  svg.append(use);
  return svg;
}

function baseCode(token) { return token.split("=")[0].toUpperCase(); }
// Card codes from the API (a list) or from notation typed in (a string).
function tokens(text) { return Array.isArray(text) ? text : (text || "").trim().split(/\s+/).filter(Boolean); }
function isRed(code) { return /[HD]$/.test(code) || code === "RJ"; }

// One card drawn from the sprite; a token may carry a wild's role ("2S=8H").
function cardEl(token, opts) {
  opts = opts || {};
  const code = baseCode(token);
  const role = token.includes("=") ? token.split("=")[1] : null;
  const node = el(opts.onclick ? "button" : "span", {
    class: "card" + (opts.mark ? " " + opts.mark : ""),
    type: opts.onclick ? "button" : null,
    "data-card": code,
    "data-key": opts.key || null,
    "aria-label": opts.label || (code + (role ? " as " + role : "")),
    title: opts.title || null,
    onclick: opts.onclick || null,
  });
  node.append(svgUse("card-" + code, "0 0 60 84"));
  if (role) node.append(el("span", { class: "role", text: "=" + role }));
  return node;
}

function cardsEl(list, opts) {
  opts = opts || {};
  const marks = opts.marks || [];
  return el("div", { class: "cards" + (opts.fan ? " fan" : "") + (opts.mini ? " mini" : "") },
    list.map((t, i) => cardEl(t, { mark: marks[i], onclick: opts.onclick ? () => opts.onclick(i, t) : null })));
}

async function api(cmd, body) {
  let response;
  try {
    response = await fetch("/api/" + cmd, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (exc) {
    throw Object.assign(new Error("the server cannot be reached"), { code: "network" });
  }
  let data;
  try { data = await response.json(); } catch (exc) { data = { error: { code: "bad_reply", message: "bad reply" } }; }
  if (!response.ok) {
    const e = data.error || { code: "error", message: response.statusText };
    throw Object.assign(new Error(e.message), { code: e.code });
  }
  return data;
}

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function readFile(input) {
  return new Promise((resolve, reject) => {
    const file = input.files[0];
    if (!file) return reject(new Error("no file"));
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

function countOf(list) {
  const m = new Map();
  for (const t of list) { const c = baseCode(t); m.set(c, (m.get(c) || 0) + 1); }
  return m;
}

function sortKey(list) { return list.map(baseCode).sort().join(" "); }

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// --- state -------------------------------------------------------------------------------------

const S = {
  meta: null,          // /api/rules
  rules: {},           // {preset, ...overrides}
  deck: {},            // code -> copies
  contracts: [],       // contract per round (Contract)
  zones: [],           // {id, kind: hand|meld|discard|beat, cards: [tokens], owner, error, typed}
  active: null,
  round: 1,
  laidDown: false,
  beatKind: "",
  nextId: 1,
};

function zone(kind, cards, extra) {
  const z = Object.assign({ id: "z" + S.nextId++, kind, cards: cards || [], owner: 0, error: "" }, extra || {});
  return z;
}

function resetZones() {
  S.zones = [zone("hand")];
  if (GAME === "manipulation" || GAME === "contract") S.zones.push(zone("meld", [], { owner: GAME === "contract" ? 1 : 0 }));
  if (GAME === "contract") S.zones.push(zone("discard"));
  if (GAME === "zsy") S.zones.push(zone("beat"));
  S.active = S.zones[0].id;
}

function zoneLabel(z) {
  if (z.kind === "hand") return "Your hand";
  if (z.kind === "discard") return "Discard (top card)";
  if (z.kind === "beat") return "Combination to beat";
  const i = S.zones.filter((x) => x.kind === "meld").indexOf(z);
  return "Table meld " + (i + 1);
}

function puzzle() {
  const melds = S.zones.filter((z) => z.kind === "meld" && z.cards.length);
  const hand = S.zones.find((z) => z.kind === "hand").cards.join(" ");
  const position = {};
  if (GAME === "manipulation") {
    position.table = melds.map((z) => z.cards.join(" "));
    position.hand = hand;
  } else if (GAME === "contract") {
    position.round = S.round;
    position.hand = hand;
    position.table = melds.map((z) => ({ cards: z.cards.join(" "), owner: z.owner }));
    position.laid_down = S.laidDown;
    const d = S.zones.find((z) => z.kind === "discard");
    if (d && d.cards.length) position.discard = d.cards[0];
  } else {
    position.hand = hand;
    const b = S.zones.find((z) => z.kind === "beat");
    if (b && b.cards.length) {
      position.to_beat = b.cards.join(" ");
      if (S.beatKind) position.to_beat_kind = S.beatKind;
    }
  }
  return { game: GAME, rules: Object.assign({}, S.rules), position };
}

// --- the URL: the position lives in the fragment -------------------------------------------

function writeHash() {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(S.rules)) p.set(k === "preset" ? "preset" : "o." + k, String(v));
  const pos = puzzle().position;
  if (GAME === "manipulation") {
    if (pos.table.length) p.set("table", pos.table.join(" | "));
  } else if (GAME === "contract") {
    p.set("round", String(pos.round));
    if (pos.table.length) p.set("table", pos.table.map((t) => t.owner + ":" + t.cards).join(" | "));
    if (pos.laid_down) p.set("laid", "1");
    if (pos.discard) p.set("discard", pos.discard);
  } else {
    if (pos.to_beat) p.set("beat", pos.to_beat);
    if (pos.to_beat_kind) p.set("kind", pos.to_beat_kind);
  }
  if (pos.hand) p.set("hand", pos.hand);
  const hash = "#" + p.toString();
  if (location.hash !== hash) history.replaceState(null, "", location.pathname + hash);
}

function parseValue(v) {
  if (v === "true") return true;
  if (v === "false") return false;
  if (/^-?\d+$/.test(v)) return parseInt(v, 10);
  return v;
}

function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  resetZones();
  S.rules = {};
  for (const [k, v] of p) {
    if (k === "preset") S.rules.preset = v;
    else if (k.startsWith("o.")) S.rules[k.slice(2)] = parseValue(v);
  }
  if (!S.rules.preset && S.meta) S.rules.preset = S.meta[GAME].default_preset;
  const hand = S.zones.find((z) => z.kind === "hand");
  hand.cards = tokens(p.get("hand"));
  const table = (p.get("table") || "").split("|").map((s) => s.trim()).filter(Boolean);
  if (table.length) {
    S.zones = S.zones.filter((z) => z.kind !== "meld");
    const melds = table.map((m) => {
      if (GAME === "contract") {
        const owner = /^(\d+):/.exec(m);
        return zone("meld", tokens(owner ? m.slice(owner[0].length) : m), { owner: owner ? parseInt(owner[1], 10) : 1 });
      }
      return zone("meld", tokens(m));
    });
    S.zones.splice(1, 0, ...melds);
  }
  if (GAME === "contract") {
    S.round = parseInt(p.get("round") || "1", 10) || 1;
    S.laidDown = p.get("laid") === "1";
    S.zones.find((z) => z.kind === "discard").cards = tokens(p.get("discard"));
  }
  if (GAME === "zsy") {
    S.zones.find((z) => z.kind === "beat").cards = tokens(p.get("beat"));
    S.beatKind = p.get("kind") || "";
  }
}

function loadPuzzleData(data) {
  if (data.game && data.game !== GAME) {
    location.href = "/" + data.game + "#";
    sessionStorage.setItem("shanghai-upload", JSON.stringify(data));
    return;
  }
  const rules = Object.assign({}, data.rules || {});
  if (!rules.preset && S.meta) rules.preset = S.meta[GAME].default_preset;
  S.rules = rules;
  const pos = data.position || {};
  resetZones();
  S.zones.find((z) => z.kind === "hand").cards = tokens(pos.hand);
  const table = pos.table || [];
  if (table.length) {
    S.zones = S.zones.filter((z) => z.kind !== "meld");
    const melds = table.map((m) => typeof m === "string" ? zone("meld", tokens(m)) : zone("meld", tokens(m.cards), { owner: m.owner || 0 }));
    S.zones.splice(1, 0, ...melds);
  }
  if (GAME === "contract") {
    S.round = pos.round || 1;
    S.laidDown = !!pos.laid_down;
    S.zones.find((z) => z.kind === "discard").cards = pos.discard ? [pos.discard] : [];
  }
  if (GAME === "zsy") {
    S.zones.find((z) => z.kind === "beat").cards = tokens(pos.to_beat);
    S.beatKind = pos.to_beat_kind || "";
  }
}

// --- rules panel -------------------------------------------------------------------------------

function effectiveRules() {
  const meta = S.meta[GAME];
  const preset = meta.presets[S.rules.preset] || {};
  const out = {};
  for (const o of meta.options) out[o.name] = o.name in S.rules ? S.rules[o.name] : (o.name in preset ? preset[o.name] : o.default);
  return out;
}

function renderRules() {
  const meta = S.meta[GAME];
  const body = $("#rules-body");
  body.replaceChildren();
  const presetSel = el("select", { id: "preset", "aria-label": "preset", onchange: (e) => { S.rules = { preset: e.target.value }; rulesChanged(); } },
    Object.keys(meta.presets).map((p) => el("option", { value: p, text: p, selected: p === S.rules.preset })));
  body.append(el("label", {}, "preset", presetSel));
  const values = effectiveRules();
  for (const o of meta.options) {
    let input;
    const set = (v) => {
      const preset = meta.presets[S.rules.preset] || {};
      const base = o.name in preset ? preset[o.name] : o.default;
      if (v === base) delete S.rules[o.name]; else S.rules[o.name] = v;
      rulesChanged();
    };
    if (o.kind === "bool") {
      input = el("input", { type: "checkbox", name: o.name, checked: !!values[o.name], onchange: (e) => set(e.target.checked) });
    } else if (o.kind === "choice") {
      input = el("select", { name: o.name, onchange: (e) => set(e.target.value) },
        o.values.map((v) => el("option", { value: v, text: String(v), selected: v === values[o.name] })));
    } else if (o.kind === "int") {
      input = el("input", { type: "number", name: o.name, min: o.lo, max: o.hi, value: values[o.name] === null ? "" : values[o.name],
        onchange: (e) => set(e.target.value === "" && o.optional ? null : parseInt(e.target.value, 10)) });
    } else {
      input = el("input", { type: "text", name: o.name, value: String(values[o.name] || ""), onchange: (e) => set(e.target.value) });
    }
    body.append(el("label", { title: o.doc }, el("span", { class: "doc", text: o.name.replace(/_/g, " ") }), input));
  }
  const changed = Object.keys(S.rules).filter((k) => k !== "preset");
  $("#rules-summary").textContent = S.rules.preset + (changed.length ? " + " + changed.map((k) => k + "=" + S.rules[k]).join(", ") : "");
}

async function rulesChanged() {
  try {
    const d = await api("deck", { game: GAME, rules: S.rules });
    S.deck = d.deck;
    S.contracts = d.contracts || [];
    S.rulesError = "";
  } catch (e) {
    S.rulesError = e.message;
  }
  renderRules();
  renderAll();
  validate();
}

// --- position panel ----------------------------------------------------------------------------

function activeZone() { return S.zones.find((z) => z.id === S.active) || S.zones[0]; }

function renderPosition() {
  const root = $("#position");
  root.replaceChildren(el("h2", { text: GAME_TITLE[GAME] + ": position" }));
  if (S.rulesError) root.append(el("p", { class: "error", text: S.rulesError }));
  if (GAME === "contract") {
    const rounds = S.contracts.length || 7;
    root.append(el("div", { class: "bar" },
      el("label", {}, "Round", el("select", { id: "round", onchange: (e) => { S.round = parseInt(e.target.value, 10); changed(); } },
        Array.from({ length: rounds }, (_, i) => el("option", { value: i + 1, selected: S.round === i + 1, text: (i + 1) + (S.contracts[i] ? ": " + S.contracts[i] : "") })))),
      el("label", {}, el("input", { type: "checkbox", id: "laid-down", checked: S.laidDown, onchange: (e) => { S.laidDown = e.target.checked; changed(); } }), "I have laid down")));
  }
  for (const z of S.zones) root.append(renderZone(z));
  if (GAME !== "zsy") {
    root.append(el("button", { type: "button", id: "add-meld", onclick: () => {
      const z = zone("meld", [], { owner: GAME === "contract" ? 1 : 0 });
      const idx = S.zones.map((x) => x.kind).lastIndexOf("meld");
      S.zones.splice(idx >= 0 ? idx + 1 : 1, 0, z);
      S.active = z.id;
      changed();
    } }, "+ Add table meld"));
  }
  if (S.generalError) root.append(el("p", { class: "error", id: "position-error", text: S.generalError }));
}

function renderZone(z) {
  const head = el("div", { class: "zone-head" }, el("span", { class: "label", text: zoneLabel(z) }));
  if (z.kind === "meld" && GAME === "contract") {
    head.append(el("select", { "aria-label": "owner", class: "owner", onclick: (e) => e.stopPropagation(),
      onchange: (e) => { z.owner = parseInt(e.target.value, 10); changed(); } },
    [0, 1, 2, 3, 4, 5].map((o) => el("option", { value: o, selected: z.owner === o, text: o === 0 ? "mine" : "opponent " + o }))));
  }
  if (z.kind === "beat") {
    head.append(el("select", { "aria-label": "kind", id: "beat-kind", onclick: (e) => e.stopPropagation(),
      onchange: (e) => { S.beatKind = e.target.value; changed(); } },
    ["", "single", "set", "straight", "parallel"].map((k) => el("option", { value: k, selected: S.beatKind === k, text: k || "kind: auto" }))));
  }
  if (z.cards.length) head.append(el("button", { type: "button", class: "small", onclick: (e) => { e.stopPropagation(); z.cards = []; changed(); } }, "Clear"));
  if (z.kind === "meld") head.append(el("button", { type: "button", class: "small", "aria-label": "remove meld", onclick: (e) => {
    e.stopPropagation();
    S.zones = S.zones.filter((x) => x !== z);
    if (S.active === z.id) S.active = S.zones[0].id;
    changed();
  } }, "✕"));
  const input = el("input", { type: "text", value: z.cards.join(" "), "aria-label": zoneLabel(z) + " notation",
    placeholder: z.kind === "hand" ? "e.g. 6S KD 2H" : z.kind === "discard" ? "e.g. 7H" : "e.g. 3H 4H 5H",
    autocomplete: "off", autocapitalize: "characters", spellcheck: "false", "aria-invalid": z.error ? "true" : "false",
    "data-zone": z.kind,
    onfocus: () => { if (S.active !== z.id) { S.active = z.id; markActive(); } },
    oninput: (e) => { z.cards = tokens(e.target.value); z.typed = true; writeHash(); renderPicker(); scheduleValidate(); } });
  const box = el("div", { class: "zone" + (S.active === z.id ? " active" : ""), "data-zone-id": z.id, "data-kind": z.kind,
    onclick: () => { if (S.active !== z.id) { S.active = z.id; markActive(); } } },
  head,
  cardsEl(z.cards, { onclick: (i) => { z.cards.splice(i, 1); changed(); } }),
  input,
  z.error ? el("p", { class: "error", text: z.error, role: "alert" }) : null);
  return box;
}

function markActive() {
  for (const node of document.querySelectorAll(".zone")) node.classList.toggle("active", node.dataset.zoneId === S.active);
  renderPicker();
}

function used() {
  const m = new Map();
  for (const z of S.zones) for (const [c, n] of countOf(z.cards)) m.set(c, (m.get(c) || 0) + n);
  return m;
}

function renderPicker() {
  const root = $("#picker");
  const target = activeZone();
  const u = used();
  root.replaceChildren(el("h2", { text: "Cards" }),
    el("p", { class: "picker-target" }, "Tap a card to add it to ", el("b", { text: zoneLabel(target) }), ". Tap a card in the position to take it back."));
  const grid = el("div", { class: "picker-grid" });
  const chip = (code, label) => {
    const limit = S.deck[code] || 0;
    const n = u.get(code) || 0;
    return el("button", { type: "button", class: "chip" + (isRed(code) ? " red" : "") + (n ? " used" : ""), "data-card": code,
      disabled: n >= limit, "aria-label": code + ", " + n + " of " + limit + " used",
      onclick: () => addCard(code) }, label, el("span", { class: "count", text: n + "/" + limit }));
  };
  for (const s of SUITS) {
    grid.append(el("span", { class: "suit-label" }, svgUse("suit-" + s, "0 0 100 100")));
    RANKS.forEach((r, i) => {
      if (i === 7) grid.append(el("span", { class: "suit-label cont" }));
      const lab = el("span", {}, r);
      grid.append(chip(r + s, lab));
    });
    grid.append(el("span", { class: "filler" }));
  }
  root.append(grid);
  const jokers = JOKERS.filter((j) => S.deck[j]);
  if (jokers.length) root.append(el("div", { class: "jokers" }, jokers.map((j) => chip(j, el("span", { text: j })))));
}

function addCard(code) {
  const z = activeZone();
  if (z.kind === "discard") z.cards = [code];
  else z.cards.push(code);
  changed();
}

function renderAll() {
  renderPosition();
  renderPicker();
}

function changed() {
  for (const z of S.zones) z.typed = false;
  writeHash();
  renderAll();
  scheduleValidate();
}

// Inline errors come from the puzzle parser on the server (the same messages as `shanghai`).
let validateTimer = null;
let validateSeq = 0;
function scheduleValidate() {
  clearTimeout(validateTimer);
  validateTimer = setTimeout(validate, 250);
}

function zoneForError(message) {
  const m = /position\.(\w+)(?:\[(\d+)\])?/.exec(message);
  if (!m) return null;
  const key = m[1];
  if (key === "hand") return S.zones.find((z) => z.kind === "hand");
  if (key === "discard") return S.zones.find((z) => z.kind === "discard");
  if (key === "to_beat" || key === "to_beat_kind") return S.zones.find((z) => z.kind === "beat");
  if (key === "table" && m[2] !== undefined) return S.zones.filter((z) => z.kind === "meld" && z.cards.length)[parseInt(m[2], 10)];
  return null;
}

async function validate() {
  const seq = ++validateSeq;
  let message = "";
  try {
    await api("check", { puzzle: puzzle() });
  } catch (e) {
    message = e.message;
  }
  if (seq !== validateSeq) return true;
  for (const z of S.zones) z.error = "";
  S.generalError = "";
  if (message) {
    const z = zoneForError(message);
    const text = message.replace(/^puzzle: /, "");
    if (z) z.error = text; else S.generalError = text;
  }
  // Update errors in place so typing is not interrupted.
  for (const z of S.zones) {
    const box = document.querySelector(`.zone[data-zone-id="${z.id}"]`);
    if (!box) continue;
    const input = box.querySelector("input[type=text]");
    input.setAttribute("aria-invalid", z.error ? "true" : "false");
    const old = box.querySelector(".error");
    if (old) old.remove();
    if (z.error) box.append(el("p", { class: "error", text: z.error, role: "alert" }));
    const cards = box.querySelector(".cards");
    if (z.typed) {
      cards.replaceWith(cardsEl(z.cards.filter((t) => /^(10|[2-9AJQKT])[SHDC♠♥♦♣](=|$)|^(RJ|BJ|JK)(=|$)/i.test(t)), { onclick: (i) => { z.cards.splice(i, 1); changed(); } }));
    }
  }
  const gen = $("#position-error");
  if (gen) gen.remove();
  if (S.generalError) $("#position").append(el("p", { class: "error", id: "position-error", text: S.generalError, role: "alert" }));
  return !message;
}

// --- solving and the answer ----------------------------------------------------------------

async function solve() {
  const btn = $("#solve-btn");
  const answer = $("#answer");
  if (!(await validate())) {
    answer.replaceChildren(el("p", { class: "error", id: "solve-error", text: "Fix the position first: " + (S.zones.find((z) => z.error) || {}).error || S.generalError }));
    return;
  }
  btn.disabled = true;
  answer.replaceChildren(el("p", { class: "muted", text: "Solving…" }));
  const p = puzzle();
  try {
    const [result, hint] = await Promise.all([
      api("solve", { puzzle: p, time_limit: 5 }),
      api("hint", { puzzle: p, time_limit: 5 }).catch((e) => ({ error: e.message })),
    ]);
    answer.replaceChildren();
    answer.dataset.status = result.status;
    if (GAME === "manipulation") renderManipulation(answer, p, result);
    else if (GAME === "contract") renderContract(answer, p, result);
    else renderZsy(answer, p, result);
    if (hint && !hint.error) {
      answer.append(el("div", { class: "advice", id: "advice" }, el("b", { text: "Advice: " }), actionEl(hint.action), el("div", { class: "muted", text: hint.reason })));
    }
    answer.append(el("p", { class: "muted", text: `solved in ${(result.seconds * 1000).toFixed(1)} ms` }));
  } catch (e) {
    answer.replaceChildren(el("p", { class: "error", id: "solve-error", text: e.message }));
  } finally {
    btn.disabled = false;
  }
}

function statusEl(status) {
  return el("span", { class: "status-" + status, text: status === "optimal" ? "proven optimal" : status === "feasible" ? "best found in the time allowed" : status });
}

// A move of the solve answer: {cards, from, from_meld, to, to_meld, text} (docs/json.md).
function parseMove(m) {
  return { kind: m.from_meld === null ? "play" : "move", cards: m.cards, src: m.from_meld, dst: m.to_meld };
}

function renderManipulation(root, p, r) {
  const n = r.cards;
  root.append(el("p", { class: "answer-head", id: "answer-head" },
    n ? `Play ${n} card${n === 1 ? "" : "s"}` : "No card can be played", " · ", statusEl(r.status)));
  if (n) root.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: "play" }), cardsEl(r.played, { mark: "played" })));
  // Marks: the cards moved into each new meld and the cards played from the hand.
  const moves = r.moves.map(parseMove).filter(Boolean);
  const marks = r.table.map((m) => m.map(() => null));
  for (const mv of moves) {
    const i = r.table.findIndex((m) => sortKey(m) === sortKey(mv.dst));
    if (i < 0) continue;
    for (const c of mv.cards) {
      const j = r.table[i].findIndex((t, k) => baseCode(t) === baseCode(c) && !marks[i][k]);
      if (j >= 0) marks[i][j] = mv.kind === "play" ? "played" : "moved";
    }
  }
  root.append(el("div", { class: "legend" }, el("span", {}, el("span", { class: "swatch played" }), "played from hand"),
    el("span", {}, el("span", { class: "swatch moved" }), "moved on the table")));
  const board = el("div", { id: "new-table", class: "board" });
  root.append(el("h3", { text: "New table" }), board);
  const stepsList = el("ol", { class: "steps", id: "steps" }, r.moves.map((m) => el("li", { text: m.text })));
  const drawFinal = () => {
    board.replaceChildren(...r.table.map((m, i) => el("div", { class: "meld-row" }, cardsEl(m, { marks: marks[i] }))));
    if (r.hand.length) board.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: "hand" }), cardsEl(r.hand)));
  };
  drawFinal();
  root.append(el("p", { class: "muted", text: `${r.kept_melds} of ${p.position.table.length} melds kept, ${r.moved_cards} table card${r.moved_cards === 1 ? "" : "s"} moved` }));
  if (!moves.length) return;
  const player = stepPlayer(p, moves, board, stepsList, drawFinal);
  root.append(el("h3", { text: "Steps" }),
    el("div", { class: "bar" },
      el("button", { type: "button", id: "step-btn", onclick: player.step }, "Step ▶"),
      el("button", { type: "button", id: "replay-btn", onclick: player.reset }, "From the start")),
    stepsList);
}

// The steps one by one on the old table: each press moves the cards of one step (animated).
function stepPlayer(p, moves, board, stepsList, drawFinal) {
  let state = null;
  let at = 0;
  let key = 0;
  const start = () => {
    key = 0;
    const mk = (t) => ({ key: "k" + key++, code: t });
    state = {
      slots: p.position.table.map((m) => ({ cards: tokens(m).map(mk), src: sortKey(tokens(m)), dst: null })),
      hand: tokens(p.position.hand).map(mk),
    };
    at = 0;
  };
  const draw = (moved) => {
    const before = new Map([...board.querySelectorAll("[data-key]")].map((n) => [n.dataset.key, n.getBoundingClientRect()]));
    board.replaceChildren(...state.slots.filter((s) => s.cards.length).map((s) => el("div", { class: "meld-row" },
      el("div", { class: "cards" }, s.cards.map((c) => cardEl(c.code, { key: c.key, mark: moved.has(c.key) ? moved.get(c.key) : null }))))));
    board.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: "hand" }),
      el("div", { class: "cards" }, state.hand.map((c) => cardEl(c.code, { key: c.key })))));
    for (const node of board.querySelectorAll("[data-key]")) {
      const old = before.get(node.dataset.key);
      if (!old) continue;
      const now = node.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (!dx && !dy) continue;
      node.style.transition = "none";
      node.style.transform = `translate(${dx}px, ${dy}px)`;
      requestAnimationFrame(() => requestAnimationFrame(() => { node.style.transition = ""; node.style.transform = ""; }));
    }
    [...stepsList.children].forEach((li, i) => { li.className = i < at - 1 ? "done" : i === at - 1 ? "current" : ""; });
  };
  const take = (list, code) => {
    const i = list.findIndex((c) => baseCode(c.code) === baseCode(code));
    return i >= 0 ? list.splice(i, 1)[0] : { key: "k" + key++, code };
  };
  const step = () => {
    if (state === null || at >= moves.length) { start(); draw(new Map()); if (at >= moves.length) return; }
    const mv = moves[at];
    at += 1;
    const dst = sortKey(mv.dst);
    let target = state.slots.find((s) => s.dst === dst);
    if (!target) {
      const need = countOf(mv.dst);
      const later = new Set(moves.slice(at).filter((m) => m.src).map((m) => sortKey(m.src)));
      target = state.slots.find((s) => s.dst === null && s.cards.length && !later.has(s.src) &&
        [...countOf(s.cards.map((c) => c.code))].every(([c, k]) => (need.get(c) || 0) >= k));
      if (target) target.dst = dst;
      else { target = { cards: [], src: null, dst }; state.slots.push(target); }
    }
    const source = mv.src ? state.slots.find((s) => s.src === sortKey(mv.src) && s !== target) : null;
    const moved = new Map();
    for (const c of mv.cards) {
      const card = take(source ? source.cards : state.hand, c);
      card.code = mv.dst.find((t) => baseCode(t) === baseCode(c)) || card.code;
      target.cards.push(card);
      moved.set(card.key, mv.kind === "play" ? "played" : "moved");
    }
    // Keep each meld in its final order once it is complete.
    if (sortKey(target.cards.map((c) => c.code)) === dst) {
      const order = mv.dst.slice();
      target.cards.sort((a, b) => order.findIndex((t) => baseCode(t) === baseCode(a.code)) - order.findIndex((t) => baseCode(t) === baseCode(b.code)));
    }
    draw(moved);
    $("#step-btn").textContent = at >= moves.length ? "Again ▶" : `Step ${at + 1} ▶`;
  };
  const reset = () => { start(); draw(new Map()); $("#step-btn").textContent = "Step 1 ▶"; };
  return { step, reset, drawFinal };
}

function renderContract(root, p, r) {
  const facts = el("dl", { class: "facts", id: "contract-facts" });
  const fact = (k, v) => facts.append(el("dt", { text: k }), el("dd", {}, v));
  root.append(el("p", { class: "answer-head", id: "answer-head" }, `Round ${r.round}: ${r.contract}`, " · ", statusEl(r.status)), facts);
  if (r.can_lay_down === null) fact("Laid down", "yes, already");
  else fact("Can lay down", el("b", { id: "can-lay-down", text: r.can_lay_down ? "yes" : "no" }));
  if (r.lay_down) {
    fact("Best lay-down", el("div", { id: "lay-down" }, r.lay_down.map((m) => el("div", { class: "meld-row" }, cardsEl(tokens(m))))));
    fact("Points left", String(r.points_left));
  }
  if (r.distance && r.distance.missing > 0) {
    fact("Distance", el("span", { id: "distance", text: `${r.distance.missing} card${r.distance.missing === 1 ? "" : "s"} short` }));
    if (r.distance.completion) fact("Would complete it", cardsEl(tokens(r.distance.completion)));
    if (r.distance.options) fact("Cards that help", cardsEl(tokens(r.distance.options), { mini: true }));
  }
  if (r.layoff) {
    const played = tokens(r.layoff.played);
    if (played.length) {
      fact("Best lay-off", el("span", {}, cardsEl(played, { marks: played.map(() => "played") }), `${r.layoff.cards} card${r.layoff.cards === 1 ? "" : "s"}, ${r.layoff.points} points`));
      const left = countOf(played);
      const rows = r.layoff.table.map((t) => {
        const cards = tokens(t.cards);
        const marks = cards.map((c) => { const b = baseCode(c); if (left.get(b)) { left.set(b, left.get(b) - 1); return "played"; } return null; });
        return el("div", { class: "meld-row" }, el("span", { class: "tag", text: t.owner === 0 ? "mine" : "opp " + t.owner }), cardsEl(cards, { marks }));
      });
      fact("Table after", el("div", {}, rows));
    } else fact("Best lay-off", "nothing to lay off");
    fact("Hand after", tokens(r.layoff.hand).length ? cardsEl(tokens(r.layoff.hand)) : "empty");
  }
  if (r.swaps && r.swaps.length) {
    fact("Swaps", el("ul", {}, r.swaps.map((s) => el("li", {}, cardEl(s.card), ` replaces ${s.wild} in meld ${s.meld + 1}; the ${s.wild} goes to meld ${s.to + 1}`))));
  }
  fact("Can go out", el("b", { text: r.can_go_out ? "yes" : "no" }));
}

function renderZsy(root, p, r) {
  root.append(el("p", { class: "answer-head", id: "answer-head" },
    r.to_beat ? `${r.moves.length} repl${r.moves.length === 1 ? "y" : "ies"} beat it` : `${r.moves.length} possible leads`, " · ", statusEl(r.status)));
  if (r.to_beat) root.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: "to beat" }), cardsEl(r.to_beat.cards, { fan: true }), el("span", { class: "muted", text: r.to_beat.kind })));
  root.append(el("h3", { text: `Fewest plays to go out: ${r.fewest_plays}` }),
    el("div", { class: "replies", id: "split" }, r.split.map((g) => el("div", { class: "reply" }, cardsEl(g, { fan: true })))));
  const shown = r.moves.slice(0, 24);
  root.append(el("h3", { text: r.to_beat ? "Replies, best first" : "Leads, best first" }),
    el("div", { class: "replies", id: "replies" }, shown.map((m) => el("div", { class: "reply" }, el("span", { class: "kind", text: m.kind }), cardsEl(m.cards, { fan: true })))));
  if (r.moves.length > shown.length) root.append(el("p", { class: "muted", text: `and ${r.moves.length - shown.length} more` }));
  if (!r.moves.length && r.to_beat) root.append(el("p", { text: "Pass: nothing in this hand beats it." }));
}

// An action's text with its cards drawn: "play set:7S 7H" -> play, set, two cards.
function actionEl(text, mini) {
  const words = text.split(" ");
  const out = el("span", { class: "action" + (mini ? " mini" : "") });
  let cards = [];
  const flush = () => { if (cards.length) { out.append(cardsEl(cards, { fan: true, mini: true })); cards = []; } };
  for (const w of words) {
    const [prefix, rest] = w.includes(":") ? w.split(":") : [null, w];
    if (prefix) { flush(); out.append(" " + prefix + " "); }
    if (/^(10|[2-9AJQKT])[SHDC](=\S+)?$|^(RJ|BJ|JK)(=\S+)?$/i.test(rest)) cards.push(rest);
    else if (rest === "|") { flush(); out.append(" | "); }
    else { flush(); out.append(" " + rest + " "); }
  }
  flush();
  return out;
}

// --- play against AI --------------------------------------------------------------------------

const P = { id: null, obs: null, legal: [], selected: [], busy: false, hint: null, players: 4, ai: "solver" };

function note(text, error) {
  const n = $("#play-note");
  n.textContent = text || "";
  n.className = "note" + (error ? " error" : "");
}

function setupPlay() {
  const players = $("#play-players");
  const range = GAME === "manipulation" ? [2, 3, 4, 5, 6] : GAME === "contract" ? [3, 4, 5, 6] : [4, 5, 6];
  players.replaceChildren(...range.map((n) => el("option", { value: n, text: String(n), selected: n === 4 })));
  const preset = $("#play-preset");
  preset.replaceChildren(...Object.keys(S.meta[GAME].presets).map((p) => el("option", { value: p, text: p, selected: p === S.meta[GAME].default_preset })));
  $("#new-game").onclick = newGame;
  $("#hint-btn").onclick = hint;
  $("#record-btn").onclick = downloadRecord;
  $("#record-upload").onchange = loadRecord;
}

async function newGame() {
  P.players = parseInt($("#play-players").value, 10);
  P.ai = $("#play-ai").value;
  $("#log").replaceChildren();
  note("Dealing…");
  try {
    const options = GAME === "contract" ? { max_rounds: 2 } : { max_hands: 1 };
    const r = await api("new_game", { game: GAME, rules: { preset: $("#play-preset").value }, players: P.players, options });
    P.id = r.game_id;
    note(`Game started (seed ${r.seed === undefined ? "random" : r.seed}). You are player 0.`);
    await api("keep", { game_id: P.id });
    await refresh();
  } catch (e) {
    note(e.message, true);
  }
}

async function loadRecord(e) {
  try {
    const text = await readFile(e.target);
    const record = JSON.parse(text);
    if (record.game && record.game !== GAME) throw new Error(`this record is a ${record.game} game; open the ${record.game} page`);
    const r = await api("load_record", { record });
    P.id = r.game_id;
    P.players = record.num_players || 4;
    $("#log").replaceChildren();
    note(`Record loaded: ${r.actions} actions replayed.`);
    await refresh();
  } catch (exc) {
    note("Cannot load the record: " + exc.message, true);
  } finally {
    e.target.value = "";
  }
}

async function downloadRecord() {
  if (!P.id) return;
  try {
    const record = await api("record", { game_id: P.id });
    download(`shanghai-${GAME}-${record.seed}.json`, JSON.stringify(record, null, 1), "application/json");
  } catch (e) {
    note(e.message, true);
  }
}

async function hint() {
  if (!P.id) return;
  try {
    const h = await api("hint", { game_id: P.id });
    P.hint = h.action;
    note("Hint: " + h.action + " — " + h.reason);
    renderActions();
  } catch (e) {
    note(e.message, true);
  }
}

async function refresh() {
  P.obs = await api("observe", { game_id: P.id, player: 0 });
  P.selected = [];
  P.hint = null;
  P.legal = [];
  if (!P.obs.terminal && P.obs.to_move === 0) P.legal = (await api("legal", { game_id: P.id, player: 0 })).actions;
  renderBoard();
  renderActions();
  $("#hint-btn").disabled = P.obs.terminal || P.obs.to_move !== 0;
  $("#record-btn").disabled = false;
  if (!P.obs.terminal && P.obs.to_move !== 0) runAI();
}

async function runAI() {
  if (P.busy) return;
  P.busy = true;
  try {
    while (P.obs && !P.obs.terminal && P.obs.to_move !== 0) {
      const who = P.obs.to_move;
      note(`Player ${who} is thinking…`);
      const m = await api("ai_move", { game_id: P.id, ai: P.ai, apply: true });
      logMove(who, m.action, m.reason);
      P.obs = await api("observe", { game_id: P.id, player: 0 });
      renderBoard();
      await sleep(document.body.dataset.fast ? 0 : 450);
    }
    note(P.obs.terminal ? "The game is over." : "Your turn.");
  } catch (e) {
    note(e.message, true);
  } finally {
    P.busy = false;
  }
  await refreshAfterAI();
}

async function refreshAfterAI() {
  P.selected = [];
  P.legal = (!P.obs.terminal && P.obs.to_move === 0) ? (await api("legal", { game_id: P.id, player: 0 })).actions : [];
  renderBoard();
  renderActions();
  $("#hint-btn").disabled = P.obs.terminal || P.obs.to_move !== 0;
}

function logMove(player, action, reason) {
  const li = el("li", { "data-player": player }, el("b", { text: player === 0 ? "You: " : `Player ${player}: ` }), actionEl(action, true));
  if (reason) li.append(el("div", { class: "reason", text: reason }));
  const log = $("#log");
  log.append(li);
  $("#play-log").hidden = false;
  li.scrollIntoView({ block: "nearest" });
}

async function act(action) {
  if (P.busy || !P.id) return;
  P.busy = true;
  try {
    await api("apply", { game_id: P.id, action, player: 0 });
    logMove(0, action);
  } catch (e) {
    note(e.message, true);
    P.busy = false;
    return;
  }
  P.busy = false;
  await refresh();
}

function renderBoard() {
  const o = P.obs;
  const board = $("#board");
  board.replaceChildren();
  const seats = el("div", { class: "seats" });
  for (let i = 0; i < o.hand_sizes.length; i++) {
    seats.append(el("div", { class: "seat" + (o.to_move === i ? " to-move" : ""), "data-seat": i },
      el("b", { text: i === 0 ? "You" : `Player ${i}` }), ` · ${o.hand_sizes[i]} cards · score ${o.scores[i]}`));
  }
  board.append(seats);
  const info = [];
  if (o.stock !== undefined) info.push(`stock ${o.stock}`);
  if (o.round !== undefined) info.push(`round ${o.round}: ${o.contract}`);
  if (o.phase) info.push(`phase ${o.phase}`);
  board.append(el("p", { class: "muted", text: info.join(" · ") }));
  if (GAME === "zsy") {
    board.append(el("div", { class: "meld-row", id: "trick" }, el("span", { class: "tag", text: "trick" }),
      o.trick ? actionEl(o.trick) : el("span", { class: "muted", text: "empty: lead anything" }),
      o.trick ? el("span", { class: "muted", text: `by player ${o.trick_player}` }) : null));
  } else {
    const table = o.table || [];
    board.append(el("h3", { text: `Table (${table.length} meld${table.length === 1 ? "" : "s"})` }));
    // Melds are numbered as the actions name them (layoff 0 ..., swap 1 ...).
    board.append(el("div", { id: "play-table" }, table.map((m, i) => typeof m === "string"
      ? el("div", { class: "meld-row" }, el("span", { class: "tag", text: String(i) }), cardsEl(tokens(m)))
      : el("div", { class: "meld-row" }, el("span", { class: "tag", text: `${i} · ${m.owner === 0 ? "you" : "p" + m.owner}` }), cardsEl(tokens(m.cards))))));
    if (GAME === "contract") board.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: "discard" }), o.discard ? cardsEl([o.discard]) : el("span", { class: "muted", text: "none" })));
  }
  const hand = tokens(o.hand);
  board.append(el("h3", { text: `Your hand (${hand.length})` }));
  board.append(el("div", { id: "my-hand" }, cardsEl(hand, { marks: hand.map((_, i) => P.selected.includes(i) ? "selected" : null), onclick: (i) => tapCard(i) })));
  if (o.terminal) {
    const table = el("table", {}, el("tr", {}, el("th", { text: "player" }), el("th", { text: "score" })),
      o.scores.map((s, i) => el("tr", {}, el("td", { text: i === 0 ? "you" : `player ${i}` }), el("td", { text: String(s) }))));
    const won = (o.winners || []).includes(0);
    board.append(el("div", { class: "final", id: "final" }, el("h2", { text: won ? "You win!" : `Game over: player ${(o.winners || []).join(", ")} won` }), table));
  }
}

// Card taps: a tapped card is selected; a single legal action using exactly the selected cards can be played.
function tapCard(i) {
  if (!P.legal.length) return;
  const at = P.selected.indexOf(i);
  if (at >= 0) P.selected.splice(at, 1); else P.selected.push(i);
  const hand = tokens(P.obs.hand);
  const chosen = sortKey(P.selected.map((k) => hand[k]));
  const discard = P.legal.filter((a) => a.startsWith("discard ") && P.selected.length === 1 && baseCode(a.slice(8)) === baseCode(hand[i]));
  if (discard.length && P.selected.length === 1 && P.legal.every((a) => !a.startsWith("play ") && !a.startsWith("laydown"))) {
    P.selected = [];
    act(discard[0]);
    return;
  }
  P.tapMatch = P.legal.filter((a) => actionCards(a) === chosen && chosen);
  renderBoard();
  renderActions();
}

function actionCards(action) {
  if (action.startsWith("play ") && GAME === "zsy") return sortKey(tokens(action.slice(5).split(":").pop()));
  if (action.startsWith("discard ") || action.startsWith("give ") || action.startsWith("offer ")) return sortKey([action.split(" ")[1]]);
  if (action.startsWith("play ") && GAME === "manipulation") {
    const old = countOf((P.obs.table || []).flatMap(tokens));
    const added = [];
    for (const t of tokens(action.slice(5).replace(/\|/g, " "))) {
      const b = baseCode(t);
      if (old.get(b)) old.set(b, old.get(b) - 1); else added.push(b);
    }
    return sortKey(added);
  }
  return null;
}

function renderActions() {
  const root = $("#play-actions");
  if (!P.obs || P.obs.terminal || P.obs.to_move !== 0) { root.hidden = true; return; }
  root.hidden = false;
  root.replaceChildren(el("h2", { text: "Your move" }));
  const list = el("div", { class: "action-list", id: "actions" });
  const matches = new Set(P.selected.length ? (P.tapMatch || []) : []);
  const legal = P.legal.slice();
  legal.sort((a, b) => (matches.has(b) - matches.has(a)) || ((b === P.hint) - (a === P.hint)));
  const shown = legal.slice(0, 36);
  for (const a of shown) {
    let label;
    if (GAME === "manipulation" && a.startsWith("play ")) {
      const added = actionCards(a);
      label = el("span", {}, "play ", cardsEl(tokens(added), { fan: true, mini: true }));
    } else label = actionEl(a, true);
    list.append(el("button", { type: "button", class: (a === P.hint ? "hinted" : "") + (matches.has(a) ? " primary" : ""), "data-action": a, title: a, onclick: () => act(a) }, label));
  }
  root.append(list);
  if (legal.length > shown.length) root.append(el("p", { class: "muted", text: `${legal.length - shown.length} more: tap cards to find one, or type it` }));
  const input = el("input", { type: "text", id: "action-text", placeholder: "or type an action, e.g. " + (P.legal[0] || "pass"), "aria-label": "action" });
  root.append(el("div", { class: "bar" }, input, el("button", { type: "button", onclick: () => input.value.trim() && act(input.value.trim()) }, "Apply")));
}

// --- start --------------------------------------------------------------------------------------

function setMode(mode) {
  $("#solve-view").hidden = mode !== "solve";
  $("#play-view").hidden = mode !== "play";
  $("#mode-solve").setAttribute("aria-pressed", String(mode === "solve"));
  $("#mode-play").setAttribute("aria-pressed", String(mode === "play"));
  sessionStorage.setItem("shanghai-mode", mode);
}

async function main() {
  for (const a of document.querySelectorAll("nav.games a")) {
    if (a.dataset.game === GAME) a.setAttribute("aria-current", "page");
    a.addEventListener("click", (e) => { e.preventDefault(); location.href = a.getAttribute("href") + (sessionStorage.getItem("shanghai-mode") === "play" ? "#play" : ""); });
  }
  $("#mode-solve").onclick = () => setMode("solve");
  $("#mode-play").onclick = () => setMode("play");
  S.meta = await api("rules");
  const upload = sessionStorage.getItem("shanghai-upload");
  sessionStorage.removeItem("shanghai-upload");
  if (location.hash === "#play") { setMode("play"); history.replaceState(null, "", location.pathname); }
  if (upload) loadPuzzleData(JSON.parse(upload)); else readHash();
  $("#solve-btn").onclick = solve;
  $("#clear-btn").onclick = () => { resetZones(); S.round = 1; S.laidDown = false; S.beatKind = ""; $("#answer").replaceChildren(); changed(); };
  $("#share-btn").onclick = async () => {
    writeHash();
    try { await navigator.clipboard.writeText(location.href); $("#share-note").textContent = "Link copied: it holds the whole position."; }
    catch (e) { $("#share-note").textContent = location.href; }
  };
  $("#download-btn").onclick = async () => {
    try {
      const r = await api("toml", { puzzle: puzzle() });
      download(`${GAME}-position.toml`, r.toml, "application/toml");
    } catch (e) { $("#share-note").textContent = e.message; }
  };
  $("#upload").onchange = async (e) => {
    try {
      const text = await readFile(e.target);
      const r = await api("from_toml", { toml: text });
      loadPuzzleData(r.puzzle);
      await rulesChanged();
      writeHash();
      $("#share-note").textContent = "Puzzle loaded.";
    } catch (exc) { $("#share-note").textContent = "Cannot load the file: " + exc.message; }
    finally { e.target.value = ""; }
  };
  window.addEventListener("hashchange", () => { if (location.hash !== "#play") { readHash(); rulesChanged(); } });
  setupPlay();
  await rulesChanged();
  document.body.dataset.ready = "1";
}

main().catch((e) => { document.body.append(el("p", { class: "error", text: "The page could not start: " + e.message })); });
