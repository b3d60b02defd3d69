// Solving and the answer: the solve result drawn as cards, the steps replayed one by one.
import { $, el, api, tokens, baseCode, countOf, sortKey } from "./util.js";
import { GAME, cardEl, cardsEl, actionEl, meldName } from "./cards.js";
import { S, puzzle, validate } from "./entry.js";


export async function solve() {
  const btn = $("#solve-btn");
  const answer = $("#answer");
  if (!(await validate())) {
    const bad = S.zones.find((z) => z.error);
    answer.replaceChildren(el("p", { class: "error", id: "solve-error", role: "alert", text: "Fix the position first: " + (bad ? bad.error : S.generalError) }));
    answer.scrollIntoView({ block: "nearest" });
    return;
  }
  btn.disabled = true;
  const seq = ++S.solveSeq;
  answer.replaceChildren(el("p", { class: "muted", text: "Solving…" }));
  const p = puzzle();
  try {
    const [result, hint] = await Promise.all([
      api("solve", { puzzle: p, time_limit: 5 }),
      api("hint", { puzzle: p, time_limit: 5 }).catch((e) => ({ error: e.message })),
    ]);
    if (seq !== S.solveSeq) return;
    answer.replaceChildren();
    answer.dataset.status = result.status;
    if (GAME === "manipulation") renderManipulation(answer, p, result);
    else if (GAME === "contract") renderContract(answer, p, result);
    else renderZsy(answer, p, result);
    if (hint && !hint.error) {
      answer.append(el("div", { class: "advice", id: "advice" }, el("b", { text: "Advice: " }), actionEl(hint.action), el("div", { class: "muted", text: hint.reason })));
    }
    answer.append(el("p", { class: "muted", text: `solved in ${(result.seconds * 1000).toFixed(1)} ms` }));
    // The answer where the eye is: scrolled into view, its heading focused for screen readers.
    const head = $("#answer-head");
    if (head) { head.tabIndex = -1; head.focus({ preventScroll: true }); }
    answer.scrollIntoView({ block: "start" });
  } catch (e) {
    answer.replaceChildren(el("p", { class: "error", id: "solve-error", text: e.message }));
  } finally {
    btn.disabled = false;
  }
}

function statusEl(status) {
  return el("span", { class: "status-" + status, text: status === "optimal" ? "proven optimal" : status === "feasible" ? "best found in the time allowed" : status });
}

// A move of the solve answer: {cards, from, from_meld, to, to_meld, text} (docs/json.md):
// `from` indexes the old table (null: from the hand), `to` the new table.
function parseMove(m) {
  return { kind: m.from === null ? "play" : "move", cards: m.cards, from: m.from, to: m.to, dst: m.to_meld };
}

// What each new meld is built on: the old meld whose cards left after the moves out of it are
// exactly the new meld's cards not moved in (null: a meld built from moved cards only).
export function meldHomes(oldTable, newTable, moves) {
  const rest = oldTable.map((m) => countOf(m));
  const incoming = newTable.map(() => []);
  for (const mv of moves) {
    for (const c of mv.cards) {
      if (mv.from !== null) rest[mv.from].set(baseCode(c), (rest[mv.from].get(baseCode(c)) || 0) - 1);
      incoming[mv.to].push(c);
    }
  }
  const key = (counts) => [...counts].filter(([, n]) => n > 0).flatMap(([c, n]) => Array(n).fill(c)).sort().join(" ");
  const left = rest.map(key);
  const taken = new Set();
  return newTable.map((m, j) => {
    const stay = countOf(m);
    for (const c of incoming[j]) stay.set(baseCode(c), stay.get(baseCode(c)) - 1);
    const want = key(stay);
    if (!want) return null;
    const k = left.findIndex((l, i) => l === want && !taken.has(i));
    if (k < 0) return null;
    taken.add(k);
    return k;
  });
}

