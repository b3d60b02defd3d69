// Position entry: the state of the position, the URL fragment, the rules panel, the zones and the picker.
import { $, el, api, tokens, baseCode, countOf, rove } from "./util.js";
import { GAME, gameTitle, contractName, SUITS, RANKS, JOKERS, svgUse, cardsEl, isRed, cardName } from "./cards.js";
import { t, tn, has, errorText } from "./i18n.js";

// --- state -------------------------------------------------------------------------------------

export const S = {
  meta: null,          // /api/rules
  rules: {},           // {preset, ...overrides}
  deck: {},            // code -> copies
  contracts: [],       // contract per round (Contract)
  zones: [],           // {id, kind: hand|meld|discard|beat|opponent, cards: [tokens], owner, error, typed}
  active: null,
  round: 1,
  laidDown: false,
  calls: 0,            // Contract: the calls made this round (a hand's size counts them)
  drawn: null,         // Contract: after the draw (true), before it (false), or either (null)
  beatKind: "",
  nextId: 1,
  title: "",           // the puzzle's title (a file's, or a link's)
  answer: null,        // a loaded file's [answer], kept while its position and rules are unchanged
  answerFor: "",
  solveSeq: 0,         // the newest solve request: an older answer arriving late is dropped
};

function zone(kind, cards, extra) {
  const z = Object.assign({ id: "z" + S.nextId++, kind, cards: cards || [], owner: 0, error: "" }, extra || {});
  return z;
}

export function resetZones() {
  S.zones = [zone("hand")];
  if (GAME === "manipulation" || GAME === "contract") S.zones.push(zone("meld", [], { owner: GAME === "contract" ? 1 : 0 }));
  if (GAME === "contract") S.zones.push(zone("discard"));
  // Zheng Shang You: the combination to beat, or (a two-player endgame, you to lead) the last
  // opponent's hand; a position holds one or the other.
  if (GAME === "zsy") S.zones.push(zone("beat"), zone("opponent"));
  S.active = S.zones[0].id;
}

export function zoneLabel(z) {
  if (z.kind === "hand") return t("zone.hand");
  if (z.kind === "discard") return t("zone.discard");
  if (z.kind === "beat") return t("zone.beat");
  if (z.kind === "opponent") return t("zone.opponent_hand");
  const i = S.zones.filter((x) => x.kind === "meld").indexOf(z);
  return t("zone.meld", { n: i + 1 });
}

export function puzzle() {
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
    if (S.calls) position.calls = S.calls;
    if (S.drawn !== null) position.drawn = S.drawn;
    const d = S.zones.find((z) => z.kind === "discard");
    if (d && d.cards.length) position.discard = d.cards[0];
  } else {
    position.hand = hand;
    const b = S.zones.find((z) => z.kind === "beat");
    if (b && b.cards.length) {
      position.to_beat = b.cards.join(" ");
      if (S.beatKind) position.to_beat_kind = S.beatKind;
    }
    const o = S.zones.find((z) => z.kind === "opponent");
    if (o && o.cards.length) position.opponent = o.cards.join(" ");
  }
  const out = { game: GAME, rules: Object.assign({}, S.rules), position };
  if (S.title) out.title = S.title;
  if (S.answer && S.answerFor === unchangedKey(out)) out.answer = S.answer;
  return out;
}

function unchangedKey(p) { return JSON.stringify([p.rules, p.position]); }

// --- the URL: the position lives in the fragment -------------------------------------------

