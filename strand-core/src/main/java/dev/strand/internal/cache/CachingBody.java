package dev.strand.internal.cache;

import dev.strand.internal.body.ForwardingBody;
import dev.strand.spi.ResponseBody;
import java.io.ByteArrayOutputStream;
import java.util.function.Consumer;

/**
 * A body that keeps a copy of what its reader takes and hands it to {@code complete} once read to the
 * end, so a response is stored while the caller reads it, whichever way. A body closed early, failing,
 * or longer than {@code limit} is not stored.
 */
final class CachingBody extends ForwardingBody {
  private final int limit;
  private final Consumer<byte[]> complete;
  private ByteArrayOutputStream copy = new ByteArrayOutputStream();

  CachingBody(ResponseBody body, int limit, Consumer<byte[]> complete) {
    super(body);
    this.limit = limit;
    this.complete = complete;
  }

  @Override
  protected synchronized void read(byte[] piece) {
    if (copy == null) {
      return;
    }
    if (copy.size() + piece.length > limit) {
      copy = null;
    } else {
      copy.write(piece, 0, piece.length);
    }
  }

  @Override
  protected void ended() {
    byte[] whole;
    synchronized (this) {
      if (copy == null) {
        return;
      }
      whole = copy.toByteArray();
      copy = null;
    }
    complete.accept(whole);
  }

  @Override
  protected synchronized RuntimeException failed(RuntimeException failure) {
    copy = null;
    return failure;
  }

  @Override
  protected synchronized void closed() {
    copy = null;
  }
}
