//! Narration: typed events and state in, narrated segments with citations
//! out. Pure: no I/O, no clock, no randomness.
//!
//! Every text comes from data embedded at compile time (`data/*.json`):
//! event templates and rule statements (`templates.json`), cultural-context
//! facts (`facts.json`), feature names (`features.json`), the bibliography
//! as CSL-JSON (`sources.json`) and the glossary (`glossary.json`). Facts are
//! taken from `rules-research.md` section 6, none graded [U]; every text is
//! written in the product's own words.

mod bibtex;
mod catalogue;
mod lesson;
mod render;

pub use bibtex::{BibtexError, bibtex};
pub use lesson::{CitedText, Lesson, LessonSection, departure, lesson, preset_summary};

pub use catalogue::{
    BoardWords, Catalogue, Citation, EvidenceGrade, Fact, GlossaryTerm, PerAudience, Phrasings,
    RuleText, Source, catalogue,
};
pub use render::{
    Audience, Cast, FULL_STATEMENT_EVERY, MoveContext, Narration, RuleStated, Segment, SegmentKind,
    narrate_move, narrate_stop, remember_fact, renarrate_move, rule_statement,
};
