//! The answers' shapes: what every operation's JSON body is made of, and
//! the functions that make them from the domain's records. The lowest floor
//! of HTTP: a view uses the domain, the narration, the service's types and
//! other views, never a handler's module (`views::tests` holds it), so a
//! handler takes a view from here, not from another handler.

pub mod game;
pub mod moves;

#[cfg(test)]
mod tests {
    /// The modules of the handlers, which no view may use.
    const HANDLERS: [&str; 16] = [
        "games",
        "moves",
        "classes",
        "class_archive",
        "events",
        "fairness",
        "odds",
        "chances",
        "rulesets",
        "reference",
        "facts",
        "recap",
        "board",
        "join",
        "play",
        "printable",
    ];

    #[test]
    fn no_view_uses_a_handlers_module() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/views");
        let mut read = 0;
        for entry in std::fs::read_dir(&dir).expect("src/views") {
            let path = entry.expect("an entry").path();
            let text = std::fs::read_to_string(&path).expect("a view's source");
            read += 1;
            for handler in HANDLERS {
                for import in [
                    format!("crate::{handler}::"),
                    format!("crate::{handler}::{{"),
                    format!("super::super::{handler}"),
                ] {
                    assert!(
                        !text.contains(&import),
                        "{} uses `{import}`: a view is the lowest floor of HTTP",
                        path.display()
                    );
                }
            }
        }
        assert!(read >= 3, "the views were read");
    }
}
