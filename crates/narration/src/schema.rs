//! OpenAPI schemas for the narration's enums and rule ids, behind the
//! `openapi` feature: the HTTP layer turns it on. Each lists exactly the
//! values serde writes, taken from the enum itself.

use std::borrow::Cow;

use strum::IntoEnumIterator;
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use crate::rules::schema::string_enum;
use crate::{Audience, Detail, Reading, RuleId, Seen, SegmentKind, SwingCause, TallyKind};

macro_rules! enum_schema {
    ($ty:ty, $name:literal, $all:expr, $doc:literal) => {
        impl utoipa::PartialSchema for $ty {
            fn schema() -> RefOr<Schema> {
                string_enum($all, $doc)
            }
        }
        impl utoipa::ToSchema for $ty {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed($name)
            }
        }
    };
}

enum_schema!(
    Audience,
    "Audience",
    &Audience::ALL.map(Audience::key),
    "Who the narration is written for: `young` (ages 7-10), `general` (default) or `scholar`."
);
enum_schema!(
    Detail,
    "Detail",
    &Detail::ALL.map(Detail::key),
    "How much a move's narration tells: `lesson` (default: each rule when it first acts, each fact at most once a game), `brief` (what happened and who is next, one sentence; the first move opens with a one-line framing) or `full` (every rule behind every event, every time)."
);
enum_schema!(
    SegmentKind,
    "SegmentKind",
    &["event", "rule", "context", "framing", "odds"],
    "`event`: what happened; `rule`: the rule behind it; `context`: cultural context; `framing`: what game is played and where its rules come from (the first move); `odds`: what the move did to the chances of winning (this service's own exact computation, told at `lesson` and `full` when a move swings them by 10 points or more, changes who is more likely to win, or comes from a throw rarer than 1 in 16)."
);

enum_schema!(
    Reading,
    "Reading",
    &Reading::ALL.map(Reading::key),
    "How much of a source those who wrote the narration read: `whole`, `part` (its record says which pages), `quoted` (not read itself: known through another source's quotation) or `not_read` (known only from other sources' mentions of it)."
);
enum_schema!(
    Seen,
    "Seen",
    &Seen::ALL.map(Seen::key),
    "Whether what a citation points at (its pages, or the source where no pages are given) was seen by those who wrote the text: `seen` (in a copy of the source), `quoted` (through another source's quotation of it) or `not_seen` (another source reports it)."
);

enum_schema!(
    TallyKind,
    "TallyKind",
    &TallyKind::ALL.map(TallyKind::key),
    "What a recap counts: `falls` (an awl fell into a creek), `whips` (an awl was whipped back), `circuits` (a circuit completed), `extra_throws` (a throw earned another)."
);

enum_schema!(
    SwingCause,
    "SwingCause",
    &SwingCause::ALL.map(SwingCause::key),
    "What a move did, as a recap names it (the first that applies, in this order): `won` (it won the game), `whipped` (the mover whipped the other awl back to its start), `fell` (the mover's awl fell into a creek), `circuit` (a circuit completed), `lost_throw` and `lost_turn` (the awl stopped on a dry branch and the extra throw, or the next turn, was lost), `forced_pass` (too many to finish exactly: the awl stayed), `passed_north_creek` (the awl passed the deadly north bank), `extra_throw` (the throw earned another), `moved` (none of these)."
);

impl utoipa::PartialSchema for RuleId {
    fn schema() -> RefOr<Schema> {
        let ids: Vec<&'static str> = RuleId::iter().map(RuleId::key).collect();
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(ids))
            .description(Some(
                "A rule the narration states: the `rule` of an `event` or `rule` segment.",
            ))
            .examples(Some(RuleId::SticksSahe.key()))
            .into()
    }
}

impl ToSchema for RuleId {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("RuleId")
    }
}
