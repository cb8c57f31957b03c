package dev.strand.testkit;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A minimal streaming JSON writer, so the testkit needs no JSON library.
 * Separators match Python's {@code json.dumps} defaults ({@code ", "} and {@code ": "}) like {@link Payloads#SMALL}.
 */
final class Json {

    private final StringBuilder out = new StringBuilder(256);
    // One bit per nesting level: set once the container has an element, so the next one needs ", ".
    private long hasElement;
    private int depth;
    private boolean afterName;

    Json beginObject() {
        separate();
        out.append('{');
        push();
        return this;
    }

    Json endObject() {
        depth--;
        out.append('}');
        return this;
    }

    Json beginArray() {
        separate();
        out.append('[');
        push();
        return this;
    }

    Json endArray() {
        depth--;
        out.append(']');
        return this;
    }

    Json name(String name) {
        separate();
        string(name);
        out.append(": ");
        afterName = true;
        return this;
    }

    Json value(String value) {
        separate();
        string(value);
        return this;
    }

    Json value(long value) {
        separate();
        out.append(value);
        return this;
    }

    Json value(boolean value) {
        separate();
        out.append(value);
        return this;
    }

    /** An object of string arrays, e.g. headers as {@code {"Name": ["v1", "v2"]}}. */
    Json value(Map<String, List<String>> multimap) {
        beginObject();
        for (Map.Entry<String, List<String>> e : multimap.entrySet()) {
            name(e.getKey()).beginArray();
            for (String v : e.getValue()) {
                value(v);
            }
            endArray();
        }
        return endObject();
    }

    byte[] toBytes() {
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private void push() {
        depth++;
        if (depth >= 64) {
            throw new IllegalStateException("JSON nested too deeply");
        }
        hasElement &= ~(1L << depth);
    }

    private void separate() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (depth == 0) {
            return;
        }
        long bit = 1L << depth;
        if ((hasElement & bit) != 0) {
            out.append(", ");
        }
        hasElement |= bit;
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
