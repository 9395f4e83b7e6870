//! `zohn-ahl`: the Zohn Ahl narrated rules service.
//!
//! `cargo run --release` serves the API on 127.0.0.1:8080 with a SQLite file
//! `zohn-ahl.db` in the working directory; see `zohn-ahl --help`.

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser;
use zohn_ahl::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve(cli.serve)) {
        Command::Serve(args) => match zohn_ahl::server::run(args.into()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("zohn-ahl: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Transcript {
            seed,
            preset,
            audience,
            detail,
            side_a,
            side_b,
            read_aloud,
            stop_after,
            board,
            counting_sticks,
            minutes,
        } => {
            // The names pass the checks a new game's names pass.
            let checked = zohn_ahl::service::GameRequest {
                preset: Some(preset),
                sides: [side_a, side_b].map(|name| zohn_ahl::service::SideRequest {
                    name,
                    players: None,
                }),
                ..Default::default()
            }
            .check();
            let sides = match checked {
                Ok(new) => new.sides.map(|(name, _)| name),
                Err(refusal) => {
                    eprintln!("zohn-ahl: {}", refusal.detail);
                    return ExitCode::FAILURE;
                }
            };
            let request = zohn_ahl::transcript::TranscriptRequest {
                seed,
                preset,
                audience,
                detail,
                sides,
                read_aloud,
                stop_after,
                board: board.as_ref().map(|path| path.display().to_string()),
                counting_sticks,
                minutes: read_aloud.then_some(minutes),
            };
            if let Some(path) = &board {
                let written = zohn_ahl::transcript::board_picture(&request, path)
                    .map_err(|e| e.to_string())
                    .and_then(|bytes| std::fs::write(path, bytes).map_err(|e| e.to_string()));
                if let Err(e) = written {
                    eprintln!("zohn-ahl: the board ({}): {e}", path.display());
                    return ExitCode::FAILURE;
                }
            }
            match zohn_ahl::transcript::transcript_of(&request) {
                Ok(text) => print_out(&text),
                Err(e) => {
                    eprintln!("zohn-ahl: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Verify(args) => match zohn_ahl::offline::verify(&args.database_url) {
            Ok((games, faults)) if faults.is_empty() => {
                print_out(&format!("{}, no fault\n", checked(games)))
            }
            Ok((games, faults)) => {
                for f in &faults {
                    eprintln!("{f}");
                }
                eprintln!(
                    "{}, {} {}",
                    checked(games),
                    faults.len(),
                    if faults.len() == 1 { "fault" } else { "faults" }
                );
                ExitCode::FAILURE
            }
            Err(e) => {
                eprintln!("zohn-ahl: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Export {
            database,
            games,
            with_seats,
        } => {
            let mut out = std::io::stdout().lock();
            match zohn_ahl::offline::export(&database.database_url, &games, with_seats, &mut out) {
                Ok(n) => {
                    eprintln!("exported {n} {}", if n == 1 { "game" } else { "games" });
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("zohn-ahl: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Import(database) => {
            let mut input = std::io::stdin().lock();
            match zohn_ahl::offline::import(&database.database_url, &mut input) {
                Ok((n, refused)) => {
                    for why in &refused {
                        eprintln!("refused: {why}");
                    }
                    eprintln!(
                        "imported {n} {}, refused {}",
                        if n == 1 { "game" } else { "games" },
                        refused.len()
                    );
                    if refused.is_empty() {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::FAILURE
                    }
                }
                Err(e) => {
                    eprintln!("zohn-ahl: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Backup { database, to } => {
            match zohn_ahl::offline::backup(&database.database_url, &to) {
                Ok(()) => print_out(&format!("backed up to {}\n", to.display())),
                Err(e) => {
                    eprintln!("zohn-ahl: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Mcp(args) => {
            match zohn_ahl::server::run_mcp_stdio(&args.database_url, &args.log) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("zohn-ahl: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Simulate(args) => match zohn_ahl::cli::run_simulate(&args) {
            Ok(text) => print_out(&text),
            Err(e) => {
                eprintln!("zohn-ahl: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Openapi => match serde_json::to_string_pretty(&zohn_ahl::http::openapi()) {
            Ok(json) => print_out(&(json + "\n")),
            Err(e) => {
                eprintln!("zohn-ahl: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

/// Write to standard output; a closed pipe (`| head`) is not an error.
fn print_out(text: &str) -> ExitCode {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zohn-ahl: {e}");
            ExitCode::FAILURE
        }
    }
}

/// "1 game checked", "2 games checked".
fn checked(games: usize) -> String {
    if games == 1 {
        "1 game checked".to_owned()
    } else {
        format!("{games} games checked")
    }
}
