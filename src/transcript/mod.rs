//! A seeded game played start to finish without a server, printed as a
//! narrated Markdown transcript (`zohn-ahl transcript --seed S`).

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::domain::{MoveRecord, ThrowOrigin, Turn, play_move};
use crate::narration::{
    Audience, Cast, Chances, Citation, Detail, MoveContext, Narration, Reading, Segment,
    SegmentKind, add_odds, catalogue, renarrate_move,
};
use crate::rules::{GameState, Options, Outcome, Preset, RulesError, SetupError, Side, Table};
use crate::throws::{SeededThrows, ThrowSource};

mod closing;
mod note;
mod read_aloud;
mod request;
mod skip;
mod stop;
mod turns;

pub use note::FEWEST_COUNTING_STICKS;
use note::teacher_note;
pub use read_aloud::{
    LESSON_MINUTES, READ_ALOUD_WORDS_A_MINUTE, SHORT_LESSON_MINUTES, WHOLE_MARGIN_PERCENT,
};
pub use request::{TranscriptRequest, board_picture};
use stop::{lesson_stop, stop_at, told_stopped};

/// Most throws a transcript plays before it gives up (no game of the
/// presets comes near it in practice).
pub const MAX_THROWS: u32 = 100_000;

/// A game could not be played.
#[derive(Debug, thiserror::Error)]
pub enum TranscriptError {
    /// The preset's table is invalid (a defect).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The rules refused a throw (a defect).
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The board's picture could not be drawn as PNG.
    #[error(transparent)]
    Picture(#[from] crate::picture::PngError),
}

fn cite(segment: &Segment) -> String {
    segment
        .citations
        .iter()
        .map(Citation::label)
        .collect::<Vec<_>>()
        .join("; ")
}

/// A seeded game played to its end, every move narrated.
#[derive(Clone, Debug)]
pub struct NarratedGame {
    /// The preset's options.
    pub options: Options,
    /// The names: "Side A" and "Side B" (numbered players for teams).
    pub cast: Cast,
    /// The moves, in order.
    pub moves: Vec<MoveRecord>,
}

impl NarratedGame {
    /// The table the game is played on: its options, with each side's
    /// players as its cast names them.
    ///
    /// # Errors
    /// Only on a defect of the presets.
    pub fn table(&self) -> Result<Table, SetupError> {
        let players = self.cast.players.clone().map(|p| p.len().max(1));
        Table::new(self.options, players, Side::A)
    }

    /// The context of move `m` for `audience`, as the narration sees it
    /// (without history: for re-rendering a stored move).
    #[must_use]
    pub fn context<'a>(&'a self, m: &'a MoveRecord, audience: Audience) -> MoveContext<'a> {
        m.context(&self.options, &self.cast, audience, Detail::Lesson)
    }

    /// The context of move `m` for `audience` at `detail`.
    #[must_use]
    pub fn context_at<'a>(
        &'a self,
        m: &'a MoveRecord,
        audience: Audience,
        detail: Detail,
    ) -> MoveContext<'a> {
        m.context(&self.options, &self.cast, audience, detail)
    }

    /// Move `m` (narrated for `audience`, as [`narrated_game`] played it)
    /// told at `detail`: its narration as played at [`Detail::Lesson`],
    /// otherwise told again from its events and plan, as the service tells
    /// a stored move read with `?detail=`.
    #[must_use]
    pub fn told<'a>(
        &self,
        m: &'a MoveRecord,
        audience: Audience,
        detail: Detail,
    ) -> Cow<'a, Narration> {
        if detail == Detail::Lesson {
            Cow::Borrowed(&m.narration)
        } else {
            Cow::Owned(renarrate_move(
                &self.context_at(m, audience, detail),
                &m.narration,
            ))
        }
    }
}

