package io.spectrum.bridge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A user name and password for a server the host talks to (the MQTT broker, the history's
 * PostgreSQL server), never from a command line: from a file (lines {@code username=…} and
 * {@code password=…}) or else from two environment variables the caller names.
 */
public record Credentials(String username, String password) {
    /** From {@code file} when given (it must hold a {@code username=} line), else from {@code env}'s two variables (either may be unset). */
    public static Credentials of(Path file, Map<String, String> env, String userVariable, String passwordVariable) {
        if (file == null) {
            return new Credentials(env.get(userVariable), env.get(passwordVariable));
        }
        String user = null;
        String pass = null;
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String l = line.strip();
                if (l.startsWith("username=")) {
                    user = l.substring("username=".length());
                } else if (l.startsWith("password=")) {
                    pass = l.substring("password=".length());
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the credentials file " + file + ": " + e.getMessage());
        }
        if (user == null) {
            throw new IllegalArgumentException("the credentials file " + file + " has no username= line");
        }
        return new Credentials(user, pass);
    }

    /** Never the password. */
    @Override
    public String toString() {
        return "Credentials[" + username + "]";
    }
}
