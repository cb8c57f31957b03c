package dev.strand.flink;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriterStateSerializer;

/** Writes buffered {@link HttpSinkEntry entries} into checkpoints: method, URL, content type, body, attempts. */
final class HttpSinkEntrySerializer extends AsyncSinkWriterStateSerializer<HttpSinkEntry> {

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
    }

    @Override
    protected HttpSinkEntry deserializeRequestFromStream(long requestSize, DataInputStream in) throws IOException {
        String method = in.readUTF();
        String url = in.readUTF();
        String contentType = in.readBoolean() ? in.readUTF() : null;
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        int attempts = in.readInt();
        return new HttpSinkEntry(method, url, contentType, body, attempts);
    }

    @Override
    public int getVersion() {
        return 1;
    }
}
