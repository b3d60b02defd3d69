// Translations: the message catalogues (web/static/i18n/<lang>.json), the language chosen, and
// messages built from them. A message is a catalogue key and its parameters, never a sentence
// glued together in code: "{n}" placeholders, plural forms chosen by Intl.PluralRules, numbers
// written by Intl.NumberFormat (docs/web.md, "Languages").
import { el } from "./util.js";

export const LANGUAGES = { en: "English", fi: "suomi", de: "Deutsch", nb: "norsk bokmål" };
const STORE = "shanghai-lang";

// The language: the address's ?lang= (a link keeps it), else the one chosen here before, else the
// browser's first language the page speaks (Norwegian "no" and "nn" read as Bokmål), else English.
export function chooseLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && LANGUAGES[asked]) return asked;
  const kept = localStorage.getItem(STORE);
  if (kept && LANGUAGES[kept]) return kept;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.toLowerCase().split("-")[0];
    const lang = base === "no" || base === "nn" ? "nb" : base;
    if (LANGUAGES[lang]) return lang;
  }
  return "en";
}

let LANG = "en";
let CATALOGUE = {};
let PLURALS = new Intl.PluralRules("en");
let NUMBERS = new Intl.NumberFormat("en");

export function lang() { return LANG; }

async function fetchCatalogue(code) {
  const r = await fetch(`/static/i18n/${code}.json`);
  if (!r.ok) throw new Error(`no catalogue for ${code}`);
  return r.json();
}

// Load a language's catalogue and make it the page's (<html lang> too). Kept in localStorage and
// in the address (?lang=), so a copied link opens in the same language.
export async function setLanguage(code, remember) {
  CATALOGUE = await fetchCatalogue(code);
  LANG = code;
  PLURALS = new Intl.PluralRules(code);
  NUMBERS = new Intl.NumberFormat(code);
  document.documentElement.lang = code;
  if (remember) {
    localStorage.setItem(STORE, code);
    const q = new URLSearchParams(location.search);
    q.set("lang", code);
    history.replaceState(null, "", location.pathname + "?" + q.toString() + location.hash);
  }
}

export function num(n) { return NUMBERS.format(n); }

function entry(key, params) {
  let m = CATALOGUE[key];
  if (m === undefined) return key;  // a missing key shows itself (the catalogue test forbids it)
  if (typeof m === "object") {
    const n = params && typeof params.n === "number" ? params.n : 0;
    m = m[PLURALS.select(n)] ?? m.other;
  }
  return m;
}

// A message as text: t("answer.play", { n: 3 }) -> "Play 3 cards". Numbers are written in the
// language's way; other parameters as given.
export function t(key, params) {
  return entry(key, params).replace(/\{(\w+)\}/g, (_, name) => {
    const v = params ? params[name] : undefined;
    if (v === undefined || v === null) return "";
    return typeof v === "number" ? num(v) : String(v);
  });
}

// A message as nodes, its placeholders filled with elements or text: tn("answer.prompt",
// { solve: el("b", {text: t("solve")}) }) -> ["Enter a position, then press ", <b>, "."].
export function tn(key, params) {
  const out = [];
  const text = entry(key, params);
  let at = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const v = params ? params[m[1]] : undefined;
    if (v !== undefined && v !== null) out.push(typeof v === "number" ? num(v) : v instanceof Node ? v : String(v));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

export function has(key) { return key in CATALOGUE; }

// The server's error answer as the page shows it: the code's text in this language, the server's
// (English) message as its detail.
export function errorText(e) {
  if (e && e.shown) return e.shown;  // a message the page wrote itself, already in this language
  const code = e && e.code && has("error." + e.code) ? e.code : "error";
  const detail = e && e.message ? e.message : "";
  return detail ? t("error.with_detail", { text: t("error." + code), detail }) : t("error." + code);
}

// The static page's texts: data-i18n="key" sets the text, data-i18n-<attr>="key" an attribute.
export function translateStatic(root) {
  for (const node of (root || document).querySelectorAll("[data-i18n]")) {
    const key = node.dataset.i18n;
    node.replaceChildren(...tn(key, { solve: el("b", { text: t("solve") }), newgame: el("b", { text: t("play.new_game") }) }));
  }
  for (const node of (root || document).querySelectorAll("*")) {
    for (const a of node.getAttributeNames()) {
      if (a.startsWith("data-i18n-")) node.setAttribute(a.slice(10), t(node.getAttribute(a)));
    }
  }
}

// A hint's reason as the page shows it: the server's facts ("why": docs/web.md, "Languages") in this
// language; a reason the facts do not cover ("other") is the engine's English sentence, marked so.
export function hintWhy(hint) {
  const why = hint && hint.why;
  const key = why ? `hint.why.${why.code}` : "";
  if (why && why.code !== "other" && has(key)) return document.createTextNode(t(key, why));
  const span = document.createElement("span");
  span.lang = "en";
  span.textContent = (hint && hint.reason) || "";
  return span;
}
