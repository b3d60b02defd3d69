// Play a whole game against AI players through the seat API (docs/web.md, "Seats"): the page
// holds its seat's token; the server plays the AI seats and answers their moves (`ai_moves`).
import { $, el, api, tokens, baseCode, download, readFile, rove } from "./util.js";
import { GAME, cardsEl, actionEl, meldName, sortHand, contractName } from "./cards.js";
import { S, presetName } from "./entry.js";
import { t, tn, errorText } from "./i18n.js";
import { P, keptGames, keepGame, forgetGame, currentGame, note, failed, drawNote, tableCodes, actionLabel,
  addMoves, clearLog, drawLog, seatName, roundTable, hintedAction, actionCards, mineCards } from "./state.js";
import { setupReview, resetReview, redrawReview } from "./review.js";

const GAME_NAMES = { manipulation: "game.short.manipulation", contract: "game.short.contract", zsy: "game.short.zsy" };
function gameName(game) { return GAME_NAMES[game] ? t(GAME_NAMES[game]) : game; }
// A link that opens a game at a seat: #g= (resume) or #join= (an invite, claimed once). The token
// is in the fragment: never sent to the server in an address, nor in a Referer.
function gameLink(kind, game, gid, token) { return `${location.origin}/${game}#${kind}=${encodeURIComponent(gid)}&t=${encodeURIComponent(token)}`; }

// The game a page opens with: a link's (resume or invite), else this game's current one.
export async function openKeptGame(link) {
  const hash = new URLSearchParams((link || "").slice(1));
  const gid = hash.get("g") || hash.get("join");
  const token = hash.get("t");
  if (gid && token) {
    if (hash.get("join")) {
      try {
        const claimed = await api("claim", { game_id: gid, token });
        keepGame({ game_id: gid, token: claimed.token, game: GAME, seat: claimed.seat });
        await resume(gid, claimed.token, "play.joined");
      } catch (e) { failed(e); }
      return true;
    }
    keepGame({ game_id: gid, token, game: GAME, seat: null });
    await resume(gid, token, "play.resumed");
    return true;
  }
  const current = currentGame();
  const kept = keptGames().find((g) => g.game_id === current);
  if (kept) { await resume(kept.game_id, kept.token, "play.resumed"); return true; }
  drawMyGames();
  return false;
}

async function resume(gid, token, message) {
  stopLive();
  let obs;
  try {
    obs = await api("observe", { game_id: gid, token });
  } catch (e) {
    forgetGame(gid);
    note("play.gone", {}, true);
    drawMyGames();
    return;
  }
  P.id = gid; P.token = token; P.seat = obs.player; P.players = obs.hand_sizes.length; P.obs = null;
  keepGame({ game_id: gid, token, game: GAME, seat: P.seat });
  clearLog(); resetReview();
  P.logged = 0; P.fresh = new Map(); P.record = null;
  const moves = await api("moves", { game_id: gid, start: 0 });
  addMoves(0, moves.moves, []);
  P.roundEnded = null;  // rounds of the past: in the log and the table, not news
  await refresh(obs);
  showLinks();
  startLive();
  note(message, { n: P.seat });
  drawMyGames();
}

// The resume link of this seat and, for a new game with other people, an invite link per seat.
function showLinks() {
  const box = $("#game-links");
  box.hidden = !P.id;
  if (!P.id) return;
  const rows = [el("p", {}, el("a", { id: "resume-link", href: gameLink("g", GAME, P.id, P.token), text: t("play.resume_link") }))];
  const invites = Object.entries(P.invites).filter(([seat]) => Number(seat) !== P.seat);
  if (invites.length) {
    rows.push(el("p", { text: t("play.invites") }));
    rows.push(el("ul", { id: "invites" }, invites.map(([seat, token]) => {
      const url = gameLink("join", GAME, P.id, token);
      return el("li", { "data-seat": seat }, el("a", { href: url, class: "invite", text: t("play.invite_seat", { n: seat }) }), " ",
        el("button", { type: "button", class: "small", onclick: () => navigator.clipboard.writeText(url).catch(() => {}) }, t("play.copy")));
    })));
  }
  box.replaceChildren(...rows);
}

