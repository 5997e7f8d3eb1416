package io.spectrum.host.view;

import java.util.List;

/**
 * Other hosts as a broker holds them ({@code --mqtt-view}), read-only.
 *
 * @param broker    the broker's URL as given (never with a password)
 * @param connected the view is subscribed to the broker now; when not, {@code hosts} are the last known
 * @param capacity  the most paths the view holds
 * @param refused   new paths refused because it held {@code capacity}
 * @param hosts     the other hosts, by name
 */
public record RemoteView(String broker, boolean connected, int capacity, long refused, List<RemoteHostView> hosts) {
    /** Copies the hosts. */
    public RemoteView {
        hosts = List.copyOf(hosts);
    }
}
