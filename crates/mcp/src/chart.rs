//! The tool `get_chances_chart`: the chart of the chances over a game as a
//! PNG image, with the chart's description in words (the same picture and
//! words as `GET /v1/games/{id}/chances.png` and the `<desc>` of
//! `chances.svg`).

use base64::Engine as _;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData, tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::ZohnAhl;
use super::args::{self, Choice, Parameters};
use super::reply::{ok, refusal, refused, schema_for_output};
use crate::narration::Audience;
use crate::picture::{self, ChanceChart, ChartMove, ChartResult};
use crate::rules::Outcome;
use crate::service::KnownChances;

/// The scale of the chart's PNG a tool sends: half the REST picture's
/// size (720 × 405), as for the board.
const CHART_SCALE: f32 = 0.5;

/// `get_chances_chart`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChartArgs {
    /// The game's id.
    pub game_id: String,
    /// Who the description is for (default: the game's audience): `young`
    /// hears "about 2 in 3", `general` percentages, `scholar` four
    /// decimals.
    #[serde(default)]
    pub audience: Choice<Audience>,
}

/// The answer to `get_chances_chart`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChartOutput {
    /// The game's id.
    pub game_id: String,
    /// Moves charted (the chart has one point more: the start, move 0).
    pub moves: usize,
    /// Side A's chance of winning at the start.
    pub start_a: f64,
    /// Side A's chance of winning after the last move (at the start when
    /// there is none).
    pub now_a: f64,
    /// The turning point's move: the move that changed the chances most
    /// (0 when the game has no moves).
    pub turning_point: usize,
    /// The moves whose throw was rarer than 1 in 16.
    pub rare_throws: Vec<usize>,
    /// The chart in words, for the audience asked for.
    pub description: String,
}

/// The chart of `known` for `audience` (the game's when `None`), with what
/// the tool answers of it.
fn chart_of(known: &KnownChances, audience: Option<Audience>) -> (String, ChartOutput) {
    let game = &known.game.game;
    let setup = &game.setup;
    let moves: Vec<ChartMove<'_>> = known
        .game
        .moves
        .iter()
        .zip(&known.series)
        .map(|(record, chances)| ChartMove {
            side: record.seat.side,
            player: setup.player_name(record.seat),
            value: record.score.value,
            probability: record.score.probability,
            chances: *chances,
        })
        .collect();
    let result = match game.state.outcome {
        None => ChartResult::Playing,
        Some(Outcome::Won { side }) => ChartResult::Won(side),
        Some(Outcome::Draw) => ChartResult::Draw,
    };
    let chart = ChanceChart {
        sides: [&setup.sides[0].name, &setup.sides[1].name],
        start: known.start,
        moves: &moves,
        result,
        audience: audience.unwrap_or(setup.audience),
    };
    let output = ChartOutput {
        game_id: game.id.to_string(),
        moves: moves.len(),
        start_a: known.start[0],
        now_a: moves.last().map_or(known.start[0], |m| m.chances.after[0]),
        turning_point: chart.turning_point().map_or(0, |k| k + 1),
        rare_throws: moves
            .iter()
            .enumerate()
            .filter(|(_, m)| m.is_rare())
            .map(|(k, _)| k + 1)
            .collect(),
        description: picture::chances_description(&chart),
    };
    (picture::chances_svg(&chart), output)
}

#[tool_router(router = chart_router, vis = "pub(super)")]
impl ZohnAhl {
    #[tool(
        title = "The chances over the game as a chart",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "A chart (PNG) of each side's exact chance of winning at the start and after every move, with the turning point (the move that changed the chances most) and the rare throws (rarer than 1 in 16) marked, and the chart in words. Answers within a few seconds or says when to ask again.",
        output_schema = schema_for_output::<ChartOutput>()
    )]
    async fn get_chances_chart(
        &self,
        params: Parameters<ChartArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let a = match params.0 {
            Ok(a) => a,
            Err(why) => return refusal(why),
        };
        let id = match args::game_id(&a.game_id) {
            Ok(id) => id,
            Err(why) => return refusal(why),
        };
        let known = match self.service.known_chances(&self.odds, id).await {
            Ok(known) => known,
            Err(r) => return refused(r),
        };
        let (svg, output) = chart_of(&known, a.audience.0);
        let png = match tokio::task::spawn_blocking(move || picture::png_scaled(&svg, CHART_SCALE))
            .await
        {
            Ok(Ok(png)) => png,
            _ => {
                return Err(ErrorData::internal_error(
                    "the chart could not be drawn",
                    None,
                ));
            }
        };
        let data = base64::engine::general_purpose::STANDARD.encode(png);
        let mut result = ok(output.description.clone(), &output)?;
        result.content.push(ContentBlock::image(data, "image/png"));
        Ok(result)
    }
}

/// The chart tool's router, added to the other tools'.
pub(super) fn router() -> ToolRouter<ZohnAhl> {
    ZohnAhl::chart_router()
}
