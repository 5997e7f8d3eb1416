/**
 * Small programs against the host bus (docs/bus.md), one per concept, each a {@code main} taking
 * the bus's socket path and a client name: {@link io.spectrum.examples.bus.FramePublisher} and
 * {@link io.spectrum.examples.bus.FrameViewer} (a 10 MB frame handed over by reference, checked by
 * its SHA-256; the viewer's {@code latest} mode shows coalescing), {@link io.spectrum.examples.bus.AddService}
 * and {@link io.spectrum.examples.bus.AddCaller} (an exclusive service, calls and a cancel), and
 * {@link io.spectrum.examples.bus.BoundedQueue} (a bounded subscription refusing the publish it has no room for).
 *
 * <p>Run them against a running bus, with the spectrum jar (which carries the client) on the class path:
 *
 * <pre>
 * mvn -B -o -q -pl cli,examples -am package -DskipTests
 * spectrum host --bus /tmp/spectrum-bus.sock &amp;
 * CP=cli/target/spectrum.jar:examples/target/spectrum-examples-0.1.0-SNAPSHOT.jar
 * java -cp $CP io.spectrum.examples.bus.FrameViewer /tmp/spectrum-bus.sock viewer &amp;
 * java -cp $CP io.spectrum.examples.bus.FramePublisher /tmp/spectrum-bus.sock camera 10
 * </pre>
 */
package io.spectrum.examples.bus;
