//! The tools that look back on a finished game: `get_recap`.

use rmcp::ErrorData;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::ZohnAhl;
use super::answer::side_name;
use super::args::{self, Parameters};
use super::reply::{ok, refusal, refused, schema_for_output};
use crate::service::Recap;

/// `get_recap`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecapArgs {
    /// The game's id.
    #[schemars(description = "")]
    pub game_id: String,
}

/// A question.
#[derive(Debug, Serialize, JsonSchema)]
pub struct QuestionOutput {
    /// The question.
    pub question: String,
    /// Its answer.
    pub answer: String,
}

/// The answer to `get_recap`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RecapOutput {
    /// Moves played.
    pub moves: u32,
    /// `A`, `B`, or `null` for a draw.
    pub winner: Option<String>,
    /// The recap in sentences.
    pub summary: Vec<String>,
    /// Questions for a class.
    pub questions: Vec<QuestionOutput>,
}

impl From<&Recap> for RecapOutput {
    fn from(r: &Recap) -> Self {
        let f = &r.facts;
        Self {
            moves: f.moves,
            winner: f.winner.map(side_name),
            summary: r.text.summary.clone(),
            questions: r
                .text
                .questions
                .iter()
                .map(|q| QuestionOutput {
                    question: q.question.clone(),
                    answer: q.answer.clone(),
                })
                .collect(),
        }
    }
}

/// The recap as text: the summary, then the questions, each with its
/// answer; the numbers are this service's own computation.
fn recap_text(r: &RecapOutput) -> String {
    let mut text = r.summary.join(" ");
    text.push_str("\n\nQuestions for the class:");
    for (i, q) in r.questions.iter().enumerate() {
        text.push_str(&format!(
            "\n{}. {}\n   Answer: {}",
            i + 1,
            q.question,
            q.answer
        ));
    }
    text.push_str("\n[chances and expectations: zohn-ahl-odds]");
    text
}

#[tool_router(router = lookback_router, vis = "pub(crate)")]
impl ZohnAhl {
    #[tool(
        title = "Recap a finished game",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "A finished game's recap for a class: turning point, luck, counts against the odds, questions and answers.",
        output_schema = schema_for_output::<RecapOutput>()
    )]
    async fn get_recap(&self, params: Parameters<RecapArgs>) -> Result<CallToolResult, ErrorData> {
        let a = match params.0 {
            Ok(a) => a,
            Err(why) => return refusal(why),
        };
        let id = match args::game_id(&a.game_id) {
            Ok(id) => id,
            Err(why) => return refusal(why),
        };
        match self.service.recap(&self.odds, id, None, None).await {
            Ok(recap) => {
                let output = RecapOutput::from(&recap);
                ok(recap_text(&output), &output)
            }
            Err(r) => refused(r),
        }
    }
}
