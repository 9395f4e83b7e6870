//! Command-line value parsers: one flag per ruleset option, made from the
//! rules' one list of options, and the preset, audience, detail and side
//! names.

use crate::narration::{Audience, Detail};
use crate::rules::{OptionKind, OptionsPatch, Preset, Side, option_specs};

/// One flag per ruleset option (`--throw-table sticks_count`), made from
/// the rules' one list of options ([`option_specs`]), read into an
/// [`OptionsPatch`].
#[derive(Debug, Clone, Default)]
pub struct OptionFlags(pub OptionsPatch);

impl clap::FromArgMatches for OptionFlags {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut patch = OptionsPatch::default();
        for spec in option_specs() {
            if let Some(text) = matches.get_one::<String>(spec.name) {
                patch.set(spec.name, text).map_err(|e| {
                    clap::Error::raw(
                        clap::error::ErrorKind::InvalidValue,
                        format!("--{}: {e}\n", spec.name.replace('_', "-")),
                    )
                })?;
            }
        }
        // Counts are checked against their bounds here, so a bad flag is
        // a usage error like any other.
        if let Err(errors) = patch.apply(crate::rules::Options::default()) {
            let lines: Vec<String> = errors
                .iter()
                .map(|e| format!("--{}: {e}", e.option.replace('_', "-")))
                .collect();
            return Err(clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                lines.join("\n") + "\n",
            ));
        }
        Ok(Self(patch))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for OptionFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        use clap::builder::{PossibleValue, PossibleValuesParser};
        option_specs().iter().fold(cmd, |cmd, spec| {
            let arg = clap::Arg::new(spec.name)
                .long(spec.name.replace('_', "-"))
                .value_name("VALUE");
            let arg = match spec.kind {
                OptionKind::Choice { values, .. } => arg
                    .help(format!("Override: {}", spec.description.to_lowercase()))
                    .value_parser(PossibleValuesParser::new(
                        values
                            .iter()
                            .map(|v| PossibleValue::new(*v).alias(v.replace('_', "-"))),
                    )),
                OptionKind::Count {
                    min, max, nullable, ..
                } => arg.help(format!(
                    "Override: {} {min} to {max}{}",
                    spec.description,
                    if nullable { ", or none" } else { "" }
                )),
            };
            cmd.arg(arg)
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// `a` or `b` (either case).
pub(super) fn side_value(raw: &str) -> Result<Side, String> {
    match raw {
        "a" | "A" => Ok(Side::A),
        "b" | "B" => Ok(Side::B),
        _ => Err(format!("must be a or b, got {raw:?}")),
    }
}

/// A preset by its API name, with the names listed in `--help`.
pub(super) fn preset_parser() -> impl clap::builder::TypedValueParser<Value = Preset> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(<Preset as strum::VariantNames>::VARIANTS)
        .try_map(|name| name.parse::<Preset>())
}

/// An audience by its API name.
pub(super) fn audience_parser() -> impl clap::builder::TypedValueParser<Value = Audience> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Audience::ALL.map(Audience::key)).try_map(
        |name: String| Audience::parse(&name).ok_or_else(|| format!("not an audience: {name}")),
    )
}

/// A narration detail level by its API name.
pub(super) fn detail_parser() -> impl clap::builder::TypedValueParser<Value = Detail> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Detail::ALL.map(Detail::key)).try_map(
        |name: String| Detail::parse(&name).ok_or_else(|| format!("not a detail level: {name}")),
    )
}