// "Your games": every game kept in this browser, where it stands, opened or closed from here.
export async function drawMyGames() {
  const root = $("#my-games");
  const list = keptGames();
  if (!list.length) { root.hidden = true; return; }
  let games;
  try { games = (await api("games", { games: list.map((g) => ({ game_id: g.game_id, token: g.token })) })).games; }
  catch (e) { return; }
  for (const g of games) if (g.gone) forgetGame(g.game_id);
  const kept = keptGames();
  const live = games.filter((g) => !g.gone);
  root.hidden = !live.length;
  root.replaceChildren(el("h2", { text: t("play.my_games") }), el("ul", { id: "my-games-list" }, live.map((g) => {
    const entry = kept.find((k) => k.game_id === g.game_id);
    const status = g.terminal ? t("play.status_over") : g.your_turn ? t("play.your_turn") : t("play.status_wait", { n: g.to_move });
    const here = g.game_id === P.id;
    return el("li", { "data-game-id": g.game_id, class: here ? "current" : "" },
      el("b", { text: gameName(g.game) }), ` · ${t("play.player", { n: g.seat })} · ${status} `,
      here ? null : el("a", { class: "button small open-game", href: gameLink("g", g.game, g.game_id, entry.token), text: t("play.open") }),
      el("button", { type: "button", class: "small close-game", onclick: () => closeGame(g.game_id, entry.token) }, t("play.close")));
  })));
}

async function closeGame(gid, token) {
  try { await api("close", { game_id: gid, token }); } catch (e) { /* gone already */ }
  forgetGame(gid);
  if (gid === P.id) {
    stopLive();
    P.id = null; P.obs = null; P.legal = [];
    $("#board").replaceChildren(el("p", { class: "muted", text: t("play.closed") }));
    $("#play-actions").hidden = true;
    $("#game-links").hidden = true;
    $("#leave-btn").disabled = true;
    $("#hint-btn").disabled = true;
  }
  drawMyGames();
}

// --- live: the other seats' moves as they are made (Server-Sent Events, else polling) -----------------

function stopLive() {
  if (P.source) { P.source.close(); P.source = null; }
  if (P.poll) { clearInterval(P.poll); P.poll = null; }
}

function startLive() {
  stopLive();
  if (!P.id || (P.obs && P.obs.terminal)) return;
  const gid = P.id;
  if (typeof EventSource === "undefined") { startPolling(gid); return; }
  const source = new EventSource(`/api/events?game_id=${encodeURIComponent(gid)}&after=${P.logged}`);
  P.source = source;
  document.body.dataset.live = "connecting";
  source.addEventListener("open", () => { document.body.dataset.live = "stream"; });
  source.addEventListener("moves", (e) => { if (P.id === gid) changed(JSON.parse(e.data)); });
  source.addEventListener("gone", () => { stopLive(); });
  source.addEventListener("error", () => {
    // The browser reconnects by itself (from the last move seen); closed for good: poll instead.
    if (source.readyState === EventSource.CLOSED && P.source === source) { P.source = null; startPolling(gid); }
  });
}

function startPolling(gid) {
  document.body.dataset.live = "polling";
  P.poll = setInterval(async () => {
    if (P.id !== gid || P.busy) return;
    try { changed(await api("moves", { game_id: gid, start: P.logged })); } catch (e) { /* the next poll tries again */ }
  }, 2000);
}

// A stream's or a poll's news: the moves not yet shown, and the board again if the game moved on.
async function changed(data) {
  const startTable = P.obs && data.start === P.obs.actions ? tableCodes(P.obs.table) : null;
  if (data.moves.length && data.start + data.moves.length > P.logged && P.logged >= data.start) P.fresh = new Map();
  addMoves(data.start, data.moves, startTable);
  const moved = !P.obs || data.actions !== P.obs.actions || data.to_move !== P.obs.to_move || String(data.seats) !== String(P.obs.seats);
  if (moved && !P.busy) {
    await refresh();
    roundDone();
    if (P.obs.terminal) { stopLive(); drawMyGames(); }
  }
}

