//! The command line: `zohn-ahl [serve]`, `zohn-ahl transcript`,
//! `zohn-ahl simulate`, `zohn-ahl openapi`.

use std::net::SocketAddr;

use clap::{Parser, Subcommand};

use crate::narration::{Audience, Detail};

mod flags;
mod simulation;

pub use simulation::{SimulateArgs, run_simulate};

pub use flags::OptionFlags;
use flags::{audience_parser, detail_parser, preset_parser};

use crate::rules::Preset;

/// Zohn Ahl narrated rules service.
#[derive(Debug, Parser)]
#[command(
    name = "zohn-ahl",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// What to do (default: serve).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Server settings when no subcommand is given (`zohn-ahl --addr ...`;
    /// `zohn-ahl serve --addr ...` takes the same).
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// The database when none is given: a file in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://zohn-ahl.db";

/// The database a subcommand reads.
#[derive(Debug, Clone, clap::Args)]
pub struct DatabaseArgs {
    /// Database URL: `sqlite://path` (or a path), or `postgres://user:password@host/database`.
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,
}

/// `zohn-ahl mcp`: the database and the log filter.
#[derive(Debug, Clone, clap::Args)]
pub struct McpArgs {
    /// Database URL: `sqlite://path` (or a path; created if missing), or
    /// `postgres://user:password@host/database`; migrated at start.
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,
    /// Log filter (tracing's EnvFilter syntax); the log goes to standard error.
    #[arg(long, env = "RUST_LOG", default_value = "warn")]
    pub log: String,
}

