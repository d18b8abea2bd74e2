#!/usr/bin/env node
// Runs a program compiled for wasm32-wasip1 in Node's WASI: `web/wasi.mjs PROGRAM.wasm ARGS...`.
// Cargo's runner for that target (.cargo/config.toml), so `cargo test -p skinning-fast --target
// wasm32-wasip1` runs the fast path's tests in the engine that Chrome runs the page in (V8), with
// the page's vector instructions (simd128). The program sees ARGS, the environment, and the
// current folder as `.`; its exit status is this one's.
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import process from "node:process";
import v8 from "node:v8";

// relaxed-simd's instructions, for a program built with them (web/lanes-bench.sh, .ci/run): Node 20
// compiles them only behind this flag, which later versions take and no longer need.
v8.setFlagsFromString("--experimental-wasm-relaxed-simd");

const [program, ...args] = process.argv.slice(2);
if (!program) {
    console.error("usage: web/wasi.mjs PROGRAM.wasm [ARGS...]");
    process.exit(2);
}
const wasi = new WASI({ version: "preview1", args: [program, ...args], env: process.env, preopens: { ".": "." } });
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
