//! `skinning`: a bone tree moves and a mesh follows it. The method is the crate `skinning-method`
//! (`crates/method/src/lib.rs` lists the files in reading order); this program draws it. Run with `--help` for the options.
//! The same program runs on a web page, compiled to WebAssembly (`web/build.sh`).

// The web page leaves some of the desktop's parts unused (exit codes, a signal's failure, writing
// files); the desktop's build still checks that nothing is unused.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

mod demo;

#[global_allocator]
static ALLOCATOR: skinning_fast::alloc_count::Counting = skinning_fast::alloc_count::Counting;

fn main() -> std::process::ExitCode {
    demo::main()
}
