// Play against AI players.
import { $, el, api, tokens, baseCode, countOf, sortKey, sleep, download, readFile } from "./util.js";
import { GAME, cardsEl, actionEl, meldName } from "./cards.js";
import { S } from "./entry.js";


const P = { id: null, obs: null, legal: [], selected: [], busy: false, hint: null, players: 4, ai: "solver" };

function note(text, error) {
  const n = $("#play-note");
  n.textContent = text || "";
  n.className = "note" + (error ? " error" : "");
}

export function setupPlay() {
  const preset = $("#play-preset");
  preset.replaceChildren(...Object.keys(S.meta[GAME].presets).map((p) => el("option", { value: p, text: p, selected: p === S.meta[GAME].default_preset })));
  preset.onchange = playerCounts;
  playerCounts();
  $("#new-game").onclick = newGame;
  $("#hint-btn").onclick = hint;
  $("#record-btn").onclick = downloadRecord;
  $("#record-upload").onchange = loadRecord;
}

// The player counts the chosen preset allows: its min_players..max_players as the rule set
// itself reads them (/api/deck answers the effective rules).
async function playerCounts() {
  const players = $("#play-players");
  let rules;
  try {
    rules = (await api("deck", { game: GAME, rules: { preset: $("#play-preset").value } })).rules;
  } catch (e) {
    note(e.message, true);
    return;
  }
  const keep = parseInt(players.value, 10) || 4;
  const range = Array.from({ length: rules.max_players - rules.min_players + 1 }, (_, i) => rules.min_players + i);
  const pick = range.includes(keep) ? keep : range.includes(4) ? 4 : range[0];
  players.replaceChildren(...range.map((n) => el("option", { value: n, text: String(n), selected: n === pick })));
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
    // Melds are numbered from 1, as the action buttons name them (meldName).
    board.append(el("div", { id: "play-table" }, table.map((m, i) => typeof m === "string"
      ? el("div", { class: "meld-row", "data-meld": i }, el("span", { class: "tag", text: meldName(i) }), cardsEl(tokens(m)))
      : el("div", { class: "meld-row", "data-meld": i }, el("span", { class: "tag", text: `${meldName(i)} · ${m.owner === 0 ? "you" : "p" + m.owner}` }), cardsEl(tokens(m.cards))))));
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

