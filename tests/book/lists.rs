//! Lists and counts the book gives, recomputed from the tree, so that a file, a flag or a crate
//! added to the code and not to the book fails:
//! - chapter 15's table of the program's folders names every file of each folder (tests aside,
//!   `mod.rs` optional, a sub-folder as `sub/` or file by file), and each file it names is there;
//!   every folder of `src/demo/` has its row;
//! - chapter 15's list of the crates each crate uses is what its `Cargo.toml` names;
//! - chapter 15's table of flags holds every flag of `--help`, and no other, and each is read by
//!   the command line's code;
//! - a count in words before a list or a table (`five files:`) is its number of items, a count
//!   of files under a folder (`` `mixer.rs` and the six files under it ``) is the folder's, a
//!   file's "parts" are every module it declares (`` `benches/blend.rs`, and its parts ... ``), and
//!   the counts of crates and of the article's clips are the workspace's and the scene's.

use crate::markdown::{Page, code_spans, pages, read, root};
use std::collections::BTreeSet;
use std::path::Path;

/// The page whose file name starts with `prefix` (`15-`, `README`).
fn page(prefix: &str) -> Page {
    pages()
        .into_iter()
        .find(|p| p.path.file_name().is_some_and(|n| n.to_string_lossy().starts_with(prefix)))
        .unwrap_or_else(|| panic!("no page {prefix}..."))
}

/// A number written as a word, as the book writes small counts.
pub fn number_word(word: &str) -> Option<usize> {
    let words = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
    ];
    let word = word.to_lowercase();
    words.iter().position(|w| *w == word).or_else(|| word.parse().ok())
}

/// A test's file rather than the code's: `tests.rs`, `NAME_tests.rs`, or under a `tests/` folder.
fn is_test(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == "tests.rs" || name.ends_with("_tests.rs") || path.split('/').any(|part| part == "tests")
}

/// Every `.rs` file under `dir`, relative to it, with `/` between folders, sorted.
fn rust_files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((folder, prefix)) = stack.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_dir() {
                stack.push((entry.path(), format!("{prefix}{name}/")));
            } else if name.ends_with(".rs") {
                found.push(format!("{prefix}{name}"));
            }
        }
    }
    found.sort();
    found
}

/// The cells of a Markdown table's row, `\|` kept inside its cell.
fn cells(row: &str) -> Vec<String> {
    let row = row.trim().trim_start_matches('|').trim_end_matches('|').replace("\\|", "\u{0}");
    row.split('|').map(|c| c.trim().replace('\u{0}', "|")).collect()
}

/// What is wrong with one row of the folder table: `folder` and the spans of its files' column.
pub fn folder_row(folder: &Path, named: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    let files = rust_files(&root().join(folder));
    for file in files.iter().filter(|f| !is_test(f) && *f != "mod.rs") {
        let sub = file.split_once('/').map(|(d, _)| format!("{d}/"));
        if !named.contains(file) && !sub.is_some_and(|s| named.contains(&s)) {
            problems.push(format!("{}: {file} is not in the table", folder.display()));
        }
    }
    for name in named {
        let there = match name.strip_suffix('/') {
            Some(dir) => root().join(folder).join(dir).is_dir(),
            None => files.contains(name),
        };
        if !there {
            problems.push(format!("{}: the table names {name}, which is not there", folder.display()));
        }
    }
    problems
}