// The presets offered, named in the page's language (the choice kept across a language switch).
export function drawPresets() {
  const preset = $("#play-preset");
  const keep = preset.value || S.meta[GAME].default_preset;
  preset.replaceChildren(...Object.keys(S.meta[GAME].presets).map((p) => el("option", { value: p, text: presetName(p), selected: p === keep })));
}

export function setupPlay() {
  const preset = $("#play-preset");
  drawPresets();
  preset.onchange = playerCounts;
  playerCounts();
  const sort = $("#play-sort");
  sort.value = P.sort;
  sort.onchange = () => { P.sort = sort.value; localStorage.setItem("shanghai-sort", P.sort); if (P.obs) { P.selected = []; render(); } };
  $("#new-game").onclick = newGame;
  $("#hint-btn").onclick = hint;
  $("#record-btn").onclick = downloadRecord;
  $("#record-upload").onchange = loadRecord;
  $("#leave-btn").onclick = () => P.id && closeGame(P.id, P.token);
  setupReview();
  document.addEventListener("visibilitychange", () => { if (!document.hidden) document.title = TITLE; });
}

const TITLE = document.title;

// The player counts the chosen preset allows: its min_players..max_players as the rule set
// itself reads them (/api/deck answers the effective rules).
async function playerCounts() {
  const players = $("#play-players");
  let rules;
  try {
    rules = (await api("deck", { game: GAME, rules: { preset: $("#play-preset").value } })).rules;
  } catch (e) {
    failed(e);
    return;
  }
  const keep = parseInt(players.value, 10) || 4;
  const range = Array.from({ length: rules.max_players - rules.min_players + 1 }, (_, i) => rules.min_players + i);
  const pick = range.includes(keep) ? keep : range.includes(4) ? 4 : range[0];
  players.replaceChildren(...range.map((n) => el("option", { value: n, text: String(n), selected: n === pick })));
}

function seats(humans) {
  return Array.from({ length: P.players }, (_, i) => (i < humans ? "human" : P.ai));
}

// Engine options a page may add for a shorter game (tests: `document.body.dataset.playOptions`;
// `playRules` adds rule options, `playSeed` fixes the deal).
function extraOptions() {
  try { return JSON.parse(document.body.dataset.playOptions || "{}"); } catch (e) { return {}; }
}

async function newGame() {
  P.players = parseInt($("#play-players").value, 10);
  P.ai = $("#play-ai").value;
  clearLog(); resetReview();
  P.record = null;
  note("play.dealing");
  try {
    const humans = Math.min(parseInt($("#play-humans").value, 10) || 1, P.players);
    const body = { game: GAME, rules: { preset: $("#play-preset").value }, players: P.players, seats: seats(humans), options: extraOptions() };
    if (document.body.dataset.playSeed) body.seed = parseInt(document.body.dataset.playSeed, 10);
    if (document.body.dataset.playRules) Object.assign(body.rules, JSON.parse(document.body.dataset.playRules));
    const r = await api("new_game", body);
    await started(r, "play.started");
  } catch (e) {
    failed(e);
  }
}

async function started(r, message, params) {
  stopLive();
  P.id = r.game_id;
  P.seat = 0;
  P.token = r.tokens["0"];
  P.invites = r.tokens;
  P.obs = null;
  P.players = r.players || P.players;
  keepGame({ game_id: P.id, token: P.token, game: GAME, seat: 0 });
  // A new deal starts from an empty table; a loaded record from the table before the AI moves.
  const moves = r.ai_moves || [];
  const first = moves[0];
  P.fresh = new Map();
  P.logged = r.actions || 0;
  addMoves(P.logged, moves, r.actions && first ? null : []);
  P.roundEnded = null;
  await refresh();
  showLinks();
  startLive();
  drawMyGames();
  note(message, params);
}

