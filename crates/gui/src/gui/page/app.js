// Damiera web board. Everything the rules decide comes from the server: the legal
// moves (with every landing-square path of a capture), the result, the move tree, the
// clocks, the engine's parameters and the review.
"use strict";

const $ = (id) => document.getElementById(id);
let st = null;          // server state
let stateAt = 0;        // performance.now() when st arrived (the clocks count from it)
let lines = [];         // analysis lines
let sel = [];           // squares picked so far: origin, then landing squares
let flipped = false;
let focusSquare = 22;   // the board's one tab stop (roving)
let downSquare = null;  // square where the pointer went down (drag to move)
let lastBest = "";      // best move last announced
let paramsShown = "";   // the parameter list the settings panel was built for
let analysisShown = ""; // the analysis lines the panel was built for
let previewing = null;  // the line and move on the preview board: {multipv, index}

const PIECE_NAMES = { w: "white man", b: "black man", W: "white king", B: "black king" };

// ---- geometry: the variant's squares, numbered 1-32 as its players number them ----
// The server sends each square's number, name (`22`, or `c3` in the algebraic
// variants), row (0 at the top, Black's side) and column; until it does, the FID board.
let variantShown = "";  // the variant the board was built for
let squares = [];       // index n-1: {number, name, row, col}
for (let n = 1; n <= 32; n++) {
  const row = Math.floor((n - 1) / 4);
  squares.push({ number: n, name: String(n), row, col: 2 * ((n - 1) % 4) + (row % 2) });
}

// What the page tells of the variant's rules (who moves first, what a refused move is
// told, the label of the square names, an example position): the server sends it with
// the list of games in every state, so no game is typed here.
const NO_GAME = { first_mover: "White", capture: "Capturing is compulsory", step: "", numbers: "Squares", placeholder: "" };

// The side that moves first, whose moves carry the move numbers.
function firstMover() {
  return rules().first_mover;
}

function rules() {
  return (st && st.game) || NO_GAME;
}

// The game selector's options, from the games the server plays (once).
function fillGames(games) {
  const select = $("variant");
  if (select.options.length || !Array.isArray(games)) return;
  for (const g of games) select.add(new Option(g.title, g.name));
}

// The game's house rules as check boxes under the selector, from the server's list (empty
// for games without any); ticking one starts a new game under the rules ticked.
function showHouseRules(s) {
  const box = $("house-rules");
  const rules = Array.isArray(s.house_rules) ? s.house_rules : [];
  box.hidden = rules.length === 0;
  const key = rules.map((r) => `${r.name}=${r.on}`).join(" ");
  if (box.dataset.shown === key) return;
  box.dataset.shown = key;
  for (const old of box.querySelectorAll("label")) old.remove();
  for (const r of rules) {
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = r.name;
    input.checked = !!r.on;
    input.onchange = sendHouseRules;
    const label = document.createElement("label");
    label.append(input, ` ${r.name}`);
    box.append(label);
  }
}

function sendHouseRules() {
  const names = [...$("house-rules").querySelectorAll("input:checked")].map((i) => i.value);
  api("/api/new", { variant: st.variant, house_rules: names.join(",") }).then((r) => {
    if (r) say(`New game of ${r.state.variant_title}${names.length ? ` (${names.join(", ")})` : ""}.`, true);
  });
}

function rowCol(n) {
  const { row, col } = squares[n - 1];
  return flipped ? [7 - row, 7 - col] : [row, col];
}

// The square's name in the variant's notation (`22`, `c3`).
function nameOf(n) {
  return squares[n - 1] ? squares[n - 1].name : String(n);
}

function names(list) {
  return [...list].map(nameOf).join(", ");
}

// The square at a row and a column of four (0-3) of the board as drawn.
function squareAt(row, k) {
  const found = squares.find((q) => {
    const [r, c] = rowCol(q.number);
    return r === row && Math.floor(c / 2) === k;
  });
  return found ? found.number : null;
}

function buildBoard() {
  const board = $("board");
  board.textContent = "";
  const cells = [];
  for (let i = 0; i < 64; i++) {
    const d = document.createElement("div");
    d.className = "sq light";
    d.setAttribute("aria-hidden", "true");
    cells.push(d);
  }
  for (let n = 1; n <= 32; n++) {
    const [r, c] = rowCol(n);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "sq dark";
    b.id = `sq-${n}`;
    b.dataset.square = String(n);
    b.tabIndex = n === focusSquare ? 0 : -1;
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = nameOf(n);
    num.setAttribute("aria-hidden", "true");
    b.appendChild(num);
    cells[r * 8 + c] = b;
  }
  cells.forEach((d) => board.appendChild(d));
  $("board").setAttribute("aria-label", flipped ? "Board, Black at the bottom" : "Board, White at the bottom");
}

function squareEl(n) {
  return $(`sq-${n}`);
}

// ---- server ----
// One interface, two ways to serve it: `damiera gui` answers over HTTP (fetch and
// Server-Sent Events); the static site's web.js answers the same requests and sends
// the same events from the WebAssembly module in its Workers.
const web = window.damieraWeb || null;
const send = web ? web.fetch : (path, init) => fetch(path, init);
const openEvents = () => (web ? web.events() : new EventSource("/api/events"));

async function api(path, body) {
  try {
    const r = await send(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    });
    const data = await r.json();
    if (!r.ok) {
      say(data.error || `error ${r.status}`);
      return null;
    }
    if (data.state) setState(data.state);
    return data;
  } catch (e) {
    say(`the server does not answer: ${e}`);
    return null;
  }
}

