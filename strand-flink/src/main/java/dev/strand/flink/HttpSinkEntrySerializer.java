package dev.strand.flink;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriterStateSerializer;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;

/**
 * Writes buffered {@link HttpSinkEntry entries} into checkpoints: method, URL, content type, body, attempts and
 * (version 2) the idempotency key, so that an entry restored from a checkpoint is sent with the key it had. Reads
 * version 1 (no key) as well: such entries are restored without one, and the writer derives it when it sends them
 * (unless the sink extracts keys from records, which a restored entry no longer has).
 */
final class HttpSinkEntrySerializer extends AsyncSinkWriterStateSerializer<HttpSinkEntry> {

    static final int VERSION = 2;

    // Flink's base class passes no version to deserializeRequestFromStream; a restore reads one state at a time
    // on the task's thread, so the version of the state being read can sit here.
    private int reading = VERSION;

    @Override
    protected void serializeRequestToStream(HttpSinkEntry e, DataOutputStream out) throws IOException {
        out.writeUTF(e.method());
        out.writeUTF(e.url());
        out.writeBoolean(e.contentType() != null);
        if (e.contentType() != null) {
            out.writeUTF(e.contentType());
        }
        out.writeInt(e.body().length);
        out.write(e.body());
        out.writeInt(e.attempts());
        out.writeBoolean(e.idempotencyKey() != null);
        if (e.idempotencyKey() != null) {
            out.writeUTF(e.idempotencyKey());
        }
    }

    @Override
    public BufferedRequestState<HttpSinkEntry> deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException("unknown version of the strand sink's state: " + version);
        }
        reading = version;
        try {
            return super.deserialize(version, serialized);
        } finally {
            reading = VERSION;
        }
    }

    @Override
    protected HttpSinkEntry deserializeRequestFromStream(long requestSize, DataInputStream in) throws IOException {
        String method = in.readUTF();
        String url = in.readUTF();
        String contentType = in.readBoolean() ? in.readUTF() : null;
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        int attempts = in.readInt();
        String key = reading >= 2 && in.readBoolean() ? in.readUTF() : null;
        return new HttpSinkEntry(method, url, contentType, body, attempts, key);
    }

    @Override
    public int getVersion() {
        return VERSION;
    }
}
