//! The recap of a finished game in words: a short summary and three to five
//! questions for a class, each tied to something that happened in the game
//! and each with its answer worked out from the numbers.
//!
//! Pure: the numbers are given ([`RecapFacts`]: the service finds them in
//! the move log and the ruleset's solved chain); this module only words
//! them, from the catalogue's `recap` templates, for an audience. Every
//! sentence that states a chance, an expectation or a probability cites
//! [`ODDS_SOURCE`], this service's own computation.

use serde::{Deserialize, Serialize};

use super::catalogue::catalogue;
use super::odds::{ODDS_SOURCE, chance_words};
use super::template::BoardVars;
use super::vocabulary::{Audience, Cast, Citation, Detail};
use crate::rules::{Odds, Options, Side};

mod cause;
mod looking_back;
pub use cause::SwingCause;
pub use looking_back::{LOOKING_BACK_QUESTIONS, looking_back};

/// The winner's lowest chance below which the recap asks about the
/// comeback: a winner who was never less than 1 in 3 to win made none
/// worth a question.
pub const COMEBACK: f64 = 1.0 / 3.0;

/// A move as the recap tells it: who threw what, and each side's chance of
/// winning before and after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveSwing {
    /// The move's number.
    pub n: u32,
    /// The side that threw.
    pub side: Side,
    /// The throw's value.
    pub value: u8,
    /// The probability of the throw's result.
    pub probability: Odds,
    /// Each side's chance before the move, A first.
    pub before: [f64; 2],
    /// Each side's chance after it, A first.
    pub after: [f64; 2],
    /// What the move did.
    pub cause: SwingCause,
}

impl MoveSwing {
    /// How much the move changed the chance of the side that threw (its
    /// luck: a side's chance before a throw is the average of its chances
    /// after every throw it could make).
    #[must_use]
    pub fn gain(&self) -> f64 {
        let i = self.side.index();
        self.after[i] - self.before[i]
    }
}

/// What the recap counts against what the odds expect.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum TallyKind {
    /// An awl fell into a creek.
    Falls,
    /// An awl was whipped (sent back by the other landing on it).
    Whips,
    /// An awl came home: a circuit completed.
    Circuits,
    /// A throw earned another.
    ExtraThrows,
}

impl TallyKind {
    /// All kinds, in the recap's order.
    pub const ALL: [TallyKind; 4] = [
        TallyKind::Falls,
        TallyKind::Whips,
        TallyKind::Circuits,
        TallyKind::ExtraThrows,
    ];

    /// The kind's name as written in the API.
    #[must_use]
    pub fn key(self) -> &'static str {
        self.into()
    }
}

/// How often something happened in the game, and how often the odds
/// expected it from the positions the game passed through.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tally {
    /// What is counted.
    pub kind: TallyKind,
    /// Times it happened.
    pub observed: u32,
    /// Times expected: the sum over the game's moves of its probability on
    /// that move's throw, from the state the move was played from.
    pub expected: f64,
}

/// The rarest result of the ruleset's throws, and how often it came.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RareResult {
    /// Its value.
    pub value: u8,
    /// Its probability on one throw.
    pub probability: Odds,
    /// Times it came in this game.
    pub observed: u32,
}

/// The longest run of moves by one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The side.
    pub side: Side,
    /// Its first move.
    pub first: u32,
    /// Its last move.
    pub last: u32,
    /// Whether every move of the run but the last earned an extra throw
    /// (and not a skipped turn of the other side).
    pub extra_throws_only: bool,
}

impl Run {
    /// Moves in the run.
    #[must_use]
    pub fn turns(&self) -> u32 {
        self.last - self.first + 1
    }
}

/// The chances part of a recap: present when the ruleset's odds are solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChanceFacts {
    /// Each side's chance before the first throw, A first.
    pub opening: [f64; 2],
    /// The move that changed the chances most.
    pub turning_point: MoveSwing,
    /// The move that raised its thrower's chance most.
    pub luckiest: MoveSwing,
    /// The move that lowered its thrower's chance most.
    pub unluckiest: MoveSwing,
    /// The winner's lowest chance, and the move after which it was that
    /// (0: the opening); `None` without a winner.
    pub winners_lowest: Option<(f64, u32)>,
}

