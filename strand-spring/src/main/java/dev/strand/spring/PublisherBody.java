package dev.strand.spring;

import dev.strand.RequestBody;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

/**
 * A reactive body as a Strand body. Strand's upload pump reads an InputStream on a virtual thread, so the
 * publisher is subscribed when the pump opens the stream and asked for one buffer at a time: the next is
 * requested only when the pump has taken the previous one, which it does as the connection accepts data.
 * So the publisher's demand follows the network, and at most two buffers are held. Each buffer is copied
 * out and released at once. The body is one-shot: Strand does not replay it (a 307 redirect, a retry).
 */
final class PublisherBody extends RequestBody {
  private final Publisher<? extends DataBuffer> publisher;
  private final String contentType;
  private final long contentLength;
  private final AtomicBoolean opened = new AtomicBoolean();

  PublisherBody(Publisher<? extends DataBuffer> publisher, String contentType, long contentLength) {
    this.publisher = publisher;
    this.contentType = contentType;
    this.contentLength = contentLength;
  }

  @Override
  public String contentType() {
    return contentType;
  }

  @Override
  public long contentLength() {
    return contentLength;
  }

  @Override
  public boolean isRepeatable() {
    return false;
  }

  @Override
  public InputStream openStream() throws IOException {
    if (!opened.compareAndSet(false, true)) {
      throw new IOException("this reactive request body was already sent and cannot be replayed");
    }
    SubscribingPipe pipe = new SubscribingPipe();
    publisher.subscribe(pipe);
    return pipe;
  }

  /** Demand of one: a buffer is requested at the start and after each one the reader takes. */
  private static final class SubscribingPipe extends ChunkPipe implements Subscriber<DataBuffer> {
    private volatile Subscription subscription;
    private volatile boolean cancelled;

    SubscribingPipe() {
      super(2);
    }

    @Override
    public void onSubscribe(Subscription s) {
      subscription = s;
      if (cancelled) {
        s.cancel();
      } else {
        s.request(1);
      }
    }

    @Override
    public void onNext(DataBuffer buffer) {
      byte[] bytes;
      try {
        bytes = new byte[buffer.readableByteCount()];
        buffer.read(bytes);
      } finally {
        DataBufferUtils.release(buffer);
      }
      if (bytes.length == 0) {
        subscription.request(1);
        return;
      }
      try {
        put(bytes); // never waits: with a demand of one, at most one buffer is queued
      } catch (IOException e) {
        subscription.cancel(); // the reader closed: the exchange is over
      }
    }

    @Override
    public void onError(Throwable t) {
      fail(t);
    }

    @Override
    public void onComplete() {
      complete();
    }

    @Override
    protected void taken() {
      subscription.request(1);
    }

    @Override
    protected void closed() {
      cancelled = true;
      Subscription s = subscription;
      if (s != null) {
        s.cancel();
      }
    }
  }
}
