// Damiera web board. Everything the rules decide comes from the server: the legal
// moves (with every landing-square path of a capture), the result, the move list.
"use strict";

const $ = (id) => document.getElementById(id);
let st = null;          // server state
let lines = [];         // analysis lines
let sel = [];           // squares clicked so far: origin, then landing squares
let flipped = false;
let downSquare = null;  // square where the pointer went down (drag to move)

// ---- geometry: FID numbering, square 1 top-left, White at the bottom ----
function rowCol(n) {
  const row = Math.floor((n - 1) / 4);
  const col = 2 * ((n - 1) % 4) + (row % 2);
  return flipped ? [7 - row, 7 - col] : [row, col];
}

function buildBoard() {
  const board = $("board");
  board.textContent = "";
  const cells = [];
  for (let i = 0; i < 64; i++) {
    const d = document.createElement("div");
    d.className = "sq light";
    cells.push(d);
  }
  for (let n = 1; n <= 32; n++) {
    const [r, c] = rowCol(n);
    const d = cells[r * 8 + c];
    d.className = "sq dark";
    d.dataset.square = String(n);
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = String(n);
    d.appendChild(num);
  }
  cells.forEach((d) => board.appendChild(d));
}

function squareEl(n) {
  return document.querySelector(`#board [data-square="${n}"]`);
}

