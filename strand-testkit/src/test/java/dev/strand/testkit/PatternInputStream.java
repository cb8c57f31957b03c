package dev.strand.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The first {@code length} bytes of the {@link Payloads} sequence, generated as read: no array of that size. */
final class PatternInputStream extends InputStream {

    private static final byte[] PERIOD = Payloads.bytes(256);

    private final long length;
    private long position;

    PatternInputStream(long length) {
        this.length = length;
    }

    @Override
    public int read() {
        return position < length ? Payloads.at(position++) & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (position >= length) {
            return -1;
        }
        int n = (int) Math.min(len, length - position);
        for (int done = 0; done < n; ) {
            int from = (int) (position & 255);
            int run = Math.min(n - done, 256 - from);
            System.arraycopy(PERIOD, from, b, off + done, run);
            done += run;
            position += run;
        }
        return n;
    }

    /** SHA-256 hex of everything {@code in} yields. */
    static String sha256(InputStream in) throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[64 * 1024];
            for (int n; (n = in.read(buf)) >= 0; ) {
                digest.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256(byte[] bytes) throws IOException {
        return sha256(new java.io.ByteArrayInputStream(bytes));
    }
}
