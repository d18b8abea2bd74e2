//! How quoted output is compared with what a command prints: `[..]` in a line stands for any part
//! of it (a timing, a path), and a line `...` stands for any number of lines, none included.
//! Trailing spaces are not compared: an editor may drop them.

/// Whether `actual` is `expected` with each `[..]` standing for any text, none included.
pub fn line_matches(expected: &str, actual: &str) -> bool {
    let (expected, actual) = (expected.trim_end(), actual.trim_end());
    let parts: Vec<&str> = expected.split("[..]").collect();
    let [first, middle @ .., last] = parts.as_slice() else { return expected == actual };
    let Some(mut rest) = actual.strip_prefix(first) else { return false };
    // With `[..]` the only wildcard, taking each middle part where it first occurs never loses a match.
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Whether a quoted line is the wildcard that stands for lines left out.
pub fn is_ellipsis(line: &str) -> bool {
    line.trim() == "..."
}

/// Whether the lines `actual` are the quoted `expected`, with its `...` lines and `[..]` parts.
pub fn lines_match(expected: &[String], actual: &[String]) -> bool {
    // fits[i][j]: expected[i..] matches actual[j..]. Filled from the ends back.
    let (n, m) = (expected.len(), actual.len());
    let mut fits = vec![vec![false; m + 1]; n + 1];
    fits[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            fits[i][j] = if is_ellipsis(&expected[i]) {
                // Stand for no line here, or take one and stay.
                fits[i + 1][j] || (j < m && fits[i][j + 1])
            } else {
                j < m && line_matches(&expected[i], &actual[j]) && fits[i + 1][j + 1]
            };
        }
    }
    fits[0][0]
}

/// The first quoted line that does not match, for the failure message: where the comparison went
/// wrong, as a person would look for it (the quoted lines in order, `...` skipping ahead).
pub fn first_difference(expected: &[String], actual: &[String]) -> String {
    let mut j = 0;
    let mut skipping = false;
    for line in expected {
        if is_ellipsis(line) {
            skipping = true;
            continue;
        }
        let found = if skipping {
            actual[j..].iter().position(|a| line_matches(line, a)).map(|k| j + k)
        } else {
            (j < actual.len() && line_matches(line, &actual[j])).then_some(j)
        };
        match found {
            Some(k) => j = k + 1,
            None => {
                let there = actual.get(j).map_or("(nothing more)".to_string(), |a| format!("`{a}`"));
                return format!("the book's line `{line}` is not there; the program printed {there}");
            }
        }
        skipping = false;
    }
    match actual.get(j) {
        Some(extra) if !skipping => format!("the program printed more than the book shows: `{extra}`"),
        _ => "the lines differ".to_string(),
    }
}
