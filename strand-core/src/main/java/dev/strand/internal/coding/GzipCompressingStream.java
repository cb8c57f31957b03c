package dev.strand.internal.coding;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * The gzip (RFC 1952) form of another stream, compressed as it is read: each read takes at most one
 * buffer from the source, so memory stays bounded whatever the source's length.
 */
public final class GzipCompressingStream extends InputStream {
  private static final int BUFFER = 64 * 1024;
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff};

  private final InputStream source;
  private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
  private final CRC32 crc = new CRC32();
  private final byte[] input = new byte[BUFFER];
  /** Bytes ready to return (header, deflate output, trailer) and how far they have been returned. */
  private byte[] pending = HEADER.clone();
  private int pendingOffset;
  private int pendingLength = HEADER.length;
  private boolean sourceDone;
  private boolean trailerWritten;
  private boolean closed;

  public GzipCompressingStream(InputStream source) {
    this.source = source;
  }

  /** {@code bytes} gzipped in one go, for a body already in memory. */
  public static byte[] gzip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, bytes.length / 4));
    try (GZIPOutputStream gz = new GZIPOutputStream(out, BUFFER)) {
      gz.write(bytes);
    } catch (IOException e) {
      throw new IllegalStateException("gzip into memory cannot fail", e);
    }
    return out.toByteArray();
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("stream closed");
    }
    if (len == 0) {
      return 0;
    }
    while (pendingOffset == pendingLength) {
      if (trailerWritten) {
        return -1;
      }
      fill();
    }
    int n = Math.min(len, pendingLength - pendingOffset);
    System.arraycopy(pending, pendingOffset, b, off, n);
    pendingOffset += n;
    return n;
  }

  /** Makes more output: deflates what the deflater holds, feeding it one read of the source when it needs input. */
  private void fill() throws IOException {
    if (pending.length < BUFFER) {
      pending = new byte[BUFFER];
    }
    pendingOffset = 0;
    pendingLength = 0;
    if (!deflater.finished()) {
      if (deflater.needsInput() && !sourceDone) {
        int n = source.read(input);
        if (n < 0) {
          sourceDone = true;
          deflater.finish();
        } else if (n > 0) {
          crc.update(input, 0, n);
          deflater.setInput(input, 0, n);
        }
      }
      pendingLength = deflater.deflate(pending, 0, pending.length);
      return;
    }
    writeTrailer();
  }

  private void writeTrailer() {
    int crcValue = (int) crc.getValue();
    int size = (int) deflater.getBytesRead(); // ISIZE is the length modulo 2^32
    for (int i = 0; i < 4; i++) {
      pending[i] = (byte) (crcValue >>> (8 * i));
      pending[4 + i] = (byte) (size >>> (8 * i));
    }
    pendingLength = 8;
    trailerWritten = true;
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      deflater.end();
      source.close();
    }
  }
}