/// Settings of the HTTP server.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// Database URL: `sqlite://path` (or a path; created if missing), or
    /// `postgres://user:password@host/database`; migrated at start.
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,
    /// The file of the server's secret key (32 bytes, owner-only), which
    /// seals the answers kept under idempotency keys (a creation's holds
    /// the game's tokens); made at the first start if missing. Default:
    /// beside a SQLite database, its name with `.key` added
    /// (`zohn-ahl.db.key`); `zohn-ahl.key` in the working directory for
    /// PostgreSQL. Back it up apart from the database; instances sharing
    /// one database need the same file.
    #[arg(long, env = "ZOHN_AHL_SECRET_KEY_FILE")]
    pub secret_key_file: Option<std::path::PathBuf>,
    /// Address to listen on.
    #[arg(long, env = "ZOHN_AHL_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Address of a second listener that serves only `GET /metrics`
    /// (Prometheus's text format), kept off the public one; default: no
    /// metrics are kept.
    #[arg(long, env = "ZOHN_AHL_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,
    /// Log filter (tracing's EnvFilter syntax), e.g. `info` or `zohn_ahl=debug`.
    #[arg(long, env = "RUST_LOG", default_value = "info")]
    pub log: String,
    /// The log's lines: `text` (for a person) or `json` (one JSON object a
    /// line, with the request span's fields, for a log shipper).
    #[arg(long, env = "ZOHN_AHL_LOG_FORMAT", value_enum, default_value_t = crate::server::LogFormat::Text)]
    pub log_format: crate::server::LogFormat,
    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "ZOHN_AHL_WORKERS")]
    pub workers: Option<usize>,
    /// Most throws the single writer commits together, 1 to 256 (1: one
    /// commit, so one fsync, per throw; the load benchmark's "before").
    #[arg(
        long,
        env = "ZOHN_AHL_MAX_BATCH",
        default_value_t = 64,
        value_parser = clap::value_parser!(u16).range(1..=256)
    )]
    pub max_batch: u16,
    /// `off`: every move's `chances` is `null` (reason `off`) and no odds
    /// are looked up for a move, its narration or a recap; the game odds
    /// are still served. For a server that must spend nothing on them, and
    /// for measuring what they cost (`scripts/load.sh`).
    #[arg(long, env = "ZOHN_AHL_MOVE_CHANCES", value_enum, default_value_t = crate::server::Switch::On)]
    pub move_chances: crate::server::Switch,
    /// Games one client address may create a minute (0: no limit); past
    /// it, 429 with `Retry-After`.
    #[arg(long, env = "ZOHN_AHL_LIMIT_GAMES", default_value_t = crate::http::RateSettings::GAMES_PER_MINUTE)]
    pub limit_games_per_minute: u32,
    /// Throws one client address may post a second, with ten seconds'
    /// worth at once (0: no limit).
    #[arg(long, env = "ZOHN_AHL_LIMIT_THROWS", default_value_t = crate::http::RateSettings::THROWS_PER_SECOND)]
    pub limit_throws_per_second: u32,
    /// Live feeds one client address may open a minute (0: no limit).
    #[arg(long, env = "ZOHN_AHL_LIMIT_FEEDS", default_value_t = crate::http::RateSettings::FEEDS_PER_MINUTE)]
    pub limit_feeds_per_minute: u32,
    /// Chatbot (MCP) sessions one client address may start a minute (0: no
    /// limit).
    #[arg(long, env = "ZOHN_AHL_LIMIT_MCP_SESSIONS", default_value_t = crate::http::RateSettings::MCP_SESSIONS_PER_MINUTE)]
    pub limit_mcp_sessions_per_minute: u32,
    /// Join codes one client address may try a minute, 30 at once (0: no
    /// limit); past it, 429 with `Retry-After`.
    #[arg(long, env = "ZOHN_AHL_LIMIT_JOINS", default_value_t = crate::http::RateSettings::JOINS_PER_MINUTE)]
    pub limit_joins_per_minute: u32,
    /// Proxies (IP addresses, comma-separated) whose `X-Forwarded-For` names
    /// the client the limits count; no other peer's is believed.
    #[arg(long, env = "ZOHN_AHL_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Delete finished games (won or stopped) this many days after they
    /// ended, and games left unfinished this many days after their last
    /// move (or creation), 1 to 36500, checked every few minutes (default:
    /// games are kept until deleted).
    #[arg(
        long,
        env = "ZOHN_AHL_RETENTION_DAYS",
        value_parser = clap::value_parser!(u32).range(1..=36_500)
    )]
    pub retention_days: Option<u32>,
    /// Most live-feed subscribers of one game (`GET /v1/games/{id}/events`);
    /// one more gets 503 with `Retry-After`.
    #[arg(
        long,
        env = "ZOHN_AHL_FEED_PER_GAME",
        default_value_t = 1000,
        value_parser = clap::value_parser!(u32).range(1..=100_000)
    )]
    pub feed_per_game: u32,
    /// Most live-feed subscribers in all; one more gets 503 with
    /// `Retry-After`.
    #[arg(
        long,
        env = "ZOHN_AHL_FEED_TOTAL",
        default_value_t = 4000,
        value_parser = clap::value_parser!(u32).range(1..=100_000)
    )]
    pub feed_total: u32,
    /// `Host` values the MCP endpoint (`/mcp`) accepts, comma-separated: a
    /// host name or `host:port` (default: loopback only, `localhost`,
    /// `127.0.0.1`, `::1`). Name the host a deployment is reached by.
    #[arg(long, env = "ZOHN_AHL_MCP_ALLOWED_HOSTS", value_delimiter = ',')]
    pub mcp_allowed_hosts: Vec<String>,
    /// Seconds an MCP session (`/mcp`) may stay without a request before
    /// it is ended, 10 to 86400; a request on an ended session gets 404,
    /// and the client starts a new one.
    #[arg(
        long,
        env = "ZOHN_AHL_MCP_SESSION_IDLE",
        default_value_t = 1800,
        value_parser = clap::value_parser!(u32).range(10..=86_400)
    )]
    pub mcp_session_idle: u32,
    /// Web origins (`https://class.example`, comma-separated; `*` for any)
    /// whose pages may write (create, throw, stop, delete) from a browser.
    /// Reads are open to every origin.
    #[arg(long, env = "ZOHN_AHL_CORS_ORIGINS", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// Where readers report a correction of the narration (an `https:`,
    /// `http:` or `mailto:` address, e.g. the curator's): the lesson pages
    /// show it beside the notice that no Kiowa educator has reviewed the
    /// text.
    #[arg(long, env = "ZOHN_AHL_CORRECTIONS_CONTACT", value_parser = crate::http::CorrectionsContact::parse)]
    pub corrections_contact: Option<crate::http::CorrectionsContact>,
    /// The base URL clients reach this server by (`https://zohn.example`),
    /// named in the served OpenAPI document's `servers`; without it the
    /// document names `http://` and the `Host` each request came with.
    /// Set it behind a proxy or TLS.
    #[arg(long, env = "ZOHN_AHL_PUBLIC_URL", value_parser = crate::http::PublicUrl::parse)]
    pub public_url: Option<crate::http::PublicUrl>,
}

impl From<ServeArgs> for crate::server::Settings {
    fn from(args: ServeArgs) -> Self {
        Self {
            database_url: args.database_url,
            secret_key_file: args.secret_key_file,
            addr: args.addr,
            metrics_addr: args.metrics_addr,
            log: args.log,
            log_format: args.log_format,
            workers: args.workers,
            max_batch: usize::from(args.max_batch),
            move_chances: args.move_chances == crate::server::Switch::On,
            rates: crate::http::RateSettings {
                games_per_minute: args.limit_games_per_minute,
                throws_per_second: args.limit_throws_per_second,
                feeds_per_minute: args.limit_feeds_per_minute,
                mcp_sessions_per_minute: args.limit_mcp_sessions_per_minute,
                joins_per_minute: args.limit_joins_per_minute,
                trusted_proxies: args.trusted_proxies,
            },
            retention_days: args.retention_days,
            feed: crate::service::FeedLimits {
                per_game: args.feed_per_game as usize,
                total: args.feed_total as usize,
            },
            mcp_allowed_hosts: args.mcp_allowed_hosts,
            mcp_session_idle: std::time::Duration::from_secs(u64::from(args.mcp_session_idle)),
            cors: crate::http::CorsPolicy {
                write_origins: args.cors_origins,
            },
            corrections_contact: args.corrections_contact,
            public_url: args.public_url,
        }
    }
}

