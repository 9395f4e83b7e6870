//! `zohn-ahl simulate`: many simulated games, their statistics, and the
//! engine's throughput.

use std::fmt::Write as _;
use std::time::Instant;

use super::flags::{OptionFlags, preset_parser, side_value};
use crate::odds;
use crate::rules::{Preset, Side, Table};
use crate::simulate::{self, Distribution, Summary};

/// `zohn-ahl simulate`: a preset, option overrides (each named as in the
/// API), the teams, and how many games from which seed.
#[derive(Debug, Clone, clap::Args)]
pub struct SimulateArgs {
    /// Ruleset preset.
    #[arg(long, value_parser = preset_parser(), default_value = "composite")]
    pub preset: Preset,
    /// Games to play.
    #[arg(long, default_value_t = 10_000)]
    pub games: u64,
    /// Seed of the throw stream (any string): the same seed and settings
    /// give the same figures.
    #[arg(long, default_value = "simulate")]
    pub seed: String,
    /// Players per side (default: the preset's, 2 for ludii, else 1).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8))]
    pub players_per_side: Option<u8>,
    /// The side that throws first: a or b.
    #[arg(long, default_value = "a", value_parser = side_value)]
    pub first: Side,
    /// Option overrides, one flag per ruleset option.
    #[command(flatten)]
    pub options: OptionFlags,
    /// Print the summary as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also solve the exact odds (first side's win probability, mean
    /// throws) and set the simulation against them.
    #[arg(long)]
    pub exact: bool,
}

impl SimulateArgs {
    /// The table these arguments describe: the preset's options with the
    /// overrides, the teams, the first side.
    ///
    /// # Errors
    /// A message for an option or team out of bounds.
    pub fn table(&self) -> Result<Table, String> {
        let preset = self.preset;
        let o = self.options.0.apply(preset.options()).map_err(|errors| {
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        let players = usize::from(self.players_per_side.unwrap_or(preset.default_players()));
        Table::new(o, [players, players], self.first).map_err(|e| e.to_string())
    }
}

fn name_of<T: Copy + Into<&'static str>>(value: &T) -> &'static str {
    (*value).into()
}

fn distribution_line(label: &str, d: &Distribution) -> String {
    format!(
        "{label}: mean {:.2}, p10 {}, median {}, p90 {}, p99 {}, max {}",
        d.mean, d.p10, d.median, d.p90, d.p99, d.max
    )
}

/// Run `zohn-ahl simulate`: play the games (with a progress bar on a
/// terminal), time them, and render the summary as text or JSON.
///
/// # Errors
/// A message for a table out of bounds or a defect of the rules.
pub fn run_simulate(args: &SimulateArgs) -> Result<String, String> {
    let table = args.table()?;
    let bar = indicatif::ProgressBar::new(args.games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {human_pos}/{human_len} games, {games_per_sec} games/s, eta {eta}",
        )
        .map(|style| {
            style.with_key(
                "games_per_sec",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}", state.per_sec());
                },
            )
        })
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let cpu_start = thread_cpu_seconds();
    let start = Instant::now();
    let summary = simulate::simulate(&table, args.games, &args.seed, |done| {
        if done % 1024 == 0 {
            bar.set_position(done);
        }
    })
    .map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    let cpu_seconds = thread_cpu_seconds().map(|end| end - cpu_start.unwrap_or(end));
    bar.finish_and_clear();
    let throws_per_second = summary.total_throws as f64 / seconds.max(1e-9);
    let exact = if args.exact {
        let start = Instant::now();
        let solution = odds::solve(&table).map_err(|e| e.to_string())?;
        Some((solution, start.elapsed().as_secs_f64()))
    } else {
        None
    };
    let exact_json = exact.as_ref().map(|(sol, secs)| {
        serde_json::json!({
            "first_side_wins": sol.first_side_wins(),
            "mean_throws": sol.opening().expected_throws,
            "states": sol.states(),
            "sweeps": sol.sweeps,
            "last_change": sol.last_change,
            "seconds": secs,
        })
    });
    if args.json {
        let value = serde_json::json!({
            "preset": args.preset,
            "options": table.options(),
            "players_per_side": table.players(Side::A),
            "first": table.first(),
            "seed": args.seed,
            "summary": summary,
            "exact": exact_json,
            "seconds": seconds,
            "cpu_seconds": cpu_seconds,
            "throws_per_second": throws_per_second,
            "throws_per_cpu_second": cpu_seconds.map(|c| summary.total_throws as f64 / c.max(1e-9)),
        });
        return serde_json::to_string_pretty(&value)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string());
    }
    let mut text = render(
        args,
        &table,
        &summary,
        seconds,
        cpu_seconds,
        throws_per_second,
    );
    if let Some((sol, secs)) = &exact {
        let open = sol.opening();
        let z = |sim: f64, exact: f64, se: f64| {
            if se > 0.0 {
                format!("{:+.2}", (sim - exact) / se)
            } else {
                "n/a".to_owned()
            }
        };
        let _ = writeln!(
            text,
            "exact: the first side wins with probability {:.6} (simulated {:.4}, z = {}); mean throws {:.3} (simulated {:.2}, z = {}); {} states, {} sweeps, last change {:.1e}, solved in {:.3} s",
            sol.first_side_wins(),
            summary.first_side_win_share,
            z(
                summary.first_side_win_share,
                sol.first_side_wins(),
                summary.first_side_win_share_se
            ),
            open.expected_throws,
            summary.throws.mean,
            z(
                summary.throws.mean,
                open.expected_throws,
                summary.throws_mean_se
            ),
            sol.states(),
            sol.sweeps,
            sol.last_change,
            secs
        );
    }
    Ok(text)
}