export function writeHash() {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(S.rules)) p.set(k === "preset" ? "preset" : "o." + k, String(v));
  const pos = puzzle().position;
  if (GAME === "manipulation") {
    if (pos.table.length) p.set("table", pos.table.join(" | "));
  } else if (GAME === "contract") {
    p.set("round", String(pos.round));
    if (pos.table.length) p.set("table", pos.table.map((t) => t.owner + ":" + t.cards).join(" | "));
    if (pos.laid_down) p.set("laid", "1");
    if (pos.calls) p.set("calls", String(pos.calls));
    if (pos.drawn !== undefined) p.set("drawn", pos.drawn ? "1" : "0");
    if (pos.discard) p.set("discard", pos.discard);
  } else {
    if (pos.to_beat) p.set("beat", pos.to_beat);
    if (pos.to_beat_kind) p.set("kind", pos.to_beat_kind);
    if (pos.opponent) p.set("opponent", pos.opponent);  // as `shanghai post` writes it (post.py page_link)
  }
  if (pos.hand) p.set("hand", pos.hand);
  if (S.title) p.set("title", S.title);
  const hash = "#" + p.toString();
  if (location.hash !== hash) history.replaceState(null, "", location.pathname + location.search + hash);
}

function parseValue(v) {
  if (v === "true") return true;
  if (v === "false") return false;
  if (/^-?\d+$/.test(v)) return parseInt(v, 10);
  return v;
}

export function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  resetZones();
  S.rules = {};
  S.title = p.get("title") || "";
  S.answer = null;
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
    S.calls = parseInt(p.get("calls") || "0", 10) || 0;
    S.drawn = p.has("drawn") ? p.get("drawn") === "1" : null;
    S.zones.find((z) => z.kind === "discard").cards = tokens(p.get("discard"));
  }
  if (GAME === "zsy") {
    S.zones.find((z) => z.kind === "beat").cards = tokens(p.get("beat"));
    S.beatKind = p.get("kind") || "";
    S.zones.find((z) => z.kind === "opponent").cards = tokens(p.get("opponent"));
  }
}

export function loadPuzzleData(data) {
  if (data.game && data.game !== GAME) {
    location.href = "/" + data.game + location.search + "#";
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
    S.calls = pos.calls || 0;
    S.drawn = pos.drawn === undefined || pos.drawn === null ? null : !!pos.drawn;
    S.zones.find((z) => z.kind === "discard").cards = pos.discard ? [pos.discard] : [];
  }
  if (GAME === "zsy") {
    S.zones.find((z) => z.kind === "beat").cards = tokens(pos.to_beat);
    S.beatKind = pos.to_beat_kind || "";
    S.zones.find((z) => z.kind === "opponent").cards = tokens(pos.opponent);
  }
  S.title = data.title || "";
  S.answer = null;
  const loaded = puzzle();
  S.answer = data.answer || null;
  S.answerFor = unchangedKey(loaded);
}

// --- rules panel -------------------------------------------------------------------------------

export function effectiveRules() {
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
  const presetSel = el("select", { id: "preset", "aria-label": t("rules.preset"), onchange: (e) => { S.rules = { preset: e.target.value }; rulesChanged(); } },
    Object.keys(meta.presets).map((p) => el("option", { value: p, text: presetName(p), selected: p === S.rules.preset })));
  body.append(el("label", {}, t("rules.preset"), presetSel));
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
        o.values.map((v) => el("option", { value: v, text: ruleValue(v), selected: v === values[o.name] })));
    } else if (o.kind === "int") {
      input = el("input", { type: "number", name: o.name, min: o.lo, max: o.hi, value: values[o.name] === null ? "" : values[o.name],
        onchange: (e) => set(e.target.value === "" && o.optional ? null : parseInt(e.target.value, 10)) });
    } else {
      input = el("input", { type: "text", name: o.name, value: String(values[o.name] || ""), onchange: (e) => set(e.target.value) });
    }
    const helpId = "help-" + o.name;
    const help = el("p", { class: "rule-help", id: helpId, hidden: true, text: ruleText(o.name, ".doc", o.doc) });
    const toggle = el("button", { type: "button", class: "small help", "aria-expanded": "false", "aria-controls": helpId,
      "aria-label": t("rules.about", { rule: ruleText(o.name, "", o.name) }), "data-focus-key": "help-" + o.name,
      onclick: () => { help.hidden = !help.hidden; toggle.setAttribute("aria-expanded", String(!help.hidden)); } }, "?");
    input.id = "rule-" + o.name;
    body.append(el("div", { class: "rule" }, el("label", { for: input.id }, el("span", { class: "doc", text: ruleText(o.name, "", o.name) })), input, toggle, help));
  }
  const changed = Object.keys(S.rules).filter((k) => k !== "preset");
  $("#rules-summary").textContent = presetName(S.rules.preset) + (changed.length ? " + " + changed.map((k) => k + "=" + S.rules[k]).join(", ") : "");
}