#[test]
fn the_folder_table_names_every_file_of_each_folder() {
    let chapter = page("15-");
    let mut problems = Vec::new();
    let mut rows = BTreeSet::new();
    for line in chapter.text.lines().filter(|l| l.starts_with("| `src/demo/")) {
        let cells = cells(line);
        let folder = cells[0].trim_matches('`').to_string();
        let named: Vec<String> = code_spans(&cells[cells.len() - 1])
            .into_iter()
            .map(|(s, _)| s)
            .filter(|s| s.ends_with(".rs") || s.ends_with('/'))
            .collect();
        problems.extend(folder_row(Path::new(&folder), &named));
        rows.insert(folder);
    }
    for entry in std::fs::read_dir(root().join("src/demo")).expect("src/demo/ is there").flatten() {
        let folder = format!("src/demo/{}/", entry.file_name().to_string_lossy());
        if entry.path().is_dir() && !rows.contains(&folder) {
            problems.push(format!("{folder} has no row in chapter 15's table of folders"));
        }
    }
    crate::check("chapter 15's folders", problems);
    assert!(rows.len() >= 5, "only {} folders in chapter 15's table", rows.len());
}

/// The dependencies a manifest's section names (`[dependencies]`, or a target's), without the
/// workspace's own crates and glam, which the drawing shows.
pub fn dependencies(manifest: &str, section: &str) -> BTreeSet<String> {
    let mut inside = false;
    let mut found = BTreeSet::new();
    for line in manifest.lines() {
        if line.starts_with('[') {
            inside = line.trim() == section;
            continue;
        }
        let key = line.split(['=', '.', ' ']).next().unwrap_or_default();
        let is_key =
            !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if inside && is_key && !key.starts_with("skinning") && key != "glam" {
            found.insert(key.to_string());
        }
    }
    found
}

#[test]
fn the_crates_each_uses_are_what_its_manifest_names() {
    let chapter = page("15-");
    let manifest = |path: &str| read(Path::new(path));
    let program = manifest("Cargo.toml");
    let everywhere = dependencies(&program, "[dependencies]");
    let desktop = dependencies(&program, "[target.'cfg(not(target_arch = \"wasm32\"))'.dependencies]");
    let browser = dependencies(&program, "[target.'cfg(target_arch = \"wasm32\")'.dependencies]");
    let besides = |set: &BTreeSet<String>| set.difference(&everywhere).cloned().collect::<BTreeSet<_>>();
    let expected = [
        ("- the method:", dependencies(&manifest("crates/method/Cargo.toml"), "[dependencies]")),
        ("- the fast path:", dependencies(&manifest("crates/fast/Cargo.toml"), "[dependencies]")),
        ("- the formats:", dependencies(&manifest("crates/formats/Cargo.toml"), "[dependencies]")),
        ("- the program, everywhere:", everywhere.clone()),
        ("- the program, on the desktop besides:", besides(&desktop)),
        ("- the program, in a browser besides:", besides(&browser)),
    ];
    let mut problems = Vec::new();
    for (start, crates) in expected {
        let Some(line) = chapter.text.lines().find(|l| l.starts_with(start)) else {
            problems.push(format!("chapter 15 has no line `{start} ...`"));
            continue;
        };
        let said: BTreeSet<String> = code_spans(line).into_iter().map(|(s, _)| s).collect();
        if said != crates {
            problems.push(format!("`{start}` says {said:?}, the manifest names {crates:?}"));
        }
    }
    crate::check("the crates each crate uses", problems);
}

/// The flags `--help` lists: each line of its options that starts with one.
fn help_flags() -> BTreeSet<String> {
    let help = read(Path::new("src/demo/cli/help.rs"));
    help.lines()
        .filter_map(|l| l.strip_prefix("    --"))
        .map(|rest| format!("--{}", rest.split([' ', ',', '=']).next().unwrap_or_default()))
        .collect()
}

