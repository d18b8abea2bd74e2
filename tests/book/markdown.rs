//! Reading the book's Markdown the way a forge shows it, with the standard library alone: its
//! pages, their prose outside code blocks, their fenced code blocks, code spans, links, pictures,
//! the anchors of headings, the citations `` `src/file.rs`: `name` ``, and the chapters a text
//! names.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One page of the book: where it is (relative to the crate) and its text.
pub struct Page {
    pub path: PathBuf,
    pub text: String,
}

impl Page {
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }

    /// The folder its relative links start from.
    pub fn folder(&self) -> PathBuf {
        self.path.parent().map(Path::to_path_buf).unwrap_or_default()
    }

    /// The text with every fenced code block (``` ... ```) blanked out, line count kept: links,
    /// headings and citations are only what is outside them.
    pub fn prose(&self) -> String {
        let mut fenced = false;
        let mut out = String::new();
        for line in self.text.lines() {
            let fence = line.trim_start().starts_with("```");
            if fence {
                fenced = !fenced;
            }
            if !fenced && !fence {
                out.push_str(line);
            }
            out.push('\n');
        }
        out
    }
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(root().join(path))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// One fenced code block: its language (the word after the opening fence, `rust`, `console`...),
/// the line of the page its first line is on (counting from 1), and its lines.
pub struct Block {
    pub language: String,
    pub line: usize,
    pub lines: Vec<String>,
}

/// Every fenced code block of `text`, in order, as [`Page::prose`] sees the fences.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (fence, open.take()) {
            (Some(info), None) => {
                let language = info.split_whitespace().next().unwrap_or_default().to_string();
                open = Some(Block { language, line: i + 2, lines: Vec::new() });
            }
            (Some(_), Some(block)) => found.push(block),
            (None, Some(mut block)) => {
                block.lines.push(line.to_string());
                open = Some(block);
            }
            (None, None) => {}
        }
    }
    found
}

/// A page's name and line, as an editor takes it: `docs/02-the-blend.md:41`.
pub fn place(page: &Page, line: usize) -> String {
    format!("{}:{line}", page.name())
}

/// Whether a page is a placeholder for a chapter still to be written: it says "(To be written.)".
pub fn is_placeholder(page: &Page) -> bool {
    page.text.contains("(To be written.)")
}

/// README.md, then every `docs/*.md`, in name order.
pub fn pages() -> Vec<Page> {
    let mut paths = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|entry| PathBuf::from("docs").join(entry.expect("readable").file_name()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths.into_iter().map(|path| Page { text: read(&path), path }).collect()
}

/// The inline code spans of `prose`, in order: what is between two backticks, a line break
/// inside one read as a space (as Markdown reads it), with the byte offset where it ends.
pub fn code_spans(prose: &str) -> Vec<(String, usize)> {
    let mut spans = Vec::new();
    let mut rest = prose;
    let mut offset = 0;
    while let Some(start) = rest.find('`') {
        let after = &rest[start + 1..];
        let Some(len) = after.find('`') else { break };
        spans.push((after[..len].replace('\n', " "), offset + start + 1 + len + 1));
        offset += start + 1 + len + 1;
        rest = &after[len + 1..];
    }
    spans
}

/// `prose` with every code span replaced by spaces, so a `[x](y)` shown as code is not a link.
pub fn without_code(prose: &str) -> String {
    let mut out = String::with_capacity(prose.len());
    let mut inside = false;
    for c in prose.chars() {
        if c == '`' {
            inside = !inside;
            out.push(' ');
        } else if inside && c != '\n' {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// The targets of every `[text](target)` and `![alt](target)` outside code, in order.
pub fn links(prose: &str) -> Vec<String> {
    let text = without_code(prose);
    let mut found = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        // A title ("...") after the target is not part of it.
        let target = after[..end].split_whitespace().next().unwrap_or_default();
        found.push(target.to_string());
        rest = &after[end..];
    }
    found
}

/// The images' targets, `![alt](target)`, outside code.
pub fn pictures(prose: &str) -> Vec<String> {
    let text = without_code(prose);
    let mut found = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("![") {
        let after = &rest[at + 2..];
        let Some(close) = after.find("](") else { break };
        let target = &after[close + 2..];
        let end = target.find(')').unwrap_or(target.len());
        found.push(target[..end].split_whitespace().next().unwrap_or_default().to_string());
        rest = &target[end..];
    }
    found
}

/// The anchors a forge makes for a page's headings: lower case, spaces to hyphens, punctuation
/// (backticks, commas, dots, slashes...) dropped; a repeated heading gets `-1`, `-2`...
pub fn anchors(page_text: &str) -> BTreeSet<String> {
    let page = Page { path: PathBuf::new(), text: page_text.to_string() };
    let mut seen = BTreeSet::new();
    for line in page.prose().lines() {
        let Some(heading) = line.strip_prefix('#') else { continue };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let slug: String = heading
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut unique = slug.clone();
        let mut n = 0;
        while seen.contains(&unique) {
            n += 1;
            unique = format!("{slug}-{n}");
        }
        seen.insert(unique);
    }
    seen
}

/// The citations of `prose`: `` `path`: `name` ``, with more names after commas or "and".
pub fn citations(prose: &str) -> Vec<(String, Vec<String>)> {
    let spans = code_spans(prose);
    let mut found = Vec::new();
    let mut i = 0;
    while i < spans.len() {
        let path = &spans[i].0;
        let is_source = [".rs", ".vert", ".frag"].iter().any(|e| path.ends_with(e));
        let next_starts = |j: usize, sep: &[&str]| {
            let (_, prev_end) = spans[j - 1];
            let between = prose[prev_end..].split('`').next().unwrap_or_default();
            sep.iter().any(|s| between.split_whitespace().collect::<Vec<_>>().join(" ") == *s)
        };
        if is_source && i + 1 < spans.len() && next_starts(i + 1, &[":"]) {
            let mut names = vec![spans[i + 1].0.clone()];
            let mut j = i + 2;
            // A list of names goes on after commas and "and"; a path after a comma starts another.
            while j < spans.len()
                && next_starts(j, &[",", "and", ", and"])
                && !spans[j].0.contains(['/', '.'])
            {
                names.push(spans[j].0.clone());
                j += 1;
            }
            found.push((path.clone(), names));
            i = j;
        } else {
            i += 1;
        }
    }
    found
}

/// Whether a file name in `docs/` is a chapter's: `NN-words.md`.
pub fn is_chapter(name: &str) -> bool {
    let numbered = name.len() > 3 && name[..2].chars().all(|c| c.is_ascii_digit()) && &name[2..3] == "-";
    numbered && name.ends_with(".md")
}

/// The chapters' file names in the order a text mentions them, each once: every `docs/NN-*.md`.
pub fn chapters_in(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (at, _) in text.match_indices("docs/") {
        let name: String =
            text[at + 5..].chars().take_while(|c| c.is_ascii_alphanumeric() || "-_.".contains(*c)).collect();
        let name = name.trim_end_matches('.').to_string();
        if is_chapter(&name) && !found.contains(&name) {
            found.push(name);
        }
    }
    found
}

/// A command as words, the program's name and `--screenshot FILE` left out: what is compared.
pub fn arguments(command: &str) -> (Vec<String>, Option<String>) {
    let mut words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    let mut shot = None;
    if let Some(at) = words.iter().position(|w| w == "--screenshot") {
        shot = words.get(at + 1).cloned();
        words.drain(at..(at + 2).min(words.len()));
    }
    if words.first().is_some_and(|w| w == "skinning" || w.ends_with("/skinning")) {
        words.remove(0);
    }
    (words, shot)
}
