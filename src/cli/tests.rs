//! The command line's parsing and its subcommands' options.
#![allow(clippy::unwrap_used)]

use super::*;
use crate::rules::{
    Board, DeadlyNorthBank, DryBranch, EndCheck, Overshoot, OwnLastSpace, Side, ThrowTable,
    TurnOrder,
};

fn simulate_args(args: &[&str]) -> SimulateArgs {
    let mut argv = vec!["zohn-ahl", "simulate"];
    argv.extend_from_slice(args);
    match Cli::try_parse_from(argv).unwrap().command {
        Some(Command::Simulate(a)) => a,
        other => panic!("not simulate: {other:?}"),
    }
}

#[test]
fn the_server_commits_up_to_max_batch_throws_together_by_default() {
    let cli = Cli::try_parse_from(["zohn-ahl"]).unwrap();
    assert_eq!(usize::from(cli.serve.max_batch), crate::service::MAX_BATCH);
    let one = Cli::try_parse_from(["zohn-ahl", "--max-batch", "1"]).unwrap();
    assert_eq!(one.serve.max_batch, 1);
    match Cli::try_parse_from(["zohn-ahl", "serve", "--max-batch", "2"])
        .unwrap()
        .command
    {
        Some(Command::Serve(args)) => assert_eq!(args.max_batch, 2),
        other => panic!("not serve: {other:?}"),
    }
    for bad in ["0", "257", "many"] {
        let e = Cli::try_parse_from(["zohn-ahl", "--max-batch", bad]).unwrap_err();
        assert!(e.to_string().contains("--max-batch"), "{e}");
    }
}

#[test]
fn the_secret_key_file_reaches_the_server_settings() {
    let cli = Cli::try_parse_from(["zohn-ahl", "--secret-key-file", "/srv/zohn/key"]).unwrap();
    let settings = crate::server::Settings::from(cli.serve);
    assert_eq!(
        settings.secret_key_file.as_deref(),
        Some(std::path::Path::new("/srv/zohn/key"))
    );
}

#[test]
fn the_feed_bounds_default_to_the_services_and_refuse_zero() {
    let cli = Cli::try_parse_from(["zohn-ahl"]).unwrap();
    let settings = crate::server::Settings::from(cli.serve);
    assert_eq!(settings.feed, crate::service::FeedLimits::default());
    let cli =
        Cli::try_parse_from(["zohn-ahl", "--feed-per-game", "2", "--feed-total", "3"]).unwrap();
    let settings = crate::server::Settings::from(cli.serve);
    assert_eq!(settings.feed.per_game, 2);
    assert_eq!(settings.feed.total, 3);
    for flag in ["--feed-per-game", "--feed-total"] {
        let e = Cli::try_parse_from(["zohn-ahl", flag, "0"]).unwrap_err();
        assert!(e.to_string().contains(flag), "{e}");
    }
}

/// `--corrections-contact` was described in the README but missing from
/// its configuration table: every flag of the server has a row there,
/// with its environment variable.
#[test]
fn regression_a_server_flag_was_missing_from_the_readme_table() {
    use clap::CommandFactory;
    let readme = include_str!("../../README.md");
    let command = Cli::command();
    let mut flags = 0;
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if long == "help" || long == "version" {
            continue;
        }
        flags += 1;
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `--{long}` |")))
            .unwrap_or_else(|| panic!("README has no configuration row for --{long}"));
        if let Some(env) = arg.get_env() {
            let env = env.to_string_lossy();
            assert!(row.contains(&format!("`{env}`")), "--{long}: {row}");
        }
    }
    assert!(flags >= 12, "the server's flags were read: {flags}");
}

#[test]
fn the_transcript_takes_a_detail_level_lesson_by_default() {
    let detail = |argv: &[&str]| match Cli::try_parse_from(argv).map(|c| c.command) {
        Ok(Some(Command::Transcript { detail, .. })) => Ok(detail),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e.to_string()),
    };
    assert_eq!(
        detail(&["zohn-ahl", "transcript", "--seed", "s"]),
        Ok(Detail::Lesson)
    );
    assert_eq!(
        detail(&["zohn-ahl", "transcript", "--seed", "s", "--detail", "brief"]),
        Ok(Detail::Brief)
    );
    let refused = detail(&["zohn-ahl", "transcript", "--seed", "s", "--detail", "nope"]);
    assert!(refused.is_err_and(|e| e.contains("lesson") && e.contains("full")));
}

