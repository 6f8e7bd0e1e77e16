#!/usr/bin/env bash
# Builds pathlab's web site into OUT_DIR: index.html, the app as WebAssembly (pathlab_bg.wasm)
# and its JS glue (pathlab.js). Any static file server serves OUT_DIR (docs/web.md).
#
#   bash web/build.sh OUT_DIR
#
# Needs the wasm32-unknown-unknown target (`rustup target add wasm32-unknown-unknown`) and the
# wasm-bindgen CLI of exactly the version of the wasm-bindgen crate in Cargo.lock; a missing or
# different CLI is installed with `cargo install` first (a few minutes).
set -euo pipefail

out=${1:?usage: bash web/build.sh OUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "web/build.sh: the wasm32-unknown-unknown target is missing; install it with" \
         "\`rustup target add wasm32-unknown-unknown\`" >&2
    exit 1
fi

# The CLI must match the crate: the glue it writes and the module's imports change together.
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
    echo "web/build.sh: installing wasm-bindgen-cli $want (found: ${have:-none})" >&2
    # Not --locked: the CLI's own lock file names crates some registry mirrors lack. --force:
    # cargo skips a version it has recorded as installed even when its binary is gone.
    cargo install --force wasm-bindgen-cli --version "$want"
fi

# The library as a cdylib (a .wasm with exports), without the `gpu` feature: wgpu builds for
# wasm32, but pathlab's GPU code waits on the device with pollster, which a page cannot do.
# WEB_PROFILE picks another Cargo profile (CI's `web-check` builds in half the time).
profile=${WEB_PROFILE:-release}
cargo rustc --profile "$profile" --lib --target wasm32-unknown-unknown \
    --no-default-features --features gui --crate-type cdylib

wasm="${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/$profile/pathlab.wasm"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name pathlab "$wasm"
cp web/index.html "$out/index.html"
echo "web/build.sh: the site is in $out ($(du -h "$out/pathlab_bg.wasm" | cut -f1) of WebAssembly)"
