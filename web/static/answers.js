// Solving and the answer: the solve result drawn as cards, the steps replayed one by one.
import { $, el, api, tokens, baseCode, countOf, sortKey } from "./util.js";
import { GAME, cardEl, cardsEl, actionEl, meldName, contractName, sortHand } from "./cards.js";
import { S, puzzle, validate } from "./entry.js";
import { t, tn, num, errorText, hintWhy } from "./i18n.js";


export async function solve() {
  const btn = $("#solve-btn");
  const answer = $("#answer");
  if (!(await validate())) {
    const bad = S.zones.find((z) => z.error);
    answer.replaceChildren(el("p", { class: "error", id: "solve-error", role: "alert", text: t("answer.fix_first", { error: bad ? bad.error : S.generalError }) }));
    answer.scrollIntoView({ block: "nearest" });
    return;
  }
  btn.disabled = true;
  const seq = ++S.solveSeq;
  answer.replaceChildren(el("p", { class: "muted", text: t("answer.solving") }));
  const p = puzzle();
  try {
    const [result, hint] = await Promise.all([
      api("solve", { puzzle: p, time_limit: 5 }),
      api("hint", { puzzle: p, time_limit: 5 }).catch((e) => ({ error: e.message })),
    ]);
    if (seq !== S.solveSeq) return;
    S.shown = { p, result, hint };
    renderAnswer();
    // The answer where the eye is: scrolled into view, its heading focused for screen readers.
    const head = $("#answer-head");
    if (head) { head.tabIndex = -1; head.focus({ preventScroll: true }); }
    answer.scrollIntoView({ block: "start" });
  } catch (e) {
    S.shown = null;
    answer.replaceChildren(el("p", { class: "error", id: "solve-error", text: errorText(e) }));
  } finally {
    btn.disabled = false;
  }
}

// The answer shown (S.shown), drawn again in the page's language after a switch.
export function renderAnswer() {
  if (!S.shown) return;
  const { p, result, hint } = S.shown;
  const answer = $("#answer");
  answer.replaceChildren();
  answer.dataset.status = result.status;
  if (GAME === "manipulation") renderManipulation(answer, p, result);
  else if (GAME === "contract") renderContract(answer, p, result);
  else renderZsy(answer, p, result);
  if (hint && !hint.error) {
    answer.append(el("div", { class: "advice", id: "advice" }, el("b", { text: t("answer.advice") + " " }), actionEl(hint.action), el("div", { class: "muted" }, hintWhy(hint))));
  }
  answer.append(el("p", { class: "muted", text: t("answer.seconds", { ms: Number((result.seconds * 1000).toFixed(1)) }) }));
}

// A step of the solve answer in the page's language, from its facts (the same text as the CLI's
// in English: "move 8C from [4C 5C 6C 7C 8C] to [8H 8D 8C]").
function stepText(m) {
  const to = "[" + m.to_meld.join(" ") + "]";
  if (m.from === null) return t("step.play", { cards: m.cards.join(" "), to });
  return t("step.move", { cards: m.cards.join(" "), from: "[" + m.from_meld.join(" ") + "]", to });
}

