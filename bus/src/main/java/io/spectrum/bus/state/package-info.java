/**
 * The Flybus host bus's state machine (docs/bus.md): connections, topics and subscriptions,
 * services and calls, owners and roots, in one single-threaded state machine with no I/O and no
 * transport. The server ({@code io.spectrum.bus.server}) parses envelopes, calls this API and
 * encodes what it returns; the words both speak are {@code io.spectrum.bus.protocol}'s; the bytes of
 * artifacts live in an {@link io.spectrum.bus.store.ArtifactStore}. Nothing here knows the server.
 *
 * <p>Topics, subscriptions, services, calls and owners share one package because each refers to the
 * others: a subscription and a call are owned by a connection, a delivery's owner names its
 * subscription or call, and one publish or call admits, seals and roots in one step. By concern:
 * <ul>
 * <li>connections: {@code HostBus} (the registry and its stats), {@code BusConnection} (one
 * client's commands and outbound lanes; the {@code BusSession} API), {@code Names}
 * (names and router-issued ids), {@code Replies};</li>
 * <li>topics and subscriptions: {@code Topics}, {@code Topic}, {@code Subscription};</li>
 * <li>services and calls: {@code Services}, {@code Service}, {@code Call};</li>
 * <li>owners and roots: {@code Owners}, {@code Owner}, {@code Roots}, {@code SealedObject},
 * {@code Carried}, and sealing ({@code Seals}, {@code Sealing});</li>
 * <li>admission: {@code Admission} (a publish's or call's checks in order) and {@code Envelopes}
 * (delivery sizes with every router-issued id at its longest).</li>
 * </ul>
 *
 * <h2>Setting up</h2>
 * <pre>{@code
 * HostBus bus = new HostBus(store, clock, BusLimits.defaults());   // or BusLimits.builder()...build()
 * BusConnection c = bus.connect("agent.a", grants);                // null: an anonymous anon-… id
 * }</pre>
 * {@link io.spectrum.bus.protocol.BusLimits} holds the bus's bounds (validated by its builder);
 * {@link io.spectrum.wide.Grants} (core-wide's, the one grant model of the host's node and bus) says
 * which names a client may publish, subscribe, serve, call or manage (patterns any/exact/prefix;
 * {@code Grants.open()} for tests). A named client
 * gets a new {@link io.spectrum.bus.protocol.ClientIdentity#incarnation()} each time it connects and
 * may have one live connection.
 *
 * <h2>Operations</h2>
 * Each {@link io.spectrum.bus.state.BusConnection} method is one bus command and returns its
 * reply value ({@link io.spectrum.bus.state.Replies}) or throws a
 * {@link io.spectrum.bus.protocol.BusException} with a {@link io.spectrum.wire.BusError}; a
 * refusal changes nothing (sequence, queues, retained values, roots and stats are as before).
 * <ul>
 * <li>Topics: {@code declare}, {@code subscribe}, {@code unsubscribe}, {@code publish},
 * {@code clear}, {@code delete}, {@code consumed}. Publish admission runs: grant, NO_TOPIC,
 * attachments, delivery size with the longest router ids, each bounded subscriber's queue and its
 * client's bounded queued-bytes pool (BACKPRESSURE), the retained-bytes quota, the node's own
 * admission of the value; then the node's publish (one sequence number, the value kept on the
 * topic's vertex, every libtracer subscriber) and the whole fan-out to the bus's subscriptions.
 * Latest subscriptions replace only an undelivered value and never refuse a publish. A topic is a
 * vertex of the bus's {@link io.spectrum.wide.WideNode} (docs/bus.md, "Topics are the node's
 * vertices").</li>
 * <li>Artifacts: {@code allocate} (a writer {@code own-N}), {@code seal} (the writer becomes the
 * object's hold), {@code open} (a read location for an owned object), {@code retain} (a new hold
 * while the source owner lives), {@code release}. Naming one's own unsealed writer in a publish,
 * call or reply seals it on send once every other check has passed. These methods
 * seal inline; {@link io.spectrum.bus.server.BusServer} runs a seal's copy and hash off the bus
 * thread and runs the command again with the outcome (docs/bus.md, "Sealing").</li>
 * <li>RPC: {@code register} (exclusive, a new {@code svc-N} incarnation each time),
 * {@code unregister}, {@code call} (admission only; call ids are {@code call-N}, increasing per
 * connection, never reused), {@code reply} (only by the connection the request was delivered
 * to; a detached call's reply returns false), {@code cancel} (cancelled-before-dispatch,
 * execution-unknown, completed, call-gone), {@code releaseResponder}.</li>
 * </ul>
 *
 * <h2>Outbound</h2>
 * {@link io.spectrum.bus.state.BusConnection#poll()} hands out the next
 * {@link io.spectrum.bus.protocol.BusMessage}: control notices first, then RPC requests and results,
 * then topic deliveries, with one topic frame after every {@link
 * io.spectrum.bus.protocol.BusLimits#topicFrameEvery()} higher-priority frames. A delivery gets its
 * {@code dlv-N} id when it is handed out; a topic delivery goes out only while its subscription has
 * a credit ({@code maxInFlight}) and the client an ordinary owner (the owner budget less the RPC
 * reserve). Credits come back only through {@code consumed}. Delivering a request marks its call
 * dispatched. A connection whose control lane would overflow is closed with
 * {@code connection.closing}.
 *
 * <h2>Ownership</h2>
 * Each sealed object has one root counter: one root per queued or unconsumed delivery, explicit
 * hold and retained value that names it (a delivery naming it twice holds one). When the last
 * root goes the bus calls {@link io.spectrum.bus.store.ArtifactStore#collect}. Owner ids are
 * per-connection serials with watermarks: releasing a retired id counts zero, a never-issued or
 * wrong-kind id refuses the whole batch. Disconnecting releases the connection's queued,
 * delivered and held roots and abandons its unsealed writers; retained values survive until
 * cleared, deleted or {@link io.spectrum.bus.state.HostBus#shutdown()}, which sends
 * {@code subscription.closed{router-stopping}} per subscription and then
 * {@code connection.closing{ROUTER_LOST}}. {@link io.spectrum.bus.state.HostBus#stats()} reports
 * roots, owners, sealed objects, queued entries, store and retained bytes and registry counts.
 */
package io.spectrum.bus.state;

import io.spectrum.wire.BusError;
