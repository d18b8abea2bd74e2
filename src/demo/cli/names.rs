//! Names a user types: one lookup for every flag that names a bone, a clip, a mesh or a morph
//! target (`--reach`, `--pole`, `--look-at`, `--weights`, `--trail`, `--mask`, `--blend`,
//! `--additive`, `--fade-to`, `--animation`, `--clip`, `--morph`).
//!
//! A rig's names are rarely what a user types first: Mixamo's are `mixamorig:RightHand`, Blender's
//! `Foot.R`, the Fox's `b_RightHand_08`. [`find`] tries, in this order, and takes the first rule
//! that finds exactly one:
//! 1. the name itself, as the file has it or as the program prints it (control characters escaped);
//! 2. an index, `0` to one less than the count;
//! 3. the name in any letter case (`righthand`);
//! 4. the part after a namespace prefix, in any letter case (`RightHand` for `mixamorig:RightHand`).
//!
//! Rules 3 and 4 say which name they found, in a note (once per run). Where a rule finds several
//! names, the user has to choose; where none does, one line names the closest few (by edit
//! distance, a name holding what was typed first), in the same words for every flag. `--clips-from`
//! matches two rigs' bones by the same rules, quietly ([`same_bone`]).

use crate::demo::output::console;
use skinning_method::printable::{printable, quoted};
use std::borrow::Cow;

/// How many of the closest names a refusal lists; a list this short is listed whole.
pub const CLOSEST: usize = 6;

/// The index of the name among `names` that `wanted` means, for `flag` (`--reach`), which names a
/// `what` (`bone`); a note says which name it took when the letter case or a prefix differed.
pub fn find(flag: &str, what: &str, wanted: &str, names: &[&str]) -> Result<usize, String> {
    lookup(flag, what, wanted, names, true)
}

/// [`find`] without rule 2, for names whose numbers mean something else (`--morph`'s node index).
pub fn find_named(flag: &str, what: &str, wanted: &str, names: &[&str]) -> Result<usize, String> {
    lookup(flag, what, wanted, names, false)
}

fn lookup(flag: &str, what: &str, wanted: &str, names: &[&str], by_index: bool) -> Result<usize, String> {
    let shown: Vec<Cow<str>> = names.iter().map(|n| printable(n)).collect();
    if names.is_empty() {
        return Err(format!("{flag} {}: this model has no {what}s", quoted(wanted)));
    }
    // As typed (a file's name may end in a space or a line break), else without the spaces around.
    let is = |i: usize, w: &str| names[i] == w || shown[i] == w;
    let exact: Vec<usize> = (0..names.len()).filter(|&i| is(i, wanted)).collect();
    // Messages quote what was typed; the rules below match it without the spaces around.
    let typed = wanted;
    let wanted = wanted.trim();
    let exact = if exact.is_empty() { (0..names.len()).filter(|&i| is(i, wanted)).collect() } else { exact };
    if !exact.is_empty() {
        return one_of(flag, what, typed, &exact, &shown, None);
    }
    if let Some(i) = wanted.parse::<usize>().ok().filter(|&i| by_index && i < names.len()) {
        return Ok(i);
    }
    let in_any_case = in_any_case(wanted, &shown);
    if !in_any_case.is_empty() {
        return one_of(flag, what, typed, &in_any_case, &shown, Some(LETTER_CASE));
    }
    let after_prefix = after_prefix(wanted, &shown);
    if !after_prefix.is_empty() {
        return one_of(flag, what, typed, &after_prefix, &shown, Some(PREFIX));
    }
    Err(unknown(flag, what, typed, &shown, by_index))
}

/// Rule 3: the names that are `wanted` in any letter case.
fn in_any_case(wanted: &str, shown: &[Cow<str>]) -> Vec<usize> {
    let lower = wanted.to_lowercase();
    (0..shown.len()).filter(|&i| shown[i].to_lowercase() == lower).collect()
}

/// Rule 4: the names whose part after a namespace prefix is `wanted`, in any letter case.
fn after_prefix(wanted: &str, shown: &[Cow<str>]) -> Vec<usize> {
    let lower = wanted.to_lowercase();
    (0..shown.len()).filter(|&i| shown[i].contains(':') && tail(&shown[i]).to_lowercase() == lower).collect()
}