// ---- server ----
async function api(path, body) {
  try {
    const r = await fetch(path, {
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
    const r = await fetch(`/api/pdn-file${query}`, {
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
    if (data.choose) pickGame(bytes, data.choose);
    else say(game ? `loaded game ${game}` : "game loaded", true);
  } catch (e) {
    say(`the server does not answer: ${e}`);
  }
}

// The picker: one option per game of the file, Enter or "Load" loads it.
function pickGame(bytes, list) {
  const dialog = $("pdn-picker");
  const select = $("pdn-games");
  select.textContent = "";
  list.forEach((text, i) => {
    const o = document.createElement("option");
    o.value = String(i + 1);
    o.textContent = text;
    select.appendChild(o);
  });
  select.size = Math.min(10, Math.max(2, list.length));
  select.selectedIndex = 0;
  $("pdn-count").textContent = `This file holds ${list.length} games. Choose one:`;
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
  if (moved) sel = [];
  render();
}

function connect() {
  const es = new EventSource("/api/events");
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
function render() {
  if (!st) return;
  for (let n = 1; n <= 32; n++) {
    const d = squareEl(n);
    d.classList.remove("last", "path", "target", "selected", "captured-mark");
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
  renderSide();
  renderMoves();
}

function renderSide() {
  const s = st.settings;
  $("mode-play").checked = s.mode === "play";
  $("mode-analyse").checked = s.mode === "analyse";
  $("engine-side").value = s.engine_side;
  if (document.activeElement !== $("movetime")) $("movetime").value = s.movetime;
  if (document.activeElement !== $("fen")) $("fen").value = st.fen;
  $("go").disabled = s.analysing;
  $("stop").disabled = !s.analysing;
  const e = st.engine;
  const status = $("engine-status");
  if (e.status === "dead") {
    status.textContent = `Engine stopped: ${e.reason}. Press Restart engine.`;
    status.className = "engine-status dead";
  } else {
    const doing = e.status === "starting" ? "starting…"
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
}

function renderMoves() {
  const box = $("moves");
  box.textContent = "";
  for (const m of st.moves) {
    if (m.side === "White" || box.childElementCount === 0) {
      const no = document.createElement("span");
      no.className = "no";
      no.textContent = m.side === "White" ? `${m.number}.` : `${m.number}…`;
      box.append(" ", no);
    }
    const span = document.createElement("span");
    span.className = "mv" + (m.ply === st.ply ? " current" : "");
    span.dataset.ply = String(m.ply);
    span.textContent = m.text;
    box.append(" ", span);
  }
  const cur = box.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function fmtScore(x) {
  if (x === null || x === undefined) return "?";
  return (x > 0 ? "+" : "") + x.toFixed(2);
}

function renderAnalysis() {
  const box = $("analysis");
  box.textContent = "";
  for (const l of lines) {
    const d = document.createElement("div");
    d.className = "line";
    d.dataset.multipv = String(l.multipv);
    const head = lines.length > 1 ? `${l.multipv}. ` : "";
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = fmtScore(l.score);
    const nodes = l.nodes != null ? ` nodes ${l.nodes}` : "";
    d.append(`${head}depth ${l.depth ?? "?"} `, score, `${nodes}  ${l.pv.join(" ")}`);
    box.appendChild(d);
  }
  const best = lines.find((l) => l.multipv === 1) || lines[0];
  const fill = $("evalfill");
  if (best && best.white_score != null) {
    const pct = 50 + 50 * Math.tanh(best.white_score / 3);
    fill.style.height = `${pct.toFixed(1)}%`;
    $("evaltext").textContent = fmtScore(best.white_score);
  } else {
    fill.style.height = "50%";
    $("evaltext").textContent = "";
  }
}

// ---- moving: click the origin, then each landing square (or drag) ----
function startsWith(path, prefix) {
  return prefix.every((n, i) => path[i] === n);
}

function candidates() {
  return st.legal.filter((m) => m.from === sel[0]);
}

function nextTargets() {
  const out = new Set();
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
  if (p === "e") { say(`Square ${n} is empty: click one of your pieces.`); render(); return; }
  if (!isOwn(n)) { say(`That piece is not yours: ${st.turn === "white" ? "White" : "Black"} is to move.`); render(); return; }
  if (!st.legal.some((m) => m.from === n)) {
    const capturing = [...new Set(st.legal.filter((m) => m.captured.length).map((m) => m.from))];
    if (capturing.length) {
      say(`Capturing is compulsory, and the capture the rules prefer (most pieces, then with a king, then most kings, then kings first) must be made: move the piece on ${capturing.join(" or ")}.`);
    } else {
      say(`The piece on ${n} cannot move.`);
    }
    render();
    return;
  }
  sel = [n];
  const capture = candidates().some((m) => m.captured.length);
  say(capture ? "Capture: click each landing square in turn." : "Click the destination square.", true);
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
    say(`Capture goes on: click the next landing square.`, true);
    render();
    return;
  }
  const byDestination = candidates().filter((m) => m.to === n && m.paths.some((p) => startsWith(p, sel)));
  if (byDestination.length === 1) { play(byDestination[0]); return; }
  if (byDestination.length > 1) {
    say(`Several captures end on ${n}: click the landing squares one by one to choose.`);
    return;
  }
  if (isOwn(n) && sel.length === 1) { select(n); return; }
  const from = sel[0];
  const capture = candidates().some((m) => m.captured.length);
  say(capture
    ? `Not a legal landing square: the capture from ${from} must continue on ${[...nextTargets()].join(" or ")}.`
    : `${from}-${n} is not a legal move: men move one square diagonally forward; kings one square in any diagonal direction.`);
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

function setupBoard() {
  // A press on one of your pieces selects it; releasing on another square moves there
  // (drag), releasing on the same square is a click.
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
}

// ---- controls ----
function setupControls() {
  $("flip").onclick = () => { flipped = !flipped; $("evalbar").classList.toggle("flipped", flipped); buildBoard(); render(); };
  $("numbers").onchange = () => $("board").classList.toggle("numbers", $("numbers").checked);
  $("mode-play").onchange = () => api("/api/settings", { mode: "play" });
  $("mode-analyse").onchange = () => api("/api/settings", { mode: "analyse" });
  $("engine-side").onchange = () => api("/api/settings", { engine_side: $("engine-side").value });
  $("movetime").onchange = () => api("/api/settings", { movetime: Number($("movetime").value) });
  $("new-game").onclick = () => api("/api/new");
  $("takeback").onclick = () => api("/api/takeback");
  $("go").onclick = () => api("/api/analysis", { run: true });
  $("stop").onclick = () => api("/api/analysis", { run: false });
  $("restart").onclick = () => api("/api/engine/restart");
  $("set-fen").onclick = () => api("/api/position", { fen: $("fen").value.trim() });
  $("fen").onkeydown = (e) => { if (e.key === "Enter") $("set-fen").click(); };
  $("pdn-file").onchange = () => {
    const f = $("pdn-file").files[0];
    if (!f) return;
    f.arrayBuffer().then((bytes) => loadPdn(bytes)).finally(() => { $("pdn-file").value = ""; });
  };
  const go = (ply) => st && api("/api/goto", { ply: Math.max(0, Math.min(st.plies, ply)) });
  $("nav-start").onclick = () => go(0);
  $("nav-back").onclick = () => st && go(st.ply - 1);
  $("nav-forward").onclick = () => st && go(st.ply + 1);
  $("nav-end").onclick = () => st && go(st.plies);
  $("moves").onclick = (e) => { const t = e.target.closest("[data-ply]"); if (t) go(Number(t.dataset.ply)); };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") $("nav-back").click();
    if (e.key === "ArrowRight") $("nav-forward").click();
  });
}

buildBoard();
setupBoard();
setupControls();
fetch("/api/state").then((r) => r.json()).then(setState).catch(() => say("the server does not answer"));
connect();
