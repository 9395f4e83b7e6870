//! OpenAPI schemas for the rules' and narration's enums, written here so
//! those pure modules stay free of the API's documentation machinery. Each
//! schema lists exactly the values serde writes, taken from the enum itself.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use super::dto::OptionsView;
use super::facts::FactWhenView;
use crate::domain::ThrowOrigin;
use crate::narration::{Audience, SegmentKind};
use crate::rules::{
    CounterReason, Creek, Face, Feature, OptionKind, OptionSpec, OptionsPatch, Preset, Side,
    SpinnerSector, ThrowTable, WinReason, option_specs,
};

fn string_enum(values: &[&'static str], description: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values.iter().copied()))
        .description(Some(description))
        .examples(values.first().copied())
        .into()
}

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
    Side,
    "Side",
    <Side as strum::VariantNames>::VARIANTS,
    "A side: `A` starts on the east bank of the south creek and moves counter-clockwise; `B` starts on the west bank and moves clockwise."
);
enum_schema!(
    Preset,
    "Preset",
    <Preset as strum::VariantNames>::VARIANTS,
    "A ruleset preset: `composite` (default; the reconstruction from Culin 1907), `culin1898`, `ludii`, `a4`, `boxed`."
);
enum_schema!(
    Face,
    "Face",
    <Face as strum::VariantNames>::VARIANTS,
    "The face a stick shows: `flat` (the grooved, painted face) or `round`."
);
enum_schema!(
    SpinnerSector,
    "SpinnerSector",
    <SpinnerSector as strum::VariantNames>::VARIANTS,
    "A sector of the A4 sheet's spinner; `blue_one`, `blue_three`, `six` and `ten` throw again."
);
enum_schema!(
    Audience,
    "Audience",
    &Audience::ALL.map(Audience::key),
    "Who the narration is written for: `young` (ages 7-10), `general` (default) or `scholar`."
);
enum_schema!(
    SegmentKind,
    "SegmentKind",
    &["event", "rule", "context"],
    "`event`: what happened; `rule`: the rule behind it; `context`: cultural context."
);

enum_schema!(
    Creek,
    "Creek",
    <Creek as strum::VariantNames>::VARIANTS,
    "Which creek an awl fell into: `north` or `south`."
);
enum_schema!(
    CounterReason,
    "CounterReason",
    <CounterReason as strum::VariantNames>::VARIANTS,
    "Why a counter changed hands: `circuit`, `whip` or `creek_fall`."
);
enum_schema!(
    WinReason,
    "WinReason",
    <WinReason as strum::VariantNames>::VARIANTS,
    "Why a side won: `all_counters`, `circuits` or `stopped`."
);
enum_schema!(
    ThrowOrigin,
    "ThrowOrigin",
    <ThrowOrigin as strum::VariantNames>::VARIANTS,
    "Where a throw came from: `server` (the game's seeded generator) or `reported` (a physical throw sent by the client)."
);

/// The name of what is drawn at a space, as a side sees it
/// ([`Feature::key`]); documentation only, the value is sent as a string.
pub struct FeatureName;

enum_schema!(
    FeatureName,
    "Feature",
    &Feature::ALL.map(Feature::key),
    "What is drawn at a space, seen by one side: `ordinary`, a dry branch's stroke (`dry_branch_east`, `dry_branch_west`), a bank of the north creek (`north_creek_near`, `north_creek_far`) or of the south creek (`south_creek_far` is the side's own start, `south_creek_near` the other side's)."
);

/// The id of a lesson's section, for documentation: the ids the lessons
/// of every preset are built with (`narration::lesson`), in their order.
pub struct LessonSectionId;

impl utoipa::PartialSchema for LessonSectionId {
    fn schema() -> RefOr<Schema> {
        let mut ids: Vec<String> = Vec::new();
        for preset in Preset::ALL {
            for section in crate::narration::lesson(preset, Audience::General).sections {
                if !ids.contains(&section.id) {
                    ids.push(section.id);
                }
            }
        }
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(ids))
            .description(Some("A lesson section's stable id."))
            .into()
    }
}

impl utoipa::ToSchema for LessonSectionId {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("LessonSectionId")
    }
}

/// The value of a ruleset option, for documentation: a choice's name or a
/// count, each its own typed alternative (a union, not one multi-type
/// schema, so that generated clients get a sum type). A count switched off
/// is `null`, which the fields that may hold it add (`Option<OptionValue>`).
pub struct OptionValue;

impl utoipa::PartialSchema for OptionValue {
    fn schema() -> RefOr<Schema> {
        use utoipa::openapi::schema::OneOfBuilder;
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .title(Some("choice"))
                    .description(Some("A choice's name, one of the option's `values`.")),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .title(Some("count"))
                    .minimum(Some(0))
                    .maximum(Some(255))
                    .description(Some(
                        "A count, within the option's `minimum` and `maximum`.",
                    )),
            )
            .description(Some(
                "An option's value: a choice's name (a string) or a count (an integer).",
            ))
            .into()
    }
}

impl utoipa::ToSchema for OptionValue {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("OptionValue")
    }
}

/// The schema of a choice option's type, by type name, from the option's
/// own declaration (its values and what they do): a new choice option
/// needs no line here.
fn choice_schema(type_name: &str) -> Option<RefOr<Schema>> {
    option_specs().iter().find_map(|spec| match spec.kind {
        OptionKind::Choice {
            type_name: name,
            description,
            values,
            ..
        } if name == type_name => Some(string_enum(values, description)),
        _ => None,
    })
}

