//! What `zohn-ahl transcript` is asked for, the command that prints it,
//! and the board to show beside it.

use std::fmt::Write as _;

use super::{DEFAULT_SIDES, TranscriptError};
use crate::narration::{Audience, Detail};
use crate::rules::{GameState, Options, Preset, Side, Table};

/// What `zohn-ahl transcript` prints: which game, told how.
#[derive(Clone, Debug)]
pub struct TranscriptRequest {
    /// The game's seed.
    pub seed: String,
    /// Its preset.
    pub preset: Preset,
    /// Who the narration is for.
    pub audience: Audience,
    /// How much each move tells.
    pub detail: Detail,
    /// The sides' names, A first (checked as the service checks them).
    pub sides: [String; 2],
    /// Only the words to read aloud: no headings, labels, counters or
    /// citations, nor the bare line saying the other side of one player
    /// throws next (an opening note for the teacher gives the length and
    /// says where the sources are).
    pub read_aloud: bool,
    /// Stop the game after this many moves, as a teacher may stop a game
    /// that runs past the lesson's time: the side with more counters wins,
    /// equal counts draw (`POST /v1/games/{id}/stop`). `None`: play it out.
    pub stop_after: Option<u32>,
    /// The file the preset's empty board was written to
    /// ([`board_picture`]), which the teacher's note names; `None`: the
    /// note says how to get one.
    pub board: Option<String>,
    /// Counting sticks each side starts with, in place of the preset's
    /// (`--counting-sticks`): fewer make a shorter whole game, as a teacher
    /// may play one. `None`: the preset's.
    pub counting_sticks: Option<u8>,
    /// The read-aloud form's length, in minutes at a class's pace
    /// ([`READ_ALOUD_WORDS_A_MINUTE`]): a game that would read longer (by
    /// more than a fifth) has stretches told in short, its opening, its
    /// ending and its first fall, whip and trip around throw by throw
    /// (`--minutes`). `None`: every throw.
    pub minutes: Option<usize>,
}

impl TranscriptRequest {
    /// The options the game is played with: the preset's, with
    /// [`Self::counting_sticks`] when given.
    #[must_use]
    pub fn options(&self) -> Options {
        let mut options = self.preset.options();
        if let Some(n) = self.counting_sticks {
            options.counters_per_side = n;
        }
        options
    }
}

/// The board at the start of the game `request` asks for, every space
/// with both sides' numbers (A's outside the track, B's inside), the
/// sides' names and both awls on their starts, for a class to follow a
/// game read aloud (a teacher's trial: by ear alone, two awls counted from
/// different starts were hard to picture; and the board to show should
/// carry the names the class hears): PNG when `path` ends in `.png`, else
/// SVG.
///
/// # Errors
/// When the preset cannot be set up or the PNG cannot be drawn.
pub fn board_picture(
    request: &TranscriptRequest,
    path: &std::path::Path,
) -> Result<Vec<u8>, TranscriptError> {
    let players = usize::from(request.preset.default_players());
    let table = Table::new(request.options(), [players, players], Side::A)?;
    let names = crate::picture::Names::sides(&request.sides[0], &request.sides[1]);
    let svg = crate::picture::game_svg(&table, &GameState::new(&table), &names);
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        Ok(crate::picture::png(&svg)?)
    } else {
        Ok(svg.into_bytes())
    }
}

impl TranscriptRequest {
    /// The command that prints this transcript with its citations (the
    /// read-aloud form leaves them out, so it names this one).
    pub(super) fn command(&self) -> String {
        let preset: &'static str = self.preset.into();
        let mut command = format!(
            "zohn-ahl transcript --seed {} --preset {preset} --audience {}",
            self.seed,
            self.audience.key()
        );
        // The default level goes unsaid, as it did before there were others.
        if self.detail != Detail::Lesson {
            let _ = write!(command, " --detail {}", self.detail.key());
        }
        if let Some(n) = self.counting_sticks {
            let _ = write!(command, " --counting-sticks {n}");
        }
        if let Some(n) = self.stop_after {
            let _ = write!(command, " --stop-after {n}");
        }
        for (flag, (name, default)) in ["--side-a", "--side-b"]
            .into_iter()
            .zip(self.sides.iter().zip(DEFAULT_SIDES))
        {
            if name != default {
                let _ = write!(command, " {flag} {}", shell_word(name));
            }
        }
        command
    }
}

/// `word` as one shell word: quoted unless it is plain.
fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.,/".contains(c))
    {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
