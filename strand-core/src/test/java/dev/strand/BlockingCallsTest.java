package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.spi.ResponseBody;
import dev.strand.spi.StreamingResponses;
import dev.strand.spi.Transport;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Blocking calls throw the HttpException itself, and an interrupted caller aborts the exchange. */
class BlockingCallsTest {
  /** A transport whose exchanges never complete unless cancelled. */
  static final class HangingTransport implements Transport {
    final CompletableFuture<StreamingResponse> pending = new CompletableFuture<>();
    final CountDownLatch sent = new CountDownLatch(1);

    @Override
    public CompletableFuture<StreamingResponse> send(Request request) {
      sent.countDown();
      return pending;
    }

    @Override
    public void close() {}
  }

  @Test
  void httpExceptionsAreThrownAsIs() {
    ConnectException refused = new ConnectException("refused", null);
    try (Client client = Client.builder().transport(MockTransport.of(r -> {
      throw refused;
    })).build()) {
      assertSame(refused, assertThrows(ConnectException.class, () -> client.get("http://h/")));
    }
  }

  @Test
  void otherTransportFailuresBecomeTransportExceptions() {
    IOException io = new IOException("socket closed");
    Transport failing = new Transport() {
      @Override
      public CompletableFuture<StreamingResponse> send(Request request) {
        return CompletableFuture.failedFuture(io);
      }

      @Override
      public void close() {}
    };
    try (Client client = Client.builder().transport(failing).build()) {
      TransportException e = assertThrows(TransportException.class, () -> client.get("http://h/x"));
      assertSame(io, e.getCause());
      assertEquals("http://h/x", e.request().url().toString());
    }
    try (Client client = Client.builder().transport(MockTransport.of(r -> {
      throw new IllegalStateException("handler bug");
    })).build()) {
      TransportException e = assertThrows(TransportException.class, () -> client.get("http://h/"));
      assertInstanceOf(IllegalStateException.class, e.getCause());
    }
  }

  @Test
  void interruptingABlockedSendCancelsTheExchange() throws InterruptedException {
    HangingTransport transport = new HangingTransport();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicBoolean stillInterrupted = new AtomicBoolean();
    try (Client client = Client.builder().transport(transport).build()) {
      Thread caller = new Thread(() -> {
        try {
          client.get("http://h/never");
        } catch (Throwable t) {
          thrown.set(t);
          stillInterrupted.set(Thread.currentThread().isInterrupted());
        }
      });
      caller.start();
      assertTrue(transport.sent.await(10, TimeUnit.SECONDS));
      caller.interrupt();
      caller.join(10_000);
      assertFalse(caller.isAlive());
    }
    TransportException e = assertInstanceOf(TransportException.class, thrown.get());
    assertInstanceOf(InterruptedException.class, e.getCause());
    assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
    assertTrue(stillInterrupted.get(), "the interrupt flag must stay set");
    assertTrue(transport.pending.isCancelled(), "the transport's exchange must be cancelled");
  }

  @Test
  void cancellingAnAsyncCallCancelsTheExchange() {
    HangingTransport transport = new HangingTransport();
    try (Client client = Client.builder().transport(transport).followRedirects(true).auth(Auth.bearer("t")).build()) {
      CompletableFuture<Response> call = client.async().send(Request.get("http://h/"));
      assertFalse(call.isDone());
      assertTrue(call.cancel(true));
      assertTrue(transport.pending.isCancelled());
    }
    HangingTransport second = new HangingTransport();
    try (Client client = Client.builder().transport(second).build()) {
      CompletableFuture<StreamingResponse> stream = client.async().stream(Request.get("http://h/"));
      assertTrue(stream.cancel(false));
      assertTrue(second.pending.isCancelled());
    }
  }

  /** A transport future that ignores cancellation, like a transport whose response wins the race. */
  static final class UncancellableFuture<T> extends CompletableFuture<T> {
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      return false;
    }
  }

  @Test
  void aResponseArrivingAfterCancellationIsClosed() {
    UncancellableFuture<StreamingResponse> source = new UncancellableFuture<>();
    Transport racing = new Transport() {
      @Override
      public CompletableFuture<StreamingResponse> send(Request request) {
        return source;
      }

      @Override
      public void close() {}
    };
    AtomicBoolean closed = new AtomicBoolean();
    ResponseBody body = new ResponseBody() {
      @Override
      public long contentLength() {
        return 0;
      }

      @Override
      public CompletableFuture<byte[]> readAll(long maxBytes) {
        return new CompletableFuture<>();
      }

      @Override
      public byte[] readChunk() {
        return null;
      }

      @Override
      public void close() {
        closed.set(true);
      }
    };
    try (Client client = Client.builder().transport(racing).build()) {
      CompletableFuture<StreamingResponse> streamCall = client.async().stream(Request.get("http://h/"));
      CompletableFuture<Response> sendCall = client.async().send(Request.get("http://h/"));
      assertTrue(streamCall.cancel(true));
      source.complete(StreamingResponses.of(Request.get("http://h/"), 200, null, Headers.EMPTY, Version.HTTP_1_1, body));
      assertTrue(closed.get(), "nobody else can close a response that arrives after cancellation");
      closed.set(false);
      assertFalse(sendCall.isDone(), "its body is still being read");
      assertTrue(sendCall.cancel(true));
      assertTrue(closed.get(), "cancelling while the body is read closes it");
    }
  }
}