/// `--counting-sticks` takes 2 to the most counters a side a game may
/// start with, and refuses others naming the bounds.
#[test]
fn the_transcript_takes_counting_sticks_within_the_options_bounds() {
    let sticks = |n: &str| match Cli::try_parse_from([
        "zohn-ahl",
        "transcript",
        "--seed",
        "s",
        "--counting-sticks",
        n,
    ])
    .map(|c| c.command)
    {
        Ok(Some(Command::Transcript {
            counting_sticks, ..
        })) => Ok(counting_sticks),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e.to_string()),
    };
    assert_eq!(sticks("2"), Ok(Some(2)));
    assert_eq!(sticks("15"), Ok(Some(15)));
    // One a side ends a game at its first fall, whip or trip around
    // (and "1 counting sticks", a curator's trial).
    for n in ["0", "1", "16"] {
        assert!(sticks(n).is_err_and(|e| e.contains("2..=15")), "{n}");
    }
}

/// Each subcommand takes only its own flags: the server's settings are
/// not offered to (nor shown in the help of) `simulate`, and mixing
/// them with a subcommand is an error rather than silently ignored.
#[test]
fn server_settings_belong_to_the_server() {
    for argv in [
        &["zohn-ahl", "simulate", "--addr", "127.0.0.1:1"][..],
        &["zohn-ahl", "--addr", "127.0.0.1:1", "verify"][..],
        &["zohn-ahl", "verify", "--addr", "127.0.0.1:1"][..],
    ] {
        assert!(Cli::try_parse_from(argv).is_err(), "{argv:?}");
    }
    let help = Cli::try_parse_from(["zohn-ahl", "simulate", "--help"])
        .unwrap_err()
        .to_string();
    assert!(help.contains("--counters-per-side") && !help.contains("--database-url"));
    match Cli::try_parse_from(["zohn-ahl", "verify", "--database-url", "sqlite://x.db"])
        .unwrap()
        .command
    {
        Some(Command::Verify(args)) => assert_eq!(args.database_url, "sqlite://x.db"),
        other => panic!("not verify: {other:?}"),
    }
}

#[test]
fn every_option_can_be_overridden() {
    let a = simulate_args(&[
        "--preset",
        "ludii",
        "--counters-per-side",
        "4",
        "--throw-table",
        "sticks-sahe",
        "--board",
        "square28",
        "--deadly-north-bank",
        "far",
        "--own-last-space",
        "ordinary",
        "--overshoot",
        "carry_on",
        "--dry-branch",
        "cross-over",
        "--turn-order",
        "alternate",
        "--circuits-to-win",
        "3",
        "--end-check",
        "immediate",
        "--players-per-side",
        "3",
        "--first",
        "b",
    ]);
    let t = a.table().unwrap();
    let o = t.options();
    assert_eq!(o.counters_per_side, 4);
    assert_eq!(o.throw_table, ThrowTable::SticksSahe);
    assert_eq!(o.board, Board::Square28);
    assert_eq!(o.deadly_north_bank, DeadlyNorthBank::Far);
    assert_eq!(o.own_last_space, OwnLastSpace::Ordinary);
    assert_eq!(o.overshoot, Overshoot::CarryOn);
    assert_eq!(o.dry_branch, DryBranch::CrossOver);
    assert_eq!(o.turn_order, TurnOrder::Alternate);
    assert_eq!(o.circuits_to_win, Some(3));
    assert_eq!(o.end_check, EndCheck::Immediate);
    assert_eq!((t.players(Side::A), t.first()), (3, Side::B));
}

#[test]
fn defaults_are_the_presets() {
    let t = simulate_args(&["--preset", "ludii"]).table().unwrap();
    assert_eq!(*t.options(), Preset::Ludii.options());
    assert_eq!((t.players(Side::B), t.first()), (2, Side::A));
    let t = simulate_args(&["--preset", "boxed", "--circuits-to-win", "none"])
        .table()
        .unwrap();
    assert_eq!(t.options().circuits_to_win, None);
    for bad in [
        &["--throw-table", "dice"][..],
        &["--counters-per-side", "16"],
        &["--circuits-to-win", "11"],
        &["--first", "c"],
    ] {
        let mut argv = vec!["zohn-ahl", "simulate"];
        argv.extend_from_slice(bad);
        assert!(Cli::try_parse_from(argv).is_err(), "{bad:?}");
    }
}

#[test]
fn the_report_names_every_figure() {
    let a = simulate_args(&["--games", "20", "--seed", "t"]);
    let text = run_simulate(&a).unwrap();
    for needle in [
        "throws per game: mean",
        "p10",
        "median",
        "p90",
        "p99",
        "turns per game",
        "wins: A",
        "forced passes",
        "extra throws",
        "whips",
        "circuits",
        "creek falls",
        "M throws/s",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let json = run_simulate(&SimulateArgs { json: true, ..a }).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["summary"]["games"], 20);
}
