//! The book stays true of the code: `README.md`, the chapters in `docs/` and the glossary are read,
//! and each test fails on what a reader would trip over:
//! - a link or a picture that leads nowhere, or to a heading that is not there;
//! - a cited path (`src/...`, `tests/...`, `shaders/...`, `benches/...`, `docs/...`) that does not
//!   exist, or a citation `` `src/file.rs`: `name` `` whose name the file does not define;
//! - chapters in another order in `docs/`, in the README's list and in `src/lib.rs`'s reading list;
//! - a chapter of the core (1 to 4) citing a file outside the core (`core_chapters.rs`);
//! - a picture without the command that drew it in its caption, or whose command `docs/pictures.sh`
//!   does not run as written there;
//! - code shown in a chapter that is not the code in its file, and a chapter without the key
//!   functions it teaches (`excerpts.rs`);
//! - quoted program output that the program no longer prints (`console.rs`: the only test here
//!   that runs anything, the debug program, for a few seconds);
//! - a word missing from the glossary, or not linked where it is used (`glossary.rs`);
//! - a diagram that names a function its file does not define (`diagrams.rs`);
//! - a figure the book works out (a worked example, a table, an exercise's answer) that the code or
//!   the formula no longer gives (`computed.rs`);
//! - a chapter without exercises at its end, or an answer whose figures go unchecked
//!   (`exercises.rs`);
//! - a sentence chained with semicolons, too long, or in a private idiom (`sentences.rs`);
//! - a key in the README's table that the window test never presses (`keys.rs`).
//!
//! The book's conventions these enforce are summed up in the README's section "The chapters", and
//! said in full at the top of each file here.

mod computed;
mod console;
mod core_chapters;
mod diagrams;
mod excerpts;
mod exercises;
mod figures;
mod glossary;
mod keys;
mod lists;
mod markdown;
mod matching;
mod pictures;
mod printed;
mod run;
mod sentences;

