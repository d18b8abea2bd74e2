//! How the command line's own mistakes are said: a flag the program does not know (as typed:
//! `-frames` names itself, and is `--frames` with a dash missing), a value given to a flag that
//! takes none, and `lexopt`'s other complaints; each one line, ending "(see --help)".

use lexopt::{Arg, Parser};

/// An argument `parse` has no place for, as typed (its own copy: the parser is needed again to
/// read the rest of a short flag's argument).
pub enum Unexpected {
    Short(char),
    Long(String),
    /// A value where none goes: `lexopt`'s own words for it.
    Other(String),
}

impl From<Arg<'_>> for Unexpected {
    fn from(arg: Arg) -> Unexpected {
        match arg {
            Arg::Short(c) => Unexpected::Short(c),
            Arg::Long(flag) => Unexpected::Long(flag.to_string()),
            other => Unexpected::Other(other.unexpected().to_string()),
        }
    }
}

/// The line for an argument `parse` has no place for: a flag it does not know (as typed), or a
/// value where none goes.
pub fn unexpected(arg: Unexpected, parser: &mut Parser) -> String {
    match arg {
        Unexpected::Short(c) => unknown_flag(&format!("-{c}{}", rest_of(parser))),
        Unexpected::Long(flag) => unknown_flag(&format!("--{flag}")),
        Unexpected::Other(said) => format!("{said} (see --help)"),
    }
}

/// What follows a short flag's letter in the same argument: `rames` of `-frames`.
fn rest_of(parser: &mut Parser) -> String {
    parser.optional_value().map(|v| v.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The line for a flag the program does not know, as typed: `-frames` is `--frames` with one dash
/// missing; another is compared with the flags `--help` lists.
fn unknown_flag(typed: &str) -> String {
    let known: Vec<&str> = super::help::HELP
        .lines()
        .filter_map(|line| line.trim_start().split([' ', ',']).find(|word| word.starts_with("--")))
        .collect();
    let bare = typed.trim_start_matches('-');
    let shown = skinning_method::printable::printable(typed);
    if typed.starts_with('-') && !typed.starts_with("--") && known.contains(&format!("--{bare}").as_str()) {
        return format!("unknown flag {shown}: flags take two dashes, --{bare} (see --help)");
    }
    let names: Vec<std::borrow::Cow<str>> = known.iter().map(|&k| k.into()).collect();
    match super::names::closest(typed, &names, 0..names.len()).next() {
        Some(i) if super::names::edit_distance(typed, known[i]) <= 2 => {
            format!("unknown flag {shown}: did you mean {}? (see --help)", known[i])
        }
        _ => format!("unknown flag {shown} (see --help)"),
    }
}

/// `lexopt`'s complaints, in the words of the others, "(see --help)" included.
pub fn lexopt_error(e: lexopt::Error) -> String {
    match e {
        lexopt::Error::UnexpectedValue { option, value } => takes_no_value(&option, &value),
        other => format!("{other} (see --help)"),
    }
}

/// A value given to a flag that takes none, as in `--headless=1`.
pub fn takes_no_value(flag: &str, value: &std::ffi::OsStr) -> String {
    format!("{flag} takes no value, not {value:?} (see --help)")
}
