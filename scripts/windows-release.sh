#!/usr/bin/env bash
# Builds the Windows release on Linux: dist/damiera-windows-x86_64.zip with
#   damiera.exe      every damiera subcommand, for a terminal (Hub engine, match, gui, ...)
#   damiera_cb.dll   the CheckerBoard engine
#   damiera_cb.htm   its help page (Engine > Help in CheckerBoard)
#   README.txt       how to install both
#
# Toolchain: Debian's rustc-web, cargo-web and rust-web-src (a Rust with the standard
# library's source, built here for x86_64-pc-windows-gnu with -Zbuild-std) and
# gcc-mingw-w64-x86-64 as the linker; installed with apt-get when missing (as root, or
# through sudo). The target is the standard x86_64-pc-windows-gnu (Windows 10 and later).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=x86_64-pc-windows-gnu
PACKAGES=(rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64 wine64 python3)

missing=()
[ -x /usr/bin/rustc ] && /usr/bin/rustc --version | grep -q . || missing+=(rustc-web)
[ -x /usr/bin/cargo ] || missing+=(cargo-web)
[ -d /usr/lib/rustlib/src/rust/library ] || missing+=(rust-web-src)
command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(gcc-mingw-w64-x86-64)
[ -x /usr/lib/wine/wine64 ] || missing+=(wine64)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    echo "installing ${PACKAGES[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${PACKAGES[@]}" >/dev/null
fi

# Debian's cargo and rustc, whatever rustup puts first on PATH; build-std needs the
# nightly switch, which RUSTC_BOOTSTRAP gives a stable compiler.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
# Shipped without debug information (46 MB with it).
env PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 \
    CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_STRIP=symbols \
    /usr/bin/cargo build --locked -Zbuild-std=std,panic_abort --target "$TARGET" --release \
    -p damiera -p damiera_cb --bin damiera --lib

built="$CARGO_TARGET_DIR/$TARGET/release"
stage=dist/damiera-windows-x86_64
rm -rf "$stage" dist/damiera-windows-x86_64.zip
mkdir -p "$stage"
cp "$built/damiera.exe" "$built/damiera_cb.dll" "$stage/"
cp cb/damiera_cb.htm "$stage/"
sed 's/$/\r/' cb/README-windows.txt > "$stage/README.txt"

# A zip with a fixed file order and dates, so the same build gives the same bytes.
python3 - "$stage" dist/damiera-windows-x86_64.zip <<'PY'
import os, sys, zipfile
stage, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(stage)):
        info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        with open(os.path.join(stage, name), "rb") as f:
            z.writestr(info, f.read())
PY
rm -rf "$stage"
ls -l dist/damiera-windows-x86_64.zip