// A rule option's name or help (suffix ".doc") in the page's language; the rule set's own
// English text if the catalogue has none (a new option before its translation).
function ruleText(name, suffix, fallback) {
  const key = "rule." + GAME + "." + name + suffix;
  return has(key) ? t(key) : fallback.replace(/_/g, " ");
}
export function presetName(p) { return has("preset." + p) ? t("preset." + p) : p; }
function ruleValue(v) { return has("value." + v) ? t("value." + v) : String(v); }

// Everything of the position drawn again (a language switch): the rules, the zones, the picker,
// and the inline errors written again.
export function redrawEntry() {
  renderRules();
  renderAll();
  validate();
}

export async function rulesChanged() {
  try {
    const d = await api("deck", { game: GAME, rules: S.rules });
    S.deck = d.deck;
    S.contracts = d.contracts || [];
    S.rulesError = "";
  } catch (e) {
    S.rulesError = e;
  }
  writeHash();
  renderRules();
  renderAll();
  validate();
}

// --- position panel ----------------------------------------------------------------------------

function activeZone() { return S.zones.find((z) => z.id === S.active) || S.zones[0]; }

function renderPosition() {
  const root = $("#position");
  root.replaceChildren(el("h2", { text: t("position.title", { game: gameTitle(GAME) }) }));
  if (S.title) root.append(el("p", { class: "puzzle-title", id: "puzzle-title", text: S.title }));
  document.title = "shanghai · " + gameTitle(GAME) + (S.title ? " · " + S.title : "");
  if (S.rulesError) root.append(el("p", { class: "error", text: errorText(S.rulesError) }));
  if (GAME === "contract") {
    const rounds = S.contracts.length || 7;
    root.append(el("div", { class: "bar" },
      el("label", {}, t("position.round"), el("select", { id: "round", onchange: (e) => { S.round = parseInt(e.target.value, 10); changed(); } },
        Array.from({ length: rounds }, (_, i) => el("option", { value: i + 1, selected: S.round === i + 1, text: S.contracts[i] ? t("position.round_contract", { n: i + 1, contract: contractName(S.contracts[i]) }) : String(i + 1) })))),
      el("label", {}, el("input", { type: "checkbox", id: "laid-down", checked: S.laidDown, onchange: (e) => { S.laidDown = e.target.checked; changed(); } }), t("position.laid_down")),
      el("label", {}, t("position.calls"), el("input", { type: "number", id: "calls", min: 0, max: 9, value: S.calls, onchange: (e) => { S.calls = Math.max(0, parseInt(e.target.value, 10) || 0); changed(); } }))));
  }
  for (const z of S.zones) root.append(renderZone(z));
  if (GAME !== "zsy") {
    root.append(el("button", { type: "button", id: "add-meld", onclick: addMeld }, t("position.add_meld")));
  }
  if (S.generalError) root.append(el("p", { class: "error", id: "position-error", text: S.generalError }));
}

