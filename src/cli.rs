//! The command line: `zohn-ahl [serve]`, `zohn-ahl transcript`,
//! `zohn-ahl openapi`.

use std::net::SocketAddr;

use clap::{Parser, Subcommand};

use crate::narration::Audience;
use crate::rules::Preset;

/// Zohn Ahl narrated rules service.
#[derive(Debug, Parser)]
#[command(name = "zohn-ahl", version, about)]
pub struct Cli {
    /// What to do (default: serve).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Server settings, for `serve` (also accepted before the subcommand).
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// Settings of the HTTP server.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// SQLite database URL or path; created and migrated if missing.
    #[arg(
        long,
        global = true,
        env = "DATABASE_URL",
        default_value = "sqlite://zohn-ahl.db"
    )]
    pub database_url: String,
    /// Address to listen on.
    #[arg(
        long,
        global = true,
        env = "ZOHN_AHL_ADDR",
        default_value = "127.0.0.1:8080"
    )]
    pub addr: SocketAddr,
    /// Log filter (tracing's EnvFilter syntax), e.g. `info` or `zohn_ahl=debug`.
    #[arg(long, global = true, env = "RUST_LOG", default_value = "info")]
    pub log: String,
    /// HTTP worker threads (default: one per core).
    #[arg(long, global = true, env = "ZOHN_AHL_WORKERS")]
    pub workers: Option<usize>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service (the default).
    Serve,
    /// Print the narrated transcript of a seeded game as Markdown.
    Transcript {
        /// The game's seed.
        #[arg(long)]
        seed: String,
        /// Ruleset preset.
        #[arg(long, value_enum, default_value = "composite")]
        preset: PresetArg,
        /// Narration audience.
        #[arg(long, value_enum, default_value = "general")]
        audience: AudienceArg,
    },
    /// Print the OpenAPI document as JSON.
    Openapi,
    /// Check every stored game: moves numbered without gaps or doubles, and
    /// each state equal to the replay of its moves. Exits 1 on any fault.
    Verify,
}

/// A preset on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
#[allow(missing_docs)]
pub enum PresetArg {
    Composite,
    Culin1898,
    Ludii,
    A4,
    Boxed,
}

impl From<PresetArg> for Preset {
    fn from(p: PresetArg) -> Self {
        match p {
            PresetArg::Composite => Preset::Composite,
            PresetArg::Culin1898 => Preset::Culin1898,
            PresetArg::Ludii => Preset::Ludii,
            PresetArg::A4 => Preset::A4,
            PresetArg::Boxed => Preset::Boxed,
        }
    }
}

/// An audience on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
#[allow(missing_docs)]
pub enum AudienceArg {
    Young,
    General,
    Scholar,
}

impl From<AudienceArg> for Audience {
    fn from(a: AudienceArg) -> Self {
        match a {
            AudienceArg::Young => Audience::Young,
            AudienceArg::General => Audience::General,
            AudienceArg::Scholar => Audience::Scholar,
        }
    }
}
