//! The game as Model Context Protocol tools, for chatbots: a surface beside
//! [`crate::http`] over the same [`Service`] (and so the same store and
//! single writer), served at `/mcp` in the actix app (Streamable HTTP) and
//! by `zohn-ahl mcp` over stdio.
//!
//! Tools are named like the REST operations they match; their arguments
//! are concrete types ([`args`]); their answers are compact ([`answer`]): a
//! text block of the narration's sentences with short citations, and
//! structured content with the essentials. Errors are the product's own
//! words, the same texts as the REST problem details. Resources carry the
//! bibliography (one per source) and each preset's lesson; one prompt
//! teaches a class the game by playing it ([`library`]).

pub mod answer;
pub mod args;
mod library;
mod render;
mod transport;

use render::{render_created, render_stopped, render_throw};

pub use transport::{HttpService, allowed_hosts_or_loopback, http_service, serve_stdio};

use base64::Engine as _;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResponse, Implementation,
    ListPromptsResult, ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
use serde::Serialize;

use crate::domain::GameId;
use crate::http::problem::ApiError;
use crate::narration::{Audience, catalogue, rule_statement};
use crate::odds::Solver;
use crate::picture;
use crate::rules::{Preset, Sticks, Throw};
use crate::service::{Service, ServiceError, StopCommand, ThrowCommand};
use answer::{
    CreatedOutput, GameBrief, MovesOutput, OddsOutput, ThrowOutput, game_brief, move_brief,
    standing_line,
};
use args::{
    BoardArgs, CreateGameArgs, FactArgs, GameArgs, GameTokenArgs, GlossaryArgs, LessonArgs,
    ListMovesArgs, Parameters, ReportThrowArgs, RuleArgs, SourceArgs, SourceFormat, StopArgs,
};

/// What the server tells a client about itself when it connects.
pub const INSTRUCTIONS: &str = "Zohn Ahl is the Kiowa women's and girls' race game: four stick dice are dashed against a stone and two awls race in opposite directions round a circle of forty spaces. Start with create_game, then call throw for the side to move until the game is finished; the service throws the sticks (never choose them). A class with real sticks reports them with report_throw and the host token. Each answer's text is narration with short citations [source pages]; explain_rule, get_fact and get_source resolve the rule, fact and source ids. get_board shows the board as a picture. Resources hold the bibliography and each ruleset's lesson; the prompt teach_by_playing plans a lesson.";

/// The MCP server: the game's tools over one [`Service`].
#[derive(Clone)]
pub struct ZohnAhl {
    service: Service,
    odds: Solver,
    tool_router: ToolRouter<Self>,
}

impl std::fmt::Debug for ZohnAhl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ZohnAhl").finish_non_exhaustive()
    }
}

/// The output schema of `T`, as portable as the input schemas.
fn schema_for_output<T: schemars::JsonSchema + 'static>() -> std::sync::Arc<rmcp::model::JsonObject>
{
    let mut schema = (*rmcp::handler::server::tool::schema_for_output::<T>()).clone();
    args::portable(&mut schema);
    std::sync::Arc::new(schema)
}

/// A tool's answer: a text block and, where the tool has an output schema,
/// the structured content.
fn ok<T: Serialize>(text: String, structured: &T) -> Result<CallToolResult, ErrorData> {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(
        serde_json::to_value(structured)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?,
    );
    Ok(result)
}

/// A text-only answer.
fn text(text: String) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
}

/// An error the model can read and act on, in the product's words.
fn refusal(detail: impl Into<String>) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::error(vec![ContentBlock::text(
        detail.into(),
    )]))
}

/// A problem as REST words it: its title and detail.
fn problem(e: ApiError) -> Result<CallToolResult, ErrorData> {
    let p = e.problem();
    refusal(format!("{}: {}", p.title, p.detail))
}

fn service_error(e: ServiceError) -> Result<CallToolResult, ErrorData> {
    // REST asks for the token in a header; a tool takes it as an argument.
    if matches!(e, ServiceError::Unauthorized) {
        let title = ApiError::from(ServiceError::Unauthorized)
            .problem()
            .title
            .clone();
        return refusal(format!("{title}: {e}, in the `token` argument"));
    }
    problem(ApiError::from(e))
}

fn game_id(raw: &str) -> Result<GameId, String> {
    GameId::parse(raw.trim()).map_err(|e| format!("`game_id`: {e}"))
}

