package io.spectrum.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wide.Grants;
import io.spectrum.wide.Grants.Permission;
import org.junit.jupiter.api.Test;

/**
 * The grants file (docs/host.md, "The grants file"): one file for the node's paths and the bus's
 * names; a vertex's two spellings (the path {@code /lab/setpoint}, the topic {@code lab.setpoint})
 * are one name to its patterns, services are bus names only, {@code *} covers everything.
 */
class GrantsFileTest {
    private static final String FILE = """
            anonymous:
              subscribe: /lab/*
            ops:
              publish: [/lab/*, camera.*]
              subscribe: "*"
            setter:
              publish: /lab/setpoint
            """;

    private final GrantsFile file = GrantsFile.parse(FILE, "grants.yaml");

    @Test
    void aPathPrefix_coversThePathsUnderIt_notTheVertexItselfNorALookalike() {
        Grants ops = file.lookup().apply("ops");
        assertTrue(ops.allows(Permission.PUBLISH, "/lab/setpoint"));
        assertTrue(ops.allows(Permission.PUBLISH, "/lab/a/b"));
        assertFalse(ops.allows(Permission.PUBLISH, "/lab"));
        assertFalse(ops.allows(Permission.PUBLISH, "/laboratory/x"));
        assertFalse(ops.allows(Permission.PUBLISH, "/board1/led"));
    }

    @Test
    void anExactPath_coversThatPathOnly() {
        Grants setter = file.lookup().apply("setter");
        assertTrue(setter.allows(Permission.PUBLISH, "/lab/setpoint"));
        assertFalse(setter.allows(Permission.PUBLISH, "/lab/setpoint/x"));
        assertFalse(setter.allows(Permission.SUBSCRIBE, "/lab/setpoint"), "publish does not give subscribe");
    }

    @Test
    void aVertexsTwoSpellings_areOneName_toEveryVertexPermission() {
        Grants ops = file.lookup().apply("ops");
        assertTrue(ops.allows(Permission.PUBLISH, "camera.snap"));
        assertTrue(ops.allows(Permission.PUBLISH, "/camera/snap"), "camera.* covers the topic's vertex");
        assertTrue(ops.allows(Permission.PUBLISH, "lab.setpoint"), "/lab/* covers the vertex's topic");
        assertFalse(ops.allows(Permission.PUBLISH, "lab"), "as /lab/* does not cover /lab itself");
        assertFalse(ops.allows(Permission.PUBLISH, "/camera.snap"), "a path with a dot has no topic spelling");
        assertFalse(ops.allows(Permission.PUBLISH, "laboratory.x"));
        assertTrue(ops.allows(Permission.SUBSCRIBE, "/board1/led"));
        assertTrue(ops.allows(Permission.SUBSCRIBE, "camera.snap"));
        Grants setter = file.lookup().apply("setter");
        assertTrue(setter.allows(Permission.PUBLISH, "lab.setpoint"));
        assertFalse(setter.allows(Permission.PUBLISH, "lab.setpoint.x"));
    }

    @Test
    void aServiceName_hasOneSpelling() {
        Grants g = GrantsFile.parse("cam:\n  serve: /camera/*\n  call: camera.*\n", "grants.yaml").lookup().apply("cam");
        assertFalse(g.allows(Permission.SERVE, "camera.snap"), "a path pattern never covers a service");
        assertTrue(g.allows(Permission.CALL, "camera.snap"));
        assertFalse(g.allows(Permission.CALL, "/camera/snap"));
    }

    @Test
    void anUnlistedName_andNoName_getTheAnonymousEntry() {
        for (String name : new String[] {null, "stranger"}) {
            Grants g = file.lookup().apply(name);
            assertTrue(g.allows(Permission.SUBSCRIBE, "/lab/setpoint"));
            assertFalse(g.allows(Permission.SUBSCRIBE, "/board1/led"));
            assertFalse(g.allows(Permission.PUBLISH, "/lab/setpoint"));
        }
        assertEquals(2, file.names());
    }

    @Test
    void aStarInsideAPathPattern_isRefusedWithOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GrantsFile.parse("ops:\n  publish: /lab/*/x\n", "grants.yaml"));
        assertEquals("grants.yaml: ops.publish: '/lab/*/x': '*' may only end a pattern (a prefix)", e.getMessage());
    }
}