/// The one of `names` that is the same bone as another rig's `name` (`--clips-from` matches two
/// rigs' bones so): rules 1, 3 and 4 as a flag's name takes them, but no index (a file's name is no
/// number the user typed), then the same for the part of `name` after its prefix, so that
/// `mixamorig:Hips` finds `Hips` and `mixamo:hips`. None where no rule finds exactly one; quiet, as
/// the caller lists what it could not match.
pub fn same_bone(name: &str, names: &[&str]) -> Option<usize> {
    let shown: Vec<Cow<str>> = names.iter().map(|n| printable(n)).collect();
    let one = |found: Vec<usize>| match found[..] {
        [one] => Some(Some(one)),
        [] => None,
        _ => Some(None),
    };
    let by_rules = |wanted: &str| {
        let exact: Vec<usize> =
            (0..names.len()).filter(|&i| names[i] == wanted || shown[i] == wanted).collect();
        one(exact).or_else(|| one(in_any_case(wanted, &shown))).or_else(|| one(after_prefix(wanted, &shown)))
    };
    // The first rule that finds any name decides: several there is no match, as for a flag.
    by_rules(name).or_else(|| by_rules(tail(name))).flatten()
}

/// How a rule that changes the name found it: for the note, and for the line when it finds several.
struct Rule {
    note: &'static str,
    several: &'static str,
}

const LETTER_CASE: Rule = Rule { note: "in its own letter case", several: "in another letter case" };
const PREFIX: Rule = Rule { note: "with its prefix", several: "after their prefixes" };

/// The one of `found` (indices of names that `wanted` matched by one rule), or the line that asks
/// the user to choose among them. A match by a rule that changed the name is noted.
fn one_of(
    flag: &str,
    what: &str,
    wanted: &str,
    found: &[usize],
    shown: &[Cow<str>],
    rule: Option<Rule>,
) -> Result<usize, String> {
    let name = quoted(wanted);
    let n = found.len();
    match (found, rule) {
        ([one], None) => Ok(*one),
        ([one], Some(rule)) => {
            console::note_once(&format!(
                "{flag} {name}: taken as the {what} {} ({})",
                shown[*one], rule.note
            ));
            Ok(*one)
        }
        (_, None) => {
            let numbers: Vec<String> = found.iter().map(usize::to_string).collect();
            // Several (at least two): "0, 2 and 3".
            let (others, last) = (&numbers[..n - 1], &numbers[n - 1]);
            Err(format!(
                "{n} {what}s are named {name}: {} and {last}; give the index of the one you mean",
                others.join(", ")
            ))
        }
        (_, Some(rule)) => {
            let listed: Vec<String> = found.iter().map(|&i| format!("{} ({i})", shown[i])).collect();
            Err(format!(
                "{flag} {name}: {n} {what}s are named so {}: {}; give the index of the one you mean",
                rule.several,
                listed.join(", ")
            ))
        }
    }
}

/// The line for a name no rule finds: the closest few names, or all of a short list.
fn unknown(flag: &str, what: &str, wanted: &str, shown: &[Cow<str>], by_index: bool) -> String {
    let last = shown.len() - 1;
    if let ([only], true) = (shown, by_index) {
        return format!("unknown {what} {} for {flag}: the only one is {only} (or 0)", quoted(wanted));
    }
    let or_index = if by_index { format!("or an index, 0 to {last}; ") } else { String::new() };
    if shown.len() <= CLOSEST {
        let all: Vec<&str> = shown.iter().map(|n| n.as_ref()).collect();
        let or_index = or_index.trim_end_matches("; ");
        let or_index = if by_index { format!(" ({or_index})") } else { String::new() };
        return format!(
            "unknown {what} {} for {flag}: choose one of {}{or_index}",
            quoted(wanted),
            all.join(", ")
        );
    }
    let closest: Vec<&str> = closest(wanted, shown, 0..shown.len()).map(|i| shown[i].as_ref()).collect();
    format!(
        "unknown {what} {} for {flag}: the closest of its {} are {} ({or_index}--info lists them all)",
        quoted(wanted),
        shown.len(),
        closest.join(", ")
    )
}