fn token(raw: String) -> Option<String> {
    let t = raw.trim();
    (!t.is_empty()).then(|| t.to_owned())
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
    /// A server over `service`, with the process's odds service.
    #[must_use]
    pub fn new(service: Service) -> Self {
        Self::with_odds(service, Solver::shared())
    }

    /// A server over `service` with its own odds service.
    #[must_use]
    pub fn with_odds(service: Service, odds: Solver) -> Self {
        Self {
            service,
            odds,
            tool_router: Self::tool_router(),
        }
    }

    async fn play(&self, id: GameId, cmd: ThrowCommand) -> Result<CallToolResult, ErrorData> {
        let answer = served!(self.service.throw(id, cmd, render_throw).await);
        match serde_json::from_slice::<(String, serde_json::Value)>(&answer.body) {
            Ok((text, output)) => ok(text, &output),
            Err(e) => Err(ErrorData::internal_error(e.to_string(), None)),
        }
    }

    #[tool(
        description = "Start a game of Zohn Ahl. Every argument is optional. Returns the game's id (pass it to the other tools) and, for a seated game, the tokens, shown only this once.",
        output_schema = schema_for_output::<CreatedOutput>()
    )]
    async fn create_game(
        &self,
        params: Parameters<CreateGameArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let new = match crate::http::new_game_from(
            a.preset.0,
            [a.side_a, a.side_b],
            a.first.0,
            (!a.seed.is_empty()).then_some(a.seed),
            a.audience.0,
            a.seats,
        ) {
            Ok(new) => new,
            Err(e) => return problem(e),
        };
        let answer = served!(self.service.create(new, None, render_created).await);
        match serde_json::from_slice::<(String, serde_json::Value)>(&answer.body) {
            Ok((text, output)) => ok(text, &output),
            Err(e) => Err(ErrorData::internal_error(e.to_string(), None)),
        }
    }

    #[tool(
        description = "Throw the four sticks for the side to move; the service throws them. Returns the move's narration with citations, and the game after it.",
        output_schema = schema_for_output::<ThrowOutput>()
    )]
    async fn throw(&self, params: Parameters<GameTokenArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = match game_id(&a.game_id) {
            Ok(id) => id,
            Err(why) => return refusal(why),
        };
        let cmd = ThrowCommand {
            token: token(a.token),
            ..ThrowCommand::default()
        };
        self.play(id, cmd).await
    }

    #[tool(
        description = "Report a physical throw made with real sticks (four faces, the sahe last) or a spinner, for a class playing at a table. A seated game needs the host's token.",
        output_schema = schema_for_output::<ThrowOutput>()
    )]
    async fn report_throw(
        &self,
        params: Parameters<ReportThrowArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = match game_id(&a.game_id) {
            Ok(id) => id,
            Err(why) => return refusal(why),
        };
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
            token: token(a.token),
            ..ThrowCommand::default()
        };
        self.play(id, cmd).await
    }

    #[tool(
        description = "Read a game: whose throw it is, each awl's space, the counters, the winner once there is one.",
        output_schema = schema_for_output::<GameBrief>()
    )]
    async fn get_game(&self, params: Parameters<GameArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = match game_id(&a.game_id) {
            Ok(id) => id,
            Err(why) => return refusal(why),
        };
        let game = served!(self.service.game(id).await);
        let brief = game_brief(&game, &game.state);
        text_and(standing_line(&brief), &brief)
    }

    #[tool(
        description = "The move log, oldest first, a few moves at a time: each move's value, where the awl went, and what happened.",
        output_schema = schema_for_output::<MovesOutput>()
    )]
    async fn list_moves(
        &self,
        params: Parameters<ListMovesArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = match game_id(&a.game_id) {
            Ok(id) => id,
            Err(why) => return refusal(why),
        };
        if !(1..=20).contains(&a.limit) {
            return refusal(format!("`limit`: must be from 1 to 20, got {}", a.limit));
        }
        let (game, moves) = served!(self.service.moves(id, a.after, a.limit + 1).await);
        let more = moves.len() > a.limit as usize;
        let moves = &moves[..moves.len().min(a.limit as usize)];
        let lines: Vec<String> = moves
            .iter()
            .map(|m| {
                let events = m
                    .narration
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
            moves: moves.iter().map(|m| move_brief(&game, m)).collect(),
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
        ok(text, &output)
    }

    #[tool(
        description = "Stop a game early: the side with more counters wins, equal counts are a draw. A seated game needs the host's token.",
        output_schema = schema_for_output::<GameBrief>()
    )]
    async fn stop_game(&self, params: Parameters<StopArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = match game_id(&a.game_id) {
            Ok(id) => id,
            Err(why) => return refusal(why),
        };
        let cmd = StopCommand {
            token: token(a.token),
            ..StopCommand::default()
        };
        let answer = served!(self.service.stop(id, cmd, render_stopped).await);
        match serde_json::from_slice::<(String, serde_json::Value)>(&answer.body) {
            Ok((text, output)) => ok(text, &output),
            Err(e) => Err(ErrorData::internal_error(e.to_string(), None)),
        }
    }

    #[tool(
        description = "Each side's exact probability of winning from the game's current state, and the expected throws left. Answers within a few seconds or says when to ask again.",
        output_schema = schema_for_output::<OddsOutput>()
    )]
    async fn get_odds(&self, params: Parameters<GameArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = match game_id(&a.game_id) {
            Ok(id) => id,
            Err(why) => return refusal(why),
        };
        let view = match crate::http::game_odds(&self.service, &self.odds, id).await {
            Ok(v) => v,
            Err(e) => return problem(e),
        };
        let output = OddsOutput {
            game_id: view.game_id,
            version: view.version,
            win_a: view.sides.first().map_or(0.0, |s| s.win_probability),
            win_b: view.sides.get(1).map_or(0.0, |s| s.win_probability),
            expected_throws_left: view.expected_remaining_throws,
        };
        let text = format!(
            "Side A wins with probability {:.3}, side B with {:.3}; about {:.1} throws are left.",
            output.win_a, output.win_b, output.expected_throws_left
        );
        ok(text, &output)
    }

    #[tool(
        description = "State a rule in full, by the rule id a narration sentence names (e.g. sticks_sahe), worded for a ruleset and an audience, with its sources."
    )]
    async fn explain_rule(
        &self,
        params: Parameters<RuleArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let Some(rule) = a.rule_id.0 else {
            return refusal("`rule_id`: give the rule's id, the `rule` a narration sentence names");
        };
        let preset = a.preset.or(Preset::default());
        let audience = a.audience.or(Audience::default());
        match rule_statement(&preset.options(), audience, rule) {
            Some((statement, cites)) => text(format!("{statement}{}", answer::cite(&cites))),
            None => refusal(format!(
                "the {} ruleset has no statement of {}",
                <&str>::from(preset),
                rule.key()
            )),
        }
    }

    #[tool(
        description = "Tell a cultural-context fact, by the fact id a narration sentence names (e.g. womens-game), for an audience, with its sources and evidence grade."
    )]
    async fn get_fact(&self, params: Parameters<FactArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let cat = catalogue();
        let Some(fact) = cat
            .fact_index(a.fact_id.trim())
            .and_then(|i| cat.facts.get(i))
        else {
            return refusal(format!(
                "no fact has the id {}; the ids are the `fact` of narration sentences",
                library::clip(&a.fact_id)
            ));
        };
        let audience = a.audience.or(Audience::default());
        let body = match audience {
            Audience::Young => &fact.young,
            Audience::General => &fact.general,
            Audience::Scholar => &fact.scholar,
        };
        text(format!(
            "{body}{} (evidence: {})",
            answer::cite(&fact.citations),
            <&str>::from(fact.grade)
        ))
    }

    #[tool(
        description = "A ruleset's rules as a short lesson for an audience: the board, the sticks, a turn, each hazard, winning, stopping; each part cited."
    )]
    async fn get_lesson(
        &self,
        params: Parameters<LessonArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        text(library::lesson_text(
            a.preset.or(Preset::default()),
            a.audience.or(Audience::default()),
        ))
    }

    #[tool(
        description = "A source of the bibliography, by the id a citation names (e.g. culin1907), as CSL-JSON or BibTeX."
    )]
    async fn get_source(
        &self,
        params: Parameters<SourceArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        match library::source_text(a.source_id.trim(), a.format.or(SourceFormat::Csl)) {
            Ok(t) => text(t),
            Err(why) => refusal(why),
        }
    }

    #[tool(
        description = "Look a word up in the glossary of Kiowa and English terms (e.g. sahe, creek): the matching terms, their meanings and sources."
    )]
    async fn search_glossary(
        &self,
        params: Parameters<GlossaryArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        match library::glossary_text(&a.query, a.audience.or(Audience::default())) {
            Ok(t) => text(t),
            Err(why) => refusal(why),
        }
    }

    #[tool(
        description = "The board as a picture (PNG): both awls, the counters, whose throw it is or who won; now, or as a given move left it."
    )]
    async fn get_board(&self, params: Parameters<BoardArgs>) -> Result<CallToolResult, ErrorData> {
        let a = args!(params);
        let id = match game_id(&a.game_id) {
            Ok(id) => id,
            Err(why) => return refusal(why),
        };
        let game = served!(self.service.game(id).await);
        let state = if a.move_n == 0 {
            game.state.clone()
        } else {
            served!(self.service.move_record(id, a.move_n).await).state
        };
        let Ok(table) = game.setup.table() else {
            return refusal("the game's ruleset cannot be drawn");
        };
        let [sa, sb] = &game.setup.sides;
        let names = picture::Names {
            sides: [&sa.name, &sb.name],
            players: [&sa.players, &sb.players],
        };
        let svg = picture::game_svg(&table, &state, &names);
        let png = match tokio::task::spawn_blocking(move || picture::png(&svg)).await {
            Ok(Ok(png)) => png,
            _ => {
                return Err(ErrorData::internal_error(
                    "the board could not be drawn",
                    None,
                ));
            }
        };
        let data = base64::engine::general_purpose::STANDARD.encode(png);
        let brief = game_brief(&game, &state);
        Ok(CallToolResult::success(vec![
            ContentBlock::text(standing_line(&brief)),
            ContentBlock::image(data, "image/png"),
        ]))
    }
}

/// A text block and structured content.
fn text_and<T: Serialize>(t: String, structured: &T) -> Result<CallToolResult, ErrorData> {
    ok(t, structured)
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for ZohnAhl {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(
            Implementation::new("zohn-ahl", env!("CARGO_PKG_VERSION"))
                .with_title("Zohn Ahl narrated rules service")
                .with_description(env!("CARGO_PKG_DESCRIPTION")),
        )
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(library::resources()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        library::read(&request.uri).map(Into::into)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![library::prompt()]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        library::get_prompt(&request).map(Into::into)
    }
}