async function loadRecord(e) {
  try {
    const text = await readFile(e.target);
    const record = JSON.parse(text);
    if (record.game && record.game !== GAME) throw Object.assign(new Error(record.game), { shown: t("play.other_game", { game: record.game }) });
    P.players = record.num_players || 4;
    P.ai = $("#play-ai").value;
    clearLog(); resetReview();
    const r = await api("load_record", { record, seats: seats(1) });
    P.record = record;  // the loaded record can be reviewed (the Review button)
    await started(r, "play.record_loaded", { n: r.actions });
  } catch (exc) {
    note("play.record_failed", { error: exc instanceof SyntaxError ? t("error.parse_error") : errorText(exc) }, true);
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
    failed(e);
  }
}

async function hint() {
  if (!P.id) return;
  try {
    const h = await api("hint", { game_id: P.id, token: P.token });
    P.hint = h.action;
    note("hint", { action: h.action, reason: h.reason, why: h.why });
    renderActions();
    const marked = $("#actions button.hinted");
    if (!marked) return;
    const from = document.activeElement;
    if (from === $("#hint-btn") || from === $("#hint-here")) marked.focus({ preventScroll: true });  // the keyboard goes to the choice
    marked.scrollIntoView({ block: "nearest" });  // on a phone: in view in the docked action panel
  } catch (e) {
    failed(e);
  }
}

// --- the game's state and the AI moves ------------------------------------------------------------

// A round just ended (and the game goes on): its result said on the status line.
function roundDone() {
  const ended = P.roundEnded;
  P.roundEnded = null;
  if (ended && P.obs && !P.obs.terminal) note(P.legal.length ? "play.round_done_turn" : "play.round_done", { n: ended.round });
}

async function refresh(state) {
  P.obs = state || (await api("observe", { game_id: P.id, token: P.token }));
  P.selected = [];
  P.melds = [];
  P.swapFrom = undefined;
  P.hint = null;
  P.legal = !P.obs.terminal && P.obs.to_move === P.seat ? (await api("legal", { game_id: P.id, token: P.token })).actions : [];
  render();
  $("#hint-btn").disabled = !P.legal.length;
  $("#record-btn").disabled = !P.obs.terminal;
  $("#review-btn").disabled = !(P.obs.terminal || P.record);
  $("#leave-btn").disabled = false;
  note(P.obs.terminal ? "play.over" : P.legal.length ? "play.your_turn" : null);
  // Turn notification: the tab's title, when the page is not in view.
  if (P.legal.length && document.hidden) document.title = "● " + t("play.your_turn") + " · " + TITLE;
}

async function act(action) {
  if (P.busy || !P.id) return;
  P.busy = true;
  document.body.dataset.busy = "1";
  const before = tableCodes(P.obs.table);
  const mine = mineCards(action, before);
  try {
    const expect = P.obs.actions;
    const r = await api("apply", { game_id: P.id, token: P.token, action, expect });
    P.fresh = new Map();
    addMoves(expect, [r.move || { player: P.seat, action }], null, mine);
    addMoves(expect + 1, r.ai_moves || [], before.concat([mine]));
    P.busy = false;
    await refresh(r.state);
    roundDone();
  } catch (e) {
    P.busy = false;
    failed(e);
  } finally {
    delete document.body.dataset.busy;
    keepFocus();
  }
}

// After a move the focus stays in the game (the button pressed is gone): on the first action of the
// next turn, else on Hint, else on the board's heading.
function keepFocus() {
  const at = document.activeElement;
  if (at && at !== document.body && document.contains(at)) return;
  const next = $("#play-actions:not([hidden]) #actions button") || (!$("#hint-btn").disabled && $("#hint-btn"));
  if (next) { next.focus(); return; }
  const board = $("#board");
  board.tabIndex = -1;
  board.focus({ preventScroll: true });
}

// --- drawing -----------------------------------------------------------------------------------

// The board, the actions, the log and the status line again (a language switch).
export function redrawPlay() {
  drawLog();
  redrawReview();
  drawNote();
  showLinks();
  drawMyGames();
  if (P.obs) render();
}

function render() {
  P.hand = sortHand(tokens(P.obs.hand), GAME, P.sort);
  renderBoard();
  renderActions();
}

