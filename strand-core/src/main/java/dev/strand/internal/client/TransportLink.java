package dev.strand.internal.client;

import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.internal.events.CallEvents;
import dev.strand.spi.StreamingResponses;
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
    if (request.uploadProgress() != null || request.downloadProgress() != null || request.maxBytesPerSecond() > 0) {
      return metered(call, request);
    }
    return send(call, request);
  }

  /**
   * Sends a request with progress listeners or a bandwidth limit, with its bodies metered. The response is passed
   * on once the upload's counts so far have reached its listener (all of them when the body was sent whole).
   */
  private CompletableFuture<StreamingResponse> metered(Call call, Request request) {
    long rate = request.maxBytesPerSecond();
    Request sent = request;
    ProgressReporter upload = null;
    if (request.body() != null && (request.uploadProgress() != null || rate > 0)) {
      upload = request.uploadProgress() == null ? null : new ProgressReporter(request.uploadProgress());
      Throttle throttle = rate > 0 ? new Throttle(rate, System::nanoTime) : null;
      sent = request.toBuilder().body(new MeteredRequestBody(request.body(), upload, throttle)).build();
    }
    ProgressReporter uploaded = upload;
    return send(call, sent).thenCompose(r -> {
      ProgressReporter download = request.downloadProgress() == null ? null
          : new ProgressReporter(request.downloadProgress());
      MeteredBody body = new MeteredBody(StreamingResponses.body(r), request, download,
          rate > 0 ? new Throttle(rate, System::nanoTime) : null);
      call.meteredBody = body;
      StreamingResponse metered = StreamingResponses.withBody(r, r.headers(), body);
      return uploaded == null ? CompletableFuture.completedFuture(metered)
          : uploaded.flush().thenApply(flushed -> metered);
    });
  }

  private CompletableFuture<StreamingResponse> send(Call call, Request request) {
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
        return StreamingResponses.withBody(r, r.headers(), new ObservedBody(StreamingResponses.body(r), events));
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