function statusEl(status) {
  return el("span", { class: "status-" + status, text: status === "optimal" ? t("status.optimal") : status === "feasible" ? t("status.feasible") : status });
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
    n ? t("answer.play", { n }) : t("answer.no_play"), " · ", statusEl(r.status)));
  if (n) root.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: t("verb.play") }), cardsEl(r.played, { mark: "played" })));
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
  root.append(el("div", { class: "legend" }, el("span", {}, el("span", { class: "swatch played" }), t("answer.played_from_hand")),
    el("span", {}, el("span", { class: "swatch moved" }), t("answer.moved_on_table"))));
  const board = el("div", { id: "new-table", class: "board" });
  root.append(el("h3", { text: t("answer.new_table") }), board);
  const stepsList = el("ol", { class: "steps", id: "steps" }, r.moves.map((m) => el("li", { text: stepText(m) })));
  const drawFinal = () => {
    board.replaceChildren(...r.table.map((m, i) => el("div", { class: "meld-row", "data-meld": i }, cardsEl(m, { marks: marks[i] }))));
    if (r.hand.length) board.append(el("div", { class: "meld-row", "data-hand": "" }, el("span", { class: "tag", text: t("answer.hand") }), cardsEl(r.hand)));
  };
  drawFinal();
  root.append(el("p", { class: "muted", text: t("answer.kept", { kept: r.kept_melds, n: p.position.table.length }) + ", " + t("answer.moved", { n: r.moved_cards }) }));
  if (!moves.length) return;
  const player = stepPlayer(p, r, moves, board, stepsList);
  root.append(el("h3", { text: t("answer.steps") }),
    el("div", { class: "bar" },
      el("button", { type: "button", id: "step-btn", onclick: player.step }, t("answer.step_first")),
      el("button", { type: "button", id: "replay-btn", onclick: player.reset }, t("answer.from_start"))),
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
    board.append(el("div", { class: "meld-row", "data-hand": "" }, el("span", { class: "tag", text: t("answer.hand") }),
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
    $("#step-btn").textContent = at >= moves.length ? t("answer.step_again") : t("answer.step", { n: at + 1 });
  };
  const reset = () => { start(); draw(new Map()); $("#step-btn").textContent = t("answer.step", { n: 1 }); };
  return { step, reset };
}

function renderContract(root, p, r) {
  const facts = el("dl", { class: "facts", id: "contract-facts" });
  const fact = (k, v) => facts.append(el("dt", { text: k }), el("dd", {}, v));
  root.append(el("p", { class: "answer-head", id: "answer-head" }, t("answer.round", { n: r.round, contract: contractName(r.contract) }), " · ", statusEl(r.status)), facts);
  // With a discard on offer the facts are for the hand without it (said so); the plan below is the verdict.
  const without = r.without_discard ? el("span", { class: "muted without-discard", text: " (" + t("contract.without_discard") + ")" }) : null;
  if (r.can_lay_down === null) fact(t("contract.laid_down"), t("contract.yes_already"));
  else fact(t("contract.can_lay_down"), el("span", {}, el("b", { id: "can-lay-down", text: r.can_lay_down ? t("yes") : t("no") }), without && without.cloneNode(true)));
  if (r.lay_down) {
    fact(t("contract.best_lay_down"), el("div", { id: "lay-down" }, r.lay_down.map((m) => el("div", { class: "meld-row" }, cardsEl(tokens(m))))));
    fact(t("contract.points_left"), num(r.points_left));
  }
  if (r.distance && r.distance.missing > 0) {
    fact(t("contract.distance"), el("span", { id: "distance", text: t("contract.short", { n: r.distance.missing }) }));
    if (r.distance.completion) fact(t("contract.would_complete"), cardsEl(tokens(r.distance.completion)));
    if (r.distance.options) fact(t("contract.cards_that_help"), cardsEl(tokens(r.distance.options), { mini: true }));
  }
  if (r.layoff) {
    const played = tokens(r.layoff.played);
    if (played.length) {
      fact(t("contract.best_lay_off"), el("span", {}, cardsEl(played, { marks: played.map(() => "played") }), t("contract.cards", { n: r.layoff.cards }) + ", " + t("contract.points", { n: r.layoff.points })));
      const left = countOf(played);
      const rows = r.layoff.table.map((m, i) => {
        const cards = tokens(m.cards);
        const marks = cards.map((c) => { const b = baseCode(c); if (left.get(b)) { left.set(b, left.get(b) - 1); return "played"; } return null; });
        return el("div", { class: "meld-row" }, el("span", { class: "tag", text: t("contract.owner_tag", { n: i + 1, owner: m.owner === 0 ? t("zone.mine") : t("contract.opp", { n: m.owner }) }) }), cardsEl(cards, { marks }));
      });
      fact(t("contract.table_after"), el("div", {}, rows));
    } else fact(t("contract.best_lay_off"), t("contract.nothing_to_lay_off"));
    fact(t("contract.hand_after"), tokens(r.layoff.hand).length ? cardsEl(tokens(r.layoff.hand)) : t("contract.empty"));
  }
  if (r.swaps && r.swaps.length) {
    fact(t("contract.swaps"), el("ul", {}, r.swaps.map((s) => el("li", {}, cardEl(s.card), " " + t("contract.swap", { wild: s.wild, meld: meldName(s.meld), to: meldName(s.to) })))));
  }
  if (r.whole_discards !== undefined && r.whole_discards !== null) {
    fact(t("contract.whole_discards"), r.whole_discards.length
      ? el("div", { id: "whole-discards" }, cardsEl(tokens(r.whole_discards)))
      : el("span", { id: "whole-discards", text: t("contract.none") }));
  }
  // The answer's own lay-down and lay-off; when the whole-turn plan ends otherwise, it is said to be theirs.
  const plan = r.turn && r.turn.can_go_out !== null ? r.turn : null;
  const other = plan && plan.can_go_out !== r.can_go_out;
  fact(t("contract.can_go_out"), el("span", {}, el("b", { id: "can-go-out", text: r.can_go_out ? t("yes") : t("no") }),
    without ? without : other ? el("span", { class: "muted", text: " (" + t("contract.go_out_see_plan") + ")" }) : null));
  if (r.turn) renderTurn(root, r);
}

// Melds as text, one string per meld ("5S 5H 5D"): two lay-downs compared meld by meld.
const meldTexts = (melds) => (melds || []).map((m) => tokens(m).join(" "));

// The whole-turn plan (docs/json.md `turn`, the same as `shanghai solve` prints): every step in
// order, drawn as the advice draws an action, and how the turn ends. When the plan lays down
// other melds than the best lay-down alone (they leave more to lay off), it says so and draws them.
function renderTurn(root, r) {
  const turn = r.turn;
  const box = el("div", { class: "turn-plan", id: "turn-plan" },
    el("h3", { text: t("contract.turn_plan") }),
    el("ol", { class: "steps", id: "plan-steps" }, turn.actions.map((a) => el("li", { "data-action": a }, actionEl(a)))));
  if (turn.can_go_out !== null) {
    box.append(el("p", { id: "plan-end", text: turn.can_go_out ? t("contract.plan_goes_out") : t("contract.plan_points_left", { n: turn.points_left }) }));
    const planned = meldTexts(turn.lay_down);
    const alone = meldTexts(r.lay_down);
    if (planned.length && (r.without_discard || planned.length !== alone.length || planned.some((m, i) => m !== alone[i]))) {
      box.append(el("p", { id: "plan-other-melds", text: t(r.without_discard ? "contract.plan_with_discard" : "contract.plan_other_melds") }),
        el("div", { id: "plan-lay-down" }, turn.lay_down.map((m) => el("div", { class: "meld-row" }, cardsEl(tokens(m))))));
    }
  }
  root.append(box);
}

function renderZsy(root, p, r) {
  const eg = r.endgame;
  const head = eg ? (eg.winning.length ? t("endgame.head", { n: eg.winning.length, leads: eg.lead_count }) : t("endgame.none", { n: eg.lead_count }))
    : r.to_beat ? t("zsy.replies_beat", { n: r.moves.length }) : t("zsy.leads", { n: r.moves.length });
  root.append(el("p", { class: "answer-head", id: "answer-head" }, head, " · ", statusEl(r.status)));
  if (eg) renderEndgame(root, eg, r.split.flat());
  if (r.to_beat) root.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: t("zsy.to_beat") }), cardsEl(zsyRoles(r.to_beat.cards, r.to_beat.kind), { fan: true }), el("span", { class: "muted", text: t("verb." + r.to_beat.kind) })));
  root.append(el("h3", { text: t("zsy.fewest", { n: r.fewest_plays }) }),
    el("div", { class: "replies", id: "split" }, r.split.map((g) => el("div", { class: "reply" }, cardsEl(g, { fan: true })))));
  const shown = r.moves.slice(0, 24);
  // In an endgame the winning leads above are the answer; this list ranks your hand alone.
  const listed = r.to_beat ? t("zsy.replies_best") : eg ? t("zsy.leads_own_hand") : t("zsy.leads_best");
  root.append(el("h3", { id: "replies-head", text: listed }),
    el("div", { class: "replies", id: "replies" }, shown.map((m) => el("div", { class: "reply" },
      el("span", { class: "kind", text: t("verb." + m.kind) }), cardsEl(zsyRoles(m.cards, m.kind), { fan: true }),
      el("span", { class: "plays-left", text: t("zsy.plays_left", { n: m.plays_left }) })))));
  if (r.moves.length > shown.length) root.append(el("p", { class: "muted", text: t("zsy.more", { n: r.moves.length - shown.length }) }));
  if (!r.moves.length && r.to_beat) root.append(el("p", { text: t("zsy.pass") }));
}

