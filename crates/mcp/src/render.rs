//! The bodies of the answers the service keeps and hands back for the
//! tools that change a game: the text block and the structured output, as
//! JSON.

use serde::{Deserialize, Serialize};

use super::answer::{
    CreatedOutput, TEXT_BUDGET, ThrowOutput, TokensBrief, game_brief, moment_text, move_brief,
    move_chances, move_line, move_text, narration_text, notable_events, standing_line, teaches,
};
use crate::domain::{Game, MoveRecord};
use crate::narration::{Chances, Detail, Narration};
use crate::odds::Solver;
use crate::service::{ChanceTable, ChancesUnknown, Created};

/// Each side's chance of winning before and after move `record`, from the
/// process's odds service as it is now (the writer renders the answers it
/// keeps, and does not wait for a solve).
fn chances_now(game: &Game, record: &MoveRecord) -> Result<Chances, ChancesUnknown> {
    let table = match game.setup.table() {
        Ok(t) => ChanceTable::now(&Solver::shared(), &t),
        Err(_) => ChanceTable::Unknown(ChancesUnknown::Unavailable),
    };
    move_chances(game, record, &table)
}

/// The answer to one throw: the structured output and the text, as JSON;
/// the move told for the game's audience at `detail` (default: the
/// game's).
fn throw_answer(game: &Game, record: &MoveRecord, detail: Option<Detail>) -> Vec<u8> {
    let setup = &game.setup;
    let brief = game_brief(game, &game.state);
    let chances = chances_now(game, record);
    let narration = record.told_with_chances(
        setup,
        setup.audience,
        detail.unwrap_or(setup.detail),
        chances.as_ref().ok(),
    );
    let caption = record.caption(setup, narration.audience);
    let text = move_text(record, &narration, &caption, &brief);
    let output = ThrowOutput {
        move_: move_brief(game, record, &narration, chances),
        played: 1,
        stopped: if game.state.is_finished() {
            "game_end"
        } else {
            "count"
        }
        .to_owned(),
        moments: Vec::new(),
        game: brief,
    };
    serde_json::to_vec(&(text, output)).unwrap_or_default()
}

/// `render(game, record, detail)` for one `detail` (none: the game's) as a
/// plain function, which is what the service takes.
macro_rules! at_detail {
    ($render:ident, $detail:expr) => {
        match $detail {
            None => |g, r| $render(g, r, None),
            Some(Detail::Lesson) => |g, r| $render(g, r, Some(Detail::Lesson)),
            Some(Detail::Brief) => |g, r| $render(g, r, Some(Detail::Brief)),
            Some(Detail::Full) => |g, r| $render(g, r, Some(Detail::Full)),
        }
    };
}

/// What renders one throw's answer at `detail` (none: the game's).
pub(super) fn throw_renderer(detail: Option<Detail>) -> fn(&Game, &MoveRecord) -> Vec<u8> {
    at_detail!(throw_answer, detail)
}

/// The most characters a move told beyond one line takes in a run of
/// throws.
pub(super) const MOMENT_BUDGET: usize = 900;

/// One throw of a run, as its render hands it back.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Step {
    /// Its part of the text: one line, or the move told beyond one line.
    pub text: String,
    /// Whether the text tells it beyond one line.
    pub moment: bool,
    /// What it brought beyond a plain move, by event kind.
    pub notable: Vec<String>,
    /// Whether the other side is to throw next (or the game is over).
    pub turn_ended: bool,
    /// Whether the game is over.
    pub finished: bool,
    /// The move, as [`MoveBrief`](super::answer::MoveBrief).
    #[serde(rename = "move")]
    pub move_: serde_json::Value,
    /// The game after it, as [`GameBrief`](super::answer::GameBrief).
    pub game: serde_json::Value,
    /// Where the game stands after it.
    pub standing: String,
}

