//! A connection's games beyond one tool call: the games it made, a game
//! as a resource, runs of throws, and the board as the tools draw it.

use base64::Engine as _;
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, ReadResourceResult, ResourceContents};

use super::ZohnAhl;
use super::answer::{self, game_brief, standing_line};
use super::args::Until;
use super::reference::BoardOutput;
use super::render::{Step, step_renderer, throw_renderer};
use super::reply::{kept, ok, refusal, service_error};
use super::{layout, library};
use crate::domain::{GameId, SeatToken};
use crate::narration::Detail;
use crate::picture;
use crate::service::ThrowCommand;

/// `result` with links to the game's resources (`what`: `""` for the
/// game, `moves`, `board.svg`: the board's picture and its text), unless
/// it is an error.
pub(super) fn linked(
    result: Result<CallToolResult, ErrorData>,
    id: &str,
    what: &[&str],
) -> Result<CallToolResult, ErrorData> {
    let games = library::GAMES;
    what.iter()
        .flat_map(|w| match *w {
            "" => vec![(format!("{games}{id}"), "game", "application/json")],
            "moves" => vec![(format!("{games}{id}/moves"), "game-moves", "text/plain")],
            // The board: its picture and its text.
            _ => vec![
                (
                    format!("{games}{id}/board.svg"),
                    "game-board",
                    "image/svg+xml",
                ),
                (
                    format!("{games}{id}/board.txt"),
                    "game-board-text",
                    "text/plain",
                ),
            ],
        })
        .fold(result, |result, (uri, name, mime)| {
            library::with_link(
                result,
                rmcp::model::Resource::new(uri, name).with_mime_type(mime),
            )
        })
}

/// The scale of the board's PNG a tool sends: half the REST picture's
/// size (720 × 450), within 40 KB where the full size was about 196 KB.
pub(super) const BOARD_SCALE: f32 = 0.5;

/// The board of `game` at `state` as SVG.
pub(super) fn board_svg(
    game: &crate::domain::Game,
    state: &crate::rules::GameState,
) -> Result<String, ErrorData> {
    let table = game
        .setup
        .table()
        .map_err(|_| ErrorData::internal_error("the game's ruleset cannot be drawn", None))?;
    let [sa, sb] = &game.setup.sides;
    let names = picture::Names {
        sides: [&sa.name, &sb.name],
        players: [&sa.players, &sb.players],
    };
    Ok(picture::game_svg(&table, state, &names))
}