function renderManipulation(root, p, r) {
  const n = r.cards;
  root.append(el("p", { class: "answer-head", id: "answer-head" },
    n ? `Play ${n} card${n === 1 ? "" : "s"}` : "No card can be played", " · ", statusEl(r.status)));
  if (n) root.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: "play" }), cardsEl(r.played, { mark: "played" })));
  // Marks: the cards moved into each new meld and the cards played from the hand.
  const moves = r.moves.map(parseMove);
  const marks = r.table.map((m) => m.map(() => null));
  for (const mv of moves) {
    const i = mv.to;
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
    board.replaceChildren(...r.table.map((m, i) => el("div", { class: "meld-row", "data-meld": i }, cardsEl(m, { marks: marks[i] }))));
    if (r.hand.length) board.append(el("div", { class: "meld-row", "data-hand": "" }, el("span", { class: "tag", text: "hand" }), cardsEl(r.hand)));
  };
  drawFinal();
  root.append(el("p", { class: "muted", text: `${r.kept_melds} of ${p.position.table.length} melds kept, ${r.moved_cards} table card${r.moved_cards === 1 ? "" : "s"} moved` }));
  if (!moves.length) return;
  const player = stepPlayer(p, r, moves, board, stepsList);
  root.append(el("h3", { text: "Steps" }),
    el("div", { class: "bar" },
      el("button", { type: "button", id: "step-btn", onclick: player.step }, "Step ▶"),
      el("button", { type: "button", id: "replay-btn", onclick: player.reset }, "From the start")),
    stepsList);
}

// The steps one by one on the old table: each press moves the cards of one step (animated).
// Cards go from old meld `from` (or the hand) to new meld `to`; a new meld grows on the old meld
// it is built on (meldHomes), else in a new row.
function stepPlayer(p, r, moves, board, stepsList) {
  const oldTable = p.position.table.map(tokens);
  const homes = meldHomes(oldTable, r.table, moves);
  let state = null;
  let at = 0;
  let key = 0;
  const start = () => {
    key = 0;
    const mk = (t) => ({ key: "k" + key++, code: t });
    const slots = oldTable.map((m) => ({ cards: m.map(mk), meld: null }));
    homes.forEach((k, j) => { if (k !== null) slots[k].meld = j; });
    state = { slots, byMeld: new Map(slots.filter((s) => s.meld !== null).map((s) => [s.meld, s])), hand: tokens(p.position.hand).map(mk) };
    at = 0;
  };
  const draw = (moved) => {
    const before = new Map([...board.querySelectorAll("[data-key]")].map((n) => [n.dataset.key, n.getBoundingClientRect()]));
    board.replaceChildren(...state.slots.filter((s) => s.cards.length).map((s) => el("div", { class: "meld-row", "data-meld": s.meld === null ? "" : s.meld },
      el("div", { class: "cards" }, s.cards.map((c) => cardEl(c.code, { key: c.key, mark: moved.has(c.key) ? moved.get(c.key) : null }))))));
    board.append(el("div", { class: "meld-row", "data-hand": "" }, el("span", { class: "tag", text: "hand" }),
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
    let target = state.byMeld.get(mv.to);
    if (!target) {
      target = { cards: [], meld: mv.to };
      state.byMeld.set(mv.to, target);
      state.slots.push(target);
    }
    const source = mv.from === null ? state.hand : state.slots[mv.from].cards;
    const moved = new Map();
    for (const c of mv.cards) {
      const card = take(source, c);
      card.code = mv.dst.find((t) => baseCode(t) === baseCode(c)) || card.code;
      target.cards.push(card);
      moved.set(card.key, mv.kind === "play" ? "played" : "moved");
    }
    // Keep each meld in its final order once it is complete.
    const dst = sortKey(mv.dst);
    if (sortKey(target.cards.map((c) => c.code)) === dst) {
      const order = mv.dst.slice();
      target.cards.sort((a, b) => order.findIndex((t) => baseCode(t) === baseCode(a.code)) - order.findIndex((t) => baseCode(t) === baseCode(b.code)));
    }
    draw(moved);
    $("#step-btn").textContent = at >= moves.length ? "Again ▶" : `Step ${at + 1} ▶`;
  };
  const reset = () => { start(); draw(new Map()); $("#step-btn").textContent = "Step 1 ▶"; };
  return { step, reset };
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
      const rows = r.layoff.table.map((t, i) => {
        const cards = tokens(t.cards);
        const marks = cards.map((c) => { const b = baseCode(c); if (left.get(b)) { left.set(b, left.get(b) - 1); return "played"; } return null; });
        return el("div", { class: "meld-row" }, el("span", { class: "tag", text: `${i + 1} · ${t.owner === 0 ? "mine" : "opp " + t.owner}` }), cardsEl(cards, { marks }));
      });
      fact("Table after", el("div", {}, rows));
    } else fact("Best lay-off", "nothing to lay off");
    fact("Hand after", tokens(r.layoff.hand).length ? cardsEl(tokens(r.layoff.hand)) : "empty");
  }
  if (r.swaps && r.swaps.length) {
    fact("Swaps", el("ul", {}, r.swaps.map((s) => el("li", {}, cardEl(s.card), ` replaces ${s.wild} in ${meldName(s.meld)}; the ${s.wild} goes to ${meldName(s.to)}`))));
  }
  fact("Can go out", el("b", { text: r.can_go_out ? "yes" : "no" }));
}

