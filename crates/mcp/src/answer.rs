//! Compact answers for a language model: the essentials of a game and a
//! move as structured content (with their output schemas), and a short text
//! block of the narration's sentences, each with a short citation. The full
//! views stay on REST.

use schemars::JsonSchema;
use serde::Serialize;

use crate::domain::{Game, MoveRecord};
use crate::narration::{Chances, Citation, Narration, Seen, Segment, SegmentKind};
use crate::rules::{Event, GameState, Outcome, Side, Throw};
use crate::service::{ChanceTable, ChancesUnknown};

/// One side's place.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SideBrief {
    /// `A` or `B`.
    pub side: String,
    /// Its name.
    pub name: String,
    /// Its awl's space, in its own numbering (1 is its start).
    pub space: u8,
    /// Counters it holds.
    pub counters: u8,
    /// Circuits it has completed.
    pub circuits: u16,
}

/// A game's essentials.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GameBrief {
    /// The game's id.
    pub game_id: String,
    /// `in_progress` or `finished`.
    pub status: String,
    /// `won` or `draw` once finished; empty before.
    pub result: String,
    /// `A` or `B` once one has won; empty before, and for a draw.
    pub winner: String,
    /// The side to throw next (`A` or `B`); empty once finished.
    pub to_throw: String,
    /// The player to throw next; empty once finished.
    pub to_throw_player: String,
    /// Whether the side to throw is throwing again.
    pub extra_throw_pending: bool,
    /// The preset.
    pub preset: String,
    /// Throws played.
    pub throws: u32,
    /// The game's version (moves, plus one for a stop).
    pub version: u32,
    /// Whether throws need a token.
    pub seated: bool,
    /// In a seated game: whether a side's own token may report a physical
    /// throw for it (otherwise only the host's may).
    pub sides_report_throws: bool,
    /// Side A, then side B.
    pub sides: Vec<SideBrief>,
}

/// A move's essentials.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MoveBrief {
    /// Move number, from 1.
    pub n: u32,
    /// The side that threw.
    pub side: String,
    /// The player who threw.
    pub player: String,
    /// `server` (thrown by the service) or `reported` (a physical throw).
    pub origin: String,
    /// The sticks' faces, the sahe last (empty for a spinner game).
    pub sticks: Vec<String>,
    /// The spinner's sector (empty for a stick game).
    pub spinner: String,
    /// Spaces the throw is worth.
    pub value: u8,
    /// Whether the result earns another throw.
    pub throws_again: bool,
    /// The mover's awl before, its own numbering.
    pub from: u8,
    /// The mover's awl after, its own numbering.
    pub to: u8,
    /// What happened, in order (`moved`, `fell_into_creek`, `whipped`,
    /// `completed_circuit`, `counter_paid`, `won`, ...).
    pub events: Vec<String>,
    /// Side A's counters after the move.
    pub counters_a: u8,
    /// Side B's counters after the move.
    pub counters_b: u8,
    /// The rules the narration states or applies, in order, each once:
    /// `explain_rule` states each in full.
    pub rules: Vec<String>,
    /// The facts the narration tells, in order, each once: `get_fact`
    /// tells each.
    pub facts: Vec<String>,
    /// A's exact chance of winning before and after the move (B's: 1 minus
    /// it); `null`: see `chances_unknown`.
    pub chances_a: Option<[f64; 2]>,
    /// Why `chances_a` is `null` (`ruleset_too_large`, `being_solved`).
    pub chances_unknown: Option<String>,
}

/// Each side's chance of winning before move `record` and after it, from
/// `table` (the game's ruleset's solved chain).
pub fn move_chances(
    game: &Game,
    record: &MoveRecord,
    table: &ChanceTable,
) -> Result<Chances, ChancesUnknown> {
    game.setup
        .table()
        .map_err(|_| ChancesUnknown::Unavailable)
        .and_then(|t| table.of_move(&t, record))
}

/// The answer to `throw` and `report_throw`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ThrowOutput {
    /// The move (after several throws, the last).
    #[serde(rename = "move")]
    pub move_: MoveBrief,
    /// Throws this call played.
    pub played: u32,
    /// Why the throws stopped: `count` (as many as asked), `event`,
    /// `turn_end` (also when a side's token has played its side's turn and
    /// the other side is to throw), `game_end`, or `refused` (the next
    /// throw was refused; the text says why).
    pub stopped: String,
    /// After several throws: the moves the text tells beyond one line,
    /// with their rule and fact ids; empty after one throw.
    pub moments: Vec<MoveBrief>,
    /// The game after it.
    pub game: GameBrief,
}

