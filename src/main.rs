//! `skinning`: a bone tree moves and a mesh follows it. The method is in the library (`src/lib.rs`
//! lists the files in reading order); this program draws it. Run with `--help` for the options.

mod demo;

#[global_allocator]
static ALLOCATOR: skinning_fast::alloc_count::Counting = skinning_fast::alloc_count::Counting;

fn main() -> std::process::ExitCode {
    demo::main()
}
