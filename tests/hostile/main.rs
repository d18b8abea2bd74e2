//! Hostile but fair: what a user can type, pipe, unplug or interrupt, and what the program must do
//! then: one clear line, the right exit code (2 command line, 3 no display / EGL / OpenGL, 1 the
//! rest), no panic, no half-written or destroyed file, and quiet when a signal or a closed pipe
//! ends it (dying of that signal, as other tools do).
//!
//! `support` has the shared checks (run the program, "one line, this code, no panic, the folder as
//! it was"); each other file is one family of cases. Cases that need a virtual X display, EGL, root
//! (hiding a library in a mount namespace) or `prlimit` say SKIPPED when they cannot run here,
//! and fail instead when `SKINNING_REQUIRE_GL` is set, as in CI.
//!
//! `SKINNING_TEST_BIN=/path/to/skinning cargo test --test hostile` runs the cases against another
//! build of the program (e.g. an older one, to see which cases it fails).

mod arm;
mod bidi;
mod big_files;
mod budgets;
mod compressed;
mod crowd;
mod descriptors;
mod display;
mod export_links;
mod export_memory;
mod export_sharing;
mod exports;
mod files;
mod flag_names;
mod grounds;
mod huge_numbers;
mod images;
mod influences;
mod invalid;
mod limits;
mod looks;
mod md5_names;
mod md5_turns;
mod memory;
mod model_budget;
mod models;
mod motion;
mod names;
mod numbers;
mod outside;
mod overflow;
mod pictures;
mod pictures_drawn;
mod reloads;
mod signals;
mod streams;
mod support;
mod valid;
mod write_faults;
