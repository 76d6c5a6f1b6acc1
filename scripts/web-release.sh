#!/usr/bin/env bash
# Builds the static site: dist/web/ with
#   index.html, app.js, style.css   the web board's page (crates/gui/src/gui/page/), unchanged but for
#                                   relative paths, the manifest and web.js
#   web.js                          stands in for `damiera gui`'s server: fetch and events
#   board-worker.js, engine-worker.js, wasm.js
#                                   the Workers that run damiera_web.wasm
#   damiera_web.wasm                the board's JSON API and the engine (web/, crate damiera-web)
#   egdb/                           the endgame databases up to 4 pieces, and their list
#   book/                           the shipped opening books (the explorer's), and their list
#   manifest.webmanifest, icon-*.png   to install it (a phone's home screen)
#   sw.js                           the service worker: every file cached, versioned
#
# Any static host serves the folder (GitHub Pages, a directory of a web server); to try it
# locally: python3 -m http.server -d dist/web 8000, then http://localhost:8000/.
#
# Toolchain: Debian's rustc-web, cargo-web and rust-web-src (the standard library built
# for wasm32-unknown-unknown with -Zbuild-std) and lld-22 (Debian's rust-lld); installed
# with apt-get when missing (as root, or through sudo). The host's cargo builds the
# native damiera that builds the databases.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=wasm32-unknown-unknown
PACKAGES=(rustc-web cargo-web rust-web-src lld-22 python3)

missing=()
[ -x /usr/bin/rustc ] && /usr/bin/rustc --version | grep -q . || missing+=(rustc-web)
[ -x /usr/bin/cargo ] || missing+=(cargo-web)
[ -d /usr/lib/rustlib/src/rust/library ] || missing+=(rust-web-src)
[ -e /usr/bin/rust-lld ] || missing+=(lld-22)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    echo "installing ${PACKAGES[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${PACKAGES[@]}" >/dev/null
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
# The module: Debian's cargo and rustc (whatever rustup puts first on PATH); build-std
# needs the nightly switch, which RUSTC_BOOTSTRAP gives a stable compiler.
env PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 \
    CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_STRIP=symbols \
    /usr/bin/cargo build --locked -Zbuild-std=std,panic_abort --target "$TARGET" --release \
    -p damiera-web --lib
wasm="$CARGO_TARGET_DIR/$TARGET/release/damiera_web.wasm"

# The databases, built by the native damiera (a second or two).
cargo build --locked --release --bin damiera
damiera="$CARGO_TARGET_DIR/release/damiera"

out=dist/web
rm -rf "$out"
mkdir -p "$out/egdb" "$out/book"
cp crates/engine/src/book/*.book "$out/book/"
"$damiera" egdb build --pieces 4 --dir "$out/egdb" >/dev/null
cp "$wasm" "$out/damiera_web.wasm"
cp crates/gui/src/gui/page/app.js crates/gui/src/gui/page/style.css "$out/"
cp web/site/web.js web/site/wasm.js web/site/board-worker.js web/site/engine-worker.js \
    web/site/manifest.webmanifest "$out/"

python3 - "$out" <<'PY'
import gzip, hashlib, json, os, struct, sys, zlib

out = sys.argv[1]

# The page: relative paths (the site may live in a sub-folder), the manifest, web.js.
page = open("crates/gui/src/gui/page/index.html", encoding="utf-8").read()
page = page.replace('href="/style.css"', 'href="style.css"')
page = page.replace(
    '<link rel="stylesheet" href="style.css">',
    '<link rel="stylesheet" href="style.css">\n'
    '<link rel="manifest" href="manifest.webmanifest">\n'
    '<meta name="theme-color" content="#5b3a1e">\n'
    '<link rel="icon" href="icon-192.png">')
page = page.replace('<script src="/app.js"></script>',
                    '<script src="web.js"></script>\n<script src="app.js"></script>')
assert 'src="web.js"' in page and 'rel="manifest"' in page, "index.html changed shape"
open(os.path.join(out, "index.html"), "w", encoding="utf-8").write(page)

# Icons: a red man on a dark square, drawn here (no image tools needed).
def png(size):
    rows = []
    c = size / 2
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            d = ((x + 0.5 - c) ** 2 + (y + 0.5 - c) ** 2) ** 0.5 / c
            if d < 0.62:
                rgb = (196, 40, 36) if d < 0.45 or d > 0.52 else (240, 210, 200)
            else:
                rgb = (91, 58, 30)
            row += bytes(rgb)
        rows.append(bytes(row))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    head = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))
for size in (192, 512):
    open(os.path.join(out, "icon-%d.png" % size), "wb").write(png(size))

tables = sorted(f for f in os.listdir(os.path.join(out, "egdb")) if f.endswith(".egdb"))
for f in os.listdir(os.path.join(out, "egdb")):
    if not f.endswith(".egdb"):
        os.remove(os.path.join(out, "egdb", f))
json.dump(tables, open(os.path.join(out, "egdb", "index.json"), "w"))
books = sorted(f for f in os.listdir(os.path.join(out, "book")) if f.endswith(".book"))
json.dump(books, open(os.path.join(out, "book", "index.json"), "w"))

# The service worker: the files to cache and a version that changes with any of them.
files = sorted(os.path.relpath(os.path.join(d, f), out).replace(os.sep, "/")
               for d, _, fs in os.walk(out) for f in fs)
digest = hashlib.sha256()
for f in files:
    digest.update(f.encode() + b"\0" + open(os.path.join(out, f), "rb").read())
sw = open("web/site/sw.js", encoding="utf-8").read()
sw = sw.replace("__VERSION__", digest.hexdigest()[:16])
sw = sw.replace("__FILES__", json.dumps(["./"] + files))
open(os.path.join(out, "sw.js"), "w", encoding="utf-8").write(sw)

files.append("sw.js")
raw = sum(os.path.getsize(os.path.join(out, f)) for f in files)
packed = sum(len(gzip.compress(open(os.path.join(out, f), "rb").read(), 9)) for f in files)
wasm = os.path.getsize(os.path.join(out, "damiera_web.wasm"))
print("dist/web: %d files, %d bytes (%d gzip-compressed); damiera_web.wasm %d bytes; %d tables"
      % (len(files), raw, packed, wasm, len(tables)))
PY
