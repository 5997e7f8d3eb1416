package io.spectrum.bus.protocol;

/**
 * Who a connection is: a registered client id and its incarnation (a new one each time that id
 * connects), or an anonymous {@code anon-<hex>-<secs>} id (incarnation 1). The bus stamps it on
 * RPC deliveries; a sender cannot forge it.
 */
public record ClientIdentity(String clientId, long incarnation, boolean anonymous) {
}
