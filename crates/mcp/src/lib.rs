//! The game as Model Context Protocol tools, for chatbots: a surface beside
//! the REST API over the same [`Service`] (and so the same store and
//! single writer), served at `/mcp` in the actix app (Streamable HTTP) and
//! by `zohn-ahl mcp` over stdio.
//!
//! Tools are named like the REST operations they match; their arguments
//! are concrete types ([`args`]); their answers are compact ([`answer`]): a
//! text block of the narration's sentences with short citations, and
//! structured content with the essentials, every tool with its output
//! schema. Errors are the product's own words: the service's refusals, the
//! same texts as the REST problem details ([`reply`]). Resources carry the
//! bibliography (one per source) and each preset's lesson; one prompt
//! teaches a class the game by playing it ([`library`]).

// The crates below this one, by the names the modules use.
use zohn_ahl_domain as domain;
use zohn_ahl_narration as narration;
use zohn_ahl_odds as odds;
use zohn_ahl_picture as picture;
use zohn_ahl_rules as rules;
use zohn_ahl_service as service;

pub mod answer;
mod app;
pub mod args;
mod chart;
mod games;
mod handler;
pub mod jsonrpc;
mod layout;
mod library;
mod lookback;
pub mod reference;
mod render;
mod reply;
mod transport;

use games::linked;
use library::with_link;
use render::{render_created, render_stopped, throw_renderer};

pub use transport::{
    HttpService, IdleSessions, MAX_SESSIONS, SESSION_IDLE, SESSIONS, allowed_hosts_or_loopback,
    describe_metrics, http_service, serve_lines, serve_stdio,
};

use std::sync::{Arc, Mutex};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, tool, tool_router};

use crate::domain::GameId;
use crate::narration::{Audience, catalogue};
use crate::odds::Solver;
use crate::rules::{Preset, Sticks, Throw};
use crate::service::{GameRequest, Service, SideRequest, StopCommand, ThrowCommand};
use answer::{
    CreatedOutput, GameBrief, GamesOutput, MovesOutput, OddsOutput, ThrowOutput, game_brief,
    move_brief, standing_line,
};
use args::{
    BoardArgs, CreateGameArgs, FactArgs, GameArgs, GlossaryArgs, LessonArgs, ListMovesArgs,
    MAX_THROWS, NoArgs, Parameters, ReportThrowArgs, RuleArgs, SourceArgs, SourceFormat, StopArgs,
    ThrowArgs,
};
use reference::{
    BoardOutput, FactOutput, GlossaryOutput, LessonOutput, RuleContext, RuleOutput, SourceOutput,
};
use reply::{kept, ok, refusal, refused, schema_for_output, service_error};

/// What the server tells a client about itself when it connects.
pub const INSTRUCTIONS: &str = "Zohn Ahl is a Kiowa race game, recorded in the 1890s as played by women and girls: four stick dice are dashed against a stone and two awls race in opposite directions round a circle of forty spaces. Start with create_game, then call throw for the side to move until the game is finished (count or until play many throws in one call); the service throws the sticks (never choose them). list_games finds the games this session made. A class with real sticks reports them with report_throw and the host token. Each answer's text is narration with short citations [source pages]; explain_rule, get_fact and get_source resolve the rule, fact and source ids. get_board shows the board as a picture. Resources hold the bibliography and each ruleset's lesson; the prompt teach_by_playing plans a lesson.";

/// The MCP server: the game's tools over one [`Service`].
#[derive(Clone)]
pub struct ZohnAhl {
    service: Service,
    odds: Solver,
    /// The games this connection (over HTTP, this session) made, oldest
    /// first, for `list_games`.
    made: Arc<Mutex<Vec<GameId>>>,
    tool_router: ToolRouter<Self>,
}

/// Unwrap the arguments or answer what is wrong with them.
macro_rules! args {
    ($params:expr) => {
        match $params.0 {
            Ok(a) => a,
            Err(why) => return refusal(why),
        }
    };
}

/// The game id argument parsed, or what is wrong with it.
macro_rules! game {
    ($raw:expr) => {
        match args::game_id(&$raw) {
            Ok(id) => id,
            Err(why) => return refusal(why),
        }
    };
}