function renderBoard() {
  const o = P.obs;
  const board = $("#board");
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
  board.replaceChildren();
  const seatsRow = el("ul", { class: "seats", "aria-label": t("play.players_label") });
  for (let i = 0; i < o.hand_sizes.length; i++) {
    seatsRow.append(el("li", { class: "seat" + (o.to_move === i && !o.terminal ? " to-move" : ""), "data-seat": i },
      el("b", { text: i === P.seat ? t("play.you") : t("play.player", { n: i }) }), " · ", ...tn("play.seat", { cards: t("play.cards", { n: o.hand_sizes[i] }), score: el("span", { class: "score", text: String(o.scores[i]) }) }),
      handOverButton(o, i)));
  }
  board.append(seatsRow);
  const info = [];
  if (o.round !== undefined) info.push(t("play.round", { n: o.round, of: S.contracts.length || 7, contract: contractName(o.contract) }));
  if (o.hand_number !== undefined) info.push(t("play.hand_number", { n: o.hand_number }));
  if (o.stock !== undefined) info.push(t("play.stock", { n: o.stock }));
  if (o.phase) info.push(t("play.phase", { phase: t("phase." + o.phase) === "phase." + o.phase ? o.phase : t("phase." + o.phase) }));
  board.append(el("p", { class: "muted", id: "game-info", text: info.join(" · ") }));
  if (GAME === "zsy") {
    board.append(el("div", { class: "meld-row", id: "trick" }, el("span", { class: "tag", text: t("play.trick") }),
      o.trick ? actionEl(o.trick) : el("span", { class: "muted", text: t("play.trick_empty") }),
      o.trick ? el("span", { class: "muted", text: t("play.trick_by", { n: o.trick_player }) }) : null));
  } else {
    const table = o.table || [];
    const fresh = new Map(P.fresh);
    const marks = (cards) => cards.map((c) => { const b = baseCode(c); if (fresh.get(b)) { fresh.set(b, fresh.get(b) - 1); return "moved"; } return null; });
    board.append(el("h2", { text: t("play.table", { n: table.length }) }));
    const targets = meldTargets();
    board.append(el("div", { id: "play-table" }, table.map((m, i) => {
      const cards = tokens(typeof m === "string" ? m : m.cards);
      const tag = typeof m === "string" ? meldName(i) : meldName(i) + " · " + (m.owner === P.seat ? t("play.you") : t("play.player", { n: m.owner }));
      const row = el("div", { class: "meld-row", "data-meld": i }, el("span", { class: "tag", text: tag }), cardsEl(cards, { marks: marks(cards) }));
      if (targets.has(i)) {
        row.append(el("button", { type: "button", class: "small target", "data-meld-target": i, "data-focus-key": "meld-" + i,
          onclick: () => tapMeld(i) }, targets.get(i)));
      }
      return row;
    })));
    if (GAME === "contract") board.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: t("play.discard") }), o.discard ? cardsEl([o.discard]) : el("span", { class: "muted", text: t("play.none") })));
  }
  board.append(el("h2", { text: t("play.your_hand", { n: P.hand.length }) }));
  const hand = el("div", { class: "cards", id: "my-hand", role: "group", "aria-label": t("zone.hand") });
  const inMelds = new Set(P.melds.flat());
  P.hand.forEach((t, i) => {
    if (inMelds.has(i)) return;
    const selected = P.selected.includes(i);
    const card = cardsEl([t], { onclick: () => tapCard(i) }).firstChild;
    card.classList.toggle("selected", selected);
    card.setAttribute("aria-pressed", String(selected));
    card.dataset.focusKey = "card-" + i;
    card.disabled = !P.legal.length;
    hand.append(card);
  });
  board.append(hand);
  // One Tab stop for the hand; the arrow keys move between its cards.
  const cards = [...hand.querySelectorAll("button.card")];
  rove([hand], cards, 0, cards.find((c) => c.dataset.focusKey === HAND_STOP), (c) => { HAND_STOP = c.dataset.focusKey; });
  const rounds = roundTable();
  if (rounds) board.append(rounds);
  if (o.terminal) board.append(finalScores(o));
  if (focused) { const again = board.querySelector(`[data-focus-key="${focused}"]`); if (again) again.focus(); }
}

let HAND_STOP = null;

