//! The book stays true of the code: `README.md` and the chapters in `docs/` are read, and each
//! test fails on what a reader would trip over:
//! - a link or a picture that leads nowhere, or to a heading that is not there;
//! - a cited path (`src/...`, `tests/...`, `shaders/...`, `benches/...`, `docs/...`) that does not
//!   exist, or a citation `` `src/file.rs`: `name` `` whose name the file does not define;
//! - chapters in another order in `docs/`, in the README's list and in `src/lib.rs`'s reading list;
//! - a picture without the command that drew it in its caption, or whose command `docs/pictures.sh`
//!   does not run as written there.
//!
//! Files only: nothing is built or run here, so it takes milliseconds.

mod markdown;

use markdown::{
    Page, anchors, arguments, chapters_in, citations, code_spans, is_chapter, links, pages, pictures, read,
    root,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The front page's limit: what this is, the picture, the commands, the keys, the path, the chapters.
const README_MAX_LINES: usize = 250;

/// Collects every problem of every page, then fails once, listing them all.
fn check(what: &str, problems: Vec<String>) {
    assert!(problems.is_empty(), "{what}:\n  {}", problems.join("\n  "));
}

#[test]
fn every_link_and_picture_leads_somewhere() {
    let mut problems = Vec::new();
    for page in pages() {
        for target in links(&page.prose()) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let path = if file.is_empty() { page.path.clone() } else { page.folder().join(file) };
            if !root().join(&path).exists() {
                problems.push(format!(
                    "{}: link to {target}: {} does not exist",
                    page.name(),
                    path.display()
                ));
                continue;
            }
            if !anchor.is_empty() && !anchors(&read(&path)).contains(anchor) {
                problems.push(format!(
                    "{}: link to {target}: no such heading in {}",
                    page.name(),
                    path.display()
                ));
            }
        }
    }
    check("links that lead nowhere", problems);
}

/// Whether `span` is a path in the crate, as a chapter cites one.
fn cited_path(span: &str) -> Option<&str> {
    let prefixes = ["src/", "tests/", "shaders/", "benches/", "docs/", ".ci/"];
    let is_path = span.chars().all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c));
    (is_path && prefixes.iter().any(|p| span.starts_with(p))).then_some(span)
}

#[test]
fn every_cited_path_exists() {
    let mut problems = Vec::new();
    for page in pages() {
        for (span, _) in code_spans(&page.prose()) {
            if let Some(path) = cited_path(&span)
                && !root().join(path).exists()
            {
                problems.push(format!("{}: `{path}` does not exist", page.name()));
            }
        }
    }
    check("cited paths that do not exist", problems);
}

/// Whether `source` defines `name`: as an item (`fn`, `struct`, `enum`, `trait`, `type`, `const`,
/// `static`, `mod`, `macro_rules!`), a field or an enum variant; in a shader, any whole word.
fn defines(source: &str, name: &str, shader: bool) -> bool {
    let is_word_end = |rest: &str| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_');
    let word_at = |text: &str, at: usize| {
        let before_ok = !text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        before_ok && is_word_end(&text[at + name.len()..])
    };
    if shader {
        return source.match_indices(name).any(|(at, _)| word_at(source, at));
    }
    let keywords = ["fn", "struct", "enum", "trait", "type", "const", "static", "mod", "macro_rules!"];
    for keyword in keywords {
        let pattern = format!("{keyword} {name}");
        if source.match_indices(&pattern).any(|(at, _)| word_at(source, at + keyword.len() + 1)) {
            return true;
        }
    }
    source.lines().map(str::trim_start).any(|line| {
        let line = line.strip_prefix("pub ").unwrap_or(line);
        let line = line.strip_prefix("pub(crate) ").unwrap_or(line);
        let Some(rest) = line.strip_prefix(name) else { return false };
        // A field (`name: T`) or a variant (`Name,` `Name(..)` `Name { .. }` or alone on its line).
        rest.starts_with(':') && !rest.starts_with("::")
            || rest.starts_with(',')
            || rest.starts_with('(')
            || rest.starts_with(" {")
            || rest.is_empty()
    })
}

#[test]
fn every_cited_name_is_defined_where_the_book_says() {
    let mut problems = Vec::new();
    let mut count = 0;
    for page in pages() {
        for (path, names) in citations(&page.prose()) {
            let Ok(source) = std::fs::read_to_string(root().join(&path)) else {
                problems.push(format!("{}: `{path}` does not exist", page.name()));
                continue;
            };
            let shader = !path.ends_with(".rs");
            for name in names {
                count += 1;
                // `Type::method` names both; `name()` is the function `name`.
                for part in name.trim_end_matches("()").split("::") {
                    let identifier = !part.is_empty()
                        && part.chars().all(|c| c.is_alphanumeric() || c == '_')
                        && !part.starts_with(|c: char| c.is_ascii_digit());
                    if !identifier {
                        problems.push(format!("{}: `{path}`: `{name}` is not a name", page.name()));
                    } else if !defines(&source, part, shader) {
                        problems
                            .push(format!("{}: `{path}`: `{name}`: {path} defines no {part}", page.name()));
                    }
                }
            }
        }
    }
    check("citations of names that are not there", problems);
    assert!(count > 50, "only {count} citations found: the book cites the code as `src/file.rs`: `name`");
}

