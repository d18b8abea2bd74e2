//! `--hide LAYER,...`: layers the picture starts without, as the keys `B`, `M`, `S` and `N` would
//! hide them (the keys still bring them back in the window). `--hide bind,bones` leaves a model's
//! lit surface alone, for a headless picture of the character itself.

/// The layers a run starts without.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hidden {
    /// The bind-pose mesh (`B`).
    pub bind: bool,
    /// The skinned mesh (`M`).
    pub skinned: bool,
    /// The skeleton, and with it the bone names (`S`).
    pub bones: bool,
    /// The bone names alone (`N`).
    pub names: bool,
}

/// The layers' names, as `--help` and the refusal spell them.
pub const LAYERS: &str = "bind, skinned, bones, names";

/// Adds the layers `value` names, comma-separated, to `hidden`: `--hide bind --hide bones` hides
/// both, as `--hide bind,bones` does.
pub fn add(hidden: &mut Hidden, value: &str) -> Result<(), String> {
    for name in value.split(',').map(str::trim) {
        let layer = match name {
            "bind" => &mut hidden.bind,
            "skinned" => &mut hidden.skinned,
            "bones" => &mut hidden.bones,
            "names" => &mut hidden.names,
            _ => {
                return Err(format!(
                    "--hide wants layers from {LAYERS}, separated by commas (like bind,bones), not {value:?}"
                ));
            }
        };
        *layer = true;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_are_named_by_commas_and_add_up() {
        let mut hidden = Hidden::default();
        add(&mut hidden, "bind,bones").expect("two layers");
        assert_eq!(hidden, Hidden { bind: true, bones: true, ..Hidden::default() });
        add(&mut hidden, "skinned").expect("one more");
        add(&mut hidden, " names ").expect("spaces around a name");
        assert_eq!(hidden, Hidden { bind: true, skinned: true, bones: true, names: true });
        for bad in ["", "bind,", "Bind", "surface", "bind;bones"] {
            let err = add(&mut Hidden::default(), bad).expect_err(bad);
            assert!(err.contains(LAYERS) && err.contains(&format!("{bad:?}")), "{err}");
        }
    }
}
