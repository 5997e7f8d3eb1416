package io.spectrum.wide;

/**
 * One entry of {@link WideNode#topics}: a vertex that holds a value or subscriber edges (the ABP
 * profile's {@code topic.list} entry).
 *
 * @param path the vertex, {@code /a/b}
 * @param subscribers edges held by the vertex itself (suspended ones included)
 * @param hasValue whether a value is retained
 * @param seq the vertex's sequence (0 when never published)
 * @param lastPublisher the last publisher's identity, or null when never published
 * @param stale whether the last publisher has gone and its grace has not run out
 */
public record TopicInfo(String path, int subscribers, boolean hasValue, long seq, String lastPublisher, boolean stale) {
}
