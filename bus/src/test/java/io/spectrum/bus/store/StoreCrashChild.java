package io.spectrum.bus.store;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import io.spectrum.bus.protocol.ArtifactFiles;
import io.spectrum.bus.protocol.ArtifactRef;

/**
 * A store process that is killed instead of closed (FileArtifactStoreTest's crash test): opens a
 * store in {@code args[0]}, seals one artifact and leaves a second staged, prints
 * {@code ready <storeId> <id> <generation> <length> <digest>} and waits for stdin to close.
 */
public final class StoreCrashChild {
    private StoreCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        FileArtifactStore store = FileArtifactStore.open(Path.of(args[0]));
        StagedArtifact a = store.allocate(4096, "application/octet-stream");
        MappedByteBuffer w = ArtifactFiles.mapForWrite(store.root(), a.writeLocation());
        for (int i = 0; i < 4096; i++) {
            w.put(i, (byte) i);
        }
        ArtifactRef ref = store.seal(a.artifactId(), a.generation(), null);
        store.allocate(8192, "application/octet-stream");
        System.out.println("ready " + ref.storeId() + " " + ref.artifactId() + " " + ref.generation() + " "
                + ref.length() + " " + ref.digest());
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait to be killed
        }
    }
}