/// The secret tokens of a seated game.
#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct TokensBrief {
    /// Side A's token (empty for a game without seats).
    pub a: String,
    /// Side B's token.
    pub b: String,
    /// The host's token: reports physical throws and stops the game (empty
    /// where the game has none).
    pub host: String,
    /// Side A's and side B's join codes, which a pupil types at the
    /// server's `/join` page to open her seat (empty where there are none).
    pub join_codes: [String; 2],
}

/// The answer to `create_game`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CreatedOutput {
    /// The game.
    pub game: GameBrief,
    /// Its tokens, shown this once: keep them; pass the right one as
    /// `token`.
    pub tokens: TokensBrief,
}

/// The answer to `list_games`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GamesOutput {
    /// The games this session made, oldest first.
    pub games: Vec<GameBrief>,
}

/// The answer to `list_moves`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MovesOutput {
    /// The moves, oldest first.
    pub moves: Vec<MoveBrief>,
    /// Pass as `after` for the next moves; 0 when there are no more.
    pub next_after: u32,
}

/// The answer to `get_odds`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OddsOutput {
    /// The game's id.
    pub game_id: String,
    /// The version the odds are for.
    pub version: u32,
    /// Side A's exact probability of winning from here.
    pub win_a: f64,
    /// Side B's.
    pub win_b: f64,
    /// Expected throws left.
    pub expected_throws_left: f64,
}

pub(crate) fn side_name(side: Side) -> String {
    <&str>::from(side).to_owned()
}

fn name_of<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// A game's essentials at `state`.
#[must_use]
pub fn game_brief(game: &Game, state: &GameState) -> GameBrief {
    let setup = &game.setup;
    let finished = state.is_finished();
    let next = match (setup.table(), finished) {
        (Ok(t), false) => Some(state.to_throw(&t)),
        _ => None,
    };
    GameBrief {
        game_id: game.id.to_string(),
        status: if finished { "finished" } else { "in_progress" }.to_owned(),
        result: match state.outcome {
            Some(Outcome::Won { .. }) => "won",
            Some(Outcome::Draw) => "draw",
            None => "",
        }
        .to_owned(),
        winner: match state.outcome {
            Some(Outcome::Won { side }) => side_name(side),
            _ => String::new(),
        },
        to_throw: next.map(|s| side_name(s.side)).unwrap_or_default(),
        to_throw_player: next
            .map(|s| setup.player_name(s).to_owned())
            .unwrap_or_default(),
        extra_throw_pending: state.extra_throw,
        preset: <&str>::from(setup.preset).to_owned(),
        throws: state.throws,
        version: game.version.get(),
        seated: game.seated,
        sides_report_throws: game.sides_report_throws,
        sides: Side::BOTH
            .iter()
            .map(|&side| SideBrief {
                side: side_name(side),
                name: setup.sides[side.index()].name.clone(),
                space: state.awl(side),
                counters: state.counters(side),
                circuits: state.circuits[side.index()],
            })
            .collect(),
    }
}

/// A move's essentials, with the rule and fact ids of `narration` (the
/// move as the game tells it).
#[must_use]
pub fn move_brief(
    game: &Game,
    record: &MoveRecord,
    narration: &Narration,
    chances: Result<Chances, ChancesUnknown>,
) -> MoveBrief {
    let (sticks, spinner) = match record.throw {
        Throw::Sticks(s) => (s.faces().iter().map(name_of).collect(), String::new()),
        Throw::Spinner(sector) => (Vec::new(), name_of(&sector)),
    };
    MoveBrief {
        n: record.n,
        side: side_name(record.seat.side),
        player: game.setup.player_name(record.seat).to_owned(),
        origin: name_of(&record.origin),
        sticks,
        spinner,
        value: record.score.value,
        throws_again: record.score.throws_again,
        from: record.from,
        to: record.to,
        events: record
            .events
            .iter()
            .filter_map(|e| {
                serde_json::to_value(e)
                    .ok()
                    .and_then(|v| v.get("kind").and_then(|k| k.as_str().map(str::to_owned)))
            })
            .collect(),
        counters_a: record.state.counters[0],
        counters_b: record.state.counters[1],
        rules: ids(narration, |s| s.rule.as_deref()),
        facts: ids(narration, |s| s.fact.as_deref()),
        chances_a: chances.ok().map(|c| [c.before[0], c.after[0]]),
        chances_unknown: chances.err().map(|why| why.key().to_owned()),
    }
}