/// The read-aloud form's minutes: 8 to 600 (a teacher's trial: at 5, the
/// opening was two throws, too short to teach the game).
fn minutes_parser(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (8..=600).contains(&n) => Ok(n),
        _ => Err("a number of minutes from 8 to 600".to_owned()),
    }
}

/// Subcommands.
#[derive(Debug, Subcommand)]
// Parsed once at start: the server's settings are the largest, unboxed.
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Run the HTTP service (the default).
    Serve(ServeArgs),
    /// Print the narrated transcript of a seeded game as Markdown.
    Transcript {
        /// The game's seed.
        #[arg(long)]
        seed: String,
        /// Ruleset preset.
        #[arg(long, value_parser = preset_parser(), default_value = "composite")]
        preset: Preset,
        /// Narration audience.
        #[arg(long, value_parser = audience_parser(), default_value = "general")]
        audience: Audience,
        /// How much each move's narration tells.
        #[arg(long, value_parser = detail_parser(), default_value = "lesson")]
        detail: Detail,
        /// Side A's name (checked as a new game's names are).
        #[arg(long, value_name = "NAME")]
        side_a: Option<String>,
        /// Side B's name.
        #[arg(long, value_name = "NAME")]
        side_b: Option<String>,
        /// Print only the words to read aloud, a paragraph a move: no
        /// headings, counters or citations.
        #[arg(long)]
        read_aloud: bool,
        /// Stop the game after this many moves, as a teacher may stop a
        /// game that runs past the lesson's time: the side with more
        /// counters wins, equal counts draw. A move that earned another
        /// throw is followed to the end of its side's turn first.
        #[arg(long, value_name = "MOVES", value_parser = clap::value_parser!(u32).range(1..))]
        stop_after: Option<u32>,
        /// Start each side with this many counting sticks, in place of the
        /// preset's: fewer make a shorter whole game, as a teacher may play
        /// one (the Wikipedia article allows any even number in all,
        /// usually eight).
        #[arg(
            long,
            value_name = "N",
            value_parser = clap::value_parser!(u8).range(
                i64::from(crate::transcript::FEWEST_COUNTING_STICKS)..=i64::from(crate::rules::Options::MAX_COUNTERS)
            )
        )]
        counting_sticks: Option<u8>,
        /// With --read-aloud: the minutes the game should read in, at a
        /// class's pace of 110 words a minute. A game that would read
        /// longer (by more than a fifth) keeps its opening, its ending and
        /// its first fall, whip and trip around throw by throw, and tells
        /// the throws between in short paragraphs: how many throws each
        /// passes over, the rule of a fall, a whip or a trip around that
        /// first acts in them, their falls, whips and trips around, and
        /// where the game then stands (any other rule that first acts in
        /// them is told at its next action). A large number tells every
        /// throw.
        #[arg(
            long,
            value_name = "MINUTES",
            requires = "read_aloud",
            default_value_t = crate::transcript::SHORT_LESSON_MINUTES,
            value_parser = minutes_parser
        )]
        minutes: usize,
        /// Also write the board at the game's start to this file, to print
        /// or show the class while the game is read: every space with both
        /// sides' numbers, the creeks and dry branches named, the sides'
        /// names and both awls on their starts. PNG when the name ends in
        /// `.png`, else SVG.
        #[arg(long, value_name = "FILE")]
        board: Option<std::path::PathBuf>,
    },
    /// Simulate many games and print their statistics and the engine's
    /// throughput (one thread).
    Simulate(SimulateArgs),
    /// Print the OpenAPI document as JSON.
    Openapi,
    /// Check every stored game: moves numbered without gaps or doubles, and
    /// each state equal to the replay of its moves. Exits 1 on any fault.
    Verify(DatabaseArgs),
    /// Write games as NDJSON on standard output, a game a line: its setup
    /// and its throws (no token), to move them to another server or store
    /// with `zohn-ahl import`.
    Export {
        /// The database to read.
        #[command(flatten)]
        database: DatabaseArgs,
        /// A game to export (repeat for several); default: every game.
        #[arg(long = "game")]
        games: Vec<String>,
        /// Also export seated games' token hashes, so that their tokens
        /// still work after an import (the tokens themselves are never
        /// stored).
        #[arg(long)]
        with_seats: bool,
    },
    /// Import the games `zohn-ahl export` wrote (NDJSON on standard input):
    /// each game's throws are played again and its moves narrated again; a
    /// game whose id exists or whose throws do not replay is refused (and
    /// the command exits 1), the others are imported.
    Import(DatabaseArgs),
    /// Copy a SQLite database, while the server serves, to a new file: one
    /// consistent moment of it (every throw answered before the copy
    /// began), compacted. Restore by serving the copy (README: Backups and
    /// restores). A PostgreSQL database is backed up with pg_dump.
    Backup {
        /// The database to copy.
        #[command(flatten)]
        database: DatabaseArgs,
        /// The copy's file, which must not exist yet.
        #[arg(long)]
        to: std::path::PathBuf,
    },
    /// Serve the game's Model Context Protocol tools over standard input
    /// and output, for a desktop chatbot client (logs go to standard error).
    Mcp(McpArgs),
}

#[cfg(test)]
mod tests;