/// CPU time this thread has run, from Linux's `/proc/thread-self/schedstat`
/// (nanoseconds on the CPU, then waiting, then time slices); `None`
/// elsewhere. On a machine shared with other work the wall clock overstates
/// the engine's cost, so the report gives both.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

fn render(
    args: &SimulateArgs,
    table: &Table,
    s: &Summary,
    seconds: f64,
    cpu_seconds: Option<f64>,
    throws_per_second: f64,
) -> String {
    let o = table.options();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "zohn-ahl simulate: preset {}, {} player(s) a side, {} first, seed {:?}, {} games",
        name_of(&args.preset),
        table.players(Side::A),
        name_of(&table.first()),
        args.seed,
        s.games
    );
    let options: Vec<String> = o
        .named_values()
        .into_iter()
        .map(|(name, value)| format!("{name} {value}"))
        .collect();
    let _ = writeln!(out, "options: {}", options.join(", "));
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{} (standard error of the mean {:.2})",
        distribution_line("throws per game", &s.throws),
        s.throws_mean_se
    );
    let _ = writeln!(out, "{}", distribution_line("turns per game", &s.turns));
    let _ = writeln!(
        out,
        "wins: A {:.2} %, B {:.2} %; the first side {:.2} % (standard error {:.2})",
        100.0 * s.win_share[0],
        100.0 * s.win_share[1],
        100.0 * s.first_side_win_share,
        100.0 * s.first_side_win_share_se
    );
    let p = &s.per_game;
    let _ = writeln!(
        out,
        "per game: forced passes {:.2}, extra throws {:.2}, whips {:.2}, circuits {:.2}, creek falls {:.2}, lost throws {:.2}",
        p.forced_passes, p.extra_throws, p.whips, p.circuits, p.creek_falls, p.lost_throws
    );
    if s.unfinished > 0 {
        let _ = writeln!(
            out,
            "unfinished: {} games abandoned at {} throws",
            s.unfinished,
            simulate::MAX_THROWS_PER_GAME
        );
    }
    let _ = writeln!(
        out,
        "throughput: {} throws in {:.3} s: {:.2} M throws/s, {:.0} games/s (one thread)",
        s.total_throws,
        seconds,
        throws_per_second / 1e6,
        s.games as f64 / seconds.max(1e-9)
    );
    if let Some(cpu) = cpu_seconds {
        let _ = writeln!(
            out,
            "cpu time: {cpu:.3} s ({:.0} % of the wall time): {:.2} M throws per CPU second",
            100.0 * cpu / seconds.max(1e-9),
            s.total_throws as f64 / cpu.max(1e-9) / 1e6
        );
    }
    out
}