/// The ids a narration's sentences name, in order, each once.
fn ids(narration: &Narration, id: impl Fn(&Segment) -> Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in &narration.segments {
        if let Some(id) = id(s)
            && !out.iter().any(|o| o == id)
        {
            out.push(id.to_owned());
        }
    }
    out
}

/// What a move brings beyond a plain move: its events other than the awl
/// moving (and passing the north creek), the same side throwing again and
/// the turn passing (a fall, a whip, a circuit, a counter, a dry branch, a
/// lost or skipped turn, the end), by kind; none for a plain move.
#[must_use]
pub fn notable_events(record: &MoveRecord) -> Vec<&'static str> {
    record
        .events
        .iter()
        .filter(|e| {
            !matches!(
                e,
                Event::Moved { .. }
                    | Event::PassedNorthCreek { .. }
                    | Event::ThrowsAgain { .. }
                    | Event::TurnPassed { .. }
            )
        })
        .map(Event::kind)
        .collect()
}

/// Whether a lesson's narration of a move teaches something: a rule stated
/// (not only recalled) or a fact told.
#[must_use]
pub fn teaches(narration: &Narration) -> bool {
    narration
        .segments
        .iter()
        .any(|s| s.kind == SegmentKind::Context || (s.kind == SegmentKind::Rule && !s.brief))
}

/// The rule and fact ids a narration names, for `explain_rule` and
/// `get_fact`: `(ids: rules sticks_sahe, whip; fact womens-game)`; none
/// when it tells no rule or fact beyond what happened (a `brief`
/// sentence, and the first move's one-line framing).
#[must_use]
pub fn ids_line(narration: &Narration) -> Option<String> {
    if narration
        .segments
        .iter()
        .all(|s| matches!(s.kind, SegmentKind::Event | SegmentKind::Framing))
    {
        return None;
    }
    let rules = ids(narration, |s| s.rule.as_deref());
    let facts = ids(narration, |s| s.fact.as_deref());
    let mut parts = Vec::new();
    if !rules.is_empty() {
        parts.push(format!("rules {}", rules.join(", ")));
    }
    if !facts.is_empty() {
        parts.push(format!("fact {}", facts.join(", ")));
    }
    (!parts.is_empty()).then(|| format!("(ids: {})", parts.join("; ")))
}

/// A move in one line: its number and its narration's sentences (at
/// `brief` detail, one), each with its short citation.
#[must_use]
pub fn move_line(n: u32, narration: &Narration) -> String {
    let said = narration
        .segments
        .iter()
        .map(|s| format!("{}{}", s.text, cite(&s.citations)))
        .collect::<Vec<_>>()
        .join(" ");
    format!("{n}. {said}")
}

/// A move told beyond one line, within `budget` characters: its number,
/// its narration (what does not fit named by its id) and the ids it names.
#[must_use]
pub fn moment_text(n: u32, narration: &Narration, budget: usize) -> String {
    let ids = ids_line(narration);
    let head = format!("{n}. ");
    let room = budget
        .saturating_sub(head.chars().count() + ids.as_ref().map_or(0, |i| i.chars().count() + 1));
    let mut text = format!("{head}{}", narration_within(narration, room));
    if let Some(ids) = ids {
        text.push('\n');
        text.push_str(&ids);
    }
    text
}

/// The most characters of a throw's text block: about 300 tokens, at four
/// characters a token.
pub const TEXT_BUDGET: usize = 1200;

/// Most sources a short citation names; more are counted (`+2`).
const CITED: usize = 2;

/// A short citation: `[culin1907 p. 126]`, at most two sources, the rest
/// counted (`[wp-zohnahl; ludii-ev-118 +3]`), each not seen directly
/// saying so (`[culin1898 pp. 687-689 (not seen)]`).
#[must_use]
pub fn cite(citations: &[Citation]) -> String {
    let parts: Vec<String> = citations
        .iter()
        .take(CITED)
        .map(|c| {
            let cited = match &c.locator {
                Some(l) => format!("{} {l}", c.source),
                None => c.source.clone(),
            };
            // Terse for a model: the lesson page gives the caveat in full.
            match c.seen() {
                Seen::Seen => cited,
                Seen::Quoted => format!("{cited} (as quoted)"),
                Seen::NotSeen => format!("{cited} (not seen)"),
            }
        })
        .collect();
    if parts.is_empty() {
        return String::new();
    }
    let more = citations.len().saturating_sub(CITED);
    if more > 0 {
        format!(" [{} +{more}]", parts.join("; "))
    } else {
        format!(" [{}]", parts.join("; "))
    }
}

