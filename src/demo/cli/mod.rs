//! The command line: flags, their values, and the rules between them. `lexopt` splits the
//! arguments (it handles `--flag value`, `--flag=value` and values that are not UTF-8); what they
//! fill in is [`Options`] (`options.rs`), read family by family in `flags.rs`, each value checked
//! by `values.rs`; the rules between them are `rules.rs`, and what `--help` prints is in `help.rs`;
//! `--skinning` and `--method` choose from `choices.rs`; `skinning FILE` is `model_file.rs`,
//! `--hide` is `hide.rs`, looking `look.rs`, the ground `ground.rs`;
//! `--root-motion` and `--root-bone` are `motion.rs`. (`--info`'s description of a model file is the model's: `model/info.rs`.)

pub mod choices;
mod flags;
pub mod help;
pub mod hide;
pub mod layers;
pub mod ground;
pub mod look;
mod mistakes;
mod model_file;
pub mod morph;
pub mod motion;
pub mod names;
pub mod options;
pub mod reach;
mod rules;
pub mod values;

use flags::CommandLine;
use lexopt::{Arg, Parser};
use mistakes::{Unexpected, lexopt_error, takes_no_value, unexpected};
use options::Options;
use std::ffi::OsString;

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Help,
    /// Boxed: the options are large, and `Help` carries nothing.
    Run(Box<Options>),
}

/// Reads the arguments (without the program name). Errors are one line, ready to print.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, String> {
    let mut command_line = CommandLine::default();
    let mut parser = Parser::from_iter(std::iter::once(OsString::from("skinning")).chain(args));
    while let Some(arg) = parser.next().map_err(lexopt_error)? {
        match arg {
            Arg::Short('h') | Arg::Long("help") => {
                let flag = if arg == Arg::Short('h') { "-h" } else { "--help" };
                // `--help=foo` is a mistake like `--headless=1`, not a request for the help.
                if let Some(value) = parser.optional_value() {
                    return Err(takes_no_value(flag, &value));
                }
                return Ok(Command::Help);
            }
            Arg::Long(flag) => {
                let flag = flag.to_string();
                if !flags::read(&flag, &mut parser, &mut command_line)? {
                    return Err(unexpected(Unexpected::Long(flag), &mut parser));
                }
            }
            Arg::Value(value) => flags::model_alone(value, &mut command_line)?,
            other => return Err(unexpected(other.into(), &mut parser)),
        }
    }
    rules::fill_in(&mut command_line.options);
    rules::check(&command_line.options, command_line.clip_given)?;
    Ok(Command::Run(Box::new(command_line.options)))
}

#[cfg(test)]
mod tests;
