package io.spectrum.bus.store;

import io.spectrum.wire.BusError;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import io.spectrum.bus.protocol.ArtifactFiles;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.BusException;

class FileArtifactStoreTest {
    @TempDir
    Path tmp;

    private Path dir() {
        return tmp.resolve("store");
    }

    private FileArtifactStore open(long total, long perObject) throws BusException {
        return FileArtifactStore.open(StoreConfig.builder(dir()).totalLimitBytes(total).perObjectLimitBytes(perObject)
                .build());
    }

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static void write(ArtifactStore store, StagedArtifact a, byte[] data) throws Exception {
        try (FileChannel ch = ArtifactFiles.openForWrite(store.root(), a.writeLocation())) {
            ByteBuffer b = ByteBuffer.wrap(data);
            while (b.hasRemaining()) {
                ch.write(b, b.position());
            }
        }
    }

    private static byte[] readSealed(ArtifactStore store, long id) throws Exception {
        return bytesOf(ArtifactFiles.mapReadOnly(store.root(), store.readLocation(id)));
    }

    private static byte[] bytesOf(MappedByteBuffer m) {
        byte[] out = new byte[m.capacity()];
        m.duplicate().get(out);
        return out;
    }

    private static String sha256(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }

    private static BusError codeOf(Executable call) {
        return assertThrows(BusException.class, call).code();
    }

