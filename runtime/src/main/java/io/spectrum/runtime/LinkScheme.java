package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.time.Clock;

import java.io.IOException;
import java.util.Set;

/**
 * One transport (a URI scheme) the link factory ({@link LinkSpec}) opens: the scheme it answers to, the query
 * parameters its URIs may carry, and how it opens a link from a parsed URI. Transports are
 * registered in one explicit list, {@link LinkTransports#ALL}; a new transport is its module (the
 * link class) plus one entry there (docs/links.md, "Links by URI").
 */
public interface LinkScheme {
    /** The URI scheme, lower case, without {@code ://} (e.g. {@code udp}). */
    String scheme();

    /** A URI this transport opens, as the one-line refusals and docs/links.md show it. */
    String example();

    /** The query parameters its URIs may carry ({@code ?baud=N}); any other is refused. */
    Set<String> params();

    /**
     * Opens the link {@code uri} names, listening or dialing as {@code role} says (a transport without
     * the distinction, serial, ignores it).
     *
     * @throws IllegalArgumentException (one line, with what to write) for an address it cannot use
     * @throws IOException when the socket or port cannot be opened
     */
    Link open(int id, LinkSpec.Uri uri, LinkSpec.Role role, LinkSettings settings, Clock clock) throws IOException;
}
