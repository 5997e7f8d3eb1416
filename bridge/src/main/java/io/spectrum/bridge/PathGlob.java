package io.spectrum.bridge;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Path globs of {@code --mqtt-include}, {@code --mqtt-exclude} and {@code --mqtt-writable}:
 * {@code *} matches within one path segment, {@code **} any number of segments (also none, so
 * {@code /board1/**} names {@code /board1} and everything below), anything else itself.
 */
public final class PathGlob {
    private final String glob;
    private final Pattern pattern;

    private PathGlob(String glob) {
        this.glob = glob;
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                boolean slashBefore = i > 0 && glob.charAt(i - 1) == '/';
                if (slashBefore && i + 2 == glob.length()) {
                    re.setLength(re.length() - 2); // "/**" at the end (drop the "\/"): the vertex itself and everything below
                    re.append("(/.*)?");
                } else {
                    re.append(".*");
                }
                i++;
            } else if (c == '*') {
                re.append("[^/]*");
            } else {
                re.append(Character.isLetterOrDigit(c) ? String.valueOf(c) : "\\" + c); // a literal
            }
        }
        this.pattern = Pattern.compile(re.toString());
    }

    /**
     * @throws IllegalArgumentException when {@code glob} does not start with {@code /}
     */
    public static PathGlob of(String glob) {
        if (glob == null || !glob.startsWith("/")) {
            throw new IllegalArgumentException("a path glob starts with / (was '" + glob + "')");
        }
        return new PathGlob(glob);
    }

    /** True when the whole {@code path} matches the glob. */
    public boolean matches(String path) {
        return pattern.matcher(path).matches();
    }

    /** True when any of {@code globs} matches {@code path}. */
    public static boolean any(List<PathGlob> globs, String path) {
        for (PathGlob g : globs) {
            if (g.matches(path)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return glob;
    }
}
