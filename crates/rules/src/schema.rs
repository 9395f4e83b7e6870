//! OpenAPI schemas for the rules' enums and the option overrides, behind
//! the `openapi` feature: the HTTP layer turns it on; the engine itself
//! never uses it. Each schema lists exactly the values serde writes, taken
//! from the enum itself, and the options' from their one list
//! ([`option_specs`]).

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use crate::{
    CounterReason, Creek, Face, OptionKind, OptionsPatch, Preset, Side, SpinnerSector, Sticks,
    Throw, ThrowTable, WinReason, option_specs,
};

/// A string schema of a closed set of values, with its description; the
/// first value is its example.
pub fn string_enum(values: &[&'static str], description: &str) -> RefOr<Schema> {
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
/// The schema of a choice option's type, by type name, from the option's
/// own declaration (its values and what they do): a new choice option
/// needs no line here.
pub fn choice_schema(type_name: &str) -> Option<RefOr<Schema>> {
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

/// The four sticks' faces, the sahe last, as serde writes [`Sticks`].
impl utoipa::PartialSchema for Sticks {
    fn schema() -> RefOr<Schema> {
        utoipa::openapi::schema::ArrayBuilder::new()
            .items(utoipa::openapi::Ref::from_schema_name("Face"))
            .min_items(Some(4))
            .max_items(Some(4))
            .description(Some(
                "The four sticks' faces, the three red-grooved sticks then the sahe.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for Sticks {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Sticks")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push(("Face".to_owned(), <Face as utoipa::PartialSchema>::schema()));
    }
}

/// A throw as serde writes [`Throw`]: `{"sticks": [...]}` or
/// `{"spinner": "..."}`.
impl utoipa::PartialSchema for Throw {
    fn schema() -> RefOr<Schema> {
        use utoipa::openapi::Ref;
        use utoipa::openapi::schema::{AdditionalProperties, OneOfBuilder};
        let one = |name: &str, schema: &str| {
            ObjectBuilder::new()
                .schema_type(Type::Object)
                .property(name, Ref::from_schema_name(schema))
                .required(name)
                .additional_properties(Some(AdditionalProperties::FreeForm(false)))
        };
        OneOfBuilder::new()
            .item(one("sticks", "Sticks"))
            .item(one("spinner", "SpinnerSector"))
            .description(Some(
                "A throw: the four sticks' faces, or the sector where the A4 sheet's spinner stopped.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for Throw {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Throw")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((
            "Sticks".to_owned(),
            <Sticks as utoipa::PartialSchema>::schema(),
        ));
        <Sticks as utoipa::ToSchema>::schemas(schemas);
        schemas.push((
            "SpinnerSector".to_owned(),
            <SpinnerSector as utoipa::PartialSchema>::schema(),
        ));
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
        let RefOr::T(Schema::Object(schema)) = ThrowTable::schema() else {
            panic!("ThrowTable's schema is an object schema");
        };
        let values: Vec<String> = schema
            .enum_values
            .unwrap_or_default()
            .iter()
            .map(ToString::to_string)
            .collect();
        let expected: Vec<String> = <ThrowTable as strum::VariantNames>::VARIANTS
            .iter()
            .map(|v| format!("\"{v}\""))
            .collect();
        assert_eq!(values, expected);
        assert!(choice_schema("Preset").is_none());
    }
}