/// Unwrap a service answer or say why it failed.
macro_rules! served {
    ($call:expr) => {
        match $call {
            Ok(v) => v,
            Err(e) => return service_error(e),
        }
    };
}

#[tool_router]
impl ZohnAhl {
    #[tool(
        title = "Create a game",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        ),
        meta = app::tool_meta(),
        description = "Start a game of Zohn Ahl; every argument optional. Returns its id and, if seated, the tokens (shown once).",
        output_schema = schema_for_output::<CreatedOutput>()
    )]
    async fn create_game(
        &self,
        params: Parameters<CreateGameArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let side = |name: Option<String>, players: Vec<String>| SideRequest {
            name,
            players: (!players.is_empty()).then_some(players),
        };
        let request = GameRequest {
            preset: a.preset.0,
            options: None,
            sides: [side(a.side_a, a.players_a), side(a.side_b, a.players_b)],
            first: a.first.0,
            seed: a.seed,
            audience: a.audience.0,
            detail: a.detail.0,
            seats: a.seats,
            sides_report_throws: a.sides_report_throws,
        };
        let new = match request.check() {
            Ok(new) => new,
            Err(r) => return refused(r),
        };
        let answer = served!(self.service.create(new, None, render_created).await);
        if let Ok((_, out)) = serde_json::from_slice::<(String, serde_json::Value)>(&answer.body)
            && let Some(Ok(id)) = out["game"]["game_id"].as_str().map(GameId::parse)
        {
            self.made().push(id);
            return linked(kept(&answer), &id.to_string(), &["", "moves", "board.svg"]);
        }
        kept(&answer)
    }

    #[tool(
        title = "This session's games",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "This session's games, oldest first: each one's id and standing.",
        output_schema = schema_for_output::<GamesOutput>()
    )]
    async fn list_games(&self, params: Parameters<NoArgs>) -> Result<CallToolResult, ErrorData> {
        let _ = args!(params);
        let ids = self.made().clone();
        let mut games = Vec::new();
        for id in ids {
            match self.service.game(id).await {
                Ok(game) => games.push(game_brief(&game, &game.state)),
                // Deleted since (a request, or the retention).
                Err(crate::service::ServiceError::GameNotFound(_)) => {}
                Err(e) => return service_error(e),
            }
        }
        let text = if games.is_empty() {
            "This session has made no game (or none is left).".to_owned()
        } else {
            games
                .iter()
                .map(|g| format!("Game {} ({}): {}", g.game_id, g.preset, standing_line(g)))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let ids: Vec<String> = games.iter().map(|g| g.game_id.clone()).collect();
        ids.iter()
            .fold(ok(text, &GamesOutput { games }), |result, id| {
                linked(result, id, &[""])
            })
    }

    #[tool(
        title = "Throw the sticks",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        ),
        meta = app::tool_meta(),
        description = "The service throws for the side to move: once, `count` times or `until` an event, turn end or game end. Each move narrated and cited (in a run, a plain move in a line), then the game.",
        output_schema = schema_for_output::<ThrowOutput>()
    )]
    async fn throw(&self, params: Parameters<ThrowArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = game!(a.game_id);
        let until = a.until.0;
        let limit = a
            .count
            .map_or(if until.is_some() { MAX_THROWS } else { 1 }, |c| c.0);
        if limit == 1 && until.is_none() {
            let cmd = ThrowCommand {
                token: args::token(a.token),
                ..ThrowCommand::default()
            };
            let answer = served!(
                self.service
                    .throw(id, cmd, throw_renderer(a.detail.0))
                    .await
            );
            return linked(kept(&answer), &id.to_string(), &["board.svg"]);
        }
        let run = self
            .run(id, args::token(a.token), limit, until, a.detail.0)
            .await;
        linked(run, &id.to_string(), &["board.svg"])
    }

    #[tool(
        title = "Report a physical throw",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        ),
        description = "Report a throw of real sticks or a spinner. A seated game needs the host's token (or the mover's, if sides report).",
        output_schema = schema_for_output::<ThrowOutput>()
    )]
    async fn report_throw(
        &self,
        params: Parameters<ReportThrowArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = game!(a.game_id);
        let reported = match (a.sticks.0.as_slice(), a.spinner.0) {
            (&[f1, f2, f3, f4], None) => Throw::Sticks(Sticks::new([f1, f2, f3, f4])),
            ([], Some(sector)) => Throw::Spinner(sector),
            ([], None) => {
                return refusal("give `sticks` (four faces, the sahe last) or `spinner`");
            }
            (_, Some(_)) => return refusal("give either sticks or spinner, not both"),
            (faces, None) => {
                return refusal(format!(
                    "`sticks`: must list four faces, the sahe last, got {}",
                    faces.len()
                ));
            }
        };
        let cmd = ThrowCommand {
            reported: Some(reported),
            token: args::token(a.token),
            ..ThrowCommand::default()
        };
        linked(self.play(id, cmd).await, &id.to_string(), &["board.svg"])
    }

    #[tool(
        title = "Read a game",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "A game now: whose throw it is, each awl's space, the counters, the winner.",
        output_schema = schema_for_output::<GameBrief>()
    )]
    async fn get_game(&self, params: Parameters<GameArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = game!(a.game_id);
        let game = served!(self.service.game(id).await);
        let brief = game_brief(&game, &game.state);
        linked(
            ok(standing_line(&brief), &brief),
            &id.to_string(),
            &["moves", "board.svg"],
        )
    }

    #[tool(
        title = "Read the move log",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "The move log: values, where the awl went, what happened, rule and fact ids.",
        output_schema = schema_for_output::<MovesOutput>()
    )]
    async fn list_moves(
        &self,
        params: Parameters<ListMovesArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = game!(a.game_id);
        let limit = a.limit.0;
        let (game, moves) = served!(self.service.moves(id, a.after.0, limit + 1).await);
        let more = moves.len() > limit as usize;
        let moves = &moves[..moves.len().min(limit as usize)];
        // Each move as the game tells it: its audience, its detail level.
        let detail = a.detail.or(game.setup.detail);
        let table = match game.setup.table() {
            Ok(t) => crate::service::ChanceTable::ready(&self.odds, &t).await,
            Err(_) => {
                crate::service::ChanceTable::Unknown(crate::service::ChancesUnknown::Unavailable)
            }
        };
        let chances: Vec<_> = moves
            .iter()
            .map(|m| answer::move_chances(&game, m, &table))
            .collect();
        let told: Vec<_> = moves
            .iter()
            .zip(&chances)
            .map(|(m, c)| {
                m.told_with_chances(&game.setup, game.setup.audience, detail, c.as_ref().ok())
            })
            .collect();
        let lines: Vec<String> = moves
            .iter()
            .zip(&told)
            .map(|(m, narration)| {
                let events = narration
                    .segments
                    .iter()
                    .filter(|s| s.kind == crate::narration::SegmentKind::Event)
                    .map(|s| s.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                format!("{}. {events}", m.n)
            })
            .collect();
        let output = MovesOutput {
            moves: moves
                .iter()
                .zip(&told)
                .zip(chances)
                .map(|((m, narration), c)| move_brief(&game, m, narration, c))
                .collect(),
            next_after: if more {
                moves.last().map_or(0, |m| m.n)
            } else {
                0
            },
        };
        let text = if lines.is_empty() {
            "No moves after that.".to_owned()
        } else {
            lines.join("\n")
        };
        linked(ok(text, &output), &id.to_string(), &["", "board.svg"])
    }

    #[tool(
        title = "Stop a game early",
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "Stop a game early: more counters wins, equal is a draw. A seated game needs the host's token.",
        output_schema = schema_for_output::<GameBrief>()
    )]
    async fn stop_game(&self, params: Parameters<StopArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = game!(a.game_id);
        let cmd = StopCommand {
            token: args::token(a.token),
            ..StopCommand::default()
        };
        linked(
            kept(&served!(self.service.stop(id, cmd, render_stopped).await)),
            &id.to_string(),
            &["", "moves", "board.svg"],
        )
    }

    #[tool(
        title = "Chances of winning",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "Each side's exact chance of winning from here, and the throws expected left (or when to ask again).",
        output_schema = schema_for_output::<OddsOutput>()
    )]
    async fn get_odds(&self, params: Parameters<GameArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = game!(a.game_id);
        let odds = match self.service.odds(&self.odds, id).await {
            Ok(v) => v,
            Err(r) => return refused(r),
        };
        let output = OddsOutput {
            game_id: odds.game.id.to_string(),
            version: odds.game.version.get(),
            win_a: odds.odds.win[0],
            win_b: odds.odds.win[1],
            expected_throws_left: odds.odds.expected_throws,
        };
        let text = format!(
            "Side A wins with probability {:.3}, side B with {:.3}; about {:.1} throws are left.",
            output.win_a, output.win_b, output.expected_throws_left
        );
        linked(ok(text, &output), &id.to_string(), &[""])
    }

    #[tool(
        title = "Explain a rule",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "A rule in full, for a ruleset or game and an audience: sources, and whether it is in play.",
        output_schema = schema_for_output::<RuleOutput>()
    )]
    async fn explain_rule(
        &self,
        params: Parameters<RuleArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let Some(rule) = a.rule_id.0 else {
            return refusal("`rule_id`: required, and not given");
        };
        let (at, audience) = if a.game_id.trim().is_empty() {
            let preset = a.preset.or(Preset::default());
            let at = RuleContext {
                preset,
                options: preset.options(),
                teams: preset.default_players() > 1,
                game_id: String::new(),
            };
            (at, a.audience.or(Audience::default()))
        } else {
            if a.preset.0.is_some() {
                return refusal("give `preset` or `game_id`, not both");
            }
            let id = game!(a.game_id);
            let game = served!(self.service.game(id).await);
            let at = RuleContext {
                preset: game.setup.preset,
                options: game.setup.options,
                teams: game.setup.sides.iter().any(|s| s.players.len() > 1),
                game_id: game.id.to_string(),
            };
            (at, a.audience.or(game.setup.audience))
        };
        match reference::rule(&at, audience, rule) {
            Ok((text, output)) => ok(text, &output),
            Err(why) => refusal(why),
        }
    }

    #[tool(
        title = "Tell a fact",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "A cultural-context fact a narration names (e.g. womens-game): sources, evidence grade.",
        output_schema = schema_for_output::<FactOutput>()
    )]
    async fn get_fact(&self, params: Parameters<FactArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        match reference::fact(&a.fact_id, a.audience.or(Audience::default())) {
            Ok((text, output)) => ok(text, &output),
            Err(why) => refusal(why),
        }
    }

    #[tool(
        title = "A ruleset's lesson",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "A ruleset's rules as a short cited lesson: board, sticks, a turn, hazards, winning, stopping.",
        output_schema = schema_for_output::<LessonOutput>()
    )]
    async fn get_lesson(
        &self,
        params: Parameters<LessonArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let preset = a.preset.or(Preset::default());
        let (text, output) = reference::lesson_outline(preset, a.audience.or(Audience::default()));
        with_link(ok(text, &output), library::lesson_resource(preset))
    }

    #[tool(
        title = "A source of the bibliography",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "A bibliography source a citation names, as CSL-JSON or BibTeX.",
        output_schema = schema_for_output::<SourceOutput>()
    )]
    async fn get_source(
        &self,
        params: Parameters<SourceArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        match reference::source(a.source_id.trim(), a.format.or(SourceFormat::Csl)) {
            Ok((text, output)) => {
                let resource = catalogue()
                    .source(&output.source_id)
                    .map(library::source_resource);
                let answer = ok(text, &output);
                match resource {
                    Some(resource) => with_link(answer, resource),
                    None => answer,
                }
            }
            Err(why) => refusal(why),
        }
    }

    #[tool(
        title = "Search the glossary",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "Look up Kiowa and English terms (e.g. sahe, creek): meanings and sources.",
        output_schema = schema_for_output::<GlossaryOutput>()
    )]
    async fn search_glossary(
        &self,
        params: Parameters<GlossaryArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        match reference::glossary(&a.query, a.audience.or(Audience::default())) {
            Ok((text, output)) => ok(text, &output),
            Err(why) => refusal(why),
        }
    }

    #[tool(
        title = "The board as a picture",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        meta = app::tool_meta(),
        description = "The board as a PNG: awls, counters, whose throw or who won; now or after a move.",
        output_schema = schema_for_output::<BoardOutput>()
    )]
    async fn get_board(&self, params: Parameters<BoardArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = game!(a.game_id);
        self.board_picture(id, a.move_n.0).await
    }
}