// A PDN file goes up as its bytes: the server reads every encoding other programs
// write. A file of several games answers with the list to choose from.
async function loadPdn(bytes, game) {
  const query = game ? `?game=${game}` : "";
  try {
    const r = await send(`/api/pdn-file${query}`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream" },
      body: bytes,
    });
    const data = await r.json();
    if (!r.ok) {
      say(data.error || `error ${r.status}`);
      return;
    }
    if (data.state) setState(data.state);
    if (data.choose) pickGame(bytes, data);
    else {
      const notes = data.warnings && data.warnings.length ? ` (${data.warnings.join("; ")})` : "";
      say(`${game ? `loaded game ${game}` : "game loaded"}${notes}`, true);
    }
  } catch (e) {
    say(`the server does not answer: ${e}`);
  }
}

// The picker: one option per game read from the file (numbered as in the file), Enter
// or "Load" loads it; beside the list, what was repaired or skipped.
function pickGame(bytes, data) {
  const dialog = $("pdn-picker");
  const select = $("pdn-games");
  const list = data.choose;
  select.textContent = "";
  list.forEach((text, i) => {
    const o = document.createElement("option");
    o.value = String(data.numbers ? data.numbers[i] : i + 1);
    o.textContent = text;
    select.appendChild(o);
  });
  select.size = Math.min(10, Math.max(2, list.length));
  select.selectedIndex = 0;
  const warnings = data.warnings || [];
  const box = $("pdn-warnings");
  box.textContent = "";
  warnings.forEach((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    box.appendChild(li);
  });
  $("pdn-warnings-box").hidden = warnings.length === 0;
  $("pdn-count").textContent = warnings.length
    ? `${data.summary}. Choose a game:`
    : `This file holds ${list.length} games. Choose one:`;
  $("pdn-load").onclick = () => { dialog.close(); loadPdn(bytes, Number(select.value)); };
  select.ondblclick = () => $("pdn-load").click();
  select.onkeydown = (e) => { if (e.key === "Enter") { e.preventDefault(); $("pdn-load").click(); } };
  $("pdn-cancel").onclick = () => dialog.close();
  dialog.showModal();
  select.focus();
}

function say(text, info) {
  const m = $("message");
  m.textContent = text || "";
  m.className = info ? "message info" : "message";
}

function setState(s) {
  if (st && s.revision < st.revision) return;
  const moved = !st || s.version !== st.version;
  st = s;
  stateAt = performance.now();
  if (moved) sel = [];
  if (s.variant && s.variant !== variantShown) showVariant(s);
  showHouseRules(s);
  render();
}

// A board of another variant: its squares, names, labels and title.
function showVariant(s) {
  variantShown = s.variant;
  fillGames(s.games);
  if (Array.isArray(s.squares) && s.squares.length === 32) squares = s.squares;
  document.title = `Damiera – ${s.variant_title}`;
  const game = s.game || NO_GAME;
  $("numbers-label").textContent = game.numbers;
  $("fen").placeholder = game.placeholder;
  analysisShown = "";
  const hadFocus = $("board").contains(document.activeElement);
  buildBoard();
  if (hadFocus) squareEl(focusSquare).focus();
}

// The engine's answer to a draw offer, said once.
let offerSaid = 0;
function sayOffer() {
  const o = st.offer;
  if (!o || o.id === offerSaid || o.pending || !o.answer) return;
  offerSaid = o.id;
  if (o.answer.accepted) say("The engine accepts the draw.", true);
  else {
    const score = o.answer.text == null ? "none" : `${o.answer.text} for itself`;
    say(`The engine declines the draw (its evaluation: ${score}).`, true);
  }
}

function connect() {
  const es = openEvents();
  es.addEventListener("state", (e) => setState(JSON.parse(e.data)));
  es.addEventListener("analysis", (e) => {
    const a = JSON.parse(e.data);
    if (st && a.version < st.version) return;
    lines = a.lines;
    renderAnalysis();
  });
  es.onerror = () => say("lost the connection to the server; retrying…");
  es.onopen = () => { if ($("message").textContent.startsWith("lost the connection")) say(""); };
}

// ---- rendering ----
function squareLabel(n) {
  const p = st ? st.board[n - 1] : "e";
  let label = `${nameOf(n)}, ${p === "e" ? "empty" : PIECE_NAMES[p]}`;
  if (sel[0] === n) label += ", picked up";
  else if (sel.includes(n)) label += ", landing square";
  if (sel.length && nextTargets().has(n)) label += ", can move here";
  return label;
}

function render() {
  if (!st) return;
  for (let n = 1; n <= 32; n++) {
    const d = squareEl(n);
    d.classList.remove("last", "path", "target", "selected");
    const old = d.querySelector(".piece");
    if (old) old.remove();
    const p = st.board[n - 1];
    if (p !== "e") {
      const piece = document.createElement("div");
      piece.className = `piece ${p}`;
      piece.dataset.piece = p;
      d.appendChild(piece);
    }
  }
  if (st.last_move) {
    squareEl(st.last_move.from).classList.add("last");
    squareEl(st.last_move.to).classList.add("last");
  }
  if (sel.length) {
    squareEl(sel[0]).classList.add("selected");
    sel.forEach((n) => squareEl(n).classList.add("path"));
    for (const n of nextTargets()) squareEl(n).classList.add("target");
  }
  for (let n = 1; n <= 32; n++) squareEl(n).setAttribute("aria-label", squareLabel(n));
  renderSide();
  sayOffer();
  renderClocks();
  renderMoves();
  renderReview();
  renderParams();
  renderAnalysis();
  renderExplorer();
}

