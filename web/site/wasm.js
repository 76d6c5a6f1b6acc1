// The WebAssembly module's plain interface (web/src/abi.rs), shared by both Workers:
// text and bytes in through the module's input buffer, JSON out through its output.
"use strict";

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

// Instantiates the compiled module the page sent; `emit(kind, text)` gets the lines a
// running search reports (0: a Hub line, 1: the fallback `done`).
async function damieraInstance(module, emit) {
  let x = null;
  const text = (ptr, len) => fromUtf8.decode(new Uint8Array(x.memory.buffer, ptr, len).slice());
  const instance = await WebAssembly.instantiate(module, {
    env: {
      now_ms: () => performance.now(),
      emit: (kind, ptr, len) => emit(kind, text(ptr, len)),
    },
  });
  x = instance.exports;
  const put = (bytes) => {
    const ptr = x.input(bytes.length);
    new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
  };
  const out = (len) => text(x.output_ptr(), len);
  return {
    exports: x,
    // Calls export `name` with the bytes (or text) as input; its JSON answer.
    call(name, input, ...args) {
      if (input !== undefined) put(typeof input === "string" ? utf8.encode(input) : input);
      return JSON.parse(out(x[name](...args)));
    },
  };
}