/// A choice option's type that other answers carry too: its schema is the
/// option's ([`choice_schema`]).
macro_rules! choice_type_schema {
    ($ty:ident) => {
        impl utoipa::PartialSchema for $ty {
            fn schema() -> RefOr<Schema> {
                choice_schema(stringify!($ty))
                    .unwrap_or_else(|| ObjectBuilder::new().schema_type(Type::String).into())
            }
        }
        impl utoipa::ToSchema for $ty {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($ty))
            }
        }
    };
}

choice_type_schema!(ThrowTable);

/// The option overrides' schema, built from the rules' one list of options
/// ([`option_specs`]): a choice refers to its type's schema, a count carries
/// its bounds.
impl utoipa::PartialSchema for OptionsPatch {
    fn schema() -> RefOr<Schema> {
        use utoipa::openapi::Ref;
        use utoipa::openapi::schema::{
            AdditionalProperties, KnownFormat, OneOfBuilder, SchemaFormat, SchemaType,
        };
        let mut object = ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(
                "Option overrides; each absent field keeps the preset's value.",
            ))
            .additional_properties(Some(AdditionalProperties::FreeForm(false)));
        for spec in option_specs() {
            let property: RefOr<Schema> = match spec.kind {
                OptionKind::Choice { type_name, .. } => OneOfBuilder::new()
                    .item({
                        let mut r = Ref::from_schema_name(type_name);
                        r.description = spec.description.to_owned();
                        r
                    })
                    .item(ObjectBuilder::new().schema_type(Type::Null))
                    .into(),
                OptionKind::Count { min, max, .. } => ObjectBuilder::new()
                    .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
                    .description(Some(spec.description))
                    .minimum(Some(min))
                    .maximum(Some(max))
                    .into(),
            };
            object = object.property(spec.name, property);
        }
        object.into()
    }
}

impl utoipa::ToSchema for OptionsPatch {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("OptionsRequest")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        for spec in option_specs() {
            if let OptionKind::Choice { type_name, .. } = spec.kind
                && let Some(schema) = choice_schema(type_name)
            {
                schemas.push((type_name.to_owned(), schema));
            }
        }
    }
}

/// One option's schema: a choice refers to its type's schema, a count
/// carries its bounds (and `null` where the option may be off).
fn option_value_schema(spec: &OptionSpec, description: Option<&'static str>) -> RefOr<Schema> {
    use utoipa::openapi::Ref;
    use utoipa::openapi::schema::SchemaType;
    match spec.kind {
        OptionKind::Choice { type_name, .. } => {
            let mut r = Ref::from_schema_name(type_name);
            r.description = description.unwrap_or_default().to_owned();
            r.into()
        }
        OptionKind::Count {
            min, max, nullable, ..
        } => {
            let kind = if nullable {
                SchemaType::from_iter([Type::Integer, Type::Null])
            } else {
                SchemaType::Type(Type::Integer)
            };
            ObjectBuilder::new()
                .schema_type(kind)
                .description(description)
                .minimum(Some(min))
                .maximum(Some(max))
                .into()
        }
    }
}

/// The resolved options' schema, from the rules' one list of options:
/// every option is always sent.
impl utoipa::PartialSchema for OptionsView {
    fn schema() -> RefOr<Schema> {
        let mut object = ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some("The resolved options of a game's ruleset."));
        for spec in option_specs() {
            object = object
                .property(spec.name, option_value_schema(spec, Some(spec.description)))
                .required(spec.name);
        }
        object.into()
    }
}

impl utoipa::ToSchema for OptionsView {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("OptionsView")
    }
}

/// A fact's condition's schema, from the rules' one list of options: each
/// option named lists the values the fact fits.
impl utoipa::PartialSchema for FactWhenView {
    fn schema() -> RefOr<Schema> {
        use utoipa::openapi::schema::ArrayBuilder;
        let mut object = ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(
                "The ruleset options a fact presupposes: it is told only in games whose options \
                 take one of the values listed for each option named; `null`: any value.",
            ))
            .examples([fact_when_example()]);
        for spec in option_specs() {
            let values = ArrayBuilder::new()
                .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
                    Type::Array,
                    Type::Null,
                ]))
                .items(option_value_schema(spec, None))
                .min_items(Some(1))
                .description(Some(spec.description));
            object = object.property(spec.name, values).required(spec.name);
        }
        object.into()
    }
}

/// A condition that fits the sahe-counting sticks only: every option is
/// named, `throw_table` with its one value and the others `null`.
fn fact_when_example() -> serde_json::Value {
    option_specs()
        .iter()
        .map(|spec| {
            let values = if spec.name == "throw_table" {
                serde_json::json!(["sticks_sahe"])
            } else {
                serde_json::Value::Null
            };
            (spec.name.to_owned(), values)
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

impl utoipa::ToSchema for FactWhenView {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("FactWhenView")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ThrowTable`'s schema is found among the options, values and all,
    /// rather than falling back to a bare string.
    #[test]
    fn the_throw_table_schema_is_the_throw_table_option_schema() {
        use utoipa::PartialSchema;
        let schema = serde_json::to_value(ThrowTable::schema()).unwrap_or_default();
        assert_eq!(
            schema["enum"],
            serde_json::json!(<ThrowTable as strum::VariantNames>::VARIANTS)
        );
        assert!(choice_schema("Preset").is_none());
    }
}