function renderSide() {
  const s = st.settings;
  $("mode-play").checked = s.mode === "play";
  $("mode-analyse").checked = s.mode === "analyse";
  $("engine-side").value = s.engine_side;
  if (document.activeElement !== $("movetime")) $("movetime").value = s.movetime;
  if (document.activeElement !== $("review-seconds")) $("review-seconds").value = s.review_seconds;
  if (document.activeElement !== $("fen")) $("fen").value = st.fen;
  const tc = $("time-control");
  if (document.activeElement !== tc && tc.value !== "custom") {
    if (!st.clock) tc.value = "move";
    else {
      const key = `${st.clock.time}+${st.clock.inc}`;
      tc.value = [...tc.options].some((o) => o.value === key) ? key : "custom";
    }
  }
  $("movetime-row").hidden = tc.value !== "move";
  $("custom-clock").hidden = tc.value !== "custom";
  $("go").disabled = s.analysing;
  $("stop").disabled = !s.analysing;
  $("takeback").disabled = st.plies === 0;
  if (document.activeElement !== $("variant")) $("variant").value = st.variant;
  const playing = s.mode === "play" && !st.result;
  const pending = !!(st.offer && st.offer.pending);
  $("resign").disabled = !playing;
  $("offer-draw").disabled = !playing || pending
    || (s.engine_side !== "none" && s.engine_side === st.turn && st.ply === st.plies);
  $("offer-draw").textContent = pending ? "Draw offered…" : "Offer draw";
  const e = st.engine;
  const status = $("engine-status");
  if (e.status === "dead") {
    status.textContent = `Engine stopped: ${e.reason}. Press Restart engine.`;
    status.className = "engine-status dead";
  } else {
    const reviewing = st.review && st.review.running;
    const doing = e.status === "starting" ? "starting…"
      : reviewing ? "reviewing"
      : e.busy ? (s.mode === "analyse" ? "analysing" : "thinking") : "ready";
    status.textContent = `Engine: ${e.name} – ${doing}${e.message ? " – " + e.message : ""}`;
    status.className = "engine-status";
  }
  if (st.result) {
    $("result").textContent = `${st.result.result} – ${st.result.reason}`;
  } else {
    const turn = st.turn === "white" ? "White" : "Black";
    const engineTurn = s.mode === "play" && s.engine_side === st.turn && st.ply === st.plies;
    $("result").textContent = engineTurn ? `${turn} to move (engine)` : `${turn} to move`;
  }
  const node = currentPath();
  $("promote").disabled = !node.length || node.every((i) => i === 0);
  $("delete").disabled = !node.length;
}

// ---- clocks: the server's snapshot, counted down here until the next one ----
function clockText(seconds) {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = s - 60 * m;
  if (s < 10) return `${m}:${rest.toFixed(1).padStart(4, "0")}`;
  return `${m}:${String(Math.floor(rest)).padStart(2, "0")}`;
}

function clockLeft(side) {
  const c = st.clock;
  let left = c[side];
  if (c.running === side) left -= (performance.now() - stateAt) / 1000;
  return left;
}

function renderClocks() {
  const c = st && st.clock;
  const slots = [$("clock-top"), $("clock-bottom")];
  const store = document.querySelector(".clocks-store");
  $("clock-resume").hidden = !(c && c.paused && !c.flag && st.settings.mode === "play" && st.plies > 0);
  if (!c) {
    for (const id of ["clock-white", "clock-black"]) store.appendChild($(id));
    return;
  }
  const [top, bottom] = flipped ? ["white", "black"] : ["black", "white"];
  if ($(`clock-${top}`).parentElement !== slots[0]) slots[0].appendChild($(`clock-${top}`));
  if ($(`clock-${bottom}`).parentElement !== slots[1]) slots[1].appendChild($(`clock-${bottom}`));
  for (const side of ["white", "black"]) {
    const el = $(`clock-${side}`);
    const left = clockLeft(side);
    el.querySelector(".time").textContent = clockText(left);
    el.classList.toggle("running", c.running === side);
    el.classList.toggle("low", left < 10);
    el.classList.toggle("flag", c.flag === side);
    const name = side === "white" ? "White" : "Black";
    el.setAttribute("aria-label", `${name}'s clock: ${clockText(left)}${c.running === side ? ", running" : ""}`);
  }
}

// ---- the move tree: main line, variations in brackets after the move they replace ----
function currentPath() {
  return st ? st.path.slice(0, st.ply) : [];
}

function moveButton(m) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "mv" + (m.on_line ? " on-line" : "") + (m.current ? " current" : "");
  b.dataset.path = m.path.join(",");
  b.dataset.ply = String(m.ply);
  b.tabIndex = -1;
  b.textContent = m.text;
  if (m.mark) {
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = m.mark;
    b.appendChild(mark);
  }
  const side = m.side === "White" ? "White" : "Black";
  b.setAttribute("aria-label", `${m.number}${m.side === firstMover() ? "." : "…"} ${side} ${m.text}${m.mark ? " " + (m.mark === "??" ? "blunder" : "mistake") : ""}${m.current ? ", shown" : ""}`);
  if (m.current) b.setAttribute("aria-current", "step");
  return b;
}

function renderLine(box, entries, opens) {
  let first = opens;
  for (const m of entries) {
    if (m.side === firstMover() || first) {
      const no = document.createElement("span");
      no.className = "no";
      no.textContent = m.side === firstMover() ? `${m.number}.` : `${m.number}…`;
      box.append(" ", no);
    }
    box.append(" ", moveButton(m));
    first = false;
    for (const v of m.variations || []) {
      const span = document.createElement("span");
      span.className = "variation";
      span.append(" (");
      renderLine(span, v, true);
      span.append(" )");
      box.append(span);
      first = true;
    }
  }
}

