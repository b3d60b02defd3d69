// The state of the game in play, shared by play.js (the game) and review.js (its review): the seat,
// the status line, the moves' log with each round's result, the games kept in the browser, and how
// an action is drawn (docs/web.md, "Play vs AI").
import { $, el, tokens, baseCode, countOf } from "./util.js";
import { GAME, cardsEl, actionEl } from "./cards.js";
import { t, tn, errorText, hintWhy } from "./i18n.js";

export const P = {
  id: null, token: null, obs: null, legal: [], hand: [], selected: [], melds: [], hint: null,
  busy: false, fresh: new Map(), players: 4, ai: "solver", sort: localStorage.getItem("shanghai-sort") || "rank",
  seat: 0, logged: 0, source: null, poll: null, invites: {}, record: null, roundEnded: null,
};

// --- games kept in the browser: each game's seat token (docs/web.md, "Games that survive") ---------

const GAMES_KEY = "shanghai-games";
const CURRENT_KEY = "shanghai-current-" + GAME;

export function keptGames() {
  try { const list = JSON.parse(localStorage.getItem(GAMES_KEY) || "[]"); return Array.isArray(list) ? list : []; }
  catch (e) { return []; }
}
export function currentGame() { return localStorage.getItem(CURRENT_KEY); }
export function keepGame(entry) {
  const list = keptGames().filter((g) => g.game_id !== entry.game_id);
  list.unshift(entry);
  localStorage.setItem(GAMES_KEY, JSON.stringify(list.slice(0, 50)));
  localStorage.setItem(CURRENT_KEY, entry.game_id);
}
export function forgetGame(gid) {
  localStorage.setItem(GAMES_KEY, JSON.stringify(keptGames().filter((g) => g.game_id !== gid)));
  if (localStorage.getItem(CURRENT_KEY) === gid) localStorage.removeItem(CURRENT_KEY);
}

// --- the status line: a message key and its parameters (kept, so a language switch writes it again),
// or an error answer of the server ----------------------------------------------------------------

let NOTE = null;
export function note(key, params, error) {
  NOTE = key ? { key, params, error } : null;
  drawNote();
}
export function failed(e) { NOTE = { exc: e, error: true }; drawNote(); }
export function drawNote() {
  const n = $("#play-note");
  n.className = "note" + (NOTE && NOTE.error ? " error" : "");
  if (!NOTE) n.replaceChildren();
  else if (NOTE.exc) n.replaceChildren(errorText(NOTE.exc));
  // The hinted action drawn as the buttons draw it (its words translated, melds numbered from 1).
  else if (NOTE.key === "hint") n.replaceChildren(...tn("play.hint", { action: actionLabel(NOTE.params.action) }), " ", hintWhy(NOTE.params));
  else n.replaceChildren(t(NOTE.key, NOTE.params));
}

// --- the table -------------------------------------------------------------------------------------

export function tableCodes(table) {
  return (table || []).map((m) => (Array.isArray(m) ? m : tokens(typeof m === "string" ? m : m.cards)).map(baseCode));
}

// What changed on the table: the cards of `after` not in `before` (a multiset of codes).
export function added(before, after) {
  const old = countOf(before.flat());
  const out = [];
  for (const c of after.flat()) {
    if (old.get(c)) old.set(c, old.get(c) - 1); else out.push(c);
  }
  return out;
}

// An action as the page draws it: its words in the page's language and its cards drawn; a
// Manipulation play (the whole new table) as the cards it adds to `table` (the table now).
export function actionLabel(action, table) {
  if (GAME === "manipulation" && action.startsWith("play ")) {
    const put = added(tableCodes(table || (P.obs && P.obs.table)), action.slice(5).split("|").map((m) => tokens(m).map(baseCode)));
    return el("span", { class: "action mini" }, t("verb.play") + " ", cardsEl(put, { fan: true, mini: true }));
  }
  return actionEl(action, true);
}

// --- the moves' log (kept, so a language switch writes it again), each round's end in it -----------

let LOG = [];
export const ROUNDS = [];

export function clearLog() {
  LOG = [];
  ROUNDS.length = 0;
  $("#log").replaceChildren();
}

// Moves of the game's log from number `start` on, each shown once (a stream, a poll and an apply's
// answer may all bring the same move). `startTable`: the table before them (to frame what they put
// on it); `mine`: the cards the player's own first move put there. A round's end is logged after
// its last move and kept in P.roundEnded until the status line has said it.
export function addMoves(start, moves, startTable, mine) {
  let before = startTable;
  moves.forEach((m, k) => {
    let put = [];
    if (m.table) { const after = tableCodes(m.table); if (before) put = added(before, after); before = after; }
    else { if (k === 0 && mine) put = mine; before = null; }
    if (start + k !== P.logged) return;
    if (m.player !== P.seat) for (const c of put) P.fresh.set(c, (P.fresh.get(c) || 0) + 1);
    logMove({ player: m.player, action: m.action, why: m.why || null, reason: m.reason, put });
    if (m.round_end) { ROUNDS.push(m.round_end); logMove({ round: m.round_end }); P.roundEnded = m.round_end; }
    P.logged += 1;
  });
}

