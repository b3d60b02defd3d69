// A game's review on the page (issue 40; docs/web.md, "Review"): POST /api/review (the library's
// review, what `shanghai review` prints), the loss of each decision as a bar graph, and the biggest
// mistakes stepped through on the table as the player saw it.
import { $, el, api, tokens, baseCode, countOf } from "./util.js";
import { GAME, cardsEl, actionEl, meldName } from "./cards.js";
import { t, errorText } from "./i18n.js";
import { P, actionLabel, added, tableCodes } from "./state.js";

const R = { data: null, at: 0, busy: false, failure: null };
const SVGNS = "http://www.w3.org/2000/svg";

export function setupReview() { $("#review-btn").onclick = review; }

export function resetReview() {
  R.data = null; R.at = 0; R.failure = null;
  const box = $("#review");
  box.hidden = true;
  box.replaceChildren();
}

export function redrawReview() { if (R.data || R.failure) draw(); }

// A finished game is reviewed by its id (the seat of this page's token); a loaded record as loaded.
async function review() {
  if (R.busy) return;
  const body = P.id && P.obs && P.obs.terminal ? { game_id: P.id, token: P.token } : P.record ? { record: P.record } : null;
  if (!body) return;
  R.busy = true;
  const box = $("#review");
  box.hidden = false;
  box.setAttribute("aria-busy", "true");
  box.replaceChildren(el("h2", { text: t("review.title") }), el("p", { class: "muted", text: t("review.running") }));
  box.scrollIntoView({ block: "nearest" });
  try {
    R.data = await api("review", body);
    R.at = 0; R.failure = null;
  } catch (e) {
    R.data = null; R.failure = e;
  } finally {
    R.busy = false;
    box.removeAttribute("aria-busy");
  }
  draw();
  box.scrollIntoView({ block: "start" });
}

function round1(x) { return Math.round(x * 10) / 10; }
const UNITS = { cards: "review.unit.cards", plays: "review.unit.plays", points: "review.unit.points" };
function unit(d, n) { return t(UNITS[d.unit] || UNITS.points, { n: round1(n) }); }

function draw() {
  const box = $("#review");
  box.hidden = false;
  const head = el("h2", { text: t("review.title") });
  if (!R.data) { box.replaceChildren(head, el("p", { class: "error", text: errorText(R.failure) })); return; }
  const d = R.data;
  const summary = el("p", { id: "review-summary", text: t("review.summary", { n: d.decisions, loss: unit(d, d.total_loss), accuracy: round1(d.accuracy) }) });
  box.replaceChildren(head, summary, el("p", { class: "muted", text: t("review.note") }), graph(d), mistake(d));
}