function renderMoves() {
  const box = $("moves");
  const hadFocus = box.contains(document.activeElement);
  box.textContent = "";
  renderLine(box, st.tree, true);
  const buttons = box.querySelectorAll(".mv");
  const cur = box.querySelector(".mv.current") || buttons[buttons.length - 1];
  if (cur) {
    cur.tabIndex = 0;
    const top = cur.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - cur.offsetHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
    if (hadFocus) cur.focus();
  }
}

// ---- analysis: lines, arrows, preview, evaluation, the announcement ----
function fmtNodes(n) {
  if (n == null) return "?";
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} k`;
  return String(n);
}

function scoreText(l) {
  if (l.score_text) return l.score_text;
  if (l.white_score == null) return "?";
  return (l.white_score > 0 ? "+" : "") + l.white_score.toFixed(2);
}

function shownLines() {
  // Lines about another position (the engine thinking at the end of the game while
  // an earlier ply is viewed) are not drawn on this board.
  return st ? lines.filter((l) => !l.fen || l.fen === st.fen) : [];
}

function renderAnalysis() {
  const shown = shownLines();
  // Rebuilt only when the lines change (not on every clock tick or state event), so a
  // line under the mouse or the keyboard focus stays where it is.
  const signature = JSON.stringify(shown);
  if (signature === analysisShown) return;
  analysisShown = signature;
  const box = $("analysis");
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.multipv : null;
  box.textContent = "";
  for (const l of shown) {
    const d = document.createElement("div");
    d.className = "line";
    d.dataset.multipv = String(l.multipv);
    d.tabIndex = 0;
    d.setAttribute("role", "group");
    const head = shown.length > 1 ? `${l.multipv}. ` : "";
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = scoreText(l);
    const stats = document.createElement("span");
    stats.className = "stats";
    const nps = l.nps != null ? ` · ${l.nps} Mn/s` : "";
    stats.textContent = ` depth ${l.depth ?? "?"} · ${fmtNodes(l.nodes)} nodes${nps} `;
    d.append(head, score, stats);
    l.pv.forEach((text, i) => {
      const m = document.createElement("span");
      m.className = "pvmove";
      m.dataset.index = String(i);
      m.textContent = text;
      d.append(" ", m);
    });
    d.setAttribute("aria-label", `${head}${scoreText(l)}, depth ${l.depth ?? "unknown"}: ${l.pv.join(" ")}`);
    d.addEventListener("mouseover", (e) => {
      const m = e.target.closest(".pvmove");
      preview(l, m ? Number(m.dataset.index) : l.boards.length - 1);
    });
    d.addEventListener("focus", () => preview(l, l.boards.length - 1));
    d.addEventListener("mouseleave", hidePreview);
    d.addEventListener("blur", hidePreview);
    box.appendChild(d);
    if (focused === String(l.multipv)) d.focus();
  }
  // The preview follows its line as the engine deepens it.
  if (previewing) {
    const l = shown.find((x) => x.multipv === previewing.multipv);
    if (l) preview(l, previewing.index);
    else hidePreview();
  }
  drawArrows(shown);
  const best = shown.find((l) => l.multipv === 1) || shown[0];
  const fill = $("evalfill");
  if (best && best.white_score != null) {
    const pct = 50 + 50 * Math.tanh(best.white_score / 3);
    fill.style.height = `${pct.toFixed(1)}%`;
    $("evaltext").textContent = `Evaluation: ${scoreText(best)} (depth ${best.depth ?? "?"})`;
    $("evalbar").setAttribute("aria-label", `Evaluation: ${scoreText(best)}`);
  } else {
    fill.style.height = "50%";
    $("evaltext").textContent = "";
    $("evalbar").setAttribute("aria-label", "Evaluation: none yet");
  }
  const move = best && best.pv.length ? best.pv[0] : "";
  if (move !== lastBest) {
    lastBest = move;
    $("announce").textContent = move ? `Best move ${move}, ${scoreText(best)}` : "";
  }
}

function centre(n) {
  const [r, c] = rowCol(n);
  return [c + 0.5, r + 0.5];
}

function drawArrows(shown) {
  const svg = $("arrows");
  svg.querySelectorAll("g").forEach((g) => g.remove());
  const ns = "http://www.w3.org/2000/svg";
  // Weaker lines first, the best on top.
  for (const l of [...shown].sort((a, b) => b.multipv - a.multipv)) {
    const squares = l.squares && l.squares[0];
    if (!squares || squares.length < 2) continue;
    const g = document.createElementNS(ns, "g");
    const best = l.multipv === 1;
    g.setAttribute("class", best ? "best" : "other");
    g.dataset.from = String(squares[0]);
    g.dataset.to = String(squares[squares.length - 1]);
    g.dataset.multipv = String(l.multipv);
    g.setAttribute("stroke-width", best ? "0.16" : "0.08");
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", squares.map((n) => centre(n).join(",")).join(" "));
    line.setAttribute("marker-end", "url(#head)");
    g.appendChild(line);
    svg.appendChild(g);
  }
}

function preview(l, index) {
  if (!l.boards.length || index < 0) return;
  const i = Math.min(index, l.boards.length - 1);
  const board = l.boards[i];
  const box = $("preview");
  box.textContent = "";
  const cells = [];
  for (let k = 0; k < 64; k++) {
    const d = document.createElement("div");
    d.className = "l";
    cells.push(d);
  }
  for (let n = 1; n <= 32; n++) {
    const [r, c] = rowCol(n);
    const d = cells[r * 8 + c];
    d.className = "d";
    const p = board[n - 1];
    if (p !== "e") {
      const piece = document.createElement("div");
      piece.className = `p ${p}`;
      d.appendChild(piece);
    }
  }
  cells.forEach((d) => box.appendChild(d));
  document.querySelectorAll(".pvmove.hl").forEach((m) => m.classList.remove("hl"));
  const lineEl = document.querySelector(`#analysis .line[data-multipv="${l.multipv}"]`);
  if (lineEl) {
    lineEl.querySelectorAll(".pvmove").forEach((m) => m.classList.toggle("hl", Number(m.dataset.index) <= i));
  }
  $("preview-caption").textContent = `After ${l.pv.slice(0, i + 1).join(" ")}`;
  $("preview-box").hidden = false;
  previewing = { multipv: l.multipv, index };
}

