// The engine Worker: Damiera's Hub session and search. A search blocks this Worker
// until it ends (its lines go out as they come); the page ends the Worker to stop it.
"use strict";
importScripts("wasm.js");

let engine = null;
const early = [];

function handle(m) {
  if (m.op === "line") {
    const r = engine.call("engine_line", m.line);
    if (r.error) postMessage({ failed: r.error });
  } else if (m.op === "tables") {
    for (const [name, bytes] of m.files) {
      const n = new TextEncoder().encode(name);
      const all = new Uint8Array(n.length + bytes.byteLength);
      all.set(n, 0);
      all.set(new Uint8Array(bytes), n.length);
      engine.call("engine_add_table", all, n.length);
    }
    postMessage({ tables: engine.call("engine_use_tables") });
  }
}

onmessage = async (e) => {
  const m = e.data;
  if (m.op !== "module") {
    if (engine) handle(m); else early.push(m);
    return;
  }
  try {
    engine = await damieraInstance(m.module, (kind, text) => postMessage({ kind, text }));
  } catch (err) {
    postMessage({ failed: `the engine did not load: ${err}` });
    return;
  }
  for (const q of early.splice(0)) handle(q);
};
