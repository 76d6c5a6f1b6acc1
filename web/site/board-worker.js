// The board Worker: the web board's state and JSON API (the same Rust code as
// `damiera gui` runs behind HTTP), driven by the page's messages and a 100 ms tick.
"use strict";
importScripts("wasm.js");

let board = null;
const early = [];

function report(reply, id) {
  const m = { events: reply.events || "", engine: reply.engine || [] };
  if (id !== undefined) { m.id = id; m.status = reply.status; m.body = reply.body; }
  if (id !== undefined || m.events || m.engine.length) postMessage(m);
}

function handle(m) {
  if (m.op === "api") {
    const enc = new TextEncoder();
    const parts = [enc.encode(m.method), enc.encode(m.path), enc.encode(m.query || ""), m.body];
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { all.set(p, at); at += p.length; }
    report(board.call("board_api", all, ...parts.map((p) => p.length)), m.id);
  } else if (m.op === "line") {
    report(board.call("board_engine_line", m.line));
  } else if (m.op === "failed") {
    report(board.call("board_engine_failed", m.why));
  }
}

onmessage = async (e) => {
  const m = e.data;
  if (m.op !== "module") {
    if (board) handle(m); else early.push(m);
    return;
  }
  try {
    board = await damieraInstance(m.module, () => {});
  } catch (err) {
    postMessage({ failed: `the board did not load: ${err}` });
    return;
  }
  report(board.call("board_start"));
  for (const q of early.splice(0)) handle(q);
  setInterval(() => report(board.call("board_tick")), 100);
};
