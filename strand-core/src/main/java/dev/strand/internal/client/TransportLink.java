package dev.strand.internal.client;

import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.internal.events.CallEvents;
import dev.strand.spi.Transport;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** The last link: hands the request to the transport, and holds its future for cancellation. */
final class TransportLink implements Link {
  private final Transport transport;

  TransportLink(Transport transport) {
    this.transport = transport;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    if (call.isCancelled()) {
      return CompletableFuture.failedFuture(new CancellationException("call cancelled"));
    }
    call.hopStartNanos = System.nanoTime();
    CompletableFuture<StreamingResponse> future;
    try {
      future = transport.send(request);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(wrap(e, request));
    }
    if (future == null) {
      return CompletableFuture.failedFuture(new TransportException(
          "transport " + transport.getClass().getName() + " returned no future for " + request, request));
    }
    call.inFlight(future);
    CallEvents events = call.events;
    if (events != null) {
      // One stage both counts the body for the listener and words a failure.
      return future.handle((r, e) -> {
        if (e != null) {
          throw new CompletionException(wrap(e, request));
        }
        return r.withBody(r.headers(), new ObservedBody(r.responseBody(), events));
      });
    }
    if (future.isDone() && !future.isCompletedExceptionally()) {
      return future;
    }
    return future.exceptionallyCompose(e -> CompletableFuture.failedFuture(wrap(e, request)));
  }

  /** Transports fail with HttpExceptions; anything else is a transport bug or a raw I/O error. */
  private HttpException wrap(Throwable e, Request request) {
    Throwable t = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    if (t instanceof HttpException he) {
      return he;
    }
    return new TransportException(transport.getClass().getSimpleName() + " failed: " + t, request, t);
  }
}
