/**
 * {@code spectrum flash}'s side: the board bundle ({@link io.spectrum.packaging.BoardBundle}: jars,
 * launcher, optional runtime, board file, apps, DTLS files, the systemd unit and board.conf) and its
 * two installers, into a mounted root file system ({@link io.spectrum.packaging.RootfsInstaller}) or
 * over ssh ({@link io.spectrum.packaging.SshInstaller}). Values are checked on the host
 * ({@link io.spectrum.packaging.BoardConfig}) and a failure is a {@link io.spectrum.packaging.FlashException}
 * with its exit code. It only writes files; it runs no node and opens no link. See docs/host.md,
 * "Board bundle and spectrum flash".
 */
package io.spectrum.packaging;
