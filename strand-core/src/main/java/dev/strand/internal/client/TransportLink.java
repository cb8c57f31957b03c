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

/**
 * The last link: runs the hop steps next to it ({@link HopSteps}), hands the request to the transport, and holds
 * its future for cancellation. The steps' inbound sides run in the one stage that also words a transport's failure.
 */
final class TransportLink implements Link {
  private final Transport transport;
  private final HopSteps steps;

  TransportLink(Transport transport, HopSteps steps) {
    this.transport = transport;
    this.steps = steps;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    Request sent;
    try {
      sent = steps.outbound(call, request);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (call.isCancelled()) {
      return CompletableFuture.failedFuture(new CancellationException("call cancelled"));
    }
    call.hopStartNanos = System.nanoTime();
    if (sent.uploadProgress() != null || sent.downloadProgress() != null || sent.maxBytesPerSecond() > 0) {
      // The steps see the metered body, as a link above this one would.
      CompletableFuture<StreamingResponse> metered = metered(call, sent);
      return steps.isEmpty() ? metered : metered.thenApply(r -> steps.inbound(call, sent, r));
    }
    return send(call, sent, steps);
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
    return send(call, sent, HopSteps.NONE).thenCompose(r -> {
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

  private CompletableFuture<StreamingResponse> send(Call call, Request request, HopSteps steps) {
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
    if (events == null && steps.isEmpty() && future.isDone() && !future.isCompletedExceptionally()) {
      return future;
    }
    // One stage words a failure, counts the body for the listener and runs the steps.
    return future.handle((r, e) -> {
      if (e != null) {
        throw new CompletionException(wrap(e, request));
      }
      StreamingResponse head = events == null ? r
          : StreamingResponses.withBody(r, r.headers(), new ObservedBody(StreamingResponses.body(r), events));
      return steps.inbound(call, request, head);
    });
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
