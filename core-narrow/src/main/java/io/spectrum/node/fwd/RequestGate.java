package io.spectrum.node.fwd;

import io.spectrum.link.Link;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.WireError;

/**
 * A node's admission of a remote caller's FWD request, asked before anything else is done with it:
 * before the router forwards it under a mount and before the terminus serves it (a WIDE host's
 * grants on its client doors, docs/host.md "The grants file"). Never asked for the owner's requests
 * nor for REPLY frames. A refusal is answered to the caller as {@code FWD{REPLY, ERROR}} with the
 * code (dropped for an empty src) and changes nothing. Runs on the node thread.
 */
public interface RequestGate {
    /**
     * Admits or refuses the request {@code fwd} wraps (already checked as a FWD envelope), which
     * arrived from {@code peer} of {@code link}.
     *
     * @return {@link WireError#OK} to go on, else the refusal's code (e.g. ACCESS_DENIED)
     */
    int admit(Link link, int peer, FwdView fwd);
}