#[test]
fn the_table_of_flags_is_the_help_s_flags() {
    let chapter = page("15-");
    let table: BTreeSet<String> = chapter
        .text
        .lines()
        .filter(|l| l.starts_with("| `--"))
        .filter_map(|l| {
            code_spans(l).first().map(|(s, _)| s.split(' ').next().unwrap_or_default().to_string())
        })
        .collect();
    let help = help_flags();
    let mut problems = Vec::new();
    for flag in help.difference(&table) {
        problems.push(format!("{flag} is in --help, not in chapter 15's table of flags"));
    }
    for flag in table.difference(&help) {
        problems.push(format!("{flag} is in chapter 15's table of flags, not in --help"));
    }
    // Each flag is read somewhere in the command line's code: `"name" =>`, in an `|` of names, or in
    // a file's table of the flags it reads, `("name", VALUE)`.
    let code: String = rust_files(&root().join("src/demo/cli"))
        .iter()
        .map(|f| read(&Path::new("src/demo/cli").join(f)))
        .collect();
    for flag in help.iter().filter(|f| *f != "--help") {
        let name = format!("\"{}\"", &flag[2..]);
        if !code.contains(&format!("{name} =>"))
            && !code.contains(&format!("{name} |"))
            && !code.contains(&format!("| {name}"))
            && !code.contains(&format!("({name},"))
        {
            problems.push(format!("{flag} is in --help, but no code in src/demo/cli/ reads it"));
        }
    }
    crate::check("the flags", problems);
    assert!(help.len() >= 30, "only {} flags found in --help", help.len());
}

/// The files of the modules `path` declares (`mod NAME;`, tests aside): `DIR/NAME.rs` beside a
/// crate's root, `STEM/NAME.rs` under any other file.
pub fn declared_parts(path: &str) -> Vec<String> {
    let source = read(Path::new(path));
    let stem = path.trim_end_matches(".rs");
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let declared = source.lines().filter_map(|l| {
        let l = l.trim();
        l.strip_prefix("mod ").or_else(|| l.strip_prefix("pub mod ")).and_then(|r| r.strip_suffix(';'))
    });
    declared
        .filter(|name| *name != "tests")
        .map(|name| {
            let nested = format!("{stem}/{name}.rs");
            if root().join(&nested).exists() { nested } else { format!("{dir}/{name}.rs") }
        })
        .collect()
}

/// The items of the list or the table that starts on line `from` of `lines` (after blank lines):
/// its rows (not the header and its rule) or its top-level items; None if no list or table is there.
pub fn items_after(lines: &[&str], from: usize) -> Option<usize> {
    // A marker (`<!-- measured: ... -->`) may stand on the line before.
    let start =
        (from..lines.len()).find(|&i| !lines[i].trim().is_empty() && !lines[i].starts_with("<!--"))?;
    let first = lines[start];
    if first.starts_with('|') {
        let rows = lines[start..].iter().take_while(|l| l.starts_with('|')).count();
        return Some(rows.saturating_sub(2));
    }
    let is_item =
        |l: &str| l.starts_with("- ") || l.split_once(". ").is_some_and(|(n, _)| n.parse::<usize>().is_ok());
    if !is_item(first) {
        return None;
    }
    let block = lines[start..].iter().take_while(|l| !l.trim().is_empty());
    Some(block.filter(|l| is_item(l)).count())
}

/// The count in words that ends a line before a list: `... for five files:` gives 5.
pub fn count_before_list(line: &str) -> Option<usize> {
    let line = line.trim_end().strip_suffix(':')?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let [.., count, _noun] = words[..] else { return None };
    number_word(count)
}