function hidePreview() {
  previewing = null;
  $("preview-box").hidden = true;
  document.querySelectorAll(".pvmove.hl").forEach((m) => m.classList.remove("hl"));
}

// ---- engine settings: a control for every parameter the engine declares ----
function paramControl(p) {
  let el;
  if (p.type === "bool") {
    el = document.createElement("input");
    el.type = "checkbox";
  } else if (p.type === "int" || p.type === "real") {
    el = document.createElement("input");
    el.type = "number";
    el.step = p.type === "int" ? "1" : "any";
    if (p.min != null) el.min = String(p.min);
    if (p.max != null) el.max = String(p.max);
  } else if (p.type === "enum") {
    el = document.createElement("select");
    for (const v of p.values) {
      const o = document.createElement("option");
      o.value = v;
      o.textContent = v;
      el.appendChild(o);
    }
  } else {
    el = document.createElement("input");
    el.type = "text";
    el.spellcheck = false;
  }
  el.id = `param-${p.name}`;
  el.dataset.param = p.name;
  el.dataset.type = p.type || "string";
  el.addEventListener("change", () => {
    let value;
    if (p.type === "bool") value = el.checked;
    else if (p.type === "int" || p.type === "real") value = el.value.trim() === "" ? "" : Number(el.value);
    else value = el.value;
    api("/api/engine/param", { name: p.name, value }).then((r) => {
      if (r) say(`${p.name} set to ${p.type === "bool" ? value : el.value}`, true);
    });
  });
  return el;
}

// ---- opening explorer ----
// The position's book moves and the loaded games' moves; a move's button plays it.
let explorerShown = "";
function renderExplorer() {
  const ex = st.explorer;
  const key = JSON.stringify(ex);
  if (!ex || key === explorerShown) return;
  explorerShown = key;
  const fileOption = $("explorer-book-file");
  fileOption.hidden = !ex.file;
  if (ex.file) fileOption.textContent = ex.file;
  $("explorer-book").value = ex.choice;
  const book = ex.book;
  const bookRows = book ? book.moves.map((m) => [
    explorerMove(m),
    cell(m.value_text == null ? "–" : m.value_text, true),
    cell(m.depth == null ? "–" : String(m.depth), true),
    cell(String(m.count), true),
  ]) : [];
  fillTable("book-moves", bookRows);
  $("book-status").textContent = !book ? (ex.choice === "off" ? "No book." : "No book for this game.")
    : book.note || (book.moves.length ? `${book.name}: ${book.moves.length} moves here.` : `${book.name}: nothing here.`);
  const games = ex.games;
  $("drop-games").hidden = !games;
  const gameRows = games ? games.moves.map((m) => [
    explorerMove(m),
    cell(String(m.games), true),
    cell(String(m.white_won), true),
    cell(String(m.drawn), true),
    cell(String(m.black_won), true),
    playersCell(m),
  ]) : [];
  fillTable("game-moves", gameRows);
  $("games-status").textContent = !games ? "No games loaded."
    : games.note || `${games.name}: ${games.total} games; ${games.moves.reduce((n, m) => n + m.games, 0)} reached this position.`;
}

function cell(text, number) {
  const td = document.createElement("td");
  td.textContent = text;
  if (number) td.className = "count";
  return td;
}

function explorerMove(m) {
  const td = document.createElement("td");
  const b = document.createElement("button");
  b.type = "button";
  b.className = "explorer-move";
  b.dataset.move = m.text;
  b.textContent = m.text;
  b.setAttribute("aria-label", `Play ${m.text}`);
  td.appendChild(b);
  return td;
}

function playersCell(m) {
  const td = document.createElement("td");
  const d = document.createElement("details");
  const s = document.createElement("summary");
  s.textContent = m.games === 1 ? "1 game" : `${m.games} games`;
  d.appendChild(s);
  const ul = document.createElement("ul");
  for (const g of m.listed) {
    const li = document.createElement("li");
    li.className = "explorer-game";
    li.textContent = `${g.number}. ${g.white} – ${g.black}, ${g.result}`;
    ul.appendChild(li);
  }
  if (m.games > m.listed.length) {
    const li = document.createElement("li");
    li.textContent = `and ${m.games - m.listed.length} more`;
    ul.appendChild(li);
  }
  d.appendChild(ul);
  td.appendChild(d);
  return td;
}

function fillTable(id, rows) {
  const body = $(id).querySelector("tbody");
  body.textContent = "";
  for (const cells of rows) {
    const tr = document.createElement("tr");
    tr.dataset.move = cells[0].textContent;
    cells.forEach((c) => tr.appendChild(c));
    body.appendChild(tr);
  }
  $(id).hidden = rows.length === 0;
}

