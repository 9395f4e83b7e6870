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
use super::args::{self, Parameters};
use super::reply::{ok, refusal, refused, schema_for_output};
use crate::picture;

/// The scale of the chart's PNG a tool sends: half the REST picture's
/// size (720 × 405), as for the board.
const CHART_SCALE: f32 = 0.5;

/// `get_chances_chart`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChartArgs {
    /// The game's id.
    #[schemars(description = "")]
    pub game_id: String,
}

/// The answer to `get_chances_chart`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChartOutput {
    /// The chart in words.
    pub description: String,
}

#[tool_router(router = chart_router, vis = "pub(super)")]
impl ZohnAhl {
    #[tool(
        title = "Chances chart",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "The chances of winning over a game: a chart (PNG), in words.",
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
        let drawing = known.chart(None);
        let (svg, output) = (
            drawing.svg,
            ChartOutput {
                description: drawing.description,
            },
        );
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