    private static List<Path> list(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.toList();
        }
    }

    private void assertNoArtifactFiles() throws Exception {
        assertEquals(List.of(), list(dir().resolve("staging")), "staging files");
        assertEquals(List.of(), list(dir().resolve("sealed")), "sealed files");
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void allocateWriteSealReadRoundTripKeepsBytesAndDigest() throws Exception {
        byte[] data = randomBytes(3 * (1 << 20) + 17, 1);
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(data.length, "image/raw");
            assertEquals("staging/" + a.artifactId() + "-" + a.generation(), a.writeLocation());
            assertEquals(data.length, a.byteLength());
            assertEquals(data.length, Files.size(store.root().resolve(a.writeLocation())), "staging is allocated whole");
            write(store, a, data);
            ArtifactRef ref = store.seal(a.artifactId(), a.generation(), sha256(data));
            assertEquals(new ArtifactRef(store.storeId(), a.artifactId(), 1, data.length, sha256(data)), ref);
            store.check(ref);
            assertEquals("sealed/" + a.artifactId() + "-1", store.readLocation(a.artifactId()));
            assertArrayEquals(data, readSealed(store, a.artifactId()));
            assertFalse(Files.exists(store.root().resolve(a.writeLocation())), "the staging file is gone after seal");
            assertEquals(1, store.objects());
            assertEquals(data.length, store.inUse());
            assertEquals(2L * data.length, store.peak(), "the seal held the staging and the sealed copy");
        }
    }

    @Test
    void sealDigestIsTheStandardSha256InLowerCaseHex() throws Exception {
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(3, "text/plain");
            write(store, a, "abc".getBytes(StandardCharsets.US_ASCII));
            ArtifactRef ref = store.seal(a.artifactId(), a.generation(), null);
            assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", ref.digest());
        }
    }

    @Test
    void shortStagedFileIsAMismatchAndLeavesNothing() throws Exception {
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(1000, "x");
            try (FileChannel ch = ArtifactFiles.openForWrite(store.root(), a.writeLocation())) {
                ch.truncate(999);
            }
            assertEquals(BusError.ARTIFACT_MISMATCH, codeOf(() -> store.seal(a.artifactId(), 1, null)));
            assertNoArtifactFiles();
            assertEquals(0, store.inUse());
            assertEquals(0, store.objects());
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.seal(a.artifactId(), 1, null)), "the staging is gone");
        }
    }

    @Test
    void longerStagedFileIsAMismatchToo() throws Exception {
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(10, "x");
            try (FileChannel ch = ArtifactFiles.openForWrite(store.root(), a.writeLocation())) {
                ch.write(ByteBuffer.wrap(new byte[] {1}), 10);
            }
            assertEquals(BusError.ARTIFACT_MISMATCH, codeOf(() -> store.seal(a.artifactId(), 1, null)));
            assertNoArtifactFiles();
            assertEquals(0, store.inUse());
        }
    }

    @Test
    void wrongDigestIsAMismatchAndLeavesNothing() throws Exception {
        byte[] data = randomBytes(5000, 2);
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(data.length, "x");
            write(store, a, data);
            String other = sha256(randomBytes(5000, 3));
            BusException e = assertThrows(BusException.class, () -> store.seal(a.artifactId(), 1, other));
            assertEquals(BusError.ARTIFACT_MISMATCH, e.code());
            assertTrue(e.getMessage().contains(sha256(data)), e.getMessage());
            assertNoArtifactFiles();
            assertEquals(0, store.inUse());
            assertEquals(0, store.objects());
        }
    }

    @Test
    void malformedDigestIsRefusedAndTheStagingStays() throws Exception {
        byte[] data = randomBytes(64, 4);
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(data.length, "x");
            write(store, a, data);
            String upper = sha256(data).toUpperCase();
            assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> store.seal(a.artifactId(), 1, upper)));
            assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> store.seal(a.artifactId(), 1, "abc")));
            assertEquals(sha256(data), store.seal(a.artifactId(), 1, sha256(data)).digest());
        }
    }

    @Test
    void sealIsImmuneToALiveWritableMappingAndChannel() throws Exception {
        byte[] data = randomBytes(2 * (1 << 20) + 5, 5);
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(data.length, "x");
            MappedByteBuffer w = ArtifactFiles.mapForWrite(store.root(), a.writeLocation());
            FileChannel ch = ArtifactFiles.openForWrite(store.root(), a.writeLocation());
            w.put(data);
            ArtifactRef ref = store.seal(a.artifactId(), 1, null);
            for (int i = 0; i < data.length; i += 4096) {
                w.put(i, (byte) ~data[i]);
            }
            ch.write(ByteBuffer.wrap(new byte[] {9, 9, 9}), 0);
            ch.close();
            byte[] sealed = readSealed(store, a.artifactId());
            assertArrayEquals(data, sealed, "writes after seal do not reach the sealed object");
            assertEquals(ref.digest(), sha256(sealed));
            assertEquals(sha256(data), ref.digest());
            store.check(ref);
        }
    }

    @Test
    void perObjectLimitRefusesAnAllocationAndMakesNoFile() throws Exception {
        try (FileArtifactStore store = open(1000, 100)) {
            assertEquals(BusError.QUOTA_EXCEEDED, codeOf(() -> store.allocate(101, "x")));
            assertEquals(1, store.refused());
            assertEquals(0, store.inUse());
            assertNoArtifactFiles();
            assertNotNull(store.allocate(100, "x"));
        }
    }

    @Test
    void totalLimitCountsStagingReservationsAndSealedObjects() throws Exception {
        try (FileArtifactStore store = open(100, 100)) {
            StagedArtifact a = store.allocate(30, "x");
            store.seal(a.artifactId(), 1, null);
            store.allocate(50, "x");
            assertEquals(80, store.inUse());
            assertEquals(BusError.QUOTA_EXCEEDED, codeOf(() -> store.allocate(21, "x")));
            assertEquals(1, store.refused());
            assertNotNull(store.allocate(20, "x"));
            assertEquals(100, store.inUse());
            assertEquals(100, store.capacity());
        }
    }

    @Test
    void sealingNeedsRoomForBothCopies() throws Exception {
        try (FileArtifactStore store = open(100, 100)) {
            StagedArtifact a = store.allocate(40, "x");
            StagedArtifact b = store.allocate(40, "x");
            assertEquals(BusError.QUOTA_EXCEEDED, codeOf(() -> store.seal(a.artifactId(), 1, null)),
                    "80 held + a 40-byte copy is past 100");
            assertEquals(1, store.refused());
            assertTrue(Files.exists(store.root().resolve(a.writeLocation())), "a refused seal keeps the staging");
            store.abandon(b.artifactId());
            ArtifactRef ref = store.seal(a.artifactId(), 1, null);
            store.check(ref);
            assertEquals(40, store.inUse());
            assertEquals(80, store.peak());
        }
    }

    @Test
    void collectWhileMappedKeepsTheBytesReadable() throws Exception {
        byte[] data = randomBytes(1 << 20, 6);
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(data.length, "x");
            write(store, a, data);
            ArtifactRef ref = store.seal(a.artifactId(), 1, null);
            Path sealed = store.root().resolve(store.readLocation(a.artifactId()));
            MappedByteBuffer m = ArtifactFiles.mapReadOnly(store.root(), store.readLocation(a.artifactId()));
            store.collect(a.artifactId());
            assertFalse(Files.exists(sealed), "collect unlinks the sealed file");
            assertEquals(0, store.objects());
            assertEquals(0, store.inUse());
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.check(ref)));
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.readLocation(a.artifactId())));
            assertArrayEquals(data, bytesOf(m), "the mapping still reads every byte");
            store.collect(a.artifactId());
            assertEquals(0, store.objects(), "collecting twice is a no-op");
        }
    }

    @Test
    void checkNamesEachWayARefCanBeWrong() throws Exception {
        byte[] data = randomBytes(100, 7);
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(data.length, "x");
            write(store, a, data);
            ArtifactRef ref = store.seal(a.artifactId(), 1, null);
            StagedArtifact s = store.allocate(10, "x");
            String id = store.storeId();
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.check(
                    new ArtifactRef("st-other", ref.artifactId(), 1, ref.length(), ref.digest()))));
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.check(
                    new ArtifactRef(id, ref.artifactId(), 2, ref.length(), ref.digest()))));
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.check(
                    new ArtifactRef(id, 999, 1, ref.length(), ref.digest()))));
            assertEquals(BusError.ARTIFACT_UNSEALED, codeOf(() -> store.check(
                    new ArtifactRef(id, s.artifactId(), 1, 10, ref.digest()))));
            assertEquals(BusError.ARTIFACT_UNSEALED, codeOf(() -> store.readLocation(s.artifactId())));
            assertEquals(BusError.ARTIFACT_MISMATCH, codeOf(() -> store.check(
                    new ArtifactRef(id, ref.artifactId(), 1, 99, ref.digest()))));
            assertEquals(BusError.ARTIFACT_MISMATCH, codeOf(() -> store.check(
                    new ArtifactRef(id, ref.artifactId(), 1, ref.length(), sha256(new byte[1])))));
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.seal(ref.artifactId(), 1, null)),
                    "a sealed id cannot be sealed again");
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.seal(s.artifactId(), 2, null)),
                    "another generation is gone");
            store.check(ref);
        }
    }

    @Test
    void idsAreNeverReusedAndAnAbandonedStagingIsGone() throws Exception {
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(10, "x");
            store.abandon(a.artifactId());
            assertEquals(0, store.inUse());
            assertNoArtifactFiles();
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.seal(a.artifactId(), 1, null)));
            StagedArtifact b = store.allocate(10, "x");
            assertTrue(b.artifactId() > a.artifactId(), "ids grow");
            store.seal(b.artifactId(), 1, null);
            store.abandon(b.artifactId());
            assertEquals(1, store.objects(), "abandon leaves sealed objects alone");
            store.abandon(12345);
        }
    }

    @Test
    void badLengthsAreInvalid() throws Exception {
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> store.allocate(0, "x")));
            assertEquals(BusError.INVALID_ENVELOPE, codeOf(() -> store.allocate(-5, "x")));
            assertEquals(0, store.refused());
            assertNoArtifactFiles();
        }
    }

    @Test
    void permissionsAreDirectory0700Staging0600Sealed0444() throws Exception {
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(10, "x");
            StagedArtifact b = store.allocate(10, "x");
            store.seal(b.artifactId(), 1, null);
            assertEquals("rwx------", mode(dir()));
            assertEquals("rwx------", mode(dir().resolve("staging")));
            assertEquals("rwx------", mode(dir().resolve("sealed")));
            assertEquals("rw-------", mode(dir().resolve("lock")));
            assertEquals("rw-------", mode(store.root().resolve(a.writeLocation())));
            assertEquals("r--r--r--", mode(store.root().resolve(store.readLocation(b.artifactId()))));
        }
    }

    @Test
    void anExistingRootIsTightenedTo0700() throws Exception {
        Files.createDirectories(dir());
        Files.setPosixFilePermissions(dir(), PosixFilePermissions.fromString("rwxr-xr-x"));
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            assertEquals("rwx------", mode(dir()));
        }
    }

    @Test
    void aStagingFileReplacedByASymlinkIsAMismatchAndItsTargetIsUntouched() throws Exception {
        Path outside = tmp.resolve("secret");
        Files.write(outside, randomBytes(10, 8));
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(10, "x");
            Path staging = store.root().resolve(a.writeLocation());
            Files.delete(staging);
            Files.createSymbolicLink(staging, outside);
            assertEquals(BusError.ARTIFACT_MISMATCH, codeOf(() -> store.seal(a.artifactId(), 1, null)));
            assertNoArtifactFiles();
            assertArrayEquals(randomBytes(10, 8), Files.readAllBytes(outside));
            assertEquals(0, store.inUse());
        }
    }

    @Test
    void aSecondOpenOfALockedDirectoryIsRefusedAndTheFirstKeepsItsLock() throws Exception {
        try (FileArtifactStore first = FileArtifactStore.open(dir())) {
            BusException e = assertThrows(BusException.class, () -> FileArtifactStore.open(dir()));
            assertEquals(BusError.STORE_FAILURE, e.code());
            assertTrue(e.getMessage().contains("in use by another store"), e.getMessage());
            assertNotNull(first.allocate(1, "x"));
        }
        FileArtifactStore.open(dir()).close();
    }

    @Test
    void closeRemovesThisRunsFilesAndRefusesLaterCalls() throws Exception {
        FileArtifactStore store = FileArtifactStore.open(dir());
        StagedArtifact a = store.allocate(10, "x");
        store.seal(a.artifactId(), 1, null);
        store.allocate(10, "x");
        store.close();
        assertFalse(Files.exists(dir()), "the root the store made is gone with its lock and directories");
        assertEquals(0, store.objects());
        assertEquals(0, store.inUse());
        assertEquals(BusError.STORE_FAILURE, codeOf(() -> store.allocate(1, "x")));
        store.close();
    }

    @Test
    void reopeningRemovesEveryOrphanAndStartsAFreshRun() throws Exception {
        Path outside = tmp.resolve("keep");
        Files.write(outside, new byte[] {1, 2, 3});
        Path staging = dir().resolve("staging");
        Path sealed = dir().resolve("sealed");
        Files.createDirectories(staging);
        Files.createDirectories(sealed.resolve("nested"));
        Files.write(staging.resolve("1-1"), new byte[100]);
        Files.write(sealed.resolve("2-1"), new byte[100]);
        Files.setPosixFilePermissions(sealed.resolve("2-1"), PosixFilePermissions.fromString("r--r--r--"));
        Files.write(sealed.resolve("nested").resolve("x"), new byte[1]);
        Files.createSymbolicLink(sealed.resolve("3-1"), outside);
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            assertEquals(4, store.orphansRemoved());
            assertNoArtifactFiles();
            assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(outside), "a link's target is not removed");
            assertEquals(0, store.objects());
            assertEquals(0, store.inUse());
            assertEquals(0, store.peak());
        }
    }

    @Test
    void eachRunHasANewStoreIdAndOldRefsAreGone() throws Exception {
        ManualClock clock = new ManualClock(1_000_000_000L);
        ArtifactRef old;
        String firstId;
        try (FileArtifactStore store = FileArtifactStore.open(StoreConfig.builder(dir()).clock(clock).build())) {
            StagedArtifact a = store.allocate(10, "x");
            old = store.seal(a.artifactId(), 1, null);
            firstId = store.storeId();
            assertTrue(firstId.matches("[a-z0-9][a-z0-9._-]{0,63}"), firstId);
        }
        try (FileArtifactStore store = FileArtifactStore.open(StoreConfig.builder(dir()).clock(clock).build())) {
            assertNotEquals(firstId, store.storeId(), "same clock, still a new id");
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.check(old)));
        }
    }

    @Test
    void restartAfterAKilledStoreProcessLeavesNoOrphansAndOldRefsAreGone() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                StoreCrashChild.class.getName(), dir().toString()).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertNotNull(line, "the child store exited early");
            assertTrue(line.startsWith("ready "), line);
            String[] f = line.split(" ");
            ArtifactRef old = new ArtifactRef(f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]), f[5]);
            BusException e = assertThrows(BusException.class, () -> FileArtifactStore.open(dir()));
            assertEquals(BusError.STORE_FAILURE, e.code());
            assertTrue(e.getMessage().contains("in use by another store"), e.getMessage());
            assertEquals(2, list(dir().resolve("staging")).size() + list(dir().resolve("sealed")).size(),
                    "the child left a sealed and a staged file");
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            try (FileArtifactStore store = FileArtifactStore.open(dir())) {
                assertEquals(2, store.orphansRemoved());
                assertNoArtifactFiles();
                assertEquals(0, store.objects());
                assertEquals(0, store.inUse());
                assertEquals(0, store.peak());
                assertEquals(0, store.refused());
                assertNotEquals(old.storeId(), store.storeId());
                assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.check(old)));
                assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.check(
                        new ArtifactRef(store.storeId(), old.artifactId(), old.generation(), old.length(), old.digest()))),
                        "the old id is no object of this run");
            }
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void aDamagedLayoutIsAStoreFailureNamingThePath() throws Exception {
        try (FileArtifactStore store = FileArtifactStore.open(dir())) {
            StagedArtifact a = store.allocate(10, "x");
            Files.delete(store.root().resolve(a.writeLocation()));
            Files.delete(store.root().resolve("sealed"));
            BusException e = assertThrows(BusException.class, () -> store.seal(a.artifactId(), 1, null));
            assertEquals(BusError.STORE_FAILURE, e.code());
            assertTrue(e.getMessage().contains(store.root().resolve("sealed").toString()), e.getMessage());
            assertEquals(10, store.inUse(), "the staging reservation stays until abandoned");
            store.abandon(a.artifactId());
            assertEquals(0, store.inUse());
            Files.delete(store.root().resolve("staging"));
            e = assertThrows(BusException.class, () -> store.allocate(10, "x"));
            assertEquals(BusError.STORE_FAILURE, e.code());
            assertTrue(e.getMessage().contains(store.root().resolve("staging").toString()), e.getMessage());
            assertEquals(0, store.inUse());
        }
    }

    private static List<Path> filesIn(Path root) throws Exception {
        try (Stream<Path> a = Files.list(root.resolve(ArtifactFiles.STAGING_DIR));
                Stream<Path> b = Files.list(root.resolve(ArtifactFiles.SEALED_DIR))) {
            return Stream.concat(a, b).toList();
        }
    }

    @Test
    void theThreeStepsSealWhatTheJobCopied_andASecondBeginWhileSealingIsGone() throws Exception {
        try (FileArtifactStore store = open(1 << 20, 1 << 20)) {
            byte[] data = randomBytes(4096, 21);
            StagedArtifact a = store.allocate(data.length, "x");
            write(store, a, data);
            SealJob job = store.beginSeal(a.artifactId(), 1, sha256(data));
            assertEquals(a.artifactId(), job.artifactId());
            assertEquals(2L * data.length, store.inUse(), "the staging and the copy's hold");
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.beginSeal(a.artifactId(), 1, null)));
            assertEquals(BusError.ARTIFACT_UNSEALED, codeOf(() -> store.readLocation(a.artifactId())));
            job.run();
            ArtifactRef ref = store.finishSeal(job);
            assertEquals(sha256(data), ref.digest());
            assertArrayEquals(data, readSealed(store, a.artifactId()));
            assertEquals(data.length, store.inUse());
            assertEquals(1, store.objects());
        }
    }

    @Test
    void cancelSealRemovesTheCopyAndLeavesTheStagingToSealAgain() throws Exception {
        try (FileArtifactStore store = open(1 << 20, 1 << 20)) {
            byte[] data = randomBytes(4096, 22);
            StagedArtifact a = store.allocate(data.length, "x");
            write(store, a, data);
            SealJob job = store.beginSeal(a.artifactId(), 1, null);
            job.run();
            assertTrue(Files.exists(store.root().resolve(ArtifactFiles.sealedLocation(a.artifactId(), 1))));
            store.cancelSeal(job);
            store.cancelSeal(job);
            assertFalse(Files.exists(store.root().resolve(ArtifactFiles.sealedLocation(a.artifactId(), 1))));
            assertEquals(data.length, store.inUse());
            assertEquals(0, store.objects());
            assertEquals(sha256(data), store.seal(a.artifactId(), 1, null).digest());
        }
    }

    @Test
    void aStagingAbandonedWhileItsJobRunsIsGoneAndLeavesNothing() throws Exception {
        try (FileArtifactStore store = open(1 << 20, 1 << 20)) {
            byte[] data = randomBytes(4096, 23);
            StagedArtifact a = store.allocate(data.length, "x");
            write(store, a, data);
            SealJob before = store.beginSeal(a.artifactId(), 1, null);
            store.abandon(a.artifactId());
            before.run();
            assertEquals(BusError.ARTIFACT_GONE, codeOf(() -> store.finishSeal(before)));
            assertEquals(List.of(), filesIn(store.root()));
            assertEquals(0, store.inUse());

            StagedArtifact b = store.allocate(data.length, "x");
            write(store, b, data);
            SealJob after = store.beginSeal(b.artifactId(), 1, null);
            after.run();
            store.abandon(b.artifactId());
            store.cancelSeal(after);
            assertEquals(List.of(), filesIn(store.root()));
            assertEquals(0, store.inUse());
            assertEquals(0, store.objects());
        }
    }

    @Test
    void closeRemovesTheCopiesOfSealsInProgress() throws Exception {
        FileArtifactStore store = open(1 << 20, 1 << 20);
        byte[] data = randomBytes(4096, 24);
        StagedArtifact a = store.allocate(data.length, "x");
        write(store, a, data);
        SealJob ran = store.beginSeal(a.artifactId(), 1, null);
        ran.run();
        StagedArtifact b = store.allocate(data.length, "x");
        write(store, b, data);
        SealJob late = store.beginSeal(b.artifactId(), 1, null);
        store.close();
        late.run();
        assertFalse(Files.exists(store.root()), "a job run after close leaves no copy: the root is gone");
        assertEquals(0, store.inUse());
    }

    @Test
    void filesNeverUsedAgainAreUnlinkedOnTheUnlinker_aRolledBackCopyAtOnce() throws Exception {
        try (FileArtifactStore store = open(1 << 20, 1 << 20)) {
            java.util.ArrayDeque<Runnable> unlinks = new java.util.ArrayDeque<>();
            store.unlinkOn(unlinks::add);
            byte[] data = randomBytes(4096, 25);
            StagedArtifact a = store.allocate(data.length, "x");
            write(store, a, data);
            Path staging = store.root().resolve(a.writeLocation());
            Path sealed = store.root().resolve(ArtifactFiles.sealedLocation(a.artifactId(), 1));
            SealJob rolledBack = store.beginSeal(a.artifactId(), 1, null);
            rolledBack.run();
            store.cancelSeal(rolledBack);
            assertFalse(Files.exists(sealed), "a copy whose path is sealed again later goes at once");
            assertTrue(unlinks.isEmpty());

            store.seal(a.artifactId(), 1, null);
            assertEquals(1, unlinks.size());
            assertTrue(Files.exists(staging), "the sealed staging goes on the unlinker");
            unlinks.poll().run();
            assertFalse(Files.exists(staging));

            store.collect(a.artifactId());
            assertEquals(0, store.inUse(), "accounted at once");
            assertTrue(Files.exists(sealed));
            unlinks.poll().run();
            assertEquals(List.of(), filesIn(store.root()));
        }
    }

    @Test
    void closeLeavesARootItDidNotMake_andWhatOthersPutThere() throws Exception {
        Files.createDirectories(dir());
        Path theirs = dir().resolve("notes.txt");
        Files.write(theirs, new byte[] {7});
        FileArtifactStore store = FileArtifactStore.open(dir());
        store.seal(store.allocate(4, "x").artifactId(), 1, null);
        store.close();
        assertEquals(List.of(theirs), list(dir()), "the store's lock and directories went; the user's file and root stay");
        FileArtifactStore.open(dir()).close(); // and it opens again
        assertArrayEquals(new byte[] {7}, Files.readAllBytes(theirs));
    }
}