#[test]
fn every_count_is_what_it_counts() {
    let mut problems = Vec::new();
    let mut counted = 0;
    for page in pages() {
        let prose = page.prose();
        let lines: Vec<&str> = prose.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            // A count before the list or table it introduces.
            if let (Some(n), Some(items)) = (count_before_list(line), items_after(&lines, i + 1)) {
                counted += 1;
                if n != items {
                    problems.push(format!(
                        "{}:{}: \"{}\" but {items} follow",
                        page.name(),
                        i + 1,
                        line.trim()
                    ));
                }
            }
        }
        // The files under a folder: `` `dir.rs` and the N files under it ``.
        let flat = prose.replace('\n', " ");
        for (at, _) in flat.match_indices(" files under it") {
            let before: Vec<&str> = flat[..at].split_whitespace().collect();
            let (Some(count), Some(file)) =
                (before.last().and_then(|w| number_word(w)), before.iter().rev().nth(3))
            else {
                continue;
            };
            counted += 1;
            let folder = file.trim_matches('`').trim_end_matches(".rs");
            let files = rust_files(&root().join(folder));
            let code = files.iter().filter(|f| !is_test(f)).count();
            if code != count {
                problems.push(format!(
                    "{}: {file} and the {count} files under it: {folder}/ has {code}",
                    page.name()
                ));
            }
        }
        // A file and "its parts": the files of the modules it declares, every one.
        for (at, _) in flat.match_indices(" its parts ") {
            let Some(file) = code_spans(&flat[..at]).last().map(|(s, _)| s.clone()) else { continue };
            let sentence_end = flat[at..].find(". ").map_or(flat.len(), |e| at + e);
            let named: BTreeSet<String> =
                code_spans(&flat[at..sentence_end]).into_iter().map(|(s, _)| s).collect();
            counted += 1;
            let declared: BTreeSet<String> = declared_parts(&file).into_iter().collect();
            if named != declared {
                problems.push(format!(
                    "{}: {file} and its parts {named:?}: it declares {declared:?}",
                    page.name()
                ));
            }
        }
        // The workspace's crates, and the article's clips.
        let members = read(Path::new("Cargo.toml"))
            .lines()
            .find(|l| l.starts_with("members"))
            .map(|l| l.matches('"').count() / 2);
        for (phrase, count) in [
            ("a Cargo workspace of ", members.map(|m| m + 1)),
            ("the scene's ", Some(skinning_method::scene::clips().expect("the article's clips").len())),
        ] {
            for (at, _) in flat.match_indices(phrase) {
                let word = flat[at + phrase.len()..].split_whitespace().next().unwrap_or_default();
                if let Some(n) = number_word(word) {
                    counted += 1;
                    if Some(n) != count {
                        problems.push(format!("{}: \"{phrase}{word}\": there are {count:?}", page.name()));
                    }
                }
            }
        }
    }
    crate::check("counts that are not what they count", problems);
    assert!(counted >= 4, "only {counted} counts found");
}

#[test]
fn the_list_checks_catch_what_they_are_for() {
    assert_eq!(number_word("Six"), Some(6));
    assert_eq!(count_before_list("The tests measure the same for five files:"), Some(5));
    assert_eq!(count_before_list("It checks:"), None);
    let lines = ["", "| a | b |", "|---|---|", "| 1 | 2 |", "| 3 | 4 |", "", "after"];
    assert_eq!(items_after(&lines, 0), Some(2));
    assert_eq!(items_after(&["- a", "  more", "- b", "", "- c"], 0), Some(2));
    assert_eq!(items_after(&["text"], 0), None);
    assert!(is_test("state/tests.rs") && is_test("gpu_tests.rs") && !is_test("state/keys.rs"));
    // A folder row that misses a file, or names one that is not there.
    let dir = std::env::temp_dir().join(format!("skinning-book-lists-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).expect("a scratch folder");
    for file in ["mod.rs", "a.rs", "b.rs", "tests.rs", "b_tests.rs", "sub/c.rs"] {
        std::fs::write(dir.join(file), "").expect("written");
    }
    let named = |files: &[&str]| files.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let row = |files: &[&str]| folder_row(&dir, &named(files)).len();
    assert_eq!((row(&["a.rs", "b.rs", "sub/c.rs"]), row(&["a.rs", "b.rs", "sub/"])), (0, 0));
    assert_eq!((row(&["a.rs", "sub/"]), row(&["a.rs", "b.rs", "sub/", "gone.rs"])), (1, 1));
    let _ = std::fs::remove_dir_all(&dir);
    let manifest =
        "[dependencies]\nglam.workspace = true\nrayon = \"1\"\n[dev-dependencies]\nbase64 = \"0.22\"\n";
    assert_eq!(dependencies(manifest, "[dependencies]"), BTreeSet::from(["rayon".to_string()]));
}