// Another person's seat, to move for a while (absent): the others may hand it to an AI player.
let ABSENT_TIMER = null;
function handOverButton(o, i) {
  if (o.terminal || i === P.seat || o.to_move !== i || !o.seats || o.seats[i] !== "human") return null;
  const wait = 60 - (o.idle || 0);
  if (wait > 0) {
    clearTimeout(ABSENT_TIMER);
    ABSENT_TIMER = setTimeout(() => { if (P.obs === o) renderBoard(); }, wait * 1000 + 500);
    return null;
  }
  return el("button", { type: "button", class: "small hand-over", "data-seat": i, onclick: async () => {
    try { await api("hand_over", { game_id: P.id, token: P.token, seat: i, ai: P.ai || "greedy" }); await refresh(); } catch (e) { failed(e); }
  } }, t("play.hand_over"));
}

function finalScores(o) {
  const table = el("table", {}, el("tr", {}, el("th", { text: t("play.player_col") }), el("th", { text: t("play.score_col") })),
    o.scores.map((s, i) => el("tr", {}, el("td", { text: seatName(i) }), el("td", { text: String(s) }))));
  const winners = o.winners || [];
  const won = winners.includes(P.seat);
  const names = (list) => new Intl.ListFormat(document.documentElement.lang, { type: "conjunction" }).format(list.map((w) => t("play.player", { n: w })));
  const others = winners.filter((w) => w !== P.seat);
  // A shared first place is a tie, never "You win!".
  const head = won && others.length ? t("play.you_tie", { names: names(others) })
    : won ? t("play.you_win") : t("play.game_over", { winners: names(winners), n: winners.length });
  return el("div", { class: "final", id: "final" }, el("h2", { text: head }), table);
}

// --- taps: cards, then a meld or a confirm button --------------------------------------------------

function selectedCards() { return P.selected.map((i) => P.hand[i]); }

function tapCard(i) {
  if (!P.legal.length) return;
  const at = P.selected.indexOf(i);
  if (at >= 0) P.selected.splice(at, 1); else P.selected.push(i);
  // A single tap discards only when discarding is all there is to do.
  const discards = P.legal.filter((a) => a.startsWith("discard "));
  if (P.selected.length === 1 && discards.length === P.legal.length) {
    const only = discards.find((a) => baseCode(a.slice(8)) === baseCode(P.hand[i]));
    if (only) { P.selected = []; act(only); return; }
  }
  render();
}

// Actions that use exactly the selected cards (discard X, give X, play kind:cards, play of
// Manipulation adding them), best first as listed.
function matching() {
  if (!P.selected.length) return [];
  const chosen = P.selected.map((i) => baseCode(P.hand[i])).sort().join(" ");
  return P.legal.filter((a) => actionCards(a) === chosen);
}

// The melds a selected card can go to: layoff (and swap) actions of that card, by meld.
function meldTargets() {
  const out = new Map();
  if (P.selected.length !== 1 || GAME !== "contract") return out;
  const code = baseCode(P.hand[P.selected[0]]);
  for (const a of P.legal) {
    const w = a.split(" ");
    if (w[0] === "layoff" && baseCode(w[2]) === code) out.set(parseInt(w[1], 10), t("play.lay_off_here"));
    else if (w[0] === "swap" && baseCode(w[2]) === code && !out.has(parseInt(w[1], 10))) out.set(parseInt(w[1], 10), t("play.swap_here"));
  }
  return out;
}

function tapMeld(i) {
  const code = baseCode(P.hand[P.selected[0]]);
  const layoff = P.legal.find((a) => { const w = a.split(" "); return w[0] === "layoff" && w[1] === String(i) && baseCode(w[2]) === code; });
  if (layoff) { act(layoff); return; }
  P.swapFrom = i;
  renderActions();
}

// The lay-down being built: melds of hand cards, tapped in, then confirmed.
function canLayDown() { return P.legal.some((a) => a.startsWith("laydown ")); }

function addMeld() {
  if (!P.selected.length) return;
  P.melds.push(P.selected.slice());
  P.selected = [];
  render();
}

function layDownText() { return "laydown " + P.melds.map((m) => m.map((i) => P.hand[i]).join(" ")).join(" | "); }

