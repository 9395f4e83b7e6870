//! OpenAPI schemas for the rules' and narration's enums, written here so
//! those pure modules stay free of the API's documentation machinery. Each
//! schema lists exactly the values serde writes, taken from the enum itself.

use std::borrow::Cow;

use serde::Serialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use crate::narration::{Audience, SegmentKind};
use crate::rules::{
    Board, DeadlyNorthBank, DryBranch, EndCheck, Face, Overshoot, OwnLastSpace, Preset, Side,
    SpinnerSector, ThrowTable, TurnOrder,
};

/// The string values serde writes for `all`.
pub fn values<T: Serialize>(all: &[T]) -> Vec<String> {
    all.iter()
        .filter_map(|v| serde_json::to_value(v).ok())
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

fn string_enum<T: Serialize>(all: &[T], description: &str) -> RefOr<Schema> {
    let values = values(all);
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values.clone()))
        .description(Some(description))
        .examples(values.first().cloned())
        .into()
}

macro_rules! enum_schema {
    ($ty:ty, $name:literal, $all:expr, $doc:literal) => {
        impl utoipa::PartialSchema for $ty {
            fn schema() -> RefOr<Schema> {
                string_enum(&$all, $doc)
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
    Side,
    "Side",
    Side::BOTH,
    "A side: `A` starts on the east bank of the south creek and moves counter-clockwise; `B` starts on the west bank and moves clockwise."
);
enum_schema!(
    Preset,
    "Preset",
    Preset::ALL,
    "A ruleset preset: `composite` (default; the reconstruction from Culin 1907), `culin1898`, `ludii`, `a4`, `boxed`."
);
enum_schema!(
    Board,
    "Board",
    [Board::Circle40, Board::Square28],
    "Track: `circle40` (the 40-space awl cloth) or `square28` (the A4 sheet's 28-cell ring)."
);
enum_schema!(
    ThrowTable,
    "ThrowTable",
    ThrowTable::ALL,
    "How a throw is scored: `sticks_sahe` (composite: 1, 2, 3, 6, 10 with the sahe's extra throws), `sticks_count` (Culin 1898 via Ludii: 1, 2, 3, 5, 10), `spinner` (A4 sheet)."
);
enum_schema!(
    DeadlyNorthBank,
    "DeadlyNorthBank",
    [DeadlyNorthBank::Near, DeadlyNorthBank::Far],
    "Which bank of the north creek makes the awl fall in: `near` (own 20) or `far` (own 21)."
);
enum_schema!(
    OwnLastSpace,
    "OwnLastSpace",
    [
        OwnLastSpace::FallsIn,
        OwnLastSpace::Ordinary,
        OwnLastSpace::CompletesCircuit
    ],
    "Landing exactly on own 40: `falls_in` (back to 1, pay a counter), `ordinary`, or `completes_circuit` (Ludii)."
);
enum_schema!(
    Overshoot,
    "Overshoot",
    [Overshoot::CarryOn, Overshoot::NoMove],
    "Passing own 40: `carry_on` (circuit complete, keep moving) or `no_move` (exact throw needed; Ludii)."
);
enum_schema!(
    DryBranch,
    "DryBranch",
    [
        DryBranch::NoEffect,
        DryBranch::LoseThrow,
        DryBranch::CrossOver
    ],
    "Landing on a dry branch: `no_effect`, `lose_throw` (cyningstan, A4 sheet) or `cross_over` (a print-and-play option)."
);
enum_schema!(
    TurnOrder,
    "TurnOrder",
    [TurnOrder::SideBlocks, TurnOrder::Alternate],
    "Team turn order: `side_blocks` (all of one side, then the other) or `alternate` (A1, B1, A2, B2, ...)."
);
enum_schema!(
    EndCheck,
    "EndCheck",
    [EndCheck::Immediate, EndCheck::AfterMove],
    "When counters end the game: `immediate` (the moment a side holds all) or `after_move` (Ludii: after the mover's move, if the other side holds none)."
);
enum_schema!(
    Face,
    "Face",
    [Face::Flat, Face::Round],
    "The face a stick shows: `flat` (the grooved, painted face) or `round`."
);
enum_schema!(
    SpinnerSector,
    "SpinnerSector",
    SpinnerSector::ALL,
    "A sector of the A4 sheet's spinner; `blue_one`, `blue_three`, `six` and `ten` throw again."
);
enum_schema!(
    Audience,
    "Audience",
    [Audience::Young, Audience::General, Audience::Scholar],
    "Who the narration is written for: `young` (ages 7-10), `general` (default) or `scholar`."
);
enum_schema!(
    SegmentKind,
    "SegmentKind",
    [SegmentKind::Event, SegmentKind::Rule, SegmentKind::Context],
    "`event`: what happened; `rule`: the rule behind it; `context`: cultural context."
);
