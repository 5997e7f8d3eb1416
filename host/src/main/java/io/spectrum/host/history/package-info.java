/**
 * The host's history: {@code HistoryStore} appends the values the host's node assigns (numbers and
 * small values, by include/exclude globs) to an embedded SQLite file from a bounded queue on a writer
 * thread of its own, so the node never waits for the disk; it keeps raw rows and one-minute
 * summaries for their retentions on the host's clock. {@code HistoryReader} answers
 * {@code spectrum history} and {@code GET /api/history}. Plain JDBC only. See docs/host.md, "History".
 */
package io.spectrum.host.history;
