//! OpenAPI schemas for the documentation-only names of the API (the
//! rules', the narration's and the domain's crates carry their enums'
//! schemas behind their `openapi` feature). Each
//! schema lists exactly the values serde writes, taken from the enum itself.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use super::dto::OptionsView;
use super::facts::FactWhenView;
use zohn_ahl_rules::schema::string_enum;
use zohn_ahl_rules::{Feature, OptionKind, OptionSpec, Preset, option_specs};

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

/// The name of a board picture's view ([`zohn_ahl_picture::BoardView::key`]);
/// documentation only, the value is sent as a string.
pub struct BoardViewName;

enum_schema!(
    BoardViewName,
    "BoardView",
    &zohn_ahl_picture::BoardView::ALL.map(zohn_ahl_picture::BoardView::key),
    "Which view of the board a picture shows: `full` (the track and the panel beside it) or `projector` (the track alone, with larger space numbers)."
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
            for section in
                crate::narration::lesson(preset, crate::narration::Audience::General).sections
            {
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
            .description(Some("The resolved options of a game's ruleset."))
            .additional_properties(Some(
                utoipa::openapi::schema::AdditionalProperties::FreeForm(false),
            ));
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
