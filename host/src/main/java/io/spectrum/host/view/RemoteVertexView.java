package io.spectrum.host.view;

/**
 * One vertex of another host, as a broker holds it (read-only; the fields of the bridge's JSON payload).
 *
 * @param path      the fabric path {@code /<host>/<board>/…}
 * @param board     the board segment ({@code board1}), "" for a host-level topic
 * @param value     the value as people read it ({@code 23.28 °C}), "" when none
 * @param unit      the declared unit, "" without one
 * @param seq       the publishing node's sequence number, -1 when the payload carried none
 * @param stale     the publishing node marked it stale
 * @param publisher the host that published it, "" when not said
 * @param ts        when the publisher rendered it (ISO-8601), "" when not said
 */
public record RemoteVertexView(String path, String board, String value, String unit, long seq, boolean stale,
                               String publisher, String ts) { }