/// Everything the recap tells, as numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct RecapFacts {
    /// Moves played.
    pub moves: u32,
    /// The winner, if there is one.
    pub winner: Option<Side>,
    /// Whether the game was stopped (rather than won on the board).
    pub stopped: bool,
    /// The chances, when known.
    pub chances: Option<ChanceFacts>,
    /// Falls, whips, circuits and extra throws, in [`TallyKind::ALL`]'s
    /// order.
    pub tallies: Vec<Tally>,
    /// The ruleset's rarest result.
    pub rare: RareResult,
    /// The probability that a throw earns another.
    pub extra_throw: Odds,
    /// The longest run of moves by one side.
    pub longest_run: Option<Run>,
}

/// A question for the class, with its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Question {
    /// The question.
    pub question: String,
    /// Its answer, worked out from the numbers.
    pub answer: String,
    /// The move it is about, if one.
    pub about_move: Option<u32>,
    /// What says the numbers in the answer.
    pub citations: Vec<Citation>,
}

/// A recap in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecapText {
    /// The summary, a sentence a line.
    pub summary: Vec<String>,
    /// Three to five questions.
    pub questions: Vec<Question>,
}

/// An expected count in the audience's words: young whole numbers ("about
/// 4"), general one decimal, scholars two.
#[must_use]
pub fn expected_words(x: f64, audience: Audience) -> String {
    match audience {
        // A teacher's trial: "less than 1" was hard to picture; the next:
        // "none" was false for 0.4. Below one half, most games have none
        // (at least half of them, as the mean bounds the share with any).
        Audience::Young if x < 0.5 => "none, most of the time".to_owned(),
        // Halves up, as a class rounds ("about 3" for 2.5).
        Audience::Young => format!("about {}", x.round()),
        Audience::General => format!("about {x:.1}"),
        Audience::Scholar => format!("{x:.2}"),
    }
}

/// A probability as a fraction ("1 in 16", "3/16" for scholars).
fn odds_words(p: Odds, audience: Audience) -> String {
    match audience {
        Audience::Scholar => format!("{}/{}", p.numerator, p.denominator),
        _ => format!("{} in {}", p.numerator, p.denominator),
    }
}

/// How a count compares with its expectation, for `audience`. Young
/// players hear the expectation as a whole number ([`expected_words`]), and
/// the comparison goes by the number they heard (a curator's trial: "about
/// 1" with 2 was "more than usual" in one game and "about usual" in
/// another): the same, "about"; one apart from 3 or more, "a little"
/// more or fewer; further, or from fewer, more or fewer; one or more where less than 1 was expected,
/// more (a teacher's trial: one whip against 0.14 expected was "about
/// usual"). Others hear it to a tenth and the comparison goes by the
/// spread of a count of rare events (a Poisson count: the square root of
/// the expectation, at least 1): "about" within it, except that a thing
/// that came although less than one half was expected came more often
/// than expected.
fn comparison(t: &Tally, audience: Audience) -> &'static str {
    if t.expected < 0.5 && t.observed >= 1 {
        return "cmp_more";
    }
    if audience == Audience::Young {
        // The whole number heard: halves up, as `expected_words` rounds.
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "an expected count of a game's events is small and not negative"
        )]
        let heard = t.expected.round() as u32;
        // One apart is "a little" from 3 up: twice against about 1 is
        // twice as many (a teacher's trial: "twice: a little more").
        let near = t.observed.abs_diff(heard) == 1 && heard >= 3;
        return match t.observed.cmp(&heard) {
            std::cmp::Ordering::Equal => "cmp_about",
            std::cmp::Ordering::Greater if near => "cmp_little_more",
            std::cmp::Ordering::Less if near => "cmp_little_fewer",
            std::cmp::Ordering::Greater => "cmp_more",
            std::cmp::Ordering::Less => "cmp_fewer",
        };
    }
    let d = f64::from(t.observed) - t.expected;
    if d.abs() < t.expected.sqrt().max(1.0) {
        "cmp_about"
    } else if d > 0.0 {
        "cmp_more"
    } else {
        "cmp_fewer"
    }
}

/// `once`, `twice`, `3 times` (a teacher's trial: "1 time" read aloud).
pub(crate) fn times(n: u32) -> String {
    match n {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        n => format!("{n} times"),
    }
}

