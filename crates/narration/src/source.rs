//! A source of the bibliography: its CSL-JSON item, and what the
//! narration reads of it (who wrote it and when, its short title, its kind
//! and how much of it was read).

use serde::{Deserialize, Serialize};

use super::vocabulary::Reading;

/// A bibliography entry: a CSL-JSON item, kept as JSON so every CSL field
/// passes through unchanged; `id` is its stable id.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Source {
    /// The CSL-JSON item.
    #[serde(flatten)]
    pub csl: serde_json::Map<String, serde_json::Value>,
}

impl Source {
    /// The item's `id`.
    #[must_use]
    pub fn id(&self) -> &str {
        self.csl
            .get("id")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
    }

    /// Who wrote it: the authors' family names (the first and "et al."
    /// past two), else its publisher or the work it is part of.
    #[must_use]
    pub fn who(&self) -> String {
        let names: Vec<&str> = self
            .csl
            .get("author")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|a| {
                a.get("family")
                    .or_else(|| a.get("literal"))
                    .and_then(serde_json::Value::as_str)
            })
            .filter(|n| !n.is_empty())
            .collect();
        match names.as_slice() {
            [] => self
                .text("publisher")
                .or_else(|| self.text("container-title"))
                .unwrap_or_default()
                .to_owned(),
            [first, _, _, ..] => format!("{first} et al."),
            _ => names.join(" and "),
        }
    }

    /// The year it was issued, where it has one.
    #[must_use]
    pub fn year(&self) -> Option<i64> {
        year_issued(&self.csl)
    }

    /// Its short title: its `title-short` or title up to the first colon
    /// or semicolon, at most five words.
    #[must_use]
    pub fn short_title(&self) -> String {
        let title = self
            .text("title-short")
            .or_else(|| self.text("title"))
            .unwrap_or_default();
        let head = [": ", "; "]
            .iter()
            .filter_map(|sep| title.find(sep))
            .min()
            .map_or(title, |i| &title[..i])
            .trim();
        let words: Vec<&str> = head.split_whitespace().collect();
        if words.len() > 5 {
            let cut = words[..5].join(" ");
            format!("{}…", cut.trim_end_matches([',', ';', ':', '.']))
        } else {
            words.join(" ")
        }
    }

    /// What kind of source it is, in words (`custom.kind`): a primary
    /// source, a secondary one, a modern retelling, or this service's own
    /// work (its computation, its reading of a sheet, its decisions).
    #[must_use]
    pub fn kind_words(&self) -> &'static str {
        match self
            .csl
            .get("custom")
            .and_then(|c| c.get("kind"))
            .and_then(serde_json::Value::as_str)
        {
            Some("primary") => "a primary source",
            Some("secondary") => "a secondary source",
            Some("modern_retelling") => "a modern retelling",
            Some("own_computation") => "this service's own work",
            _ => "a source",
        }
    }

    /// A CSL field's text, trimmed, where it has any.
    fn text(&self, field: &str) -> Option<&str> {
        self.csl
            .get(field)
            .and_then(serde_json::Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    /// How much of it was read (`custom.read`; the catalogue's load checks
    /// every source has one).
    #[must_use]
    pub fn reading(&self) -> Reading {
        self.csl
            .get("custom")
            .and_then(|c| c.get("read"))
            .and_then(serde_json::Value::as_str)
            .and_then(|r| r.parse().ok())
            .unwrap_or(Reading::NotRead)
    }
}

/// The year a CSL item was issued, where it has one.
#[must_use]
pub fn year_issued(csl: &serde_json::Map<String, serde_json::Value>) -> Option<i64> {
    csl.get("issued")?
        .get("date-parts")?
        .get(0)?
        .get(0)?
        .as_i64()
}
