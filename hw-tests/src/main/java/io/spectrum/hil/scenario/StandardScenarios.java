package io.spectrum.hil.scenario;

import io.spectrum.hil.Scenario;
import java.util.List;

/** The conformance suite, in run order: read-only first, then subscriptions, then hostile input, then resets. */
public final class StandardScenarios {
    private StandardScenarios() {
    }

    /** Every scenario of the conformance suite, in run order (docs/hil.md lists them). */
    public static List<Scenario> all() {
        return List.of(
                new HandshakeCapsScenario(),
                new ReadWriteScenario(),
                new DeclaredSensorsScenario(),
                new SubscribeDeliverScenario(),
                new SubscriptionSurfaceScenario(),
                new CreateSuspendedScenario(),
                new QuietEdgeKeptScenario(),
                new RetainedReplayScenario(),
                new SequenceScenario(),
                new PinInputEdgeScenario(),
                new PinOutputScenario(),
                new DamagedFramesScenario(),
                new InvalidFramesScenario(),
                new ResetRecoveryScenario(),
                new StaleRecoveryScenario());
    }
}
