//! The engine's settings on the command line: one `--NAME VALUE` for each setting of
//! [`EngineOptions::PARAMETERS`] (its name, help, values and default come from there),
//! shared by every command that searches (`analyse`, `bench`, `play`, `selfplay`).
//! A setting added to the table appears here with nothing else to change.

use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};

use crate::engine::{EngineOptions, Parameter, ParameterKind};

/// The settings given on the command line, in the table's order (those not given keep
/// the command's own defaults).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineArgs {
    given: Vec<(&'static str, String)>,
}

impl EngineArgs {
    /// `base` with the settings given on the command line.
    pub fn apply(&self, mut base: EngineOptions) -> Result<EngineOptions, String> {
        for (name, value) in &self.given {
            base.set(name, value)?;
        }
        Ok(base)
    }

    /// The value given for setting `name`, if any.
    pub fn given(&self, name: &str) -> Option<&str> {
        self.given
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The `--NAME` argument of one setting.
fn argument(p: &'static Parameter) -> Arg {
    let (value_name, values) = match p.kind {
        ParameterKind::Int { min, max } => ("N", format!(", {min}..{max}")),
        ParameterKind::Enum(names) => ("NAME", format!(": {}", names.join(", "))),
        ParameterKind::Bool => ("BOOL", ": true or false".to_string()),
    };
    Arg::new(p.name)
        .long(p.name)
        .value_name(value_name)
        .help(format!(
            "{}{values} [default: {}]",
            p.help.trim_end_matches('.'),
            p.default_text()
        ))
        .help_heading("Engine settings")
        .value_parser(move |text: &str| p.check(text).map(|_| text.to_string()))
}

impl Args for EngineArgs {
    fn augment_args(cmd: Command) -> Command {
        EngineOptions::PARAMETERS
            .iter()
            .fold(cmd, |cmd, p| cmd.arg(argument(p)))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for EngineArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let given = EngineOptions::PARAMETERS
            .iter()
            .filter_map(|p| {
                let value = matches.get_one::<String>(p.name)?;
                Some((p.name, value.clone()))
            })
            .collect();
        Ok(EngineArgs { given })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        engine: EngineArgs,
    }

    #[test]
    fn every_setting_is_an_argument_that_reaches_the_options() {
        for p in EngineOptions::PARAMETERS {
            let value = match p.kind {
                ParameterKind::Int { max, .. } => max.to_string(),
                ParameterKind::Enum(names) => names[names.len() - 1].to_string(),
                ParameterKind::Bool => (p.default_text() == "false").to_string(),
            };
            let flag = format!("--{}", p.name);
            let cli = Cli::try_parse_from(["t", flag.as_str(), value.as_str()]).unwrap();
            let options = cli.engine.apply(EngineOptions::default()).unwrap();
            assert_eq!(options.get(p.name), Some(value), "{}", p.name);
        }
    }

    #[test]
    fn a_bad_value_is_refused_with_the_settings_reason() {
        let error = Cli::try_parse_from(["t", "--threads", "0"]).unwrap_err();
        assert!(
            error.to_string().contains("expected an integer 1..64"),
            "{error}"
        );
        let none = Cli::try_parse_from(["t"]).unwrap();
        assert_eq!(
            none.engine.apply(EngineOptions::default()).unwrap(),
            EngineOptions::default()
        );
    }
}