/// The words of a recap of a game with these facts, for `audience` at
/// `detail` (`brief`: the result and the turning point; `lesson`: the
/// opening and the counts too; `full`: the luckiest and unluckiest throws
/// as well). The questions are the same at every detail level.
#[must_use]
pub fn recap_words(
    facts: &RecapFacts,
    options: &Options,
    cast: &Cast,
    audience: Audience,
    detail: Detail,
) -> RecapText {
    let words = Words {
        vars: BoardVars::new(catalogue(), options, audience),
        audience,
        cast,
    };
    let mut summary = Vec::new();
    summary.push(words.result(facts));
    if let Some(c) = &facts.chances {
        if detail != Detail::Brief {
            summary.push(words.say(
                "opening",
                &[
                    ("a", &chance_words(c.opening[0], audience)),
                    ("b", &chance_words(c.opening[1], audience)),
                    ("side_a", cast.side(Side::A)),
                    ("side_b", cast.side(Side::B)),
                ],
            ));
        }
        summary.push(words.swing("turning", &c.turning_point));
        if detail == Detail::Full {
            for (key, m) in [("luckiest", &c.luckiest), ("unluckiest", &c.unluckiest)] {
                if words.tells_more(m, &c.turning_point) {
                    summary.push(words.swing(key, m));
                }
            }
        }
    }
    if detail != Detail::Brief {
        for t in &facts.tallies {
            summary.push(words.tally(t));
        }
    }
    RecapText {
        summary,
        questions: questions(facts, &words),
    }
}

/// How far a count came from its expectation.
fn distance(t: &Tally) -> f64 {
    (f64::from(t.observed) - t.expected).abs()
}

/// The recap's question on count `t`, with its answer.
fn tally_question(t: &Tally, words: &Words<'_>) -> Question {
    let audience = words.audience;
    let vars = [
        ("observed", t.observed.to_string()),
        ("observed_times", times(t.observed)),
        ("expected", expected_words(t.expected, audience)),
        ("event", words.say(&format!("event_{}", t.kind.key()), &[])),
        ("comparison", words.say(comparison(t, audience), &[])),
    ];
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, s)| (*k, s.as_str())).collect();
    Question {
        question: words.say("q_tally", &vars),
        answer: words.say("a_tally", &vars),
        about_move: None,
        citations: vec![Citation {
            source: ODDS_SOURCE.to_owned(),
            locator: None,
        }],
    }
}

/// The questions: the turning point, the rarest result, the count furthest
/// from its expectation, the longest run of extra throws, the winner's
/// lowest chance; at least three (a second count when others cannot be
/// asked), at most five. None for a game stopped before its first throw,
/// which has nothing to look back on (a teacher's trial was asked to guess
/// how many of 0 throws came up 10).
fn questions(facts: &RecapFacts, words: &Words<'_>) -> Vec<Question> {
    if facts.moves == 0 {
        return Vec::new();
    }
    let audience = words.audience;
    let own = vec![Citation {
        source: ODDS_SOURCE.to_owned(),
        locator: None,
    }];
    let mut out = Vec::new();
    let ask =
        |out: &mut Vec<Question>, key: &str, vars: &[(&str, &str)], about_move: Option<u32>| {
            out.push(Question {
                question: words.say(&format!("q_{key}"), vars),
                answer: words.say(&format!("a_{key}"), vars),
                about_move,
                citations: own.clone(),
            });
        };
    if let Some(c) = &facts.chances {
        let t = &c.turning_point;
        let i = t.side.index();
        // The difference of the percentages as shown, so that the numbers
        // in the answer add up.
        let pct = |p: f64| (p * 100.0).round();
        let points = (pct(t.after[i]) - pct(t.before[i])).abs();
        let points = if points < 1.5 && points > 0.5 {
            "1 percentage point".to_owned()
        } else {
            format!("{points:.0} percentage points")
        };
        let swing = format!("{:.4}", (t.after[i] - t.before[i]).abs());
        ask(
            &mut out,
            "turning",
            &[
                ("what", &words.cause(t)),
                ("n", &t.n.to_string()),
                ("value", &t.value.to_string()),
                ("side", words.cast.side(t.side)),
                ("before", &chance_words(t.before[i], audience)),
                ("after", &chance_words(t.after[i], audience)),
                ("rarity", &odds_words(t.probability, audience)),
                ("points", &points),
                ("swing", &swing),
            ],
            Some(t.n),
        );
    }
    let rare = &facts.rare;
    let expected = f64::from(facts.moves) * f64::from(rare.probability.numerator)
        / f64::from(rare.probability.denominator);
    // The spinner's chances are this service's assumption (a curator's
    // trial: "A 10 comes about 1 in 7 spins" said as the sheet's).
    let assumed = if words.vars.spinner() {
        words.say("spinner_assumed", &[])
    } else {
        String::new()
    };
    ask(
        &mut out,
        "rare",
        &[
            ("assumed", &assumed),
            ("value", &rare.value.to_string()),
            ("rarity", &odds_words(rare.probability, audience)),
            ("moves", &facts.moves.to_string()),
            ("num", &rare.probability.numerator.to_string()),
            ("den", &rare.probability.denominator.to_string()),
            ("expected", &expected_words(expected, audience)),
            ("observed", &rare.observed.to_string()),
        ],
        None,
    );
    // The counts, furthest from their expectation first.
    let mut tallies: Vec<&Tally> = facts.tallies.iter().collect();
    tallies.sort_by(|a, b| distance(b).total_cmp(&distance(a)));
    if let Some(t) = tallies.first() {
        out.push(tally_question(t, words));
    }
    if let Some(run) = facts
        .longest_run
        .filter(|r| r.extra_throws_only && r.turns() >= 3)
    {
        let extra = run.turns() - 1;
        let q = facts.extra_throw;
        let p = (f64::from(q.numerator) / f64::from(q.denominator)).powf(f64::from(extra));
        let one_in = format!("{:.0}", (1.0 / p).round());
        ask(
            &mut out,
            "run",
            &[
                ("side", words.cast.side(run.side)),
                ("first", &run.first.to_string()),
                ("last", &run.last.to_string()),
                ("turns", &run.turns().to_string()),
                ("extra", &extra.to_string()),
                ("q", &odds_words(q, audience)),
                ("one_in", &one_in),
                ("p", &format!("{p:.4}")),
            ],
            Some(run.first),
        );
    }
    if let (Some(c), Some(winner)) = (&facts.chances, facts.winner)
        && let Some((low, n)) = c.winners_lowest.filter(|(low, _)| *low < COMEBACK)
    {
        ask(
            &mut out,
            "comeback",
            &[
                ("winner", words.cast.side(winner)),
                ("low", &chance_words(low, audience)),
                ("n", &n.to_string()),
            ],
            (n > 0).then_some(n),
        );
    }
    if out.len() < 3
        && let Some(t) = tallies.get(1)
    {
        out.push(tally_question(t, words));
    }
    out.truncate(5);
    out
}