#[test]
fn the_chapters_come_in_one_order_everywhere() {
    let mut in_docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("readable").file_name().to_string_lossy().into_owned())
        .filter(|name| is_chapter(name))
        .collect();
    in_docs.sort();
    // The README's list: its section whose heading names the chapters.
    let readme = read(Path::new("README.md"));
    let section = readme
        .split("\n## ")
        .find(|s| s.lines().next().is_some_and(|h| h.to_lowercase().contains("chapters")))
        .expect("README.md has a section whose heading says \"chapters\"");
    let in_readme = chapters_in(section);
    let lib = read(Path::new("src/lib.rs"));
    let reading_list: String = lib.lines().filter(|l| l.starts_with("//!")).collect::<Vec<_>>().join("\n");
    let in_lib = chapters_in(&reading_list);
    assert!(in_readme.len() >= 10, "the README lists {} chapters: {in_readme:?}", in_readme.len());
    assert_eq!(in_lib, in_readme, "src/lib.rs's reading list and the README's chapters differ");
    assert_eq!(in_docs, in_readme, "docs/ holds other chapters than the README lists");
    // Numbered 01, 02, ... with none left out.
    for (i, name) in in_docs.iter().enumerate() {
        assert!(name.starts_with(&format!("{:02}-", i + 1)), "chapter {} is {name}", i + 1);
    }
}

#[test]
fn the_front_page_is_short() {
    let lines = read(Path::new("README.md")).lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines; the front page keeps to {README_MAX_LINES}"
    );
}

/// The pictures `docs/pictures.sh` draws: for each file name, the arguments of its `picture` line.
fn script_pictures() -> Vec<(String, Vec<String>)> {
    read(Path::new("docs/pictures.sh"))
        .lines()
        .filter_map(|line| line.trim().strip_prefix("picture "))
        .map(|rest| {
            let mut words = rest.split_whitespace().map(str::to_string);
            let name = words.next().unwrap_or_default();
            (name, words.filter(|w| w != "\\").collect())
        })
        .collect()
}

#[test]
fn every_picture_is_drawn_by_the_command_in_its_caption() {
    let drawn = script_pictures();
    assert!(!drawn.is_empty(), "docs/pictures.sh has no `picture NAME ARGS...` lines");
    let mut problems = Vec::new();
    let mut shown = BTreeSet::new();
    for page in pages() {
        let prose = page.prose();
        // The caption's command: a code span that saves this very file with --screenshot.
        let commands: Vec<(Vec<String>, String)> = code_spans(&prose)
            .into_iter()
            .filter_map(|(span, _)| match arguments(&span) {
                (words, Some(shot)) => Some((words, shot)),
                _ => None,
            })
            .collect();
        for picture in pictures(&prose) {
            let path = page.folder().join(&picture);
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let in_repo = path.display().to_string();
            shown.insert(name.clone());
            let Some((words, _)) = commands.iter().find(|(_, shot)| *shot == in_repo) else {
                problems.push(format!(
                    "{}: {picture} has no caption command `... --screenshot {in_repo}`",
                    page.name()
                ));
                continue;
            };
            match drawn.iter().find(|(n, _)| *n == name) {
                None => problems.push(format!("{}: docs/pictures.sh does not draw {name}", page.name())),
                Some((_, script)) if script != words => problems.push(format!(
                    "{}: {name}: the caption says `{}`, docs/pictures.sh runs `{}`",
                    page.name(),
                    words.join(" "),
                    script.join(" ")
                )),
                Some(_) => {}
            }
        }
    }
    // Every picture the script draws, and every picture in docs/, is one the book shows.
    for (name, _) in &drawn {
        if !shown.contains(name) {
            problems.push(format!("docs/pictures.sh draws {name}, which no page shows"));
        }
    }
    for entry in std::fs::read_dir(root().join("docs")).expect("docs/ exists") {
        let name = entry.expect("readable").file_name().to_string_lossy().into_owned();
        if name.ends_with(".png") && !shown.contains(&name) {
            problems.push(format!("docs/{name} is in no page"));
        }
    }
    check("pictures and their commands", problems);
}

#[test]
fn the_checks_themselves_catch_what_they_are_for() {
    // Each helper on a made-up page, so a check that silently finds nothing is caught.
    let page = "# Top\n## Why `twist` pinches, and how\n```\n[not](a-link.md)\n## not a heading\n```\n\
                See [this](#top) and `src/skin.rs`: `blend`, `compute_palette` and `Skin::add_vertex`.\n\
                ![a](docs/x.png) `[code](not-a-link)`\n";
    let page = Page { path: PathBuf::from("README.md"), text: page.into() };
    assert_eq!(links(&page.prose()), ["#top", "docs/x.png"]);
    assert_eq!(pictures(&page.prose()), ["docs/x.png"]);
    let slugs: Vec<String> = anchors(&page.text).into_iter().collect();
    assert_eq!(slugs, ["top", "why-twist-pinches-and-how"]);
    let cited = citations(&page.prose());
    assert_eq!(cited.len(), 1);
    assert_eq!(cited[0].1, ["blend", "compute_palette", "Skin::add_vertex"]);
    let skin = read(Path::new("src/skin.rs"));
    assert!(
        defines(&skin, "blend", false) && defines(&skin, "Skin", false) && defines(&skin, "weight", false)
    );
    assert!(!defines(&skin, "blen", false) && !defines(&skin, "no_such_function", false));
    assert_eq!(arguments("skinning --frames 1 --screenshot docs/a.png").0, ["--frames", "1"]);
    assert_eq!(chapters_in("see docs/02-b.md, then docs/01-a.md and docs/02-b.md."), ["02-b.md", "01-a.md"]);
}
