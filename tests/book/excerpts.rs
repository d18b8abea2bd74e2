//! Code shown in the book is the code. A ```` ```rust ```` or ```` ```glsl ```` block whose first
//! line is `// PATH: NAME` is an excerpt: PATH defines NAME, and the block's other lines appear in
//! PATH as they are, one after the other, except that a line `// ...` stands for lines left out. An
//! excerpt may be indented less than its source, by the same whole number of levels (4 spaces)
//! throughout: a method is shown from its `pub fn`, not from inside its `impl`. A code block
//! without that first line is not checked, so it stays short (`UNCHECKED_LINES`).
//!
//! And the chapters that teach the method show its key functions (`KEY_FUNCTIONS`), so that a
//! reader sees the code being explained without opening a file.

use crate::defines;
use crate::markdown::{Block, blocks, is_chapter, is_placeholder, pages, place, root};

/// The longest a code block may be without naming its source.
const UNCHECKED_LINES: usize = 10;

/// Fewer excerpts than this in the book means the reading went wrong.
const AT_LEAST: usize = 12;

/// Which chapter shows which function: the chapter's number, the file, the name in its header.
const KEY_FUNCTIONS: [(&str, &str, &str); 12] = [
    ("01", "crates/method/src/skeleton.rs", "Skeleton::compute_world"),
    ("01", "crates/method/src/skeleton.rs", "compute_offsets"),
    ("02", "crates/method/src/skin.rs", "compute_palette"),
    ("02", "crates/method/src/blend.rs", "Linear::position"),
    ("02", "crates/method/src/blend.rs", "blend_run"),
    ("03", "crates/method/src/clip.rs", "Channel::sample"),
    ("04", "crates/method/src/frame.rs", "Pose::run"),
    ("05", "crates/method/src/inspect.rs", "inspect"),
    ("06", "shaders/skinning.vert", "main"),
    ("07", "crates/method/src/dual_quat.rs", "DualQuats::position"),
    ("08", "crates/method/src/normals.rs", "skin_normal"),
    ("13", "crates/method/src/blend.rs", "finish_extras"),
];

/// The source and name an excerpt's first line gives, `// crates/method/src/blend.rs: blend_run`; None for a block
/// that is not an excerpt.
pub fn header(first: &str) -> Option<(String, String)> {
    let (path, name) = first.trim().strip_prefix("//")?.trim().split_once(": ")?;
    let source = [".rs", ".vert", ".frag"].iter().any(|e| path.ends_with(e)) && path.contains('/');
    source.then(|| (path.to_string(), name.trim().to_string()))
}

/// Whether an excerpt's line stands for lines left out.
fn is_elision(line: &str) -> bool {
    line.trim() == "// ..."
}

/// Where the excerpt `body` is in `source`: each run between `// ...` lines found as it is, after
/// the run before it, all with one indentation. Err says which run is not there.
pub fn find(source: &str, body: &[String]) -> Result<(), String> {
    let lines: Vec<&str> = source.lines().map(str::trim_end).collect();
    let runs: Vec<&[String]> = body.split(|l| is_elision(l)).filter(|run| !run.is_empty()).collect();
    if runs.is_empty() {
        return Err("the excerpt shows no code".into());
    }
    let mut first_missing = String::new();
    for indent in ["", "    ", "        ", "            "] {
        let matches_at = |run: &[String], at: usize| {
            run.len() <= lines.len() - at
                && run.iter().zip(&lines[at..]).all(|(shown, line)| {
                    let shown = shown.trim_end();
                    if shown.is_empty() { line.is_empty() } else { *line == format!("{indent}{shown}") }
                })
        };
        let mut from = 0;
        let mut all = true;
        for run in &runs {
            match (from..lines.len()).find(|&at| matches_at(run, at)) {
                Some(at) => from = at + run.len(),
                None => {
                    if indent.is_empty() {
                        first_missing = run[0].trim().to_string();
                    }
                    all = false;
                    break;
                }
            }
        }
        if all {
            return Ok(());
        }
    }
    Err(format!("the lines from `{first_missing}` on are not in it, in this order and one after the other"))
}

/// Checks one block: Ok(true) for an excerpt that is right, Ok(false) for a short unchecked block.
fn check_block(block: &Block) -> Result<bool, String> {
    let Some((path, name)) = block.lines.first().and_then(|l| header(l)) else {
        return match block.lines.len() <= UNCHECKED_LINES {
            true => Ok(false),
            false => Err(format!(
                "a {} block of {} lines that names no source: start it with `// PATH: NAME` to make it \
                 an excerpt the test checks, or keep it to {UNCHECKED_LINES} lines",
                block.language,
                block.lines.len()
            )),
        };
    };
    let source = std::fs::read_to_string(root().join(&path)).map_err(|_| format!("{path} does not exist"))?;
    for part in name.split("::") {
        if !defines(&source, part, !path.ends_with(".rs")) {
            return Err(format!("{path} defines no {part}"));
        }
    }
    find(&source, &block.lines[1..]).map_err(|why| format!("excerpt of {path}: {name}: {why}"))?;
    Ok(true)
}

#[test]
fn every_excerpt_is_the_code_it_names() {
    let mut problems = Vec::new();
    let mut excerpts = 0;
    for page in pages() {
        for block in blocks(&page.text) {
            if block.language == "rust" || block.language == "glsl" {
                match check_block(&block) {
                    Ok(excerpt) => excerpts += excerpt as usize,
                    Err(why) => problems.push(format!("{}: {why}", place(&page, block.line))),
                }
            }
        }
    }
    crate::check("code in the book that is not the code", problems);
    assert!(excerpts >= AT_LEAST, "only {excerpts} excerpts found: an excerpt starts `// PATH: NAME`");
}

#[test]
fn the_chapters_show_the_code_they_teach() {
    let mut problems = Vec::new();
    for page in pages() {
        let file = page.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if !is_chapter(&file) {
            continue;
        }
        let shown: Vec<(String, String)> = blocks(&page.text)
            .iter()
            .filter(|b| b.language == "rust" || b.language == "glsl")
            .filter_map(|b| b.lines.first().and_then(|l| header(l)))
            .collect();
        for (chapter, path, name) in KEY_FUNCTIONS {
            if file.starts_with(chapter) && !shown.iter().any(|(p, n)| p == path && n == name) {
                problems.push(format!("{}: shows no excerpt `// {path}: {name}`", page.name()));
            }
        }
        // The method's chapters, 1 to 13, each show some of its code once they are written.
        let method = file[..2].parse::<u32>().is_ok_and(|n| n <= 13);
        if method && !is_placeholder(&page) && shown.is_empty() {
            problems.push(format!("{}: a chapter of the method shows at least one excerpt", page.name()));
        }
    }
    crate::check("chapters without the code they teach", problems);
}
