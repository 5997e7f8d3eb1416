package io.spectrum.stats;

import io.spectrum.link.LinkCounters;
import io.spectrum.link.LinkStats;
import io.spectrum.link.NodeLinkStats;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The counter views are read-only and their writers keep their figures to themselves: every method
 * of {@link BoundedResource}, {@link LinkStats} and {@link NodeLinkStats} is a getter, every figure
 * of {@link ResourceCounter} and {@link LinkCounters} is a private volatile long, and the names in
 * {@link CounterNames} follow the one rule (lower case words joined by {@code _}, one spelling of
 * refused).
 */
class CounterViewsTest {
    @Test
    void theViewsHaveGettersOnly() {
        for (Class<?> view : new Class<?>[] {BoundedResource.class, LinkStats.class, NodeLinkStats.class}) {
            assertTrue(view.isInterface(), view.getName());
            for (Method m : view.getDeclaredMethods()) {
                assertEquals(0, m.getParameterCount(), view.getSimpleName() + "." + m.getName() + " takes nothing");
                assertTrue(m.getReturnType() == long.class || m.getReturnType() == String.class,
                        view.getSimpleName() + "." + m.getName() + " answers a figure or a name");
            }
        }
    }

    @Test
    void theWritersKeepTheirFiguresPrivateAndVolatile() {
        for (Class<?> writer : new Class<?>[] {ResourceCounter.class, LinkCounters.class}) {
            for (Field f : writer.getDeclaredFields()) {
                int mod = f.getModifiers();
                assertTrue(Modifier.isPrivate(mod), writer.getSimpleName() + "." + f.getName() + " is private");
                if (!Modifier.isFinal(mod)) {
                    assertTrue(Modifier.isVolatile(mod) && f.getType() == long.class,
                            writer.getSimpleName() + "." + f.getName() + " is a volatile long");
                }
            }
        }
    }

    @Test
    void aResourceCounterKeepsLongFigures() {
        ResourceCounter c = new ResourceCounter("store", 5_000_000_000L);
        c.taken(4_000_000_000L);
        c.returned(1_000_000_000L);
        c.countRefused();
        c.countDropped(3);
        assertEquals(5_000_000_000L, c.capacity());
        assertEquals(3_000_000_000L, c.inUse());
        assertEquals(4_000_000_000L, c.peak());
        assertEquals(1, c.refused());
        assertEquals(3, c.dropped());
    }

    @Test
    void everyNameFollowsTheRule() throws Exception {
        Set<String> seen = new HashSet<>();
        for (Field f : CounterNames.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            String name = (String) f.get(null);
            assertTrue(name.matches("[a-z]+(_[a-z]+)*"), name);
            assertFalse(name.contains("refusal") || name.contains("rejection"), name + ": refused is spelt refused");
            assertTrue(seen.add(name), name + " twice");
        }
    }
}
