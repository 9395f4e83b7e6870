//! A seeded game played start to finish without a server, printed as a
//! narrated Markdown transcript (`zohn-ahl transcript --seed S`).

use std::fmt::Write as _;

use crate::narration::{
    self, Audience, Cast, MoveContext, Narration, Segment, SegmentKind, catalogue,
};
use crate::rules::{
    self, Event, GameState, Options, Preset, RulesError, Score, Seat, SetupError, Side, Table,
    Throw,
};
use crate::throws::{SeededThrows, ThrowSource};

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
}

fn cite(segment: &Segment) -> String {
    segment
        .citations
        .iter()
        .map(|c| match &c.locator {
            Some(l) => format!("{}, {l}", c.source),
            None => c.source.clone(),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// One move of a narrated game.
#[derive(Clone, Debug)]
pub struct NarratedMove {
    /// 1-based move number.
    pub n: u32,
    /// Who threw.
    pub seat: Seat,
    /// The throw.
    pub throw: Throw,
    /// Its score.
    pub score: Score,
    /// What happened.
    pub events: Vec<Event>,
    /// Counters after the move, A first.
    pub counters: [u8; 2],
    /// The narration.
    pub narration: Narration,
}

/// A seeded game played to its end, every move narrated.
#[derive(Clone, Debug)]
pub struct NarratedGame {
    /// The preset's options.
    pub options: Options,
    /// The names: "Side A" and "Side B" (numbered players for teams).
    pub cast: Cast,
    /// The moves, in order.
    pub moves: Vec<NarratedMove>,
}

impl NarratedGame {
    /// The context of move `m` for `audience`, as the narration sees it
    /// (without history: for re-rendering a stored move).
    #[must_use]
    pub fn context<'a>(&'a self, m: &'a NarratedMove, audience: Audience) -> MoveContext<'a> {
        MoveContext {
            options: &self.options,
            cast: &self.cast,
            audience,
            move_number: m.n,
            seat: m.seat,
            throw: &m.throw,
            score: &m.score,
            events: &m.events,
            told: &[],
            previous: None,
        }
    }
}

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
    let options = preset.options();
    let players = usize::from(preset.default_players());
    let table = Table::new(options, [players, players], Side::A)?;
    let names = ["Side A", "Side B"];
    let cast = Cast {
        sides: names.map(str::to_owned),
        players: names.map(|n| {
            if players == 1 {
                vec![n.to_owned()]
            } else {
                (1..=players).map(|i| format!("{n} {i}")).collect()
            }
        }),
    };
    let mut throws = SeededThrows::new(seed);
    let mut state = GameState::new(&table);
    let mut told: Vec<String> = Vec::new();
    let mut moves: Vec<NarratedMove> = Vec::new();
    let mut n = 0;
    while !state.is_finished() && n < MAX_THROWS {
        n += 1;
        let seat = state.to_throw(&table);
        let throw = throws.throw(options.throw_table, n);
        let played = rules::play(&table, &state, &throw)?;
        let narration = narration::narrate_move(&MoveContext {
            options: &options,
            cast: &cast,
            audience,
            move_number: n,
            seat,
            throw: &throw,
            score: &played.score,
            events: &played.events,
            told: &told,
            previous: moves.last().map(|m| &m.narration),
        });
        if let Some(fact) = narration.fact() {
            narration::remember_fact(&mut told, fact, &options);
        }
        moves.push(NarratedMove {
            n,
            seat,
            throw,
            score: played.score,
            events: played.events,
            counters: played.state.counters,
            narration,
        });
        state = played.state;
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
///
/// # Errors
/// [`TranscriptError`] only on a defect of the rules or presets.
pub fn transcript(
    seed: &str,
    preset: Preset,
    audience: Audience,
) -> Result<String, TranscriptError> {
    let game = narrated_game(seed, preset, audience)?;
    let mut cited: Vec<String> = Vec::new();
    let mut out = String::new();
    let _ = writeln!(out, "# Zohn Ahl: a narrated game\n");
    let preset_name: &'static str = preset.into();
    let _ = writeln!(
        out,
        "Preset `{preset_name}`, seed `{seed}`, audience `{}`. Generated by `zohn-ahl transcript --seed {seed} --preset {preset_name} --audience {}`; the same seed always gives the same game.\n",
        audience.key(),
        audience.key(),
    );
    for m in &game.moves {
        let _ = writeln!(
            out,
            "## Move {}\n\nCounters after: A {}, B {}.\n",
            m.n, m.counters[0], m.counters[1]
        );
        for segment in &m.narration.segments {
            let label = match segment.kind {
                SegmentKind::Event => "",
                SegmentKind::Rule => "*Rule.* ",
                SegmentKind::Context => "*Context.* ",
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
    let _ = writeln!(out, "## Sources cited\n");
    for id in &cited {
        let title = catalogue()
            .source(id)
            .and_then(|s| s.csl.get("title"))
            .and_then(|t| t.as_str())
            .unwrap_or_default()
            .to_owned();
        let _ = writeln!(out, "- `{id}`: {title}");
    }
    Ok(out)
}
