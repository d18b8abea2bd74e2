#!/usr/bin/env bash
# Builds the web page into the folder OUT: `bash web/build.sh OUT`. OUT then holds index.html, the
# program compiled to WebAssembly (skinning_bg.wasm) with its JavaScript glue (skinning.js), the
# same again built with relaxed-simd's fused multiply-add in OUT/relaxed (the page loads it where
# the browser has relaxed-simd), and book.html, the book's commands as links to the page. Serve OUT
# over http and open it:
#   python3 -m http.server --directory OUT 8000    # then http://localhost:8000/
# (a page that loads a .wasm cannot be opened as a file://). Put models beside index.html for
# --model NAME: index.html?args=--model%20Fox.glb.
#
# On a fresh machine it installs what it needs, once: the wasm32-unknown-unknown target (rustup),
# and wasm-bindgen-cli from crates.io at the version of wasm-bindgen that Cargo.lock pins (the glue
# it writes must match the library compiled into the .wasm). A wasm-bindgen of that version already
# on the PATH is used as it is. `bash web/build.sh --tools` installs these and builds nothing (CI
# runs it while it installs its packages).
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: bash web/build.sh OUT (the folder the page is built into), or --tools (only install what it needs)" >&2
    exit 2
fi
if [ "$1" != "--tools" ]; then
    mkdir -p "$1"
    out="$(cd "$1" && pwd)"
fi
cd "$(dirname "$0")/.."

target=wasm32-unknown-unknown
if [ ! -d "$(rustc --print sysroot)/lib/rustlib/$target" ]; then
    if ! command -v rustup >/dev/null; then
        echo "web/build.sh: the $target target is missing and there is no rustup to add it; install Rust with rustup (https://rustup.rs)" >&2
        exit 1
    fi
    rustup target add "$target"
fi

version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)"
if [ -z "$version" ]; then
    echo "web/build.sh: Cargo.lock names no wasm-bindgen version" >&2
    exit 1
fi
installed="${CARGO_HOME:-$HOME/.cargo}/bin/wasm-bindgen"
bindgen="$(command -v wasm-bindgen || echo "$installed")"
if [ "$("$bindgen" --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    echo "== wasm-bindgen-cli $version from crates.io (once; about two minutes)"
    # Only the `wasm-bindgen` program, and none of the TLS its test runner downloads browsers with.
    # Unoptimised (--debug): on a 2-core machine it builds in 108 s against 245 s optimised, and
    # then takes 4 s a page against 0.6 s; the glue and the .wasm it writes are the same bytes.
    cargo install wasm-bindgen-cli --version "$version" --no-default-features --bin wasm-bindgen --debug
    bindgen="$installed"
fi
if [ "$1" = "--tools" ]; then
    exit 0
fi

# Both builds write the same file, so each is handed to wasm-bindgen before the next. The second
# differs only in the fast path's feature `relaxed-simd`, so it recompiles that crate and the
# program, and takes every crate below them from the first.
wasm="${CARGO_TARGET_DIR:-target}/$target/web/skinning.wasm"

echo "== the program for $target (cargo's web profile)"
cargo build --profile web --target "$target" --bin skinning
"$bindgen" --target web --no-typescript --out-dir "$out" "$wasm"

echo "== the same with relaxed-simd's fused multiply-add, for the browsers that have it"
cargo build --profile web --target "$target" --bin skinning --features skinning-fast/relaxed-simd
"$bindgen" --target web --no-typescript --out-dir "$out/relaxed" "$wasm"

echo "== the page, in $out (index.html picks a build by what the browser has)"
cp web/index.html "$out/index.html"
python3 web/book.py docs > "$out/book.html"
page="$out/skinning_bg.wasm"
echo "web/build.sh: $out/index.html, $(wc -c < "$page") bytes of WebAssembly ($(gzip -9 -c "$page" | wc -c) gzipped)"
