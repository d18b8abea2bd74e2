#!/usr/bin/env bash
# The page's lanes against the desktop's, on this machine: `bash web/lanes-bench.sh [ROUNDS]`.
# Builds crates/fast/examples/page_lanes.rs natively and for wasm32-wasip1 (with simd128, as the
# page is built, and again with relaxed-simd), runs them natively and in Node (web/wasi.mjs) one
# after the other, ROUNDS times (5), and prints each kind of lanes' best time a vertex, then the
# ratio the page pays: simd128 in Node over the native SSE2 lanes (four lanes each side), and over
# the native AVX2+FMA lanes (n/a on a processor without them).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
target=wasm32-wasip1
if [ ! -d "$(rustc --print sysroot)/lib/rustlib/$target" ]; then
    rustup target add "$target"
fi
cargo build --release -q -p skinning-fast --example page_lanes
dir="${CARGO_TARGET_DIR:-target}"
# The same with relaxed-simd's fused multiply-add (the crate's feature), kept aside before the next
# build writes the same file; web/wasi.mjs turns on Node 20's flag for it.
runs="$(mktemp)"
relaxed="$(mktemp --suffix .wasm)"
trap 'rm -f "$runs" "$relaxed"' EXIT
cargo build --release -q -p skinning-fast --example page_lanes --target "$target" --features relaxed-simd
cp "$dir/$target/release/examples/page_lanes.wasm" "$relaxed"
cargo build --release -q -p skinning-fast --example page_lanes --target "$target"
for _ in $(seq "$rounds"); do
    "$dir/release/examples/page_lanes" | sed 's/^/native /' >> "$runs"
    node --no-warnings web/wasi.mjs "$dir/$target/release/examples/page_lanes.wasm" | sed 's/^/node /' >> "$runs"
    node --no-warnings web/wasi.mjs "$relaxed" \
        | grep -v portable | sed 's/^/node /' >> "$runs"
done
echo "the page's lanes (web/lanes-bench.sh): $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $rounds rounds, ns/vertex, best"
awk '
    # A kind of lanes this processor lacks (no AVX2+FMA) has no row: its ratio is n/a.
    function ratio(a, b) { return (a && b) ? sprintf("%.2fx", a / b) : "n/a" }
    { key = $1 " " $3; n[$4] = 1; for (k = 0; k < 2; k++) { v = $(6 + 2 * k); i = key SUBSEP $4 SUBSEP k
      if (!(i in best) || v < best[i]) best[i] = v }; keys[key] = 1 }
    END {
        printf "%-20s %9s %12s %12s\n", "", "vertices", "positions", "+ normals"
        for (key in keys) for (v in n) printf "%-20s %9d %12.2f %12.2f\n", key, v, best[key, v, 0], best[key, v, 1]
        for (v in n) for (k = 0; k < 2; k++) {
            what = k ? "positions + normals" : "positions"
            printf "ratio %s at %d: node simd128 / native sse2 = %s, / native avx2+fma = %s\n", what, v,
                ratio(best["node simd128", v, k], best["native sse2", v, k]), ratio(best["node simd128", v, k], best["native avx2+fma", v, k])
            printf "ratio %s at %d: node simd128+relaxed / native sse2 = %s, / native avx2+fma = %s\n", what, v,
                ratio(best["node simd128+relaxed", v, k], best["native sse2", v, k]), ratio(best["node simd128+relaxed", v, k], best["native avx2+fma", v, k])
        }
    }' "$runs" | sort -s -k1,1
