//! The glossary, `docs/glossary.md`, is one `## word` heading per entry, in alphabetical order.
//! Every word a reader asked about has an entry (`REQUIRED`); every entry is linked from a chapter
//! (`glossary.md#word`, at the word's first use), unless the chapter that teaches it is still a
//! placeholder; every link to the glossary lands on an entry; the README and every written chapter
//! of the method link it.

use crate::markdown::{Page, is_chapter, is_placeholder, links, pages, read};
use std::collections::BTreeMap;
use std::path::Path;

const GLOSSARY: &str = "docs/glossary.md";

/// The words the book's readers asked for, as their entries' headings.
const REQUIRED: [&str; 46] = [
    "additive layer",
    "bias",
    "bind pose",
    "bone",
    "CCD",
    "chain",
    "channel",
    "clip",
    "crossfade",
    "displacement",
    "forward kinematics",
    "influence",
    "inverse bind matrix",
    "inverse kinematics",
    "joint",
    "joint slot",
    "key",
    "layer",
    "local",
    "mask",
    "model space",
    "morph target",
    "morph weight",
    "node",
    "offset",
    "palette",
    "phase sync",
    "pole",
    "rest pose",
    "the camera's turned space",
    "candidate",
    "weight",
    "world",
    "Z-up",
    // The words of the MD5 page, the table of sign flips, soften, the slots and the exercises.
    "base frame",
    "dual quaternion",
    "extras",
    "flags",
    "linear blend skinning",
    "object space",
    "phase",
    "reference pose",
    "sign flip",
    "slot",
    "soften",
    "sweep",
];

/// A heading's anchor, as `markdown::anchors` makes it.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The glossary's entries: each `## ` heading and the text under it, in order.
pub fn entries(text: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            found.push((heading.trim().to_string(), String::new()));
        } else if let Some((_, body)) = found.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    found
}

/// The entry a link names, if it points into the glossary from `page`: `Some("")` for the page
/// itself.
fn glossary_anchor(page: &Page, target: &str) -> Option<String> {
    let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
    let path = page.folder().join(file);
    (path == Path::new(GLOSSARY)).then(|| anchor.to_string())
}

#[test]
fn every_word_is_in_the_glossary_and_linked_where_it_is_used() {
    let text = read(Path::new(GLOSSARY));
    let entries = entries(&text);
    let mut problems = Vec::new();
    let slugs: BTreeMap<String, &str> = entries.iter().map(|(h, b)| (slug(h), b.as_str())).collect();
    for word in REQUIRED {
        if !slugs.contains_key(&slug(word)) {
            problems.push(format!("{GLOSSARY} has no entry `## {word}`"));
        }
    }
    let order: Vec<String> = entries.iter().map(|(h, _)| h.to_lowercase()).collect();
    let mut sorted = order.clone();
    sorted.sort();
    if order != sorted {
        problems.push(format!("{GLOSSARY}: the entries are not in alphabetical order: {order:?}"));
    }

    // Who links what.
    let mut linked: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for page in pages() {
        let file = page.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut links_it = false;
        for target in links(&page.prose()) {
            let Some(anchor) = glossary_anchor(&page, &target) else { continue };
            links_it = true;
            if anchor.is_empty() {
                continue;
            }
            if !slugs.contains_key(&anchor) {
                problems.push(format!("{}: link to {target}: the glossary has no such entry", page.name()));
            }
            if is_chapter(&file) {
                linked.entry(anchor).or_default().push(file.clone());
            }
        }
        let method = is_chapter(&file) && file[..2].parse::<u32>().is_ok_and(|n| n <= 13);
        if !links_it && (page.name() == "README.md" || method && !is_placeholder(&page)) {
            problems.push(format!("{}: links no word to the glossary ({GLOSSARY})", page.name()));
        }
    }
    let chapters = pages();
    for (heading, body) in &entries {
        if linked.contains_key(&slug(heading)) {
            continue;
        }
        // Waived while every chapter the entry points to is still to be written.
        let page = Page { path: GLOSSARY.into(), text: String::new() };
        let homes: Vec<&Page> = links(body)
            .iter()
            .filter_map(|t| {
                chapters.iter().find(|c| page.folder().join(t.split('#').next().unwrap_or("")) == c.path)
            })
            .collect();
        if homes.is_empty() || homes.iter().any(|c| !is_placeholder(c)) {
            problems.push(format!("{GLOSSARY}: `{heading}` is linked from no chapter"));
        }
    }
    crate::check("the glossary and its links", problems);
    assert!(linked.len() >= 20, "only {} entries linked from the chapters", linked.len());
}