/// The indices of the [`CLOSEST`] names to `wanted` among the `shown` names numbered `among`, in any
/// letter case: first by how few changes make what was typed appear somewhere in the name (0 for a
/// name that holds it: `RightHnd` is one change from appearing in `b_RightHand_08`), then by the
/// edit distance to the whole name or to the part after its prefix.
pub fn closest(
    wanted: &str,
    shown: &[Cow<str>],
    among: impl Iterator<Item = usize>,
) -> impl Iterator<Item = usize> {
    let lower = wanted.trim().to_lowercase();
    let mut ranked: Vec<(usize, usize, usize)> = among
        .map(|i| {
            let name = shown[i].to_lowercase();
            let whole = edit_distance(&lower, &name).min(edit_distance(&lower, tail(&name)));
            (distance(&lower, &name, true), whole, i)
        })
        .collect();
    ranked.sort_unstable();
    ranked.into_iter().take(CLOSEST).map(|(_, _, i)| i)
}

/// The part of a name after its namespace prefix: `RightHand` of `mixamorig:RightHand`.
fn tail(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// How many characters to insert, delete or change to make `a` into `b` (Levenshtein's distance).
pub fn edit_distance(a: &str, b: &str) -> usize {
    distance(a, b, false)
}

/// [`edit_distance`], or with `inside`, the fewest changes that make `a` appear somewhere inside `b`
/// (what comes before and after it in `b` is free).
fn distance(a: &str, b: &str, inside: bool) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).map(|j| if inside { 0 } else { j }).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let change = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = change.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    if inside { row.iter().copied().min().unwrap_or(0) } else { row[b.len()] }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIXAMO: [&str; 8] = [
        "mixamorig:Hips",
        "mixamorig:Spine",
        "mixamorig:RightArm",
        "mixamorig:RightForeArm",
        "mixamorig:RightHand",
        "mixamorig:LeftArm",
        "mixamorig:LeftForeArm",
        "mixamorig:LeftHand",
    ];

    #[test]
    fn exact_then_index_then_letter_case_then_after_the_prefix() {
        assert_eq!(find("--reach", "bone", "mixamorig:RightHand", &MIXAMO), Ok(4));
        assert_eq!(find("--reach", "bone", "3", &MIXAMO), Ok(3));
        assert_eq!(find("--reach", "bone", "MIXAMORIG:lefthand", &MIXAMO), Ok(7));
        assert_eq!(find("--reach", "bone", "RightHand", &MIXAMO), Ok(4));
        assert_eq!(find("--reach", "bone", " righthand ", &MIXAMO), Ok(4), "spaces trimmed, any case");
        // A name that is a number is a name first.
        assert_eq!(find("--mask", "bone", "1", &["2", "1"]), Ok(1));
    }

    #[test]
    fn a_wrong_name_gets_the_closest_few_in_one_line() {
        let e = find("--reach", "bone", "RightHnd", &MIXAMO).expect_err("no such bone");
        assert!(
            e.starts_with(
                "unknown bone \"RightHnd\" for --reach: the closest of its 8 are mixamorig:RightHand, "
            ),
            "{e}"
        );
        assert!(!e.contains('\n') && e.matches("mixamorig:").count() == CLOSEST, "{e}");
        let e = find("--clip", "clip", "walk", &["seed", "bend", "twist"]).expect_err("no walk");
        assert_eq!(
            e,
            "unknown clip \"walk\" for --clip: choose one of seed, bend, twist (or an index, 0 to 2)"
        );
    }

    #[test]
    fn several_matches_ask_for_the_index() {
        let e = find("--trail", "bone", "hand", &["Hand", "HAND", "foot"]).expect_err("two in any case");
        assert_eq!(
            e,
            "--trail \"hand\": 2 bones are named so in another letter case: Hand (0), HAND (1); give the \
             index of the one you mean"
        );
        let e = find("--reach", "bone", "Hand", &["a:Hand", "b:Hand"]).expect_err("two prefixes");
        assert!(e.contains("after their prefixes: a:Hand (0), b:Hand (1)"), "{e}");
        let e = find("--trail", "bone", "foot", &["foot", "hand", "foot", "foot"]).expect_err("three alike");
        assert_eq!(e, "3 bones are named \"foot\": 0, 2 and 3; give the index of the one you mean");
        let only = find("--trail", "bone", "x", &["rest"]);
        assert_eq!(only, Err("unknown bone \"x\" for --trail: the only one is rest (or 0)".into()));
    }

    #[test]
    fn edit_distance_counts_single_changes() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("hand", "hand"), 0);
        assert_eq!(
            (distance("righthnd", "b_righthand_08", true), distance("righthnd", "root", true)),
            (1, 6)
        );
    }
}