// A two-player endgame (the position's opponent, you to lead), as the library answers it
// (docs/json.md `endgame`): the opponent's hand, the winning leads (or none), and the line for
// the first winning lead, each step a play or a pass of one side, to the end of the hand.
function renderEndgame(root, eg, hand) {
  root.append(el("div", { class: "meld-row", id: "endgame-opponent" }, el("span", { class: "tag", text: t("endgame.opponent_hand") }), cardsEl(eg.opponent, { fan: true })));
  root.append(el("h3", { text: t("endgame.winning") }));
  if (!eg.winning.length) {
    root.append(el("p", { id: "no-winning-lead", text: t("endgame.no_lead_wins") }));
    return;
  }
  root.append(el("div", { class: "replies", id: "winning" }, eg.winning.map((m) => el("div", { class: "reply" },
    el("span", { class: "kind", text: t("verb." + m.kind) }), cardsEl(zsyRoles(m.cards, m.kind), { fan: true, marks: m.cards.map(() => "played") })))));
  if (!eg.line.length) return;
  const line = el("ol", { class: "steps line", id: "line" }, eg.line.map((step) => el("li", { "data-side": step.side },
    el("div", { class: "reply" },
      el("span", { class: "tag", text: sideName(step.side) }),
      step.cards ? [el("span", { class: "kind", text: t("verb." + step.kind) }), cardsEl(zsyRoles(step.cards, step.kind), { fan: true })]
        : el("span", { class: "muted", text: t("endgame.passes") })))));
  const board = el("div", { class: "board", id: "line-board" });
  const player = linePlayer(eg.line, { you: hand, opponent: eg.opponent }, board, line);
  root.append(el("h3", { text: t("endgame.line") }),
    el("div", { class: "bar" },
      el("button", { type: "button", id: "step-btn", onclick: player.step }, t("answer.step_first")),
      el("button", { type: "button", id: "replay-btn", onclick: player.reset }, t("answer.from_start"))),
    board, line,
    el("p", { id: "line-end", text: t("endgame.you_out") }));  // the line of a winning lead: you go out first
  player.reset();
}

