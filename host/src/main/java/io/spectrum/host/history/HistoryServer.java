package io.spectrum.host.history;

import io.spectrum.bridge.Credentials;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A PostgreSQL server the history is kept in instead of a file (docs/host.md, "History"):
 * {@code postgresql://HOST[:PORT]/DB} (5432). User and password from a file
 * ({@code --history-credentials FILE}: lines {@code username=…}, {@code password=…}) or the
 * environment ({@code SPECTRUM_HISTORY_USERNAME}, {@code SPECTRUM_HISTORY_PASSWORD}); a URL carrying
 * {@code user:password@} is refused, so a password never sits on a command line or in a log.
 */
public record HistoryServer(String url, String jdbcUrl, String username, String password) {
    /** The scheme that names a server rather than a file. */
    public static final String SCHEME = "postgresql://";
    /** The environment variable the user name is read from when no credentials file is given. */
    public static final String ENV_USERNAME = "SPECTRUM_HISTORY_USERNAME";
    /** The environment variable the password is read from when no credentials file is given. */
    public static final String ENV_PASSWORD = "SPECTRUM_HISTORY_PASSWORD";

    /** Whether {@code target} (a {@code --history} or {@code --db} argument) names a server. */
    public static boolean names(String target) {
        return target != null && target.startsWith(SCHEME);
    }

    /** The server at {@code url}; credentials from {@code credentialsFile} (may be null) or {@code env}. */
    public static HistoryServer parse(String url, Path credentialsFile, Map<String, String> env) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + url + "' is not a URL (give postgresql://HOST[:PORT]/DB)");
        }
        if (!"postgresql".equals(u.getScheme())) {
            throw new IllegalArgumentException("'" + url + "': the scheme must be postgresql://");
        }
        if (u.getRawUserInfo() != null) {
            throw new IllegalArgumentException("the history URL must not carry user:password (a command line is visible "
                    + "to every user of the machine); use --history-credentials FILE or " + ENV_USERNAME + "/" + ENV_PASSWORD);
        }
        if (u.getRawQuery() != null || u.getRawFragment() != null) {
            throw new IllegalArgumentException("'" + url + "': give postgresql://HOST[:PORT]/DB, without ?options");
        }
        String db = u.getPath() == null ? "" : u.getPath().replaceFirst("^/", "");
        if (u.getHost() == null || db.isEmpty() || db.contains("/")) {
            throw new IllegalArgumentException("'" + url + "' names no host or no database (give postgresql://HOST[:PORT]/DB)");
        }
        int port = u.getPort() > 0 ? u.getPort() : 5432;
        Credentials c = Credentials.of(credentialsFile, env, ENV_USERNAME, ENV_PASSWORD);
        return new HistoryServer(url, "jdbc:postgresql://" + u.getHost() + ":" + port + "/" + u.getRawPath().substring(1),
                c.username(), c.password());
    }

    /** The URL as given (never with a password). */
    @Override
    public String toString() {
        return url;
    }
}
