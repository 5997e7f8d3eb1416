package io.spectrum.packaging;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code spectrum flash --root DIR}: installs the bundle into a mounted board root file system. */
public final class RootfsInstaller {
    private RootfsInstaller() { }

    /**
     * Checks that {@code root} is a directory and installs {@code bundle} into it, reporting to {@code out}; {@link
     * FlashException} USAGE for a missing root, FAILED when writing fails.
     */
    public static void install(Path root, BoardBundle bundle, PrintWriter out) throws FlashException {
        check(root);
        out.printf("Installing the Spectrum board bundle into %s%n", root);
        try {
            bundle.install(root, true, out);
        } catch (IOException e) {
            throw new FlashException(FlashException.FAILED, "installing into " + root + " failed: " + e
                    + (e instanceof java.nio.file.AccessDeniedException ? " (run as root: sudo ./spectrum flash --root " + root + ")" : ""));
        }
        out.printf("Done. The board starts spectrum-board.service at boot; unmount %s (sudo umount %s) and boot the board.%n",
                root, root);
        out.printf("Settings: %s/%s%n", root, BoardBundle.CONF);
        out.flush();
    }

    /** Refuses anything that does not look like a board's root file system, saying what to pass instead. */
    static void check(Path root) throws FlashException {
        String mountHint = "Mount the board's root partition (on an SD card usually the second, ext4 partition, e.g. "
                + "sudo mount /dev/sdX2 /mnt/pi) and pass its mount point: spectrum flash --root /mnt/pi";
        if (!Files.exists(root)) {
            throw new FlashException(FlashException.USAGE, root + " does not exist. " + mountHint);
        }
        if (!Files.isDirectory(root)) {
            throw new FlashException(FlashException.USAGE, root + " is not a directory. " + mountHint);
        }
        boolean boot = Files.exists(root.resolve("config.txt")) || Files.exists(root.resolve("cmdline.txt"));
        if (!Files.isDirectory(root.resolve("etc")) || !Files.isDirectory(root.resolve("usr"))) {
            throw new FlashException(FlashException.USAGE, root + (boot
                    ? " looks like the boot partition (it has config.txt/cmdline.txt), not the root file system. "
                    : " does not look like a board root file system (it has no etc/ and usr/). ") + mountHint);
        }
        if (!Files.isWritable(root.resolve("etc"))) {
            throw new FlashException(FlashException.USAGE, "cannot write to " + root.resolve("etc")
                    + "; run as root: sudo ./spectrum flash --root " + root);
        }
    }
}