/// One throw of a run at `detail` (none: the game's): at `brief`, one line;
/// at `lesson`, one line for a plain move, and the lesson for a move that
/// brings an event or teaches a rule or a fact; at `full`, every move in
/// full.
fn step_answer(game: &Game, record: &MoveRecord, detail: Option<Detail>) -> Vec<u8> {
    let setup = &game.setup;
    let audience = setup.audience;
    let notable = notable_events(record);
    let chances = chances_now(game, record);
    let lesson = record.told_with_chances(setup, audience, Detail::Lesson, chances.as_ref().ok());
    let (text, moment, narration) = match detail.unwrap_or(setup.detail) {
        Detail::Lesson if !notable.is_empty() || teaches(&lesson) => {
            (moment_text(record.n, &lesson, MOMENT_BUDGET), true, lesson)
        }
        Detail::Full => {
            let full =
                record.told_with_chances(setup, audience, Detail::Full, chances.as_ref().ok());
            (moment_text(record.n, &full, TEXT_BUDGET), true, full)
        }
        Detail::Lesson | Detail::Brief => {
            let brief = record.told(setup, audience, Detail::Brief);
            (move_line(record.n, &brief), false, brief)
        }
    };
    let brief = game_brief(game, &game.state);
    let finished = game.state.is_finished();
    let step = Step {
        text,
        moment,
        notable: notable.into_iter().map(str::to_owned).collect(),
        turn_ended: finished || brief.to_throw != <&str>::from(record.seat.side),
        finished,
        move_: serde_json::to_value(move_brief(game, record, &narration, chances))
            .unwrap_or_default(),
        standing: standing_line(&brief),
        game: serde_json::to_value(&brief).unwrap_or_default(),
    };
    serde_json::to_vec(&step).unwrap_or_default()
}

/// What renders one throw of a run at `detail` (none: the game's).
pub(super) fn step_renderer(detail: Option<Detail>) -> fn(&Game, &MoveRecord) -> Vec<u8> {
    at_detail!(step_answer, detail)
}

/// The answer to a creation as the service hands it back: the text and the
/// structured output (with the tokens, shown this once), as JSON.
pub(super) fn render_created(created: &Created) -> Vec<u8> {
    let game = &created.game;
    let brief = game_brief(game, &game.state);
    let tokens = created
        .tokens
        .as_ref()
        .map(|t| TokensBrief {
            a: t.sides[0].as_str().to_owned(),
            b: t.sides[1].as_str().to_owned(),
            host: t.host.as_str().to_owned(),
            join_codes: t
                .join_codes
                .as_ref()
                .map(|codes| codes.each_ref().map(|c| c.as_str().to_owned()))
                .unwrap_or_default(),
        })
        .unwrap_or_default();
    let mut line = format!(
        "Game {} created ({}): {} (A) against {} (B).",
        brief.game_id, brief.preset, brief.sides[0].name, brief.sides[1].name
    );
    if created.tokens.is_some() {
        line.push_str(if game.sides_report_throws {
            " Seated: keep the tokens; each throw, and each report of real sticks, needs the mover's token (or the host's); stopping needs the host's."
        } else {
            " Seated: keep the tokens; each throw needs the mover's token (or the host's), reporting real sticks and stopping need the host's."
        });
    }
    if let Some(t) = &created.tokens {
        // A host that forwards only the text still hands the model what
        // its next calls need.
        line.push_str(&format!(
            "\nTokens, shown only this once: A {}, B {}, host {}.",
            t.sides[0].as_str(),
            t.sides[1].as_str(),
            t.host.as_str()
        ));
        if let Some([a, b]) = &t.join_codes {
            line.push_str(&format!(
                "\nJoin codes for the pupils, typed at this server's /join page: A {}, B {}.",
                a.as_str(),
                b.as_str()
            ));
        }
    }
    let text = format!("{line}\n{}", standing_line(&brief));
    serde_json::to_vec(&(
        text,
        CreatedOutput {
            game: brief,
            tokens,
        },
    ))
    .unwrap_or_default()
}

/// The answer to a stop as the service hands it back: the text and the
/// game after it, as JSON.
pub(super) fn render_stopped(game: &Game, narration: &Narration) -> Vec<u8> {
    let brief = game_brief(game, &game.state);
    let text = format!("{}\n{}", narration_text(narration), standing_line(&brief));
    serde_json::to_vec(&(text, brief)).unwrap_or_default()
}