/// Every sentence of the narration, one a line, each with its short
/// citation.
#[must_use]
pub fn narration_text(narration: &Narration) -> String {
    narration
        .segments
        .iter()
        .map(|s| format!("{}{}", s.text, cite(&s.citations)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The narration within `budget` characters: every event sentence (what
/// happened), then the rule and context sentences in reading order while
/// they fit. A rule sentence that does not fit is named by its id, for
/// `explain_rule`; a context sentence by its fact id, for `get_fact`.
#[must_use]
pub fn narration_within(narration: &Narration, budget: usize) -> String {
    let segments = &narration.segments;
    let lines: Vec<String> = segments
        .iter()
        .map(|s| format!("{}{}", s.text, cite(&s.citations)))
        .collect();
    // Which sentences are told in full: the events always, the others
    // while they fit, then fewer until the note on the rest fits too.
    let mut told: Vec<bool> = segments
        .iter()
        .map(|s| s.kind == SegmentKind::Event)
        .collect();
    let len = |l: &String| l.chars().count() + 1;
    let mut used: usize = lines
        .iter()
        .zip(&told)
        .filter(|(_, t)| **t)
        .map(|(l, _)| len(l))
        .sum();
    for (i, l) in lines.iter().enumerate() {
        if !told[i] && used + len(l) <= budget {
            used += len(l);
            told[i] = true;
        }
    }
    let mut events_cut = false;
    loop {
        let mut named: Vec<String> = Vec::new();
        for (s, _) in segments.iter().zip(&told).filter(|(_, t)| !**t) {
            let name = match (&s.rule, &s.fact) {
                (Some(rule), _) => format!("rule {rule}"),
                (None, Some(fact)) => format!("fact {fact}"),
                (None, None) => continue,
            };
            if !named.contains(&name) {
                named.push(name);
            }
        }
        if events_cut {
            named.push("the whole move in list_moves".to_owned());
        }
        let mut out: Vec<&str> = lines
            .iter()
            .zip(&told)
            .filter(|(_, t)| **t)
            .map(|(l, _)| l.as_str())
            .collect();
        let note = format!("(More: {}.)", named.join(", "));
        if !named.is_empty() {
            out.push(&note);
        }
        let text = out.join("\n");
        let last_optional = (0..segments.len())
            .rev()
            .find(|&i| told[i] && segments[i].kind != SegmentKind::Event);
        // Past the budget with only the events left (a move with a whip, a
        // fall and a lost throw, told for scholars): the later events go
        // too, the caption having said the move; the first always stays.
        let last_event = (1..segments.len())
            .rev()
            .find(|&i| told[i] && segments[i].kind == SegmentKind::Event);
        match (last_optional, last_event) {
            (Some(i), _) if text.chars().count() > budget => told[i] = false,
            (None, Some(i)) if text.chars().count() > budget => {
                told[i] = false;
                events_cut = true;
            }
            _ => return text,
        }
    }
}

/// One line on where the game stands: who throws next, or how it ended.
#[must_use]
pub fn standing_line(brief: &GameBrief) -> String {
    let score = brief
        .sides
        .iter()
        .map(|s| format!("{} {} (own {})", s.name, s.counters, s.space))
        .collect::<Vec<_>>()
        .join(", ");
    let who = |side: &str| {
        brief
            .sides
            .iter()
            .find(|s| s.side == side)
            .map(|s| s.name.clone())
            .unwrap_or_default()
    };
    if brief.status == "finished" {
        if brief.winner.is_empty() {
            format!("Finished: a draw. Counters: {score}.")
        } else {
            format!("Finished: {} wins. Counters: {score}.", who(&brief.winner))
        }
    } else {
        let again = if brief.extra_throw_pending {
            " again"
        } else {
            ""
        };
        format!(
            "Counters: {score}. Next: {} ({}) throws{again}.",
            brief.to_throw_player, brief.to_throw
        )
    }
}

/// The text block of a move, within [`TEXT_BUDGET`]: its number and caption, its
/// `narration` (sentences with short citations; what does not fit named by
/// its rule or fact id), and where the game stands.
#[must_use]
pub fn move_text(
    record: &MoveRecord,
    narration: &Narration,
    caption: &str,
    brief: &GameBrief,
) -> String {
    let head = format!("Move {}: {caption}", record.n);
    let tail = match ids_line(narration) {
        Some(ids) => format!("{ids}\n{}", standing_line(brief)),
        None => standing_line(brief),
    };
    let room = TEXT_BUDGET.saturating_sub(head.chars().count() + tail.chars().count() + 2);
    format!("{head}\n{}\n{tail}", narration_within(narration, room))
}
