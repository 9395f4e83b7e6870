//! Narration: typed events and state in, narrated segments with citations
//! out. Pure: no I/O, no clock, no randomness.
//!
//! Every text comes from data embedded at compile time (`data/*.json`):
//! event templates and rule statements (`templates.json`), cultural-context
//! facts (`facts.json`), feature names (`features.json`), the bibliography
//! as CSL-JSON (`sources.json`), the glossary (`glossary.json`) and the
//! lessons (`lessons.json`). Every fact cites its sources; every text is
//! written in the product's own words. The rules themselves are described
//! in `docs/rules.md`.
//!
//! No text told in a game contradicts the ruleset in play
//! (`tests/it/narration_fidelity.rs` reads every sentence of seeded games of
//! every preset and audience): a value, an extra throw, a dry branch's
//! effect or a creek bank that another ruleset has is told only as what
//! that reading would make of the case ("Ludii would call it a
//! homecoming") or as the historical record, in the past tense; the sticks
//! are spoken of under the spinner only in facts about the historical
//! game, in the past tense. A player is named, never "it": a side of one
//! player named after her is a person.
//!
//! The modules, each depending only on those before it (tests aside): `vocabulary` (the
//! shared types), `rule_id` (rule ids and which rule an option or event
//! calls for), `catalogue` (the parsed data), `template` (filling
//! templates), `statement` (rule statements), `facts` (choosing a context
//! fact), `plan` (what a move's narration tells), `render` (the move
//! narration in words), `odds` (a move's odds sentence, from chances given), `caption` (a move in one line), `stretch` (moves told together for reading aloud, and where the awls stand), `lesson` (a preset's rules as a lesson) and
//! `bibtex`.

/// The rules crate under the name the narration's modules use.
use zohn_ahl_rules as rules;

mod bibtex;
mod caption;
mod catalogue;
mod facts;
mod lesson;
mod odds;
mod plan;
mod recap;
mod render;
mod rule_id;
#[cfg(feature = "openapi")]
mod schema;
mod section;
mod skip;
mod source;
mod statement;
mod stretch;
mod template;
mod vocabulary;

pub use bibtex::{BibtexError, bibtex};
pub use caption::{CAPTION_MAX_CHARS, caption, check_captions};
pub use lesson::{
    CitedText, Lesson, LessonSection, brief_framing, departure, framing, game_length, lesson,
    preset_summary,
};

pub use catalogue::{
    BoardWords, Catalogue, EvidenceGrade, Fact, GlossaryTerm, PerAudience, Phrasings, RuleText,
    Source, catalogue, year_issued,
};
pub use facts::{in_games, remember_fact};
pub use odds::{
    Chances, ODDS_SOURCE, OddsMoment, RARE, SWING, YOUNG_LESSON_SWING, add_odds, chance_meaning,
    chance_words, odds_moment, odds_moment_for, odds_segment, turning_point,
};
pub use plan::{MAX_REMINDERS, NEAR, REMIND_AFTER};
pub use recap::{
    COMEBACK, ChanceFacts, LOOKING_BACK_QUESTIONS, MoveSwing, Question, RareResult, RecapFacts,
    RecapText, Run, SwingCause, Tally, TallyKind, expected_words, looking_back, recap_words,
};
pub use render::{
    insert_rule, narrate_move, narrate_planned, narrate_stop, plan_of, renarrate_move,
};
pub use rule_id::RuleId;
pub use skip::{
    Counted, Lead, SKIP_MIN, Skipped, lead_change_segment, narrate_skip, near_win_segment,
};
pub use statement::{rule_key_citations, rule_short_forms, rule_statement};
pub use stretch::{
    CLOSE, ChainThrow, STRETCH_MAX, STRETCH_MIN, StretchThrow, awls_apart, awls_meeting_segment,
    is_plain_move, is_quiet_move, lead_segment, narrate_chain, narrate_stretch,
    same_number_segment, stretch_turns,
};
pub use template::name_mid_sentence;
pub use vocabulary::{
    Audience, Cast, Citation, Detail, MoveContext, Narration, Reading, RuleStated, RulesStated,
    Seen, Segment, SegmentKind,
};