function renderZsy(root, p, r) {
  root.append(el("p", { class: "answer-head", id: "answer-head" },
    r.to_beat ? `${r.moves.length} repl${r.moves.length === 1 ? "y" : "ies"} beat it` : `${r.moves.length} possible leads`, " · ", statusEl(r.status)));
  if (r.to_beat) root.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: "to beat" }), cardsEl(zsyRoles(r.to_beat.cards, r.to_beat.kind), { fan: true }), el("span", { class: "muted", text: r.to_beat.kind })));
  root.append(el("h3", { text: `Fewest plays to go out: ${r.fewest_plays}` }),
    el("div", { class: "replies", id: "split" }, r.split.map((g) => el("div", { class: "reply" }, cardsEl(g, { fan: true })))));
  const shown = r.moves.slice(0, 24);
  root.append(el("h3", { text: r.to_beat ? "Replies, best first" : "Leads, best first" }),
    el("div", { class: "replies", id: "replies" }, shown.map((m) => el("div", { class: "reply" },
      el("span", { class: "kind", text: m.kind }), cardsEl(zsyRoles(m.cards, m.kind), { fan: true }),
      el("span", { class: "plays-left", text: m.plays_left === 1 ? "then 1 play to go out" : `then ${m.plays_left} plays to go out` })))));
  if (r.moves.length > shown.length) root.append(el("p", { class: "muted", text: `and ${r.moves.length - shown.length} more` }));
  if (!r.moves.length && r.to_beat) root.append(el("p", { text: "Pass: nothing in this hand beats it." }));
}

// Zheng Shang You ranks, low to high; the 2s and jokers are wild (rules/zheng-shang-you.md).
const ZSY_RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"];
const zsyRank = (code) => code.replace(/[SHDC]$/, "");
const zsyWild = (code) => code === "RJ" || code === "BJ" || zsyRank(code) === "2";

// The role each wild plays, written as the page writes roles ("RJ=7"): in a set, the rank of
// its natural cards; in a straight, the gaps between the natural cards and then the ranks
// above them (a wild at an end takes the highest value it can), below them once at the ace.
// Parallel straights are shown without roles (their shape can be read more than one way).
export function zsyRoles(cards, kind) {
  const naturals = cards.filter((c) => !zsyWild(c));
  if (kind === "set") {
    if (!naturals.length) return cards;
    const rank = zsyRank(naturals[0]);
    return cards.map((c) => (zsyWild(c) && zsyRank(c) !== rank ? c + "=" + rank : c));
  }
  if (kind !== "straight" || !naturals.length) return cards;
  const have = new Set(naturals.map((c) => ZSY_RANKS.indexOf(zsyRank(c))));
  let low = Math.min(...have);
  let high = Math.max(...have);
  while (high - low + 1 < cards.length) { if (high < 11) high += 1; else low -= 1; }
  const free = [];
  for (let v = low; v <= high; v++) if (!have.has(v)) free.push(ZSY_RANKS[v]);
  return cards.map((c) => (zsyWild(c) ? c + "=" + free.shift() : c));
}
