//! The end of a game read aloud: the recap's questions a class can answer
//! from what it heard.

use super::{Question, RecapFacts, Tally, TallyKind, Words, distance, tally_question};
use crate::catalogue::catalogue;
use crate::rules::Options;
use crate::template::BoardVars;
use crate::vocabulary::{Audience, Cast, Citation};

/// Most questions a game read aloud ends with.
pub const LOOKING_BACK_QUESTIONS: usize = 2;

/// The end of a game read aloud to a class (a teacher's trial: the stopped
/// ending was flat): a line that says questions follow, then, for at most
/// [`LOOKING_BACK_QUESTIONS`] of the counts a class hears every time they
/// happen (falls, whips, trips around) and that happened at least once,
/// the falls first, then furthest from what the odds expect, the recap's
/// question on it,
/// with its answer after it. Not the rarest throw's or the extra throws'
/// (a teacher's trial: a 10 or an extra throw inside a run of quick turns
/// is not heard, so a class that counted was told it was wrong), nor a
/// question about one move (a class has no move numbers to go by), nor a
/// count of nothing. Each paragraph with what says its numbers (this
/// service's computation). Empty when nothing was counted.
#[must_use]
pub fn looking_back(
    facts: &RecapFacts,
    options: &Options,
    cast: &Cast,
    audience: Audience,
) -> Vec<(String, Vec<Citation>)> {
    let words = Words {
        vars: BoardVars::new(catalogue(), options, audience),
        audience,
        cast,
    };
    let mut heard: Vec<&Tally> = facts
        .tallies
        .iter()
        .filter(|t| {
            t.observed > 0
                && matches!(
                    t.kind,
                    TallyKind::Falls | TallyKind::Whips | TallyKind::Circuits
                )
        })
        .collect();
    // The falls first (a teacher's trial: the splashes, what a class
    // remembers best, went unasked when another count was further off),
    // then the furthest from its expectation.
    heard.sort_by(|a, b| {
        (b.kind == TallyKind::Falls)
            .cmp(&(a.kind == TallyKind::Falls))
            .then(distance(b).total_cmp(&distance(a)))
    });
    let asked: Vec<Question> = heard
        .into_iter()
        .take(LOOKING_BACK_QUESTIONS)
        .map(|t| tally_question(t, &words))
        .collect();
    if asked.is_empty() {
        return Vec::new();
    }
    let mut out = vec![(words.say("looking_back", &[]), Vec::new())];
    out.extend(asked.into_iter().map(|q| {
        (
            words.say(
                "question_answer",
                &[("question", &q.question), ("answer", &q.answer)],
            ),
            q.citations,
        )
    }));
    out
}