/// Each move's chances of winning before and after it, from the solved
/// chain of `table` (solved here once, as the server solves a preset's at
/// start); `None` for every move when the chain is too large to solve.
#[must_use]
pub fn chances_of(game: &NarratedGame, table: &Table) -> Vec<Option<Chances>> {
    let Ok(solution) = crate::odds::solve(table) else {
        return vec![None; game.moves.len()];
    };
    let at = |s: &GameState| match s.outcome {
        Some(Outcome::Won { side }) => {
            let mut p = [0.0; 2];
            p[side.index()] = 1.0;
            Some(p)
        }
        Some(_) => None,
        None => solution.odds(s).map(|o| o.win),
    };
    let mut before = at(&GameState::new(table));
    game.moves
        .iter()
        .map(|m| {
            let after = at(&m.state);
            let chances = before
                .zip(after)
                .map(|(before, after)| Chances { before, after });
            before = after;
            chances
        })
        .collect()
}

/// The sides' names a transcript uses unless told others.
pub const DEFAULT_SIDES: [&str; 2] = ["Side A", "Side B"];

/// Play the seeded game of `preset` between "Side A" and "Side B" (A
/// first), narrating every move for `audience` as the service would.
///
/// # Errors
/// [`TranscriptError`] only on a defect of the rules or presets.
pub fn narrated_game(
    seed: &str,
    preset: Preset,
    audience: Audience,
) -> Result<NarratedGame, TranscriptError> {
    narrated_game_between(seed, preset, audience, &DEFAULT_SIDES.map(str::to_owned))
}

/// [`narrated_game`] between sides named `sides` (A first; checked names,
/// as the service's creation checks give them): each side's players are
/// named as the service names them when a game gives none.
///
/// # Errors
/// [`TranscriptError`] only on a defect of the rules or presets.
pub fn narrated_game_between(
    seed: &str,
    preset: Preset,
    audience: Audience,
    sides: &[String; 2],
) -> Result<NarratedGame, TranscriptError> {
    narrated_game_of(seed, preset, preset.options(), audience, sides)
}

/// [`narrated_game_between`] played with `options` (the options of
/// `preset`, or another number of counters a side: `--counting-sticks`),
/// with `preset`'s players.
///
/// # Errors
/// [`TranscriptError`] only on a defect of the rules or presets.
fn narrated_game_of(
    seed: &str,
    preset: Preset,
    options: Options,
    audience: Audience,
    sides: &[String; 2],
) -> Result<NarratedGame, TranscriptError> {
    let players = usize::from(preset.default_players());
    let table = Table::new(options, [players, players], Side::A)?;
    let cast = Cast {
        sides: sides.clone(),
        players: sides.clone().map(|n| {
            if players == 1 {
                vec![n]
            } else {
                (1..=players).map(|i| format!("{n} {i}")).collect()
            }
        }),
    };
    let mut throws = SeededThrows::new(seed);
    let start = GameState::new(&table);
    let mut told: Vec<String> = Vec::new();
    let mut moves: Vec<MoveRecord> = Vec::new();
    for n in 1..=MAX_THROWS {
        let last = moves.last();
        let state = last.map_or(&start, |m| &m.state);
        if state.is_finished() {
            break;
        }
        let turn = Turn {
            table: &table,
            cast: &cast,
            audience,
            state,
            previous: last.map(|m| &m.narration),
        };
        let throw = throws.throw(options.throw_table, n);
        let record = play_move(&turn, n, throw, ThrowOrigin::Server, &mut told)?;
        moves.push(record);
    }
    Ok(NarratedGame {
        options,
        cast,
        moves,
    })
}

/// Play the seeded game of `preset` between "Side A" and "Side B" and
/// return its transcript as Markdown: a heading per move with the throw,
/// then each narrated segment with its citations, then the sources cited.
/// The moves are told at [`Detail::Lesson`]; [`transcript_at`] tells them
/// at another level.
///
/// # Errors
/// [`TranscriptError`] only on a defect of the rules or presets.
pub fn transcript(
    seed: &str,
    preset: Preset,
    audience: Audience,
) -> Result<String, TranscriptError> {
    transcript_at(seed, preset, audience, Detail::Lesson)
}

