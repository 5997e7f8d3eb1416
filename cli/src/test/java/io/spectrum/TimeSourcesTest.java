package io.spectrum;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * Time comes from an injected clock: {@code System.nanoTime}, {@code System.currentTimeMillis},
 * {@code Thread.sleep} and {@code LockSupport.parkNanos} are called only by the clock and idle-strategy
 * classes listed in {@link #TIME_SOURCES}; everything else reads a {@code io.spectrum.time.Clock} and
 * waits through an idle strategy (agrona's, or the node loop's), so its timers run on a
 * {@code ManualClock} in a test. Checked over the products' classes the cli module sees (every module
 * but bench; the cli's commands and the HIL suite are tools, {@link #OUT_OF_SCOPE}).
 */
@AnalyzeClasses(packages = "io.spectrum",
        importOptions = {ImportOption.DoNotIncludeTests.class, NoTestJars.class})
class TimeSourcesTest {
    /** The classes that may read the system's time or wait on it. */
    static final Set<String> TIME_SOURCES = Set.of(
            "io.spectrum.time.SystemClock",            // the real clock (and its Sleeper)
            "io.spectrum.runtime.WakeIdleStrategy",    // the node loop's idle strategy (its spin window)
            "io.spectrum.wide.link.IoWait",            // a QueuedLink I/O thread's idle strategy
            "io.spectrum.client.bus.NodeWait",         // a bus client's node client's idle strategy (woken by its I/O thread)
            "io.spectrum.node.fwd.HoldTokens");            // mixes the time into a default seed (entropy, not a timer)

    /** Tools and harnesses outside the products' timers: the command line's own commands, the HIL suite. */
    static final String[] OUT_OF_SCOPE = {"io.spectrum.cli..", "io.spectrum.hil.."};

    private static final DescribedPredicate<JavaClass> A_TIME_SOURCE = new DescribedPredicate<>("a clock or idle strategy") {
        @Override
        public boolean test(JavaClass c) {
            JavaClass top = c;
            while (top.getEnclosingClass().isPresent()) {
                top = top.getEnclosingClass().get();
            }
            return TIME_SOURCES.contains(top.getName());
        }
    };

    @ArchTest
    static final ArchRule only_clocks_and_idle_strategies_read_or_wait_on_the_system_time = noClasses()
            .that(DescribedPredicate.not(A_TIME_SOURCE)).and().resideOutsideOfPackages(OUT_OF_SCOPE)
            .should().callMethod(System.class, "nanoTime")
            .orShould().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(Thread.class, "sleep", long.class)
            .orShould().callMethod(Thread.class, "sleep", long.class, int.class)
            .orShould().callMethod(LockSupport.class, "parkNanos", long.class)
            .orShould().callMethod(LockSupport.class, "parkNanos", Object.class, long.class)
            .because("time comes from an injected clock and waits go through an idle strategy (docs/node.md)");

    @Test
    void theRuleReportsAClassThatReadsTheSystemTime() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.spectrum.time.archfixture");
        AssertionError e = Assertions.assertThrows(AssertionError.class,
                () -> only_clocks_and_idle_strategies_read_or_wait_on_the_system_time.check(fixture));
        Assertions.assertTrue(e.getMessage().contains("ReadsTheSystemTime.deadline()") && e.getMessage().contains("nanoTime")
                && e.getMessage().contains("ReadsTheSystemTime.pause()") && e.getMessage().contains("parkNanos"), e.getMessage());
    }
}
