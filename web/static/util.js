// Small helpers shared by every module: DOM building, the API, files.
export function $(sel, root) { return (root || document).querySelector(sel); }

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

export function baseCode(token) { return token.split("=")[0].toUpperCase(); }
// Card codes from the API (a list) or from notation typed in (a string).
export function tokens(text) { return Array.isArray(text) ? text : (text || "").trim().split(/\s+/).filter(Boolean); }

export async function api(cmd, body) {
  let response;
  try {
    response = await fetch("/api/" + cmd, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (exc) {
    throw Object.assign(new Error(""), { code: "network" });  // the page names it (error.network)
  }
  let data;
  try { data = await response.json(); } catch (exc) { data = { error: { code: "bad_reply", message: "" } }; }
  if (!response.ok) {
    const e = data.error || { code: "error", message: response.statusText };
    throw Object.assign(new Error(e.message), { code: e.code });
  }
  return data;
}

export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function readFile(input) {
  return new Promise((resolve, reject) => {
    const file = input.files[0];
    if (!file) return reject(new Error("no file"));
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

export function countOf(list) {
  const m = new Map();
  for (const t of list) { const c = baseCode(t); m.set(c, (m.get(c) || 0) + 1); }
  return m;
}

export function sortKey(list) { return list.map(baseCode).sort().join(" "); }

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A roving tabindex: a group of buttons is one Tab stop, the arrow keys move within it (Left/Right
// one item, Up/Down `columns` items, Home/End the ends; disabled items skipped). `items` in reading
// order, on `containers`; `stop` the item that takes the Tab stop (default the first enabled one);
// `onStop(item)` is told where the stop moves (to keep it across a re-render).
export function rove(containers, items, columns, stop, onStop) {
  const enabled = items.filter((b) => !b.disabled);
  const set = (item) => { for (const b of items) b.tabIndex = b === item ? 0 : -1; if (onStop) onStop(item); };
  const first = enabled.includes(stop) ? stop : enabled[0];
  for (const b of items) b.tabIndex = b === first ? 0 : -1;
  const keydown = (e) => {
    const at = items.indexOf(document.activeElement);
    if (at < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns }[e.key];
    let to = null;
    if (e.key === "Home") to = enabled[0];
    else if (e.key === "End") to = enabled[enabled.length - 1];
    else if (step) for (let k = at + step; k >= 0 && k < items.length; k += step) if (!items[k].disabled) { to = items[k]; break; }
    if (!to) return;
    e.preventDefault();
    set(to);
    to.focus();
  };
  for (const c of containers) {
    c.addEventListener("keydown", keydown);
    c.addEventListener("focusin", (e) => { if (items.includes(e.target)) set(e.target); });
  }
}
