//! The answers the service keeps and hands back for the tools that change
//! a game: the text block and the structured output, as JSON.

use super::answer::{
    CreatedOutput, ThrowOutput, TokensBrief, game_brief, move_brief, move_text, narration_text,
    standing_line,
};
use crate::domain::{Game, MoveRecord};
use crate::narration::Narration;
use crate::service::{Answer, Created};

/// The answer to a throw as the writer hands it back: the structured
/// output and the text, as JSON; the move told for the game's audience at
/// its detail level.
pub(super) fn render_throw(game: &Game, record: &MoveRecord) -> Answer {
    let brief = game_brief(game, &game.state);
    let narration = record.told_in(&game.setup);
    let caption = record.caption(&game.setup, narration.audience);
    let text = move_text(record, &narration, &caption, &brief);
    let output = ThrowOutput {
        move_: move_brief(game, record, &narration),
        game: brief,
    };
    Answer {
        location: format!("/v1/games/{}/moves/{}", game.id, record.n),
        etag: game.version.etag(),
        body: serde_json::to_vec(&(text, output)).unwrap_or_default(),
        replayed: false,
    }
}

/// The answer to a creation as the service hands it back: the text and the
/// structured output (with the tokens, shown this once), as JSON.
pub(super) fn render_created(created: &Created) -> Answer {
    let game = &created.game;
    let brief = game_brief(game, &game.state);
    let tokens = created
        .tokens
        .as_ref()
        .map(|t| TokensBrief {
            a: t.sides[0].as_str().to_owned(),
            b: t.sides[1].as_str().to_owned(),
            host: t.host.as_str().to_owned(),
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
    let text = format!("{line}\n{}", standing_line(&brief));
    Answer {
        location: format!("/v1/games/{}", game.id),
        etag: game.version.etag(),
        body: serde_json::to_vec(&(
            text,
            CreatedOutput {
                game: brief,
                tokens,
            },
        ))
        .unwrap_or_default(),
        replayed: false,
    }
}

/// The answer to a stop as the service hands it back: the text and the
/// game after it, as JSON.
pub(super) fn render_stopped(game: &Game, narration: &Narration) -> Answer {
    let brief = game_brief(game, &game.state);
    let text = format!("{}\n{}", narration_text(narration), standing_line(&brief));
    Answer {
        location: format!("/v1/games/{}", game.id),
        etag: game.version.etag(),
        body: serde_json::to_vec(&(text, brief)).unwrap_or_default(),
        replayed: false,
    }
}
