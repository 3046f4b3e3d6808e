package io.fleetlake.dashboard.api;

/**
 * {@code GET /api/config}: what the page needs to know about the server's configuration.
 *
 * @param pollIntervalMs how often the page refreshes in live mode
 * @param staleAfterMs a vehicle is stale when its newest fix is older than this
 * @param replayLookbackMs how far before a replay instant the history is scanned
 */
record ClientSettings(long pollIntervalMs, long staleAfterMs, long replayLookbackMs) {}