// One bar a decision, its height the loss (red where it lost), dashed lines between rounds; the
// mistake shown framed.
function graph(d) {
  const w = 10, h = 60;
  const most = Math.max(1, ...d.moves.map((m) => m.loss));
  const svg = document.createElementNS(SVGNS, "svg");
  const lost = d.moves.filter((m) => m.loss > 0).length;
  svg.setAttribute("viewBox", `0 0 ${Math.max(1, d.moves.length) * w} ${h}`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  svg.setAttribute("id", "review-graph");
  svg.setAttribute("aria-label", t("review.graph", { n: d.moves.length, lost }));
  const current = d.mistakes[R.at];
  d.moves.forEach((m, i) => {
    if (i && m.deal !== d.moves[i - 1].deal) {
      const line = document.createElementNS(SVGNS, "line");
      for (const [k, v] of Object.entries({ x1: i * w, x2: i * w, y1: 0, y2: h, class: "deal-line" })) line.setAttribute(k, v);
      svg.append(line);
    }
    const bar = document.createElementNS(SVGNS, "rect");
    const height = m.loss > 0 ? Math.max(3, (m.loss / most) * (h - 4)) : 1.5;
    const cls = (m.loss > 0 ? "lost" : "kept") + (m.index === current ? " current" : "");
    for (const [k, v] of Object.entries({ x: i * w + 1, y: h - height, width: w - 2, height, class: cls, "data-index": m.index, "data-loss": m.loss })) bar.setAttribute(k, v);
    svg.append(bar);
  });
  return el("div", { class: "review-graph" }, svg);
}

// The cards of the best action that come from the hand (framed on the hand shown).
function bestCards(best, pos) {
  const out = [];
  for (const a of best.split("; ")) {
    if (GAME === "manipulation" && a.startsWith("play ")) out.push(...added(tableCodes(pos.table), a.slice(5).split("|").map((m) => tokens(m).map(baseCode))));
    else for (const w of a.split(/[\s:]+/)) if (/^(10|[2-9AJQKT])[SHDC](=\S+)?$|^(RJ|BJ|JK)(=\S+)?$/i.test(w)) out.push(baseCode(w));
  }
  return out;
}

function actions(text, pos) {
  return el("span", { class: "review-actions" }, text.split("; ").map((a, i) => [i ? " · " : null, actionLabel(a, pos.table)]));
}

// The mistake R.at (biggest first): where, what was played, the best, the loss, and the table.
function mistake(d) {
  const box = el("div", { id: "review-mistake" });
  if (!d.mistakes.length) { box.append(el("p", { text: t("review.no_mistakes") })); return box; }
  const index = d.mistakes[R.at];
  const move = d.moves.find((m) => m.index === index);
  const pos = d.positions.find((p) => p.index === index) || { table: [], hand: [], discard: null, trick: null };
  const step = (k) => { R.at = k; draw(); $(k > 0 && k < d.mistakes.length - 1 ? "#review-next" : "#review-prev").focus(); };
  const prev = el("button", { type: "button", id: "review-prev", disabled: R.at === 0, onclick: () => step(R.at - 1) }, t("review.prev"));
  const next = el("button", { type: "button", id: "review-next", disabled: R.at >= d.mistakes.length - 1, onclick: () => step(R.at + 1) }, t("review.next"));
  box.append(el("div", { class: "bar" }, prev, el("h3", { id: "review-step", text: t("review.mistake_of", { n: R.at + 1, of: d.mistakes.length }) }), next));
  const where = t(GAME === "contract" ? "review.round" : "review.hand", { n: move.deal });
  const loss = unit(d, move.loss) + (move.proven ? "" : " " + t("review.best_found"));
  box.append(el("dl", { class: "facts", "data-index": index },
    el("dt", { text: t("review.where") }), el("dd", { text: where }),
    el("dt", { text: t("review.you_played") }), el("dd", { class: "taken" }, actions(move.taken, pos)),
    el("dt", { text: t("review.best") }), el("dd", { class: "best" }, actions(move.best, pos)),
    el("dt", { text: t("review.loss") }), el("dd", { class: "loss", text: loss })));
  box.append(table(pos));
  const want = countOf(bestCards(move.best, pos));
  const marks = pos.hand.map((c) => { const b = baseCode(c); if (want.get(b)) { want.set(b, want.get(b) - 1); return "played"; } return null; });
  box.append(el("h3", { text: t("review.your_hand") }), el("div", { id: "review-hand" }, cardsEl(pos.hand, { marks })),
    el("p", { class: "legend" }, el("span", {}, el("span", { class: "swatch played" }), t("review.legend"))));
  return box;
}

function table(pos) {
  const out = el("div", { id: "review-table" }, el("h3", { text: t("review.table") }));
  if (GAME === "zsy") {
    out.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: t("review.trick") }),
      pos.trick ? actionEl(pos.trick) : el("span", { class: "muted", text: t("play.trick_empty") })));
    return out;
  }
  if (!pos.table.length) out.append(el("p", { class: "muted", text: t("play.none") }));
  pos.table.forEach((m, i) => out.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: meldName(i) }), cardsEl(tokens(m)))));
  if (GAME === "contract") out.append(el("div", { class: "meld-row" }, el("span", { class: "tag", text: t("play.discard") }),
    pos.discard ? cardsEl([pos.discard]) : el("span", { class: "muted", text: t("play.none") })));
  return out;
}
