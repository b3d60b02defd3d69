// Cards drawn from the sprite the server inlines (solver/svg.py), and actions drawn as cards.
import { el, baseCode } from "./util.js";
import { t, has } from "./i18n.js";

export const GAME = document.body.dataset.game;
export const SUITS = ["S", "H", "D", "C"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const JOKERS = ["RJ", "BJ", "JK"];
const SVGNS = "http://www.w3.org/2000/svg";
export const GAME_TITLE = { manipulation: "Manipulation Shanghai", contract: "Contract Shanghai", zsy: "Zheng Shang You" };
export function gameTitle(game) { return t("game." + game); }

// A contract as the rules write it ("set + run", or "set run" in a game's observation), its
// words in the page's language.
export function contractName(text) {
  return String(text || "").split(/(\s+)/).map((w) => (has("meld." + w) ? t("meld." + w) : w)).join("");
}

// The 4-colour deck: diamonds blue, clubs green. A card drawn is a <use> of the sprite's symbol,
// whose copy no style sheet reaches, so the page makes recoloured symbols ("four-card-7D") and
// points every card and suit drawn at them (and back).
const FOUR = { D: ["#c8102e", "#0b5cad"], C: ["#1b1b1f", "#1b7a35"] };

function symbolFor(id) {
  const plain = id.replace(/^four-/, "");
  return document.body.classList.contains("four-colour") && /^(card|suit)-.*[DC]$/.test(plain) ? "four-" + plain : plain;
}

export function setFourColour(on) {
  document.body.classList.toggle("four-colour", on);
  if (on && !document.getElementById("four-suit-D")) {
    for (const sym of document.querySelectorAll('svg.card-sprite symbol[id^="card-"], svg.card-sprite symbol[id^="suit-"]')) {
      const suit = sym.id.slice(-1);
      if (!FOUR[suit]) continue;
      const copy = sym.cloneNode(true);
      copy.id = "four-" + sym.id;
      for (const n of copy.querySelectorAll(`[fill="${FOUR[suit][0]}"]`)) n.setAttribute("fill", FOUR[suit][1]);
      sym.parentNode.append(copy);
    }
  }
  for (const use of document.querySelectorAll("use")) {
    const href = use.getAttribute("href") || "";
    if (href.startsWith("#")) use.setAttribute("href", "#" + symbolFor(href.slice(1)));
  }
}

export function svgUse(id, viewBox) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", viewBox);
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(SVGNS, "use");
  use.setAttribute("href", "#" + symbolFor(id));
  svg.append(use);
  return svg;
}

export function isRed(code) { return /[HD]$/.test(code) || code === "RJ"; }

// A card's name as a player says it (screen readers), rank then suit in the page's language:
// "king of spades", "kuningas, pata", "König, Pik", "konge, spar"; "red joker".
const JOKER_CODES = ["RJ", "BJ", "JK"];

function rankName(rank) { return /^[AJQK]$/.test(rank) ? t("rank." + rank) : rank === "T" ? "10" : rank; }

export function cardName(code) {
  code = baseCode(code);
  if (JOKER_CODES.includes(code)) return t("card." + code);
  return t("card.name", { rank: rankName(code.slice(0, -1)), suit: t("suit." + code.slice(-1)) });
}

// A wild's role: a card ("8H") or, in Zheng Shang You, a rank ("7").
function roleName(role) { return /[SHDC]$/.test(role) ? cardName(role) : rankName(role); }

// One card drawn from the sprite; a token may carry a wild's role ("2S=8H").
export function cardEl(token, opts) {
  opts = opts || {};
  const code = baseCode(token);
  const role = token.includes("=") ? token.split("=")[1] : null;
  const node = el(opts.onclick ? "button" : "span", {
    class: "card" + (opts.mark ? " " + opts.mark : ""),
    type: opts.onclick ? "button" : null,
    role: opts.onclick ? null : "img",
    "data-card": code,
    "data-key": opts.key || null,
    "aria-label": opts.label || (role ? t("card.as", { card: cardName(code), role: roleName(role) }) : cardName(code)),
    title: opts.title || null,
    onclick: opts.onclick || null,
  });
  node.append(svgUse("card-" + code, "0 0 60 84"));
  if (role) node.append(el("span", { class: "role", text: "=" + role }));
  return node;
}

export function cardsEl(list, opts) {
  opts = opts || {};
  const marks = opts.marks || [];
  return el("div", { class: "cards" + (opts.fan ? " fan" : "") + (opts.mini ? " mini" : "") },
    list.map((t, i) => cardEl(t, { mark: marks[i], onclick: opts.onclick ? () => opts.onclick(i, t) : null })));
}


// An action's text with its cards drawn: "play set:7S 7H" -> play, set, two cards.
// Table melds are numbered from 1 wherever the page shows a number (the actions count from 0).
export function meldName(index) { return t("meld.name", { n: index + 1 }); }

// An action's word in the page's language ("play", "set:", "pass"); notation it does not know
// (a number, a kind the catalogue lacks) is shown as written.
function word(w) { const key = "verb." + w.toLowerCase(); return has(key) ? t(key) : w; }

export function actionEl(text, mini) {
  const words = text.split(" ");
  const melds = words[0] === "layoff" || words[0] === "swap";  // their numbers index the table
  const out = el("span", { class: "action" + (mini ? " mini" : "") });
  let cards = [];
  const flush = () => { if (cards.length) { out.append(cardsEl(cards, { fan: true, mini: true })); cards = []; } };
  for (const w of words) {
    const [prefix, rest] = w.includes(":") ? w.split(":") : [null, w];
    if (prefix) { flush(); out.append(" " + word(prefix) + " "); }
    const meld = melds ? /^(\d+)(?:=(\S+))?$/.exec(rest) : null;
    if (/^(10|[2-9AJQKT])[SHDC](=\S+)?$|^(RJ|BJ|JK)(=\S+)?$/i.test(rest)) cards.push(rest);
    else if (meld) { flush(); out.append(" ", el("span", { class: "meld-no", "data-meld": meld[1] }, meld[2] ? t("meld.as", { meld: meldName(parseInt(meld[1], 10)), role: meld[2] }) : meldName(parseInt(meld[1], 10))), " "); }
    else if (rest === "|") { flush(); out.append(" | "); }
    else { flush(); out.append(" " + word(rest) + " "); }
  }
  flush();
  return out;
}


// A hand in the order a player holds it: by rank (then suit), or by suit (then rank). Suits
// alternate colours (S H C D); Zheng Shang You ranks run 3..A, 2, then the jokers; the other
// games 2..A, jokers last.
const ORDER = {
  zsy: ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ"],
  other: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "BJ", "RJ", "JK"],
};
const SUIT_ORDER = ["S", "H", "C", "D"];

export function sortHand(list, game, mode) {
  const ranks = ORDER[game === "zsy" ? "zsy" : "other"];
  const key = (t) => {
    const code = baseCode(t);
    const joker = /^(RJ|BJ|JK)$/.test(code);
    const rank = ranks.indexOf(joker ? code : code.slice(0, -1));
    const suit = joker ? 4 : SUIT_ORDER.indexOf(code.slice(-1));
    return mode === "suit" ? [joker ? 9 : suit, rank] : [rank, suit];
  };
  return list.slice().sort((a, b) => { const x = key(a); const y = key(b); return x[0] - y[0] || x[1] - y[1]; });
}