// A book or PDN file for the explorer goes up as its bytes, named in the query.
async function uploadExplorer(kind, file) {
  try {
    const bytes = await file.arrayBuffer();
    const r = await send(`/api/explorer/${kind}?name=${encodeURIComponent(file.name)}`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream" },
      body: bytes,
    });
    const data = await r.json();
    if (!r.ok) { say(data.error || `error ${r.status}`); return; }
    if (data.state) setState(data.state);
    say(data.summary || `${file.name} loaded`, true);
  } catch (e) {
    say(`the server does not answer: ${e}`);
  }
}

function renderParams() {
  const params = st.engine.params || [];
  const box = $("params");
  const signature = JSON.stringify(params.map((p) => [p.name, p.type, p.min, p.max, p.values]));
  if (signature !== paramsShown) {
    paramsShown = signature;
    box.textContent = "";
    if (!params.length) box.textContent = "The engine declares no parameters.";
    for (const p of params) {
      const label = document.createElement("label");
      label.htmlFor = `param-${p.name}`;
      const range = p.min != null || p.max != null ? ` (${p.min ?? "…"}–${p.max ?? "…"})` : "";
      label.textContent = `${p.name}${range}`;
      box.append(label, paramControl(p));
    }
  }
  for (const p of params) {
    const el = $(`param-${p.name}`);
    if (!el || el === document.activeElement) continue;
    if (p.type === "bool") el.checked = p.value === "true";
    else el.value = p.value;
  }
}

// ---- review: progress, the chart under the board, marks in the move list ----
function renderReview() {
  const r = st.review;
  $("review").disabled = !!(r && r.running) || st.plies === 0;
  $("review-stop").disabled = !(r && r.running);
  $("review-save").hidden = !r || r.points.length === 0;
  const progress = $("review-progress");
  progress.hidden = !r;
  if (!r) {
    $("review-status").textContent = "";
    $("chart-box").hidden = true;
    return;
  }
  progress.max = r.total;
  progress.value = r.done;
  const marks = r.points.filter((p) => p.mark);
  const blunders = marks.filter((p) => p.mark === "??").length;
  const state = r.error ? `stopped: ${r.error}` : r.running ? "reviewing" : r.done === r.total ? "done" : "stopped";
  $("review-status").textContent = `${state}: ${r.done} of ${r.total} positions, ${marks.length - blunders} mistakes (?), ${blunders} blunders (??)`;
  drawChart(r);
}

function drawChart(r) {
  const box = $("chart-box");
  const svg = $("chart");
  box.hidden = r.points.length === 0;
  const hadFocus = svg.contains(document.activeElement);
  const focusedPly = hadFocus && document.activeElement.dataset ? document.activeElement.dataset.ply : null;
  svg.textContent = "";
  if (!r.points.length) return;
  const ns = "http://www.w3.org/2000/svg";
  const w = 600, h = 140, pad = 8;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const x = (ply) => pad + (w - 2 * pad) * (r.plies ? ply / r.plies : 0);
  const y = (men) => h / 2 - (h / 2 - pad) * (men / 3);
  const zero = document.createElementNS(ns, "line");
  zero.setAttribute("class", "zero");
  zero.setAttribute("x1", pad); zero.setAttribute("x2", w - pad);
  zero.setAttribute("y1", h / 2); zero.setAttribute("y2", h / 2);
  svg.appendChild(zero);
  const curve = document.createElementNS(ns, "polyline");
  curve.setAttribute("class", "curve");
  curve.setAttribute("points", r.points.map((p) => `${x(p.ply)},${y(p.men)}`).join(" "));
  svg.appendChild(curve);
  const reviewedShown = r.line_shown;
  for (const p of r.points) {
    const c = document.createElementNS(ns, "circle");
    c.setAttribute("cx", x(p.ply));
    c.setAttribute("cy", y(p.men));
    c.setAttribute("r", p.mark ? 5 : 3.5);
    const cls = [p.mark === "??" ? "blunder" : p.mark === "?" ? "mistake" : ""];
    if (reviewedShown && p.ply === st.ply) cls.push("current");
    c.setAttribute("class", cls.join(" ").trim());
    c.dataset.ply = String(p.ply);
    c.setAttribute("role", "button");
    c.setAttribute("tabindex", "-1");
    c.setAttribute("aria-label", `Ply ${p.ply}: ${p.text}${p.mark ? ` ${p.mark === "??" ? "blunder" : "mistake"}, loses ${p.loss}` : ""}`);
    const title = document.createElementNS(ns, "title");
    title.textContent = `ply ${p.ply}: ${p.text}${p.mark ? " " + p.mark : ""}`;
    c.appendChild(title);
    svg.appendChild(c);
  }
  const points = svg.querySelectorAll("circle");
  const stop = [...points].find((c) => c.dataset.ply === (focusedPly ?? String(reviewedShown ? st.ply : 0))) || points[0];
  stop.setAttribute("tabindex", "0");
  if (hadFocus) stop.focus();
}

// ---- moving: click the origin, then each landing square (or drag, or the keyboard) ----
function startsWith(path, prefix) {
  return prefix.every((n, i) => path[i] === n);
}

function candidates() {
  return st.legal.filter((m) => m.from === sel[0]);
}

function nextTargets() {
  const out = new Set();
  if (!st || !sel.length) return out;
  for (const m of candidates()) {
    for (const p of m.paths) if (p.length > sel.length && startsWith(p, sel)) out.add(p[sel.length]);
  }
  return out;
}

function pieceAt(n) {
  return st.board[n - 1];
}

function isOwn(n) {
  const p = pieceAt(n);
  return p !== "e" && (p.toLowerCase() === "w") === (st.turn === "white");
}