/// The recap's templates filled for one audience.
struct Words<'a> {
    vars: BoardVars,
    audience: Audience,
    cast: &'a Cast,
}

impl Words<'_> {
    /// Template `key` for the audience, filled.
    fn say(&self, key: &str, vars: &[(&str, &str)]) -> String {
        let cat = catalogue();
        let template = cat
            .templates
            .recap
            .get(key)
            .map_or("", |p| p.get(self.audience).as_str());
        self.vars.fill(template, vars)
    }

    fn result(&self, facts: &RecapFacts) -> String {
        let moves = facts.moves.to_string();
        match (facts.winner, facts.stopped) {
            (Some(w), false) => {
                self.say("won", &[("winner", self.cast.side(w)), ("moves", &moves)])
            }
            (Some(w), true) => self.say(
                "stopped_won",
                &[("winner", self.cast.side(w)), ("moves", &moves)],
            ),
            (None, _) => self.say("stopped_draw", &[("moves", &moves)]),
        }
    }

    /// What move `m` did, in words ("a 3 for the Otters took them into
    /// the creek").
    fn cause(&self, m: &MoveSwing) -> String {
        self.say(
            &format!("cause_{}", m.cause.key()),
            &[
                ("value", &m.value.to_string()),
                ("side", self.cast.side(m.side)),
                ("other", self.cast.side(m.side.other())),
            ],
        )
    }

    /// Whether the luckiest or unluckiest move `m` adds to the turning
    /// point: another move, with a change the audience's words show.
    fn tells_more(&self, m: &MoveSwing, turning: &MoveSwing) -> bool {
        let i = m.side.index();
        m.n != turning.n
            && chance_words(m.before[i], self.audience) != chance_words(m.after[i], self.audience)
    }

    fn swing(&self, key: &str, m: &MoveSwing) -> String {
        let i = m.side.index();
        self.say(
            key,
            &[
                ("what", &self.cause(m)),
                ("n", &m.n.to_string()),
                ("value", &m.value.to_string()),
                ("side", self.cast.side(m.side)),
                ("before", &chance_words(m.before[i], self.audience)),
                ("after", &chance_words(m.after[i], self.audience)),
                ("rarity", &odds_words(m.probability, self.audience)),
            ],
        )
    }

    fn tally(&self, t: &Tally) -> String {
        self.say(
            &format!("tally_{}", t.kind.key()),
            &[
                ("observed", &t.observed.to_string()),
                ("observed_times", &times(t.observed)),
                ("expected", &expected_words(t.expected, self.audience)),
            ],
        )
    }
}

#[cfg(test)]
mod tests;
