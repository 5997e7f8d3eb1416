package io.spectrum.host.history;

/**
 * A downsampled stretch of one vertex's numeric values: from {@code t} (epoch ms) for the query's
 * {@code every}, the smallest, mean, largest and last value in {@code unit} and how many there were.
 */
public record HistoryBucket(String path, long t, String unit, double min, double mean, double max, double last, long n) { }