function renderZone(z) {
  const head = el("div", { class: "zone-head" }, el("span", { class: "label", text: zoneLabel(z) }));
  if (z.kind === "meld" && GAME === "contract") {
    head.append(el("select", { "aria-label": t("zone.owner"), class: "owner", onclick: (e) => e.stopPropagation(),
      onchange: (e) => { z.owner = parseInt(e.target.value, 10); changed(); } },
    [0, 1, 2, 3, 4, 5].map((o) => el("option", { value: o, selected: z.owner === o, text: o === 0 ? t("zone.mine") : t("zone.opponent", { n: o }) }))));
  }
  if (z.kind === "beat") {
    head.append(el("select", { "aria-label": t("zone.kind"), id: "beat-kind", onclick: (e) => e.stopPropagation(),
      onchange: (e) => { S.beatKind = e.target.value; changed(); } },
    ["", "single", "set", "straight", "parallel"].map((k) => el("option", { value: k, selected: S.beatKind === k, text: k ? t("verb." + k) : t("zone.kind_auto") }))));
  }
  if (z.cards.length) head.append(el("button", { type: "button", class: "small", onclick: (e) => { e.stopPropagation(); z.cards = []; changed(); } }, t("clear")));
  if (z.kind === "meld") head.append(el("button", { type: "button", class: "small", "aria-label": t("zone.remove_meld"), onclick: (e) => {
    e.stopPropagation();
    S.zones = S.zones.filter((x) => x !== z);
    if (S.active === z.id) S.active = S.zones[0].id;
    changed();
  } }, "✕"));
  const input = el("input", { type: "text", value: z.cards.join(" "), "aria-label": t("zone.notation", { zone: zoneLabel(z) }),
    placeholder: t("zone.example", { cards: z.kind === "hand" ? "6S KD 2H" : z.kind === "discard" ? "7H" : z.kind === "opponent" ? "6H 10H AS" : "3H 4H 5H" }),
    autocomplete: "off", autocapitalize: "characters", spellcheck: "false", "aria-invalid": z.error ? "true" : "false",
    "data-zone": z.kind,
    // Tabbing past a zone does not make it the one the picker fills: typing in it, a tap on it,
    // or the picker's "Next zone" does.
    oninput: (e) => { if (S.active !== z.id) { S.active = z.id; markActive(); } z.cards = tokens(e.target.value); z.typed = true; writeHash(); renderPicker(); scheduleValidate(); } });
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
  const head = el("div", { class: "picker-head" }, el("h2", { text: t("picker.title") }),
    el("p", { class: "picker-target", id: "picker-target" }, ...tn("picker.adding_to", { zone: el("b", { text: zoneLabel(target) }) })));
  if (GAME !== "zsy") head.append(el("button", { type: "button", class: "small", id: "picker-new-meld", "data-focus-key": "picker-new-meld", onclick: addMeld }, t("picker.new_meld")));
  if (S.zones.length > 1) head.append(el("button", { type: "button", class: "small", id: "picker-next", "data-focus-key": "picker-next", onclick: nextZone }, t("picker.next_zone")));
  root.replaceChildren(head);
  const grid = el("div", { class: "picker-grid" });
  // A chip's name starts with the text it shows, rank and count ("K 0/2": WCAG 2.5.3, label in
  // name, so a voice user can say what they see), then the card's full name and the count in words.
  const chip = (code, label, shown) => {
    const limit = S.deck[code] || 0;
    const n = u.get(code) || 0;
    return el("button", { type: "button", class: "chip suit-" + code.slice(-1) + (isRed(code) ? " red" : "") + (n ? " used" : ""), "data-card": code,
      "data-focus-key": "chip-" + code,
      disabled: n >= limit, "aria-label": `${shown} ${n}/${limit}, ` + t("picker.chip", { card: cardName(code), n, limit }),
      onclick: () => addCard(code) }, label, " ", el("span", { class: "count", text: n + "/" + limit }));
  };
  for (const s of SUITS) {
    grid.append(el("span", { class: "suit-label" }, svgUse("suit-" + s, "0 0 100 100")));
    RANKS.forEach((r, i) => {
      if (i === 7) grid.append(el("span", { class: "suit-label cont" }));
      const lab = el("span", {}, r);
      grid.append(chip(r + s, lab, r));
    });
    grid.append(el("span", { class: "filler" }));
  }
  root.append(grid);
  const jokers = JOKERS.filter((j) => S.deck[j]);
  const jokerRow = jokers.length ? el("div", { class: "jokers" }, jokers.map((j) => chip(j, el("span", { text: j }), j))) : null;
  if (jokerRow) root.append(jokerRow);
  // One Tab stop for the whole picker; the arrow keys move between its cards (Up/Down: the suit).
  const chips = [...root.querySelectorAll(".chip")];
  rove([grid, jokerRow].filter(Boolean), chips, RANKS.length, chips.find((c) => c.dataset.card === PICKER_STOP), (c) => { PICKER_STOP = c.dataset.card; });
}
let PICKER_STOP = null;