/// [`transcript`] with every move told at `detail` (`zohn-ahl transcript
/// --detail`).
///
/// # Errors
/// [`TranscriptError`] only on a defect of the rules or presets.
pub fn transcript_at(
    seed: &str,
    preset: Preset,
    audience: Audience,
    detail: Detail,
) -> Result<String, TranscriptError> {
    transcript_of(&TranscriptRequest {
        seed: seed.to_owned(),
        preset,
        audience,
        detail,
        sides: DEFAULT_SIDES.map(str::to_owned),
        read_aloud: false,
        stop_after: None,
        board: None,
        counting_sticks: None,
        minutes: None,
    })
}

/// Each move of `game` told for `audience` at `detail` as the service
/// tells it, its odds sentence included.
///
/// # Errors
/// [`TranscriptError`] only on a defect of the presets.
#[cfg(test)]
fn told_moves(
    game: &NarratedGame,
    audience: Audience,
    detail: Detail,
) -> Result<Vec<Narration>, TranscriptError> {
    Ok(told_moves_with_chances(game, audience, detail)?.0)
}

/// [`told_moves`], with each move's chances (all `None` at the `brief`
/// detail, which tells none, or when the chain is too large to solve).
///
/// # Errors
/// [`TranscriptError`] only on a defect of the presets.
fn told_moves_with_chances(
    game: &NarratedGame,
    audience: Audience,
    detail: Detail,
) -> Result<(Vec<Narration>, Vec<Option<Chances>>), TranscriptError> {
    let table = game.table()?;
    let chances = if detail == Detail::Brief {
        vec![None; game.moves.len()]
    } else {
        chances_of(game, &table)
    };
    let told = game
        .moves
        .iter()
        .zip(&chances)
        .map(|(m, chances)| {
            let mut narration = game.told(m, audience, detail).into_owned();
            if let Some(c) = chances {
                add_odds(&mut narration, &game.context_at(m, audience, detail), c);
            }
            narration
        })
        .collect();
    Ok((told, chances))
}