use markdown::{
    Page, anchors, arguments, blocks, chapters_in, citations, code_spans, is_chapter, links, pages, pictures,
    read, root,
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
    let prefixes = ["src/", "crates/", "tests/", "shaders/", "benches/", "docs/", ".ci/"];
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
    // The one reading list: the method's modules in the book's order, the other chapters in place.
    let reading_list = read(Path::new("crates/method/src/lib.rs"));
    let in_lib = chapters_in(&reading_list);
    assert!(in_readme.len() >= 10, "the README lists {} chapters: {in_readme:?}", in_readme.len());
    assert_eq!(in_lib, in_readme, "crates/method/src/lib.rs's reading list and the README's chapters differ");
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
                See [this](#top) and `crates/method/src/skin.rs`: `Skin::new`, `compute_palette` and `Skin::add_vertex`.\n\
                ![a](docs/x.png) `[code](not-a-link)`\n";
    let page = Page { path: PathBuf::from("README.md"), text: page.into() };
    assert_eq!(links(&page.prose()), ["#top", "docs/x.png"]);
    assert_eq!(pictures(&page.prose()), ["docs/x.png"]);
    let slugs: Vec<String> = anchors(&page.text).into_iter().collect();
    assert_eq!(slugs, ["top", "why-twist-pinches-and-how"]);
    let cited = citations(&page.prose());
    assert_eq!(cited.len(), 1);
    assert_eq!(cited[0].1, ["Skin::new", "compute_palette", "Skin::add_vertex"]);
    let skin = read(Path::new("crates/method/src/skin.rs"));
    assert!(
        defines(&skin, "compute_palette", false)
            && defines(&skin, "Skin", false)
            && defines(&skin, "weight", false)
    );
    assert!(!defines(&skin, "compute_palett", false) && !defines(&skin, "no_such_function", false));
    assert_eq!(arguments("skinning --frames 1 --screenshot docs/a.png").0, ["--frames", "1"]);
    assert_eq!(chapters_in("see docs/02-b.md, then docs/01-a.md and docs/02-b.md."), ["02-b.md", "01-a.md"]);
}

#[test]
fn the_new_checks_catch_what_they_are_for_too() {
    use matching::{line_matches, lines_match};
    let lines = |text: &str| text.lines().map(str::to_string).collect::<Vec<_>>();
    // Blocks, with their language and the line they start on.
    let text = "a\n```rust\n// crates/method/src/blend.rs: blend\nfn x() {}\n```\n```console\n$ skinning --help\n```\n";
    let found = blocks(text);
    assert_eq!(found.len(), 2);
    assert_eq!((found[0].language.as_str(), found[0].line, found[0].lines.len()), ("rust", 3, 2));
    assert_eq!(found[1].language, "console");

    // Excerpts: found as they are, with `// ...` for lines left out and one indentation; not found
    // out of order, with a line changed, or with two indentations.
    let source = "fn a() {\n    let x = 1;\n    let y = 2;\n    x + y\n}\n";
    assert!(excerpts::find(source, &lines("fn a() {\n    // ...\n    x + y\n}")).is_ok());
    assert!(excerpts::find(source, &lines("let x = 1;\nlet y = 2;")).is_ok());
    assert!(excerpts::find(source, &lines("let y = 2;\n// ...\nlet x = 1;")).is_err());
    assert!(excerpts::find(source, &lines("let x = 1;\nlet y = 3;")).is_err());
    assert!(excerpts::find(source, &lines("fn a() {\nlet x = 1;")).is_err());
    assert!(excerpts::find(source, &lines("// ...")).is_err());
    assert_eq!(
        excerpts::header("// crates/method/src/blend.rs: blend"),
        Some(("crates/method/src/blend.rs".into(), "blend".into()))
    );
    assert_eq!(excerpts::header("// Where each bone alone would put it: weighted"), None);

    // Quoted output: `[..]` for part of a line, `...` for lines.
    assert!(line_matches("took [..] ms, [..] frames", "took 1.5 ms, 30 frames"));
    assert!(!line_matches("took [..] ms", "took 1.5 s"));
    assert!(!line_matches("a[..]a", "a"));
    assert!(lines_match(&lines("one\n...\nfour"), &lines("one\ntwo\nthree\nfour")));
    assert!(lines_match(&lines("one\n...\ntwo"), &lines("one\ntwo")));
    assert!(!lines_match(&lines("one\ntwo"), &lines("one\ntwo\nthree")));
    assert!(!lines_match(&lines("one\n...\nfive"), &lines("one\ntwo")));
    assert_eq!(
        console::words("skinning --model 'a b.glb' --time 2").unwrap(),
        ["skinning", "--model", "a b.glb", "--time", "2"]
    );
    assert!(console::words("skinning --dump - | jq .").is_err());
    let block = markdown::Block {
        language: "console".into(),
        line: 10,
        lines: lines("$ A_B=1 skinning --help\nusage\n$ skinning --info\n"),
    };
    let quoted = console::commands(&block).unwrap();
    assert_eq!((quoted.len(), quoted[0].line, quoted[1].line), (2, 10, 12));
    assert_eq!(
        (quoted[0].env.clone(), quoted[0].output.clone()),
        (vec![("A_B".into(), "1".into())], vec!["usage".to_string()])
    );

    // A test's printed line against the format strings of its source.
    let source = r#"println!("largest difference {:.1e}, {} vertices", d, n); // "not {this}""#;
    assert_eq!(printed::string_literals(source), ["largest difference {:.1e}, {} vertices"]);
    assert_eq!(printed::pattern("a {x:.2} b {{c}}"), "a [..] b {c}");

    // Diagrams: citations and the names that need one.
    let line = r#"    a["step 3: crates/method/src/skin.rs: compute_palette, then Pose::update (crates/method/src/frame.rs: Pose::new)"]"#;
    let cited = [
        ("crates/method/src/skin.rs".to_string(), "compute_palette".to_string()),
        ("crates/method/src/frame.rs".into(), "Pose::new".into()),
    ];
    assert_eq!(diagrams::cited(line), cited);
    assert_eq!(diagrams::code_names(line), ["Pose::update", "Pose::new"]);
    let line =
        r#"    b["the palette<br/>crates/method/src/skin.rs: compute_palette<br/>shaders/lines.vert"]"#;
    assert_eq!(
        diagrams::cited(line),
        [("crates/method/src/skin.rs".to_string(), "compute_palette".to_string())]
    );
    assert_eq!(diagrams::paths(line), ["crates/method/src/skin.rs", "shaders/lines.vert"]);

    // Sentences.
    let text = "One; two; three; four. Next `a; b; c; d` one. `code` starts *this* one.\n\n| a; b; c; d |\n\
                - an item;\n- another\n1. and one\n";
    let page = Page { path: PathBuf::from("x.md"), text: text.into() };
    let said = sentences::sentences(&page);
    assert_eq!(said.len(), 6, "{said:?}");
    assert_eq!(said[0].matches(';').count(), 3);
    assert_eq!(said[1].matches(';').count(), 0);

    // The README's keys.
    let table = "# README\n## The keys, in brief\n\n| key | does |\n|---|---|\n| Space, `.` `,` | pause; step |\n\
                 | `1` … `9`, `C` | clips |\n\n## Next\n| `X` | not a key |\n";
    assert_eq!(keys::table_keys(table), ["Space", ".", ",", "1", "C"]);

    // The glossary's entries.
    let entries = glossary::entries("# Glossary\n## bone\nA space.\n## joint\nIts origin.\n");
    assert_eq!(entries.iter().map(|e| e.0.as_str()).collect::<Vec<_>>(), ["bone", "joint"]);
}
