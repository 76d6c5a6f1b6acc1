// Damiera as a static site: this script stands in for the server of `damiera gui`.
// The page (app.js) talks to one interface either way: `damieraWeb.fetch` answers the
// same /api/ requests and `damieraWeb.events()` delivers the same `state` and
// `analysis` events as the server's fetch and Server-Sent Events do. The answers come
// from the WebAssembly module in two Workers: the board Worker (the JSON API, the game
// tree, clocks, review and PDN) and the engine Worker (the Hub session and the search).
//
// The engine Worker is blocked while it searches, so `stop` is obeyed here: the Worker
// is ended at once, the board gets the `done` of the best move found so far, and a
// spare engine Worker, started and set up with the same parameters beforehand, takes
// over at once (lines of any Worker but the current one are dropped).
"use strict";

(function () {
  const here = new URL(".", document.currentScript.src);
  const url = (name) => new URL(name, here).href;

  let module = null;      // the compiled WebAssembly module, shared by the Workers
  let tables = null;      // endgame table files: [[name, ArrayBuffer]]
  const board = new Worker(url("board-worker.js"));
  const replies = new Map();
  let nextId = 1;
  const handlers = { state: [], analysis: [] };
  const latest = {};      // the newest event of each name, for listeners added late
  let source = null;

  let engine = null;      // the engine Worker the board talks to
  let spare = null;       // a second one, started and set up, to take over at a stop
  let busy = false;       // a `go` is out and its `done` has not come back
  let fallback = "done";  // what the board gets if the running search is stopped
  let setup = [];         // the lines that set the engine up, replayed on every new one
  let lines = 0;          // info lines of the running search so far
  let stopping = false;   // a stop waits for the search's first info line

  function dispatch(text) {
    for (const block of text.split("\n\n")) {
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (!data.length) continue;
      const event = { data: data.join("\n") };
      latest[name] = event;
      for (const f of handlers[name] || []) f(event);
    }
  }

  function toBoard(m) { board.postMessage(m); }

  // A new engine Worker with the module, the tables and the setup lines; only the
  // current one's lines reach the board.
  function makeEngine() {
    const w = new Worker(url("engine-worker.js"));
    w.onmessage = (e) => {
      if (w !== engine) return;
      const m = e.data;
      if (m.kind === 1) fallback = m.text;
      else if (m.kind === 0) {
        if (m.text.startsWith("done")) { busy = false; stopping = false; }
        toBoard({ op: "line", line: m.text });
        if (m.text.startsWith("info ")) {
          lines += 1;
          if (stopping) stopEngine();
        }
      } else if (m.failed) toBoard({ op: "failed", why: m.failed });
      else if (m.tables) window.damieraWeb.tables = m.tables;
    };
    w.onerror = (e) => {
      if (w === engine) toBoard({ op: "failed", why: `the engine stopped: ${e.message}` });
    };
    if (module) w.postMessage({ op: "module", module });
    if (tables) w.postMessage({ op: "tables", files: tables });
    for (const line of setup) w.postMessage({ op: "line", line });
    return w;
  }

  function startEngine() {
    for (const w of [engine, spare]) if (w) w.terminate();
    busy = false;
    fallback = "done";
    engine = makeEngine();
    spare = makeEngine();
  }

  // Ends the searching Worker; the spare takes over and the board gets the best move.
  function stopEngine() {
    const done = fallback;
    engine.terminate();
    engine = spare || makeEngine();
    spare = makeEngine();
    busy = false;
    stopping = false;
    fallback = "done";
    toBoard({ op: "line", line: done });
  }

  function toEngine(line) {
    if (line === "#start") {
      setup = [];
      startEngine();
      return;
    }
    if (line === "stop") {
      if (!busy) return; // its `done` is on its way to the board already
      // A search stopped before its first line would leave the board without a score
      // (a review's position): the stop waits for that line, which a running search
      // sends within milliseconds; only a Worker still starting makes it wait longer.
      if (lines === 0) stopping = true;
      else stopEngine();
      return;
    }
    if (line === "hub" || line === "init" || line.startsWith("set-param ")) {
      setup.push(line);
      if (spare) spare.postMessage({ op: "line", line });
    }
    if (line.startsWith("go")) { busy = true; fallback = "done"; lines = 0; stopping = false; }
    engine.postMessage({ op: "line", line });
  }

  board.onmessage = (e) => {
    const m = e.data;
    if (m.failed) { dispatchError(m.failed); return; }
    if (m.events) dispatch(m.events);
    for (const line of m.engine || []) toEngine(line);
    if (m.id !== undefined) {
      const reply = replies.get(m.id);
      replies.delete(m.id);
      if (reply) reply(m);
    }
  };

  function dispatchError(text) {
    if (source && source.onerror) source.onerror(new Error(text));
    const box = document.getElementById("message");
    if (box) box.textContent = text;
  }

  function bytesOf(body) {
    if (body === undefined || body === null) return new Uint8Array(0);
    if (typeof body === "string") return new TextEncoder().encode(body);
    if (body instanceof ArrayBuffer) return new Uint8Array(body.slice(0));
    if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
    return new TextEncoder().encode(String(body));
  }

  // fetch() for /api/ paths, answered by the board Worker: a Response-like object.
  function webFetch(path, init) {
    const options = init || {};
    const [route, query] = String(path).split("?");
    return new Promise((resolve) => {
      const id = nextId++;
      replies.set(id, (m) => resolve({
        ok: m.status >= 200 && m.status < 300,
        status: m.status,
        json: () => Promise.resolve(m.body),
      }));
      toBoard({ op: "api", id, method: options.method || "GET", path: route, query: query || "", body: bytesOf(options.body) });
    });
  }

  // An EventSource stand-in: the board Worker's events after every call and tick.
  function events() {
    source = {
      onerror: null,
      onopen: null,
      addEventListener(name, f) {
        (handlers[name] = handlers[name] || []).push(f);
        if (latest[name]) f(latest[name]);
      },
      close() {},
    };
    return source;
  }

  // The two PDN downloads are links to the server in damiera gui; here the board
  // Worker writes the same text and the browser saves it.
  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("a#save-pdn, a#review-save");
    if (!a) return;
    e.preventDefault();
    const path = a.id === "save-pdn" ? "/api/pdn" : "/api/review/pdn";
    webFetch(path).then((r) => r.json()).then((d) => {
      if (!d || typeof d.pdn !== "string") return;
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([d.pdn], { type: "application/x-pdn" }));
      link.download = a.getAttribute("download") || "damiera.pdn";
      link.textContent = link.download;
      link.hidden = true;
      document.body.appendChild(link);
      link.click();
      setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
    });
  }, true);

  // Hub lines run on an engine Worker of their own (not the board's), until `count`
  // `done` lines came back: every line it answered. For measuring the engine's speed.
  function hubRun(lines, count) {
    return new Promise((resolve, reject) => {
      const w = new Worker(url("engine-worker.js"));
      const out = [];
      let done = 0;
      w.onmessage = (e) => {
        if (e.data.failed) { w.terminate(); reject(new Error(e.data.failed)); return; }
        if (e.data.kind !== 0) return;
        out.push(e.data.text);
        if (e.data.text.startsWith("done") && ++done === count) { w.terminate(); resolve(out); }
      };
      w.onerror = (e) => { w.terminate(); reject(new Error(e.message)); };
      w.postMessage({ op: "module", module });
      for (const line of lines) w.postMessage({ op: "line", line });
    });
  }

  window.damieraWeb = { fetch: webFetch, events, hubRun, tables: null };

  fetch(url("damiera_web.wasm"))
    .then((r) => { if (!r.ok) throw new Error(`damiera_web.wasm: ${r.status}`); return r.arrayBuffer(); })
    .then((bytes) => WebAssembly.compile(bytes))
    .then((m) => {
      module = m;
      board.postMessage({ op: "module", module });
      for (const w of [engine, spare]) if (w) w.postMessage({ op: "module", module });
    })
    .catch((err) => dispatchError(`the engine did not load: ${err}`));

  // The endgame databases (up to 4 pieces), shipped with the site and kept by the
  // service worker's cache like every other file.
  fetch(url("egdb/index.json"))
    .then((r) => (r.ok ? r.json() : []))
    .then((names) => Promise.all(names.map((n) =>
      fetch(url(`egdb/${n}`)).then((r) => { if (!r.ok) throw new Error(n); return r.arrayBuffer(); })
        .then((bytes) => [n, bytes]))))
    .then((files) => {
      tables = files;
      if (files.length) for (const w of [engine, spare]) if (w) w.postMessage({ op: "tables", files });
    })
    .catch(() => {});

  // The shipped opening books (built into the native binary, files here): the
  // explorer's default books, handed to the board Worker.
  fetch(url("book/index.json"))
    .then((r) => (r.ok ? r.json() : []))
    .then((names) => Promise.all(names.map((n) =>
      fetch(url(`book/${n}`)).then((r) => { if (!r.ok) throw new Error(n); return r.arrayBuffer(); })
        .then((bytes) => webFetch(`/api/explorer/book?as=default&name=${encodeURIComponent(n)}`,
          { method: "POST", body: bytes })))))
    .catch(() => {});

  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register(url("sw.js")).catch(() => {});
  }
})();
