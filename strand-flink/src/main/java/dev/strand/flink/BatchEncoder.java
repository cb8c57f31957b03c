package dev.strand.flink;

import java.io.ByteArrayOutputStream;
import java.io.Serializable;
import java.util.List;

/**
 * Joins the bodies of several {@link HttpSinkEntry entries} into the body of one request, for
 * {@link StrandHttpSink.Builder#batch}. Serializable: a lambda assigned to this type is.
 *
 * {@snippet :
 * BatchEncoder jsonArray = bodies -> ("[" + bodies.stream().map(String::new).collect(joining(",")) + "]").getBytes();
 * }
 */
@FunctionalInterface
public interface BatchEncoder extends Serializable {

    /**
     * @param bodies the entries' bodies, in the order the sink buffered them
     * @return the request body
     */
    byte[] encode(List<byte[]> bodies);

    /**
     * Newline-delimited JSON: each body followed by {@code \n} (bodies must not contain a newline themselves).
     *
     * @return the encoder
     */
    static BatchEncoder ndjson() {
        return bodies -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (byte[] b : bodies) {
                out.writeBytes(b);
                out.write('\n');
            }
            return out.toByteArray();
        };
    }
}