/// The transcript `request` asks for: Markdown with citations (as
/// [`transcript_at`]), or with [`TranscriptRequest::read_aloud`] the
/// narration's words alone, a paragraph a move.
///
/// # Errors
/// [`TranscriptError`] only on a defect of the rules or presets.
pub fn transcript_of(request: &TranscriptRequest) -> Result<String, TranscriptError> {
    let TranscriptRequest {
        seed,
        preset,
        audience,
        detail,
        sides,
        read_aloud,
        stop_after,
        board: _,
        counting_sticks: _,
        minutes,
    } = request;
    let (preset, audience, detail) = (*preset, *audience, *detail);
    let mut game = narrated_game_of(seed, preset, request.options(), audience, sides)?;
    let stopped = stop_after.and_then(|n| stop_at(&mut game, n, audience));
    let (mut told, chances) = told_moves_with_chances(&game, audience, detail)?;
    if stopped.is_some() {
        told = told_stopped(&game, &told, audience);
    }
    let closing_of = |game: &NarratedGame| closing::closing(game, &chances, audience, detail);
    let command = request.command();
    if *read_aloud {
        let (told, paragraphs, skip) = closing::spoken(
            &game,
            &told,
            &chances,
            audience,
            detail,
            stopped.as_ref(),
            *minutes,
        );
        let fits = if stop_after.is_none() && skip.is_none() {
            [SHORT_LESSON_MINUTES, LESSON_MINUTES]
                .map(|m| lesson_stop(&game, &told, audience, m, &closing_of))
        } else {
            [None; 2]
        };
        return Ok(format!(
            "{}\n\n{}",
            teacher_note(&game, &paragraphs, fits, skip.as_ref(), audience, request)?,
            paragraphs
                .iter()
                .map(|p| format!("{}\n\n", p.text))
                .collect::<String>()
        ));
    }
    let mut cited: Vec<String> = Vec::new();
    let mut out = String::new();
    let _ = writeln!(out, "# Zohn Ahl: a narrated game\n");
    let preset_name: &'static str = preset.into();
    let detail_said = if detail == Detail::Lesson {
        String::new()
    } else {
        format!(", detail `{}`", detail.key())
    };
    let _ = writeln!(
        out,
        "Preset `{preset_name}`, seed `{seed}`, audience `{}`{detail_said}. Generated by `{command}`; the same seed always gives the same game.\n",
        audience.key(),
    );
    // The counters line says A and B under the default names, else the
    // names, as they read mid-sentence (after the colon).
    let labels: [String; 2] = if sides.iter().zip(DEFAULT_SIDES).all(|(s, d)| s == d) {
        ["A".to_owned(), "B".to_owned()]
    } else {
        sides
            .clone()
            .map(|s| crate::narration::name_mid_sentence(&s).into_owned())
    };
    for (i, m) in game.moves.iter().enumerate() {
        let _ = writeln!(
            out,
            "## Move {}\n\nCounters after: {} {}, {} {}.\n",
            m.n, labels[0], m.state.counters[0], labels[1], m.state.counters[1]
        );
        for segment in &told[i].segments {
            let label = match segment.kind {
                SegmentKind::Event => "",
                SegmentKind::Rule => "*Rule.* ",
                SegmentKind::Context => "*Context.* ",
                SegmentKind::Framing => "*This game.* ",
                SegmentKind::Odds => "*Odds.* ",
            };
            let _ = writeln!(out, "- {label}{} [{}]", segment.text, cite(segment));
            for c in &segment.citations {
                if !cited.contains(&c.source) {
                    cited.push(c.source.clone());
                }
            }
        }
        out.push('\n');
    }
    if let Some(stop) = &stopped {
        let _ = writeln!(out, "## Stopped after move {}\n", game.moves.len());
        for segment in &stop.segments {
            let label = if segment.kind == SegmentKind::Rule {
                "*Rule.* "
            } else {
                ""
            };
            let _ = writeln!(out, "- {label}{} [{}]", segment.text, cite(segment));
            for c in &segment.citations {
                if !cited.contains(&c.source) {
                    cited.push(c.source.clone());
                }
            }
        }
        out.push('\n');
    }
    let looking = closing_of(&game);
    if !looking.is_empty() {
        let _ = writeln!(out, "## Looking back\n");
        // The line that leads into the questions is for the ear alone.
        for (text, citations) in looking.iter().filter(|(_, c)| !c.is_empty()) {
            let labels: Vec<String> = citations.iter().map(Citation::label).collect();
            let _ = writeln!(out, "- {text} [{}]", labels.join("; "));
            for c in citations {
                if !cited.contains(&c.source) {
                    cited.push(c.source.clone());
                }
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "## Sources cited\n");
    for id in &cited {
        let Some(source) = catalogue().source(id) else {
            let _ = writeln!(out, "- `{id}`");
            continue;
        };
        // Who and when, the title, and what kind of source it is: a
        // reader weighs a primary account and a modern retelling apart.
        let who = match (source.who(), source.year()) {
            (w, Some(y)) if !w.is_empty() => format!("{w} {y}. "),
            (w, None) if !w.is_empty() => format!("{w}. "),
            (_, Some(y)) => format!("{y}. "),
            (_, None) => String::new(),
        };
        let title = source
            .csl
            .get("title")
            .and_then(|t| t.as_str())
            .unwrap_or_default();
        let kind = source.kind_words();
        let mut letters = kind.chars();
        let kind: String = letters
            .next()
            .map(|c| c.to_uppercase().chain(letters).collect())
            .unwrap_or_default();
        let read = match source.reading() {
            Reading::Whole => "",
            Reading::Part => " Read in part here.",
            Reading::Quoted => " Not read here: known through another source's quotation.",
            Reading::NotRead => " Not read here: known only from other sources.",
        };
        let _ = writeln!(out, "- `{id}`: {who}*{title}*. {kind}.{read}");
    }
    Ok(out)
}

#[cfg(test)]
mod lesson_tests;
#[cfg(test)]
mod read_aloud_tests;
#[cfg(test)]
mod skip_rule_tests;
#[cfg(test)]
mod skip_tests;
#[cfg(test)]
mod tests;