function sideName(side) { return side === "you" ? t("endgame.you") : t("endgame.opponent"); }

// The line one step at a time: both hands (sorted by rank) as they are after the steps taken (your
// hand is the answer's split, the library's own card codes), the step marked in the list and its
// cards framed. Display only: each step's cards leave its side's hand.
function linePlayer(line, hands, board, list) {
  let at = 0;
  const draw = () => {
    const left = { you: hands.you.slice(), opponent: hands.opponent.slice() };
    for (const step of line.slice(0, at)) {
      for (const c of step.cards || []) {
        const i = left[step.side].findIndex((h) => baseCode(h) === baseCode(c));
        if (i >= 0) left[step.side].splice(i, 1);
      }
    }
    board.replaceChildren(...["you", "opponent"].map((side) => el("div", { class: "meld-row", "data-hand": side },
      el("span", { class: "tag", text: sideName(side) }),
      left[side].length ? cardsEl(sortHand(left[side], "zsy", "rank")) : el("span", { class: "muted", text: t("contract.empty") }))));
    [...list.children].forEach((li, i) => {
      li.className = i < at - 1 ? "done" : i === at - 1 ? "current" : "";
      for (const card of li.querySelectorAll(".card")) card.classList.toggle("played", i === at - 1);
    });
    const btn = board.parentNode && board.parentNode.querySelector("#step-btn");
    if (btn) btn.textContent = at === 0 ? t("answer.step_first") : at >= line.length ? t("answer.step_again") : t("answer.step", { n: at + 1 });
  };
  const step = () => { at = at >= line.length ? 1 : at + 1; draw(); };
  const reset = () => { at = 0; draw(); };
  return { step, reset };
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
