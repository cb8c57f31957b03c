package dev.strand.internal.coding;

import java.io.EOFException;
import java.io.IOException;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * gzip (RFC 1952, members may be concatenated) and deflate on {@link Inflater}, fed the source's
 * chunks directly: no intermediate stream, no copy of the input. "deflate" is meant to be zlib
 * (RFC 1950) but some servers send raw deflate (RFC 1951); the first two bytes tell which.
 */
final class InflateDecoder implements Decoder {
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;

  private enum State { HEADER, BODY, TRAILER, NEXT_MEMBER, END }

  private final ChunkSource source;
  private final boolean gzip;
  private Inflater inflater;
  private final CRC32 crc;
  private long memberSize;
  private State state;
  private byte[] chunk;
  private int pos; // bytes of chunk consumed outside the inflater (gzip header and trailer)

  private InflateDecoder(ChunkSource source, boolean gzip) {
    this.source = source;
    this.gzip = gzip;
    this.crc = gzip ? new CRC32() : null;
    this.state = State.HEADER;
  }

  static InflateDecoder gzip(ChunkSource source) {
    return new InflateDecoder(source, true);
  }

  static InflateDecoder deflate(ChunkSource source) {
    return new InflateDecoder(source, false);
  }

  @Override
  public int read(byte[] out, int off, int len) throws IOException {
    while (true) {
      switch (state) {
        case HEADER -> {
          if (gzip) {
            readGzipHeader(false);
          } else {
            startDeflate();
          }
          state = State.BODY;
        }
        case BODY -> {
          int n;
          try {
            n = inflater.inflate(out, off, len);
          } catch (DataFormatException e) {
            throw new ZipException("corrupt " + name() + " data: " + e.getMessage());
          }
          if (n > 0) {
            if (gzip) {
              crc.update(out, off, n);
              memberSize += n;
            }
            return n;
          }
          if (inflater.finished()) {
            pos = chunk == null ? 0 : chunk.length - inflater.getRemaining();
            state = gzip ? State.TRAILER : State.NEXT_MEMBER;
          } else if (inflater.needsDictionary()) {
            throw new ZipException("corrupt " + name() + " data: a preset dictionary is required");
          } else if (inflater.needsInput()) {
            if (!feedInflater()) {
              throw new EOFException("truncated " + name() + " data: the body ended inside the compressed stream");
            }
          } else if (len == 0) {
            return 0;
          } else {
            throw new ZipException("corrupt " + name() + " data: the inflater made no progress");
          }
        }
        case TRAILER -> {
          long expectedCrc = readIntLe();
          long expectedSize = readIntLe();
          if (expectedCrc != crc.getValue()) {
            throw new ZipException("corrupt gzip data: CRC mismatch");
          }
          if (expectedSize != (memberSize & 0xffffffffL)) {
            throw new ZipException("corrupt gzip data: length mismatch");
          }
          state = State.NEXT_MEMBER;
        }
        case NEXT_MEMBER -> {
          int b = readByte();
          if (b < 0) {
            state = State.END;
          } else if (gzip && b == 0x1f && readByte() == 0x8b) {
            readGzipHeader(true);
            state = State.BODY;
          } else {
            // Trailing garbage after a complete member is ignored, as by gzip(1) and browsers;
            // it is still read so that the connection can be reused.
            while (source.next() != null) {
              // discard
            }
            chunk = null;
            state = State.END;
          }
        }
        case END -> {
          close();
          return -1;
        }
        default -> throw new IllegalStateException();
      }
    }
  }

  private String name() {
    return gzip ? "gzip" : "deflate";
  }

  private void startDeflate() throws IOException {
    int b0 = readByte();
    int b1 = b0 < 0 ? -1 : readByte();
    if (b1 < 0) {
      throw new EOFException("truncated deflate data");
    }
    boolean zlib = (b0 & 0x0f) == 8 && ((b0 << 8) | b1) % 31 == 0;
    inflater = new Inflater(!zlib);
    inflater.setInput(new byte[] {(byte) b0, (byte) b1});
  }

  private void readGzipHeader(boolean magicRead) throws IOException {
    if (!magicRead && (readByteOrEof() != 0x1f || readByteOrEof() != 0x8b)) {
      throw new ZipException("not in gzip format");
    }
    if (readByteOrEof() != 8) {
      throw new ZipException("unsupported gzip compression method");
    }
    int flags = readByteOrEof();
    for (int i = 0; i < 6; i++) { // MTIME, XFL, OS
      readByteOrEof();
    }
    if ((flags & FEXTRA) != 0) {
      int xlen = readByteOrEof() | (readByteOrEof() << 8);
      for (int i = 0; i < xlen; i++) {
        readByteOrEof();
      }
    }
    if ((flags & FNAME) != 0) {
      while (readByteOrEof() != 0) {
        // skip the file name
      }
    }
    if ((flags & FCOMMENT) != 0) {
      while (readByteOrEof() != 0) {
        // skip the comment
      }
    }
    if ((flags & FHCRC) != 0) {
      readByteOrEof();
      readByteOrEof();
    }
    if (inflater == null) {
      inflater = new Inflater(true);
    } else {
      inflater.reset();
    }
    crc.reset();
    memberSize = 0;
    if (chunk != null && pos < chunk.length) {
      inflater.setInput(chunk, pos, chunk.length - pos);
      pos = chunk.length;
    }
  }

  /** Gives the inflater the rest of the current chunk, or the next one; false at the end. */
  private boolean feedInflater() {
    if (chunk != null && pos < chunk.length) {
      inflater.setInput(chunk, pos, chunk.length - pos);
      pos = chunk.length;
      return true;
    }
    byte[] next;
    do {
      next = source.next();
    } while (next != null && next.length == 0);
    if (next == null) {
      return false;
    }
    chunk = next;
    pos = next.length;
    inflater.setInput(next);
    return true;
  }

  private int readByte() {
    while (chunk == null || pos >= chunk.length) {
      byte[] next = source.next();
      if (next == null) {
        return -1;
      }
      chunk = next;
      pos = 0;
    }
    return chunk[pos++] & 0xff;
  }

  private int readByteOrEof() throws IOException {
    int b = readByte();
    if (b < 0) {
      throw new EOFException("truncated gzip data: the body ended inside a gzip header or trailer");
    }
    return b;
  }

  private long readIntLe() throws IOException {
    return (readByteOrEof() | (readByteOrEof() << 8) | (readByteOrEof() << 16) | ((long) readByteOrEof() << 24));
  }

  @Override
  public void close() {
    if (inflater != null) {
      inflater.end();
      inflater = null;
    }
    state = State.END;
  }
}