function whyNoMove() {
  if (st.result) return `The game is over: ${st.result.reason}.`;
  if (st.settings.mode === "play" && st.settings.engine_side === st.turn) return "It is the engine's turn.";
  return "No move can be made here.";
}

function select(n) {
  sel = [];
  if (!st.legal.length) { say(whyNoMove()); render(); return; }
  const p = pieceAt(n);
  if (p === "e") { say(`Square ${nameOf(n)} is empty: pick one of your pieces.`); render(); return; }
  if (!isOwn(n)) { say(`That piece is not yours: ${st.turn === "white" ? "White" : "Black"} is to move.`); render(); return; }
  if (!st.legal.some((m) => m.from === n)) {
    const capturing = [...new Set(st.legal.filter((m) => m.captured.length).map((m) => m.from))];
    if (capturing.length) {
      say(`${rules().capture}: move the piece on ${capturing.map(nameOf).join(" or ")}.`);
    } else {
      say(`The piece on ${nameOf(n)} cannot move.`);
    }
    render();
    return;
  }
  sel = [n];
  const capture = candidates().some((m) => m.captured.length);
  const targets = names(nextTargets());
  say(capture ? `Capture: pick each landing square in turn (${targets}).` : `Piece on ${nameOf(n)} picked up: it can go to ${targets}.`, true);
  render();
}

function clickSquare(n) {
  if (!st) return;
  if (!sel.length) { select(n); return; }
  if (n === sel[sel.length - 1]) { sel = []; say(""); render(); return; }
  const prefix = sel.concat([n]);
  const matching = [];
  for (const m of candidates()) for (const p of m.paths) if (startsWith(p, prefix)) matching.push({ m, p });
  if (matching.length) {
    const full = matching.find((x) => x.p.length === prefix.length);
    if (full) { play(full.m); return; }
    sel = prefix;
    say(`Capture goes on: pick the next landing square (${[...nextTargets()].map(nameOf).join(" or ")}).`, true);
    render();
    return;
  }
  const byDestination = candidates().filter((m) => m.to === n && m.paths.some((p) => startsWith(p, sel)));
  if (byDestination.length === 1) { play(byDestination[0]); return; }
  if (byDestination.length > 1) {
    say(`Several captures end on ${nameOf(n)}: pick the landing squares one by one to choose.`);
    return;
  }
  if (isOwn(n) && sel.length === 1) { select(n); return; }
  const from = sel[0];
  const capture = candidates().some((m) => m.captured.length);
  say(capture
    ? `Not a legal landing square: the capture from ${nameOf(from)} must continue on ${[...nextTargets()].map(nameOf).join(" or ")}.`
    : `${nameOf(from)}-${nameOf(n)} is not a legal move: ${rules().step}.`);
}

async function play(m) {
  sel = [];
  say("");
  render();
  await api("/api/move", { move: m.text });
}

function squareFromEvent(e) {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  const sq = el && el.closest("[data-square]");
  return sq ? Number(sq.dataset.square) : null;
}

function focusOn(n) {
  const old = squareEl(focusSquare);
  if (old) old.tabIndex = -1;
  focusSquare = n;
  const el = squareEl(n);
  el.tabIndex = 0;
  el.focus();
}

// Arrow keys walk the 32 playing squares as drawn, in rows of four: up and down a row,
// left and right along the row (the same in every variant and when flipped).
function squareKeys(e) {
  const sq = e.target.closest("[data-square]");
  if (!sq) return;
  const n = Number(sq.dataset.square);
  const [row, col] = rowCol(n);
  const k = Math.floor(col / 2);
  const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
  if (step) {
    const target = squareAt(row + step[0], k + step[1]);
    if (target !== null) focusOn(target);
    e.preventDefault();
    return;
  }
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    clickSquare(n);
  } else if (e.key === "Escape") {
    sel = [];
    say("");
    render();
  }
}

function setupBoard() {
  // A press on one of your pieces picks it up; releasing on another square moves there
  // (drag), releasing on the same square is a click. Touch works the same way.
  let selectedOnDown = false;
  const board = $("board");
  board.addEventListener("pointerdown", (e) => {
    downSquare = squareFromEvent(e);
    selectedOnDown = false;
    if (downSquare !== null && !sel.length && st && isOwn(downSquare)) {
      select(downSquare);
      selectedOnDown = true;
    }
  });
  board.addEventListener("pointerup", (e) => {
    const up = squareFromEvent(e);
    const down = downSquare;
    downSquare = null;
    if (up === null) return;
    if (up === down) {
      if (!selectedOnDown) clickSquare(up);
    } else if (down !== null && sel[0] === down) {
      clickSquare(up);
    }
    selectedOnDown = false;
  });
  // Pointer events do the work; a click (or Enter/Space) must not do it twice.
  board.addEventListener("click", (e) => e.preventDefault());
  board.addEventListener("keydown", squareKeys);
  board.addEventListener("focusin", (e) => {
    const sq = e.target.closest("[data-square]");
    if (sq) focusSquare = Number(sq.dataset.square);
  });
}

// ---- controls ----
function goto(ply) {
  if (st) api("/api/goto", { ply: Math.max(0, Math.min(st.plies, ply)) });
}

