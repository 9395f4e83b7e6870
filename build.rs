//! Tell the tests, as cfgs, which of the tools some of them need were
//! given when they were built; without them those tests are ignored, saying
//! why (`cargo test` prints `ignored, needs ...` and counts them in
//! `N ignored`), instead of passing without having run:
//!
//! - `postgres_tests`: a PostgreSQL server is given, by
//!   `ZOHN_AHL_TEST_POSTGRES` (a `postgres://` URL) or by `PGHOST` and
//!   `PGUSER` (as `pg_virtualenv` exports them); `tests/it/store_postgres.rs`.
//! - `browser_tests`: `chromedriver` and `chromium` are found, by
//!   `CHROMEDRIVER` and `CHROMIUM` or on `PATH`; `tests/it/browser.rs`.
//!
//! With `CI` set both are always on: CI provides the tools, and a test that
//! then finds one missing fails rather than being ignored.
use std::path::Path;

fn main() {
    let given = |var: &str| {
        println!("cargo::rerun-if-env-changed={var}");
        std::env::var_os(var).is_some_and(|v| !v.is_empty())
    };
    let ci = given("CI");
    // Every variable is read (and so watched) whatever the others say.
    let url = given("ZOHN_AHL_TEST_POSTGRES");
    let host = given("PGHOST");
    let user = given("PGUSER");
    let driver = given("CHROMEDRIVER") || on_path("chromedriver");
    let chromium =
        given("CHROMIUM") || on_path("chromium") || Path::new("/usr/bin/chromium").is_file();

    println!("cargo::rustc-check-cfg=cfg(postgres_tests)");
    println!("cargo::rustc-check-cfg=cfg(browser_tests)");
    if ci || url || (host && user) {
        println!("cargo::rustc-cfg=postgres_tests");
    }
    // PATH is not watched (a shell's PATH differs from an editor's, and each
    // change would rebuild everything): after installing chromium, `touch
    // build.rs` (the ignored test says so).
    if ci || (driver && chromium) {
        println!("cargo::rustc-cfg=browser_tests");
    }
}

fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()))
}