function renderActions() {
  const root = $("#play-actions");
  if (!P.obs || P.obs.terminal || !P.legal.length) { root.hidden = true; return; }
  root.hidden = false;
  const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.focusKey : null;
  // The panel's own Hint (docked at the bottom of a phone's screen, where the hand is).
  root.replaceChildren(el("div", { class: "actions-head" }, el("h2", { text: t("play.your_move") }),
    el("button", { type: "button", class: "small", id: "hint-here", "data-focus-key": "hint-here", onclick: hint }, t("play.hint_btn"))));
  const hinted = hintedAction();
  // The selection: what it can do, confirmed by a tap; or undone.
  if (P.selected.length) {
    const bar = el("div", { class: "bar selection", id: "selection" }, el("span", {}, t("play.selected") + " "), cardsEl(selectedCards(), { fan: true, mini: true }));
    for (const a of matching()) bar.append(actionButton(a, hinted, "primary confirm"));
    if (P.swapFrom !== undefined && P.selected.length === 1) {
      const code = baseCode(P.hand[P.selected[0]]);
      for (const a of P.legal.filter((x) => { const w = x.split(" "); return w[0] === "swap" && w[1] === String(P.swapFrom) && baseCode(w[2]) === code; })) bar.append(actionButton(a, hinted, "confirm"));
    }
    if (canLayDown()) bar.append(el("button", { type: "button", id: "add-meld-btn", "data-focus-key": "add-meld", onclick: addMeld }, t("play.make_meld")));
    bar.append(el("button", { type: "button", id: "undo-btn", "data-focus-key": "undo", onclick: () => { P.selected = []; P.swapFrom = undefined; render(); } }, t("play.undo_selection")));
    root.append(bar);
  }
  if (P.melds.length) {
    const build = el("div", { class: "laydown-build", id: "laydown-build" }, el("h2", { text: t("play.your_lay_down") }),
      P.melds.map((m, k) => el("div", { class: "meld-row" }, el("span", { class: "tag", text: meldName(k) }), cardsEl(m.map((i) => P.hand[i]), { fan: true }))));
    build.append(el("div", { class: "bar" },
      el("button", { type: "button", class: "primary", id: "laydown-btn", "data-focus-key": "laydown", onclick: () => act(layDownText()) }, t("play.lay_down")),
      el("button", { type: "button", id: "undo-meld-btn", "data-focus-key": "undo-meld", onclick: () => { P.melds.pop(); render(); } }, t("play.undo_meld"))));
    root.append(build);
  }
  // The hint's choice said to screen readers too (the dashed outline is for the eye only).
  root.append(el("span", { id: "hint-mark", class: "visually-hidden", text: t("play.hinted") }));
  const list = el("div", { class: "action-list", id: "actions" });
  const legal = P.legal.slice();
  if (hinted && !legal.includes(hinted)) legal.push(hinted);
  legal.sort((a, b) => (b === hinted) - (a === hinted));
  const shown = legal.slice(0, 36);
  for (const a of shown) list.append(actionButton(a, hinted, ""));
  root.append(list);
  if (legal.length > shown.length) root.append(el("p", { class: "muted", text: t("play.more", { n: legal.length - shown.length }) }));
  const input = el("input", { type: "text", id: "action-text", placeholder: t("play.type_action", { example: P.legal[0] || "pass" }), "aria-label": t("play.action_label") });
  root.append(el("div", { class: "bar" }, input, el("button", { type: "button", onclick: () => input.value.trim() && act(input.value.trim()) }, t("play.apply"))));
  if (focused) { const again = root.querySelector(`[data-focus-key="${focused}"]`); if (again) again.focus(); }
}

function actionButton(a, hinted, cls) {
  const label = actionLabel(a);
  const inList = !cls;
  const isHint = inList && a === hinted;
  return el("button", { type: "button", class: [cls, isHint ? "hinted" : ""].filter(Boolean).join(" "),
    "aria-describedby": isHint ? "hint-mark" : null, "data-action": a, "data-focus-key": (inList ? "a:" : "c:") + a, title: t("play.notation", { action: a }), onclick: () => act(a) }, label);
}
