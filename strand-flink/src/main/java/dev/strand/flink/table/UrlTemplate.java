package dev.strand.flink.table;

import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A URL with {@code {column}} placeholders, e.g. {@code http://users.internal/users/{id}?lang={lang}}. Each
 * placeholder is replaced by its column's value, percent-encoded as one URI component (a space becomes
 * {@code %20}, a slash {@code %2F}). Immutable; {@link #parse} checks the syntax and that the URL is absolute
 * {@code http(s)}.
 */
final class UrlTemplate implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Literal text and placeholder names, alternating: even indexes are literals, odd ones column names. */
    private final List<String> parts;
    private final String text;

    private UrlTemplate(String text, List<String> parts) {
        this.text = text;
        this.parts = parts;
    }

    /**
     * @param text the template
     * @return the template
     * @throws IllegalArgumentException naming what is wrong: an unclosed or stray brace, an empty or nested
     *         placeholder, or a URL that is not absolute {@code http(s)} once its placeholders are filled
     */
    static UrlTemplate parse(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '}') {
                throw new IllegalArgumentException("'}' at index " + i + " closes no placeholder");
            }
            if (c != '{') {
                literal.append(c);
                i++;
                continue;
            }
            int end = text.indexOf('}', i + 1);
            if (end < 0) {
                throw new IllegalArgumentException("the placeholder at index " + i + " is not closed by '}'");
            }
            String name = text.substring(i + 1, end).trim();
            if (name.isEmpty() || name.indexOf('{') >= 0) {
                throw new IllegalArgumentException("the placeholder at index " + i + " needs one column name: \""
                        + text.substring(i, end + 1) + "\"");
            }
            parts.add(literal.toString());
            parts.add(name);
            literal.setLength(0);
            i = end + 1;
        }
        parts.add(literal.toString());
        UrlTemplate t = new UrlTemplate(text, List.copyOf(parts));
        URI uri;
        try {
            uri = new URI(t.expand(column -> "x"));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + e.getMessage(), e);
        }
        if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())
                || uri.getHost() == null) {
            throw new IllegalArgumentException("not an absolute http(s) URL");
        }
        return t;
    }

    /** @return the column names of the placeholders, in order of first appearance */
    Set<String> columns() {
        Set<String> names = new LinkedHashSet<>();
        for (int i = 1; i < parts.size(); i += 2) {
            names.add(parts.get(i));
        }
        return names;
    }

    /**
     * @param values the unencoded value of each placeholder's column
     * @return the URL, each value percent-encoded
     */
    String expand(Function<String, String> values) {
        StringBuilder url = new StringBuilder(text.length() + 16);
        for (int i = 0; i < parts.size(); i++) {
            url.append(i % 2 == 0 ? parts.get(i) : encode(values.apply(parts.get(i))));
        }
        return url.toString();
    }

    static String encode(String value) {
        // URLEncoder speaks application/x-www-form-urlencoded: '+' is a space only there, %20 is one everywhere.
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public String toString() {
        return text;
    }
}