// A new empty table meld after the last one, made the zone being filled.
function addMeld() {
  const z = zone("meld", [], { owner: GAME === "contract" ? 1 : 0 });
  const idx = S.zones.map((x) => x.kind).lastIndexOf("meld");
  S.zones.splice(idx >= 0 ? idx + 1 : 1, 0, z);
  S.active = z.id;
  changed();
}

function nextZone() {
  const i = S.zones.findIndex((z) => z.id === S.active);
  S.active = S.zones[(i + 1) % S.zones.length].id;
  markActive();
  keepZoneInView();
}

// The zone being filled stays in view above the docked picker (phone): its scroll margin is the
// picker's height, so "nearest" scrolls only when the zone would be hidden.
export function keepZoneInView() {
  const picker = $("#picker");
  const docked = getComputedStyle(picker).position === "sticky";
  document.documentElement.style.setProperty("--picker-h", docked ? picker.offsetHeight + "px" : "0px");
  const box = document.querySelector(`.zone[data-zone-id="${S.active}"]`);
  if (box) box.scrollIntoView({ block: "nearest" });
}

function addCard(code) {
  const z = activeZone();
  if (z.kind === "discard") z.cards = [code];
  else z.cards.push(code);
  changed();
}

export function renderAll() {
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
  renderPosition();
  renderPicker();
  // Focus survives the re-render: the control that had it gets it back (or the next one).
  if (focused) {
    let again = document.querySelector(`[data-focus-key="${CSS.escape(focused)}"]:not(:disabled)`);
    if (!again && focused.startsWith("chip-")) {
      // A card used up is disabled: the focus goes to the next card still free.
      const chips = [...document.querySelectorAll("#picker .chip")];
      const at = chips.findIndex((c) => c.dataset.focusKey === focused);
      again = chips.slice(at + 1).concat(chips.slice(0, at)).find((c) => !c.disabled) || null;
    }
    if (again) again.focus({ preventScroll: true });
  }
}

export function changed() {
  for (const z of S.zones) z.typed = false;
  writeHash();
  renderAll();
  keepZoneInView();
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
  if (key === "opponent") return S.zones.find((z) => z.kind === "opponent");
  if (key === "table" && m[2] !== undefined) return S.zones.filter((z) => z.kind === "meld" && z.cards.length)[parseInt(m[2], 10)];
  return null;
}

// Zheng Shang You: a combination to beat and the opponent's hand both filled (a position is a
// reply or an endgame lead, not both): said on the opponent's zone in the page's language.
function beatAndOpponent() {
  const filled = (kind) => S.zones.some((z) => z.kind === kind && z.cards.length);
  return filled("beat") && filled("opponent");
}

export async function validate() {
  const seq = ++validateSeq;
  let message = "";
  let shown = "";
  const clash = beatAndOpponent();
  if (!clash) {
    try {
      await api("check", { puzzle: puzzle() });
    } catch (e) {
      message = e.message;
      shown = errorText(e);
    }
  }
  if (seq !== validateSeq) return true;
  for (const z of S.zones) z.error = "";
  S.generalError = "";
  if (clash) {
    message = t("zone.beat_or_opponent");
    S.zones.find((z) => z.kind === "opponent").error = message;
  } else if (message) {
    const z = zoneForError(message);
    const text = shown.replace("puzzle: ", "");
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
  if (document.activeElement === document.body || $("#picker").contains(document.activeElement)) keepZoneInView();
  return !message;
}

