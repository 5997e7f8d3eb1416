package io.spectrum.link.dtls;

import java.net.SocketAddress;
import javax.net.ssl.SSLEngine;

/** One DTLS association (an SSLEngine and the address it talks to), owned by the link's thread. */
final class Association {
    final SSLEngine engine;
    SocketAddress address;
    /** The peer's certificate name once the handshake accepted it. */
    String name;
    byte[] sessionId;
    boolean established;
    /** Anything came back from the peer on this engine (a dialer's first ClientHello may have gone nowhere). */
    boolean heardAny;
    /** Listener: the ClientHello's client random (a replayed hello from another address is refused). */
    byte[] random;
    /** Listener: the engine sent more than a HelloVerifyRequest (the cookie was valid, or a resumption). */
    boolean pastCookie;
    /** Dialer: the first ClientHello datagram, sent again as is until something comes back. */
    byte[] firstHello;
    /** The engine failed before it was kept. */
    boolean ended;
    /** The peer handle it was given (listener: by name; dialer: 0), -1 while handshaking. */
    int slot = -1;
    final long started;
    long lastHeard;
    long nextRetransmit;
    long rto;

    Association(SSLEngine engine, SocketAddress address, long now, long rto) {
        this.engine = engine;
        this.address = address;
        this.started = now;
        this.lastHeard = now;
        this.rto = rto;
        this.nextRetransmit = now + rto;
    }
}
