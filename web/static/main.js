// The shanghai page: enter a position by tapping cards or typing notation, solve it,
// share it, and play against AI players. Plain JavaScript modules, no build step, no network
// but this server; cards are the <symbol>s of the sprite the server inlines (solver/svg.py).
import { $, el, api, download, readFile } from "./util.js";
import { GAME, gameTitle, setFourColour } from "./cards.js";
import { S, resetZones, puzzle, writeHash, readHash, loadPuzzleData, rulesChanged, changed, redrawEntry } from "./entry.js";
import { solve, renderAnswer } from "./answers.js";
import { setupPlay, redrawPlay, drawPresets, openKeptGame } from "./play.js";
import { LANGUAGES, chooseLanguage, setLanguage, translateStatic, t, tn, errorText } from "./i18n.js";


function setMode(mode) {
  $("#solve-view").hidden = mode !== "solve";
  $("#play-view").hidden = mode !== "play";
  $("#mode-solve").setAttribute("aria-pressed", String(mode === "solve"));
  $("#mode-play").setAttribute("aria-pressed", String(mode === "play"));
  sessionStorage.setItem("shanghai-mode", mode);
}

// The answer panel as a fresh page shows it.
function clearAnswer() {
  S.solveSeq += 1;
  const answer = $("#answer");
  delete answer.dataset.status;
  S.shown = null;
  answer.replaceChildren(el("p", { class: "muted" }, ...tn("answer.prompt", { solve: el("b", { text: t("solve") }) })));
}

// The language switch: every text drawn again in the language chosen (kept for the next visit
// and in the address, so a link opens in it).
function setupLanguages() {
  const sel = $("#lang");
  sel.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, lang: code, text: name, selected: code === document.documentElement.lang })));
  sel.onchange = async () => {
    await setLanguage(sel.value, true);
    redraw();
  };
}

function redraw() {
  translateStatic();
  $("#page-game").textContent = " · " + gameTitle(GAME);
  $("#share-note").textContent = "";
  redrawEntry();
  if (S.shown) renderAnswer(); else if (!$("#answer #solve-error")) clearAnswer();
  drawPresets();
  redrawPlay();
  document.body.dataset.lang = document.documentElement.lang;
}

async function main() {
  await setLanguage(chooseLanguage(), false);
  translateStatic();
  setupLanguages();
  document.body.dataset.lang = document.documentElement.lang;
  for (const a of document.querySelectorAll("nav.games a")) {
    if (a.dataset.game === GAME) a.setAttribute("aria-current", "page");
    a.addEventListener("click", (e) => { e.preventDefault(); location.href = a.getAttribute("href") + location.search + (sessionStorage.getItem("shanghai-mode") === "play" ? "#play" : ""); });
  }
  $("#mode-solve").onclick = () => setMode("solve");
  $("#page-game").textContent = " · " + gameTitle(GAME);
  // The file inputs are opened by real buttons (a label is not reachable by keyboard).
  $("#upload-btn").onclick = () => $("#upload").click();
  $("#record-upload-btn").onclick = () => $("#record-upload").click();
  const four = $("#four-colour");
  four.checked = localStorage.getItem("shanghai-four-colour") === "1";
  setFourColour(four.checked);
  four.onchange = () => { setFourColour(four.checked); localStorage.setItem("shanghai-four-colour", four.checked ? "1" : "0"); };
  $("#mode-play").onclick = () => setMode("play");
  S.meta = await api("rules");
  const upload = sessionStorage.getItem("shanghai-upload");
  sessionStorage.removeItem("shanghai-upload");
  if (location.hash === "#play") { setMode("play"); history.replaceState(null, "", location.pathname + location.search); }
  else if (sessionStorage.getItem("shanghai-mode") === "play") setMode("play");  // a reload keeps the mode
  // A game's link (resume or invite): opened below, its token out of the address bar at once.
  const link = /^#(g|join)=/.test(location.hash) ? location.hash : null;
  if (link) { setMode("play"); history.replaceState(null, "", location.pathname + location.search); }
  if (upload) loadPuzzleData(JSON.parse(upload)); else readHash();
  $("#solve-btn").onclick = solve;
  $("#clear-btn").onclick = () => { resetZones(); S.round = 1; S.laidDown = false; S.calls = 0; S.drawn = null; S.beatKind = ""; S.title = ""; S.answer = null; clearAnswer(); changed(); };
  $("#share-btn").onclick = async () => {
    writeHash();
    try { await navigator.clipboard.writeText(location.href); $("#share-note").textContent = t("share.copied"); }
    catch (e) { $("#share-note").textContent = location.href; }
  };
  $("#download-btn").onclick = async () => {
    try {
      const r = await api("toml", { puzzle: puzzle() });
      download(`${GAME}-position.toml`, r.toml, "application/toml");
    } catch (e) { $("#share-note").textContent = errorText(e); }
  };
  $("#upload").onchange = async (e) => {
    try {
      const text = await readFile(e.target);
      const r = await api("from_toml", { toml: text });
      loadPuzzleData(r.puzzle);
      await rulesChanged();
      writeHash();
      $("#share-note").textContent = t("share.loaded");
    } catch (exc) { $("#share-note").textContent = t("share.load_failed", { error: errorText(exc) }); }
    finally { e.target.value = ""; }
  };
  // Another link opened in this tab: a new position, so the old answer goes.
  window.addEventListener("hashchange", () => {
    if (/^#(g|join)=/.test(location.hash)) { const hash = location.hash; setMode("play"); history.replaceState(null, "", location.pathname + location.search); openKeptGame(hash); }
    else if (location.hash !== "#play") { readHash(); clearAnswer(); rulesChanged(); }
  });
  setupPlay();
  await openKeptGame(link);
  await rulesChanged();
  document.body.dataset.ready = "1";
}

// Before a catalogue is loaded there is no language to speak: this one line stays English.
main().catch((e) => { document.body.append(el("p", { class: "error", text: "The page could not start: " + e.message })); });

