//! Chapters 1 to 4 read the core's files and nothing else (issue 36): every source file they cite
//! is one of the modules `crates/method/src/lib.rs` lists under "The core" (or a file inside one).
//! A chapter may cite a test of the core, or another page; not the program, another crate or a
//! later lesson, which have chapters of their own.

use super::markdown::{code_spans, pages, read};
use super::{check, cited_path};
use std::path::Path;

/// The core's modules, as `lib.rs`'s reading list gives them: the `pub mod` lines between the line
/// that opens the core and the one that opens the later lessons.
fn core_modules() -> Vec<String> {
    let lib = read(Path::new("crates/method/src/lib.rs"));
    let core = lib.lines().skip_while(|l| !l.starts_with("// The core")).skip(1);
    let core = core.take_while(|l| !l.starts_with("// The later lessons"));
    let names = core.filter_map(|l| l.strip_prefix("pub mod ")?.split(';').next().map(str::to_string));
    names.collect()
}

/// Whether the chapter's citation of `path` is allowed in a core chapter.
fn reads_the_core(path: &str, core: &[String]) -> bool {
    if ["tests/", "docs/"].iter().any(|p| path.starts_with(p)) {
        return true;
    }
    let Some(file) = path.strip_prefix("crates/method/src/") else { return false };
    let module = file.split('/').next().unwrap_or(file).trim_end_matches(".rs");
    core.iter().any(|m| m == module)
}

#[test]
fn chapters_1_to_4_cite_only_the_cores_files() {
    let core = core_modules();
    assert!(core.len() >= 6 && core.contains(&"frame".to_string()), "the core, from lib.rs: {core:?}");
    let mut problems = Vec::new();
    for page in pages().iter().filter(|p| ["01-", "02-", "03-", "04-"].iter().any(|n| p.name().contains(n))) {
        for (span, _) in code_spans(&page.prose()) {
            if let Some(path) = cited_path(&span).filter(|p| !reads_the_core(p, &core)) {
                problems.push(format!("{}: cites `{path}`, which is not the core's", page.name()));
            }
        }
    }
    check("core chapters citing files outside the core", problems);
}