function logMove(entry) {
  LOG.push(entry);
  const log = $("#log");
  log.append(logEntry(entry));
  $("#play-log").hidden = false;
  log.scrollTop = log.scrollHeight;  // the newest entry in view
}

export function drawLog() {
  const log = $("#log");
  log.replaceChildren(...LOG.map(logEntry));
  log.scrollTop = log.scrollHeight;
}

export function seatName(i) { return i === P.seat ? t("play.you") : t("play.player", { n: i }); }

// A round's result: its number and each seat's points in it (a separator in the log).
function roundText(r) {
  const list = r.points.map((pts, i) => t("play.round_points", { who: seatName(i), n: pts }));
  return t("play.round_over", { n: r.round, points: new Intl.ListFormat(document.documentElement.lang, { type: "unit" }).format(list) });
}

function logEntry(entry) {
  if (entry.round) return el("li", { class: "round-end", "data-round": entry.round.round }, el("b", { text: roundText(entry.round) }));
  const { player, action, why, reason, put } = entry;
  const who = el("b", { text: player === P.seat ? t("play.you_said") : t("play.player_said", { n: player }) });
  let what;
  if (GAME === "manipulation" && action.startsWith("play ") && put.length) {
    what = el("span", { class: "action" }, t("play.put_on_table") + " ", cardsEl(put, { fan: true, mini: true, marks: put.map(() => "moved") }));
  } else what = actionEl(action, true);
  const li = el("li", { "data-player": player, "data-action": action }, " ", who, " ", what);
  if (player !== P.seat && (why || reason)) li.append(el("div", { class: "reason" }, ...(why ? reasonText(why) : [reason])));
  return li;
}

// An AI move's reason from the server's facts ("why": docs/web.md, "Seats"): the code's sentence
// in the page's language, its cards drawn (a Zheng Shang You play's kind in words, not "single:").
function reasonText(why) {
  const ai = t("ai." + why.ai) === "ai." + why.ai ? why.ai : t("ai." + why.ai);
  const cards = why.cards ? actionEl(why.cards, true) : "";
  const text = tn("why." + why.code, { ai, cards, n: why.count ?? 0 });
  if (why.left === undefined || why.left === null) return text;
  return tn("why.with_left", { text: el("span", {}, ...text), n: why.left });
}

// The score of each round so far (a row a round, the total last): Contract's penalty points, the
// other games' points won.
export function roundTable() {
  if (!ROUNDS.length || !P.obs) return null;
  const seats = P.obs.scores.map((_, i) => i);
  const head = el("tr", {}, el("th", { scope: "col", text: t("play.round_col") }), seats.map((i) => el("th", { scope: "col", text: seatName(i) })));
  const rows = ROUNDS.map((r) => el("tr", { "data-round": r.round }, el("th", { scope: "row", text: String(r.round) }), r.points.map((p) => el("td", { text: String(p) }))));
  const total = el("tr", { class: "total" }, el("th", { scope: "row", text: t("play.total") }), P.obs.scores.map((s) => el("td", { text: String(s) })));
  return el("div", { class: "rounds" }, el("h2", { text: t("play.rounds_title") }),
    el("table", { id: "round-table" }, el("thead", {}, head), el("tbody", {}, rows, total)));
}

// --- actions written the same way: the hint may order melds or cards differently -----------------

function meldKey(text) { return tokens(text).map(baseCode).sort().join(" "); }

export function canonical(action) {
  const [verb, ...rest] = action.trim().split(/\s+/);
  const body = rest.join(" ");
  if (verb === "laydown" || (verb === "play" && GAME === "manipulation")) {
    return verb + " " + body.split("|").map(meldKey).filter(Boolean).sort().join(" | ");
  }
  if (verb === "play" && body.includes(":")) {
    const [kind, cards] = body.split(":");
    return verb + " " + kind + ":" + meldKey(cards);
  }
  return [verb, ...rest].join(" ");
}

// The legal action the hint names (the same text, or the same melds and cards).
export function hintedAction() {
  if (!P.hint) return null;
  if (P.legal.includes(P.hint)) return P.hint;
  const want = canonical(P.hint);
  // Not listed (the engine lists one lay-down of the many it accepts): the hint's own text.
  return P.legal.find((a) => canonical(a) === want) || P.hint;
}

export function actionCards(action) {
  const [verb, ...rest] = action.split(" ");
  if (verb === "play" && GAME === "zsy") return meldKey(rest.join(" ").split(":").pop());
  if (verb === "discard" || verb === "give" || verb === "offer" || verb === "take" && rest.length) return meldKey(rest[0]);
  if (verb === "play" && GAME === "manipulation") {
    return added(tableCodes(P.obs.table), rest.join(" ").split("|").map((m) => tokens(m).map(baseCode))).sort().join(" ");
  }
  return null;
}

// The cards the player's own action puts on the table (codes): its melds, its lay-off or swap card.
export function mineCards(action, before) {
  const [verb, ...rest] = action.split(" ");
  if (verb === "play" && GAME === "manipulation") return added(before, rest.join(" ").split("|").map((m) => tokens(m).map(baseCode)));
  if (verb === "laydown") return tokens(rest.join(" ").replace(/\|/g, " ")).map(baseCode);
  if (verb === "layoff" || verb === "swap") return [baseCode(rest[1])];
  return [];
}
