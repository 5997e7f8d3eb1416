package io.spectrum.bus.protocol;

import io.spectrum.wire.BusError;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

class ArtifactFilesTest {
    @TempDir
    Path tmp;
    Path root;
    Path outside;

    @BeforeEach
    void layout() throws Exception {
        root = Files.createDirectories(tmp.resolve("root"));
        Files.createDirectories(root.resolve("sealed"));
        Files.write(root.resolve("sealed").resolve("1-1"), new byte[] {1, 2, 3});
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.write(outside.resolve("secret"), new byte[] {7, 7});
    }

    private static BusError codeOf(Executable call) {
        return assertThrows(BusException.class, call).code();
    }

    @Test
    void aPlainRelativeLocationMapsReadOnly() throws Exception {
        MappedByteBuffer m = ArtifactFiles.mapReadOnly(root, "sealed/1-1");
        byte[] b = new byte[m.capacity()];
        m.get(b);
        assertArrayEquals(new byte[] {1, 2, 3}, b);
        assertEquals(root.toRealPath().resolve("sealed/1-1"), ArtifactFiles.resolve(root, "sealed/1-1"));
    }

    @Test
    void aReadOnlyMappingCannotBeWritten() throws Exception {
        MappedByteBuffer m = ArtifactFiles.mapReadOnly(root, "sealed/1-1");
        assertThrows(java.nio.ReadOnlyBufferException.class, () -> m.put(0, (byte) 9));
    }

    @Test
    void absoluteLocationsAreRefused() {
        assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> ArtifactFiles.resolve(root, "/etc/passwd")));
        assertEquals(BusError.INVALID_ENVELOPE,
                codeOf(() -> ArtifactFiles.mapReadOnly(root, root.resolve("sealed/1-1").toString())));
    }

    @Test
    void dotDotDotAndEmptySegmentsAreRefused() {
        for (String bad : new String[] {"..", "../outside/secret", "sealed/../../outside/secret", "sealed/./1-1",
                "sealed//1-1", "sealed/", "", "./sealed/1-1"}) {
            assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> ArtifactFiles.resolve(root, bad)), bad);
        }
        assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> ArtifactFiles.resolve(root, null)));
    }

    @Test
    void charactersOutsideTheLocationAlphabetAreRefused() {
        for (String bad : new String[] {"sealed\\1-1", "sealed/1 1", "sealed/1-1\u0000", "sealed/\u00e9", "~/x"}) {
            assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> ArtifactFiles.resolve(root, bad)), bad);
        }
    }

    @Test
    void aSymlinkedFileIsRefused() throws Exception {
        Files.createSymbolicLink(root.resolve("sealed").resolve("2-1"), outside.resolve("secret"));
        assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> ArtifactFiles.mapReadOnly(root, "sealed/2-1")));
        assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> ArtifactFiles.openForWrite(root, "sealed/2-1")));
        assertArrayEquals(new byte[] {7, 7}, Files.readAllBytes(outside.resolve("secret")));
    }

    @Test
    void aSymlinkedDirectoryOnTheWayIsRefused() throws Exception {
        Files.createSymbolicLink(root.resolve("escape"), outside);
        assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> ArtifactFiles.resolve(root, "escape/secret")));
        assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> ArtifactFiles.mapReadOnly(root, "escape/secret")));
        Files.createSymbolicLink(root.resolve("sealed").resolve("up"), root);
        assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> ArtifactFiles.resolve(root, "sealed/up/sealed/1-1")),
                "a link that stays inside is refused too");
    }

    @Test
    void aRootThatIsItselfASymlinkIsFollowed() throws Exception {
        Path alias = Files.createSymbolicLink(tmp.resolve("alias"), root);
        MappedByteBuffer m = ArtifactFiles.mapReadOnly(alias, "sealed/1-1");
        assertEquals(3, m.capacity());
    }

    @Test
    void aMissingFileIsGone() {
        assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> ArtifactFiles.mapReadOnly(root, "sealed/9-1")));
        assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> ArtifactFiles.mapReadOnly(root, "nodir/9-1")));
        assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> ArtifactFiles.openForWrite(root, "sealed/9-1")));
    }

    @Test
    void aDirectoryIsNotAnArtifact() {
        assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> ArtifactFiles.mapReadOnly(root, "sealed")));
    }

    @Test
    void openForWriteCreatesNothingAndWritesInPlace() throws Exception {
        try (FileChannel ch = ArtifactFiles.openForWrite(root, "sealed/1-1")) {
            ch.write(ByteBuffer.wrap(new byte[] {5}), 1);
        }
        assertArrayEquals(new byte[] {1, 5, 3}, Files.readAllBytes(root.resolve("sealed/1-1")));
        MappedByteBuffer w = ArtifactFiles.mapForWrite(root, "sealed/1-1");
        w.put(2, (byte) 6);
        w.force();
        assertArrayEquals(new byte[] {1, 5, 6}, Files.readAllBytes(root.resolve("sealed/1-1")));
    }
}