function setupControls() {
  $("flip").onclick = () => {
    flipped = !flipped;
    $("evalbar").classList.toggle("flipped", flipped);
    buildBoard();
    analysisShown = ""; // the arrows turn with the board
    render();
  };
  $("numbers").onchange = () => $("board").classList.toggle("numbers", $("numbers").checked);
  $("mode-play").onchange = () => api("/api/settings", { mode: "play" });
  $("mode-analyse").onchange = () => api("/api/settings", { mode: "analyse" });
  $("engine-side").onchange = () => api("/api/settings", { engine_side: $("engine-side").value });
  $("movetime").onchange = () => api("/api/settings", { movetime: Number($("movetime").value) });
  $("review-seconds").onchange = () => api("/api/settings", { review_seconds: Number($("review-seconds").value) });
  $("time-control").onchange = () => {
    const v = $("time-control").value;
    if (v === "move") api("/api/settings", { clock: null });
    else if (v !== "custom") {
      const [time, inc] = v.split("+").map(Number);
      api("/api/settings", { clock: { time, inc } });
    }
    renderSide();
  };
  $("clock-set").onclick = () => {
    const time = Number($("clock-minutes").value) * 60;
    const inc = Number($("clock-inc").value || 0);
    api("/api/settings", { clock: { time, inc } }).then((r) => {
      if (r) say("Clocks set: they start with the first move.", true);
    });
  };
  $("clock-resume").onclick = () => api("/api/clock", { resume: true });
  $("new-game").onclick = () => api("/api/new");
  $("variant").onchange = () => api("/api/new", { variant: $("variant").value }).then((r) => {
    if (r) say(`New game of ${r.state.variant_title}.`, true);
  });
  $("resign").onclick = () => api("/api/resign");
  $("offer-draw").onclick = () => api("/api/draw").then((r) => {
    if (r && r.state.offer.pending) say("Draw offered: the engine is thinking it over…", true);
  });
  $("takeback").onclick = () => api("/api/takeback");
  $("go").onclick = () => api("/api/analysis", { run: true });
  $("stop").onclick = () => api("/api/analysis", { run: false });
  $("restart").onclick = () => api("/api/engine/restart");
  $("set-fen").onclick = () => api("/api/position", { fen: $("fen").value.trim() });
  $("fen").onkeydown = (e) => { if (e.key === "Enter") $("set-fen").click(); };
  $("load-pdn").onclick = () => $("pdn-file").click();
  $("pdn-file").onchange = () => {
    const f = $("pdn-file").files[0];
    if (!f) return;
    f.arrayBuffer().then((bytes) => loadPdn(bytes)).finally(() => { $("pdn-file").value = ""; });
  };
  $("explorer-book").onchange = () => api("/api/explorer", { book: $("explorer-book").value });
  $("load-book").onclick = () => $("book-file").click();
  $("load-games").onclick = () => $("games-file").click();
  $("drop-games").onclick = () => api("/api/explorer", { games: null });
  for (const [input, kind] of [["book-file", "book"], ["games-file", "pdn"]]) {
    $(input).onchange = () => {
      const f = $(input).files[0];
      if (f) uploadExplorer(kind, f).finally(() => { $(input).value = ""; });
    };
  }
  $("explorer").onclick = (e) => {
    const b = e.target.closest("button.explorer-move");
    if (b) { say(""); api("/api/move", { move: b.dataset.move }); }
  };
  $("nav-start").onclick = () => goto(0);
  $("nav-back").onclick = () => st && goto(st.ply - 1);
  $("nav-forward").onclick = () => st && goto(st.ply + 1);
  $("nav-end").onclick = () => st && goto(st.plies);
  $("moves").onclick = (e) => {
    const t = e.target.closest("[data-path]");
    if (t) api("/api/line", { path: t.dataset.path.split(",").map(Number) });
  };
  $("moves").onkeydown = (e) => {
    const keys = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    if (e.key in keys && st) { e.preventDefault(); goto(st.ply + keys[e.key]); }
    if (e.key === "Home" && st) { e.preventDefault(); goto(0); }
    if (e.key === "End" && st) { e.preventDefault(); goto(st.plies); }
  };
  $("promote").onclick = () => api("/api/variation/promote", { path: currentPath() });
  $("delete").onclick = () => {
    const path = currentPath();
    if (path.length) api("/api/variation/delete", { path });
  };
  $("review").onclick = () => api("/api/review", { run: true });
  $("review-stop").onclick = () => api("/api/review", { run: false });
  const chart = $("chart");
  chart.addEventListener("click", (e) => {
    const p = e.target.closest("[data-ply]");
    if (p) api("/api/review/goto", { ply: Number(p.dataset.ply) });
  });
  chart.addEventListener("keydown", (e) => {
    const p = e.target.closest("[data-ply]");
    if (!p) return;
    const points = [...chart.querySelectorAll("circle")];
    const i = points.indexOf(p);
    let next = null;
    if (e.key === "ArrowLeft" || e.key === "ArrowDown") next = points[Math.max(0, i - 1)];
    if (e.key === "ArrowRight" || e.key === "ArrowUp") next = points[Math.min(points.length - 1, i + 1)];
    if (e.key === "Home") next = points[0];
    if (e.key === "End") next = points[points.length - 1];
    if (next) {
      e.preventDefault();
      p.setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      next.focus();
      api("/api/review/goto", { ply: Number(next.dataset.ply) });
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      api("/api/review/goto", { ply: Number(p.dataset.ply) });
    }
  });
  // Left and right page through the game when nothing else takes the keys.
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.target !== document.body) return;
    if (e.key === "ArrowLeft") $("nav-back").click();
    if (e.key === "ArrowRight") $("nav-forward").click();
  });
}

// Drop the token from the address bar once the page is in: the cookie keeps it.
if (new URLSearchParams(location.search).has("token")) history.replaceState(null, "", "/");

buildBoard();
setupBoard();
setupControls();
setInterval(() => { if (st && st.clock) renderClocks(); }, 100);
send("/api/state").then((r) => r.json()).then(setState).catch(() => say("the server does not answer"));
connect();