impl ZohnAhl {
    pub(super) fn made(&self) -> std::sync::MutexGuard<'_, Vec<GameId>> {
        self.made
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A game's resource (`zohn-ahl://games/{id}`, `.../moves`,
    /// `.../board.svg`, `.../board.txt`), `rest` being what follows the games' prefix.
    pub(super) async fn read_game(
        &self,
        uri: &str,
        rest: &str,
    ) -> Result<ReadResourceResult, ErrorData> {
        let not_found = |why: String| {
            ErrorData::resource_not_found(format!("{}: {why}", library::clip(uri)), None)
        };
        let (raw, what) = rest.split_once('/').unwrap_or((rest, ""));
        let id = GameId::parse(raw).map_err(|e| not_found(e.to_string()))?;
        let refused = |e| not_found(crate::service::Refusal::from(e).detail);
        let game = self.service.game(id).await.map_err(refused)?;
        let (text, mime) = match what {
            "" => (
                serde_json::to_string_pretty(&game_brief(&game, &game.state))
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?,
                "application/json",
            ),
            "moves" => {
                let mut lines = Vec::new();
                let mut after = 0;
                loop {
                    let (_, moves) = self.service.moves(id, after, 100).await.map_err(refused)?;
                    let Some(last) = moves.last() else { break };
                    after = last.n;
                    lines.extend(moves.iter().map(|m| {
                        let told = m.told(&game.setup, game.setup.audience, Detail::Brief);
                        answer::move_line(m.n, &told)
                    }));
                }
                (lines.join("\n"), "text/plain")
            }
            "board.svg" => (board_svg(&game, &game.state)?, "image/svg+xml"),
            "board.txt" => {
                let board = game
                    .setup
                    .table()
                    .map_err(|_| {
                        ErrorData::internal_error("the game's ruleset has no board", None)
                    })?
                    .options()
                    .board;
                (
                    layout::board_text(board, &game_brief(&game, &game.state)),
                    "text/plain",
                )
            }
            _ => return Err(not_found("no such resource of a game".to_owned())),
        };
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(text, uri).with_mime_type(mime),
        ]))
    }

    pub(super) async fn play(
        &self,
        id: GameId,
        cmd: ThrowCommand,
    ) -> Result<CallToolResult, ErrorData> {
        match self.service.throw(id, cmd, throw_renderer(None)).await {
            Ok(answer) => kept(&answer),
            Err(e) => service_error(e),
        }
    }

    /// Up to `limit` throws, each through the service as a single throw
    /// is (its own job for the single writer, its own commit), until
    /// `until` or the game's end; a refused throw after the first ends the
    /// run (a side's token when the other side is to throw).
    pub(super) async fn run(
        &self,
        id: GameId,
        token: Option<SeatToken>,
        limit: u32,
        until: Option<Until>,
        detail: Option<Detail>,
    ) -> Result<CallToolResult, ErrorData> {
        let render = step_renderer(detail);
        let mut steps: Vec<Step> = Vec::new();
        let mut stopped = ("count", String::new());
        while steps.len() < limit as usize {
            let cmd = ThrowCommand {
                token: token.clone(),
                ..ThrowCommand::default()
            };
            let answer = match self.service.throw(id, cmd, render).await {
                Ok(answer) => answer,
                Err(e) if steps.is_empty() => return service_error(e),
                Err(e) => {
                    let r = crate::service::Refusal::from(e);
                    // A side's token at the end of its side's turn: the
                    // run ends as the turn does, not as a refusal.
                    stopped = if r.slug == "not-your-seat"
                        && steps.last().is_some_and(|s| s.turn_ended)
                    {
                        (
                            "turn_end",
                            "the turn passed to the other side, whose token throws next".to_owned(),
                        )
                    } else {
                        ("refused", format!("{}: {}", r.title, r.detail))
                    };
                    break;
                }
            };
            let step: Step = serde_json::from_slice(&answer.body)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            let why = if step.finished {
                Some("game_end")
            } else {
                match until {
                    Some(Until::Event) if !step.notable.is_empty() => Some("event"),
                    Some(Until::TurnEnd) if step.turn_ended => Some("turn_end"),
                    _ => None,
                }
            };
            steps.push(step);
            if let Some(why) = why {
                stopped = (why, String::new());
                break;
            }
        }
        let (Some(first), Some(last)) = (steps.first(), steps.last()) else {
            return refusal("no throw was played");
        };
        let n = |s: &Step| s.move_["n"].as_u64().unwrap_or_default();
        let said = match stopped.0 {
            "count" => format!("the {} throws asked for", steps.len()),
            "game_end" => "the game is over".to_owned(),
            "event" => format!("move {} brought {}", n(last), last.notable.join(", ")),
            "turn_end" if stopped.1.is_empty() => "the turn passed".to_owned(),
            _ => stopped.1.clone(),
        };
        let mut text = format!(
            "Moves {}-{} of game {id} ({} throw{}); stopped: {said}.",
            n(first),
            n(last),
            steps.len(),
            if steps.len() == 1 { "" } else { "s" }
        );
        for s in &steps {
            text.push('\n');
            text.push_str(&s.text);
        }
        text.push('\n');
        text.push_str(&last.standing);
        let output = serde_json::json!({
            "move": last.move_,
            "played": steps.len(),
            "stopped": stopped.0,
            "moments": steps.iter().filter(|s| s.moment).map(|s| &s.move_).collect::<Vec<_>>(),
            "game": last.game,
        });
        ok(text, &output)
    }

    /// `get_board`: the board of game `id` as a PNG within 40 KB, now
    /// (`move_n` 0) or as move `move_n` left it, with the game as the board
    /// shows it and links to the game's resources.
    pub(super) async fn board_picture(
        &self,
        id: GameId,
        move_n: u32,
    ) -> Result<CallToolResult, ErrorData> {
        let (game, state) = match self
            .service
            .board_after(id, (move_n > 0).then_some(move_n))
            .await
        {
            Ok(board) => board,
            Err(e) => return service_error(e),
        };
        let svg = board_svg(&game, &state)?;
        let png = match tokio::task::spawn_blocking(move || picture::png_scaled(&svg, BOARD_SCALE))
            .await
        {
            Ok(Ok(png)) => png,
            _ => {
                return Err(ErrorData::internal_error(
                    "the board could not be drawn",
                    None,
                ));
            }
        };
        let data = base64::engine::general_purpose::STANDARD.encode(png);
        let output = BoardOutput {
            move_n,
            game: game_brief(&game, &state),
        };
        let mut result = ok(standing_line(&output.game), &output)?;
        result.content.push(ContentBlock::image(data, "image/png"));
        // The board's SVG resource is the board now: linked only then.
        let links: &[&str] = if move_n == 0 {
            &["", "moves", "board.svg"]
        } else {
            &["", "moves"]
        };
        linked(Ok(result), &id.to_string(), links)
    }
}
