//! The service's metrics, through the `metrics` facade: recorded only when
//! the binary installs a recorder (`--metrics-addr`), and then read by
//! Prometheus. Each metric's name and meaning is defined here, once.

use std::time::Duration;

/// Throws committed, in all.
pub const THROWS_COMMITTED: &str = "zohn_ahl_throws_committed_total";
/// Throws per committed batch (group commit), a histogram.
pub const BATCH_SIZE: &str = "zohn_ahl_batch_throws";
/// Seconds each sync of the write-ahead log took, a histogram.
pub const LOG_SYNC: &str = "zohn_ahl_log_sync_seconds";
/// Games created, in all.
pub const GAMES_CREATED: &str = "zohn_ahl_games_created_total";
/// Live-feed subscribers now.
pub const FEED_SUBSCRIBERS: &str = "zohn_ahl_feed_subscribers";

/// Describe every metric of the service to the installed recorder.
pub fn describe() {
    metrics::describe_counter!(THROWS_COMMITTED, "Throws committed, in all.");
    metrics::describe_histogram!(BATCH_SIZE, "Throws per committed batch (group commit).");
    metrics::describe_histogram!(
        LOG_SYNC,
        metrics::Unit::Seconds,
        "Time to sync the write-ahead log once for a group of batches."
    );
    metrics::describe_counter!(GAMES_CREATED, "Games created, in all.");
    metrics::describe_gauge!(FEED_SUBSCRIBERS, "Live-feed subscribers now.");
    // A gauge is shown from the start, at zero, not only once it moves.
    feed_subscribers(0);
}

/// A batch of `throws` throws (and maybe stops) committed.
pub(crate) fn batch_committed(throws: usize) {
    if throws > 0 {
        metrics::counter!(THROWS_COMMITTED).increment(throws as u64);
        #[allow(clippy::cast_precision_loss)]
        metrics::histogram!(BATCH_SIZE).record(throws as f64);
    }
}

/// The write-ahead log synced, in `took`.
pub(crate) fn log_synced(took: Duration) {
    metrics::histogram!(LOG_SYNC).record(took.as_secs_f64());
}

/// A game created.
pub(crate) fn game_created() {
    metrics::counter!(GAMES_CREATED).increment(1);
}

/// The live feed's subscribers now.
pub(crate) fn feed_subscribers(now: usize) {
    #[allow(clippy::cast_precision_loss)]
    metrics::gauge!(FEED_SUBSCRIBERS).set(now as f64);
}
