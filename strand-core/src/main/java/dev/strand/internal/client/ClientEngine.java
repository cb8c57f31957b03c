package dev.strand.internal.client;

import dev.strand.ClientStats;
import dev.strand.Cookie;
import dev.strand.CookieJar;
import dev.strand.Interceptor;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.RetryPolicy;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.WebSocket;
import dev.strand.internal.cookie.MemoryCookieJar;
import dev.strand.internal.events.CallEvents;
import dev.strand.internal.events.ListenerGuard;
import dev.strand.internal.loop.CallerDrivenLoop;
import dev.strand.spi.ResponseBody;
import dev.strand.spi.StreamingResponses;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The one request path behind {@code Client}: sync calls wait for these futures.
 *
 * <p>A call runs {@link RequestDefaults} once, starts its deadline if it has one, then a chain of
 * links, outermost first: application interceptors, auth, redirects, retries, cookies, decompression,
 * network interceptors, hooks, transport. Links a client does not use (no auth, redirects off, no
 * hooks...) are left out of its chain when it is built. Cookies, decompression and hooks are
 * {@link HopStep}s: next to each other they run as one link, in one future stage. A WebSocket handshake
 * takes a chain of its own, built per socket, that ends in {@link WebSocketLink}.
 */
public final class ClientEngine {
  /** The default {@link dev.strand.Client.Builder#interceptorExecutor}: a virtual thread per task. */
  public static final Executor VIRTUAL_THREADS = task -> Thread.ofVirtual().name("strand-interceptor").start(task);

  private final ClientConfig config;
  private final RequestDefaults defaults;
  private final CookieJar jar;
  private final RetryBudget retryBudget;
  /** The client's event listener behind the guard its calls share, or {@code null} without one. */
  private final ListenerGuard listener;
  private final Link chain;

  public ClientEngine(ClientConfig config) {
    this(config, config.cookies() ? new MemoryCookieJar(System::currentTimeMillis) : null);
  }

  /** With a given jar (tests pass one with a fake clock), or {@code null} for no cookies. */
  public ClientEngine(ClientConfig config, CookieJar jar) {
    this.config = config;
    this.defaults = new RequestDefaults(config);
    this.jar = jar;
    this.listener = config.eventListener() == null ? null : new ListenerGuard(config.eventListener());
    this.retryBudget = new RetryBudget(config.retryBudgetRatio(), config.retryBudgetMinPerSecond(), System::nanoTime);
    this.chain = chain(steps -> new TransportLink(config.transport(), steps), false);
  }

  /**
   * The links this client uses in front of the last one, which {@code last} makes given the hop steps next to it.
   * A WebSocket handshake skips decompression (it has no body), redirects (a WebSocket is opened where it was asked
   * for, as the JDK does) and retries (a listener may already have seen the socket).
   */
  private Link chain(Function<HopSteps, Link> last, boolean webSocket) {
    List<HopStep> steps = new ArrayList<>(3); // outermost first
    if (jar != null) {
      steps.add(new CookieStep(jar));
    }
    if (config.decompress() && !webSocket) {
      steps.add(new DecompressStep());
    }
    List<HopStep> hooks = config.requestHooks().isEmpty() && config.responseHooks().isEmpty() ? List.of()
        : List.of(new HookStep(config.requestHooks(), config.responseHooks()));
    Link link;
    if (config.networkInterceptors().isEmpty()) {
      steps.addAll(hooks);
      link = last.apply(new HopSteps(steps));
    } else { // the network interceptors see the request with cookies, the response still encoded
      link = StepsLink.of(new HopSteps(steps), interceptors(config.networkInterceptors(), last.apply(new HopSteps(hooks))));
    }
    if (!webSocket) { // always: a request may bring its own policy
      link = new RetryLink(config.retryPolicy(), retryBudget, link);
    }
    if (config.hsts() != null && !webSocket) {
      link = new HstsLink(config.hsts(), link);
    }
    if (config.followRedirects() && !webSocket) {
      link = new RedirectLink(config.maxRedirects(), config.allowHttpsToHttpRedirect(), link);
    }
    if (config.auth() != null) {
      link = new AuthLink(config.auth(), link);
    }
    if (config.interceptors().isEmpty()) {
      return link;
    }
    // Past this point the application interceptors' code runs: off the I/O threads (HandOffLink).
    return interceptors(config.interceptors(), new HandOffLink(link));
  }

  /** Whether the client has application interceptors, whose code a blocking call runs on its own thread. */
  public boolean hasInterceptors() {
    return !config.interceptors().isEmpty();
  }

  /** {@code interceptors} in front of {@code next}, the first added outermost. */
  private static Link interceptors(List<Interceptor> interceptors, Link next) {
    Link link = next;
    for (int i = interceptors.size() - 1; i >= 0; i--) {
      link = new InterceptorLink(interceptors.get(i), link);
    }
    return link;
  }

  /** Sends the request and reads the whole (decoded) body of the final response. */
  public CompletableFuture<Response> send(Request request) {
    return send(request, config.interceptorExecutor());
  }

  /** {@link #send(Request)}, the application interceptors going on in {@code interceptorThread}. */
  public CompletableFuture<Response> send(Request request, Executor interceptorThread) {
    Call call = new Call(interceptorThread);
    WholeResponse result = new WholeResponse(call, request);
    start(call, request, chain, result).whenComplete(result);
    return result;
  }

  /**
   * The caller's future of a whole response, and what reads its body once the head arrives: one object for
   * both, as many of them wait as there are calls in flight.
   */
  private final class WholeResponse extends CallFuture<Response> implements BiConsumer<StreamingResponse, Throwable> {
    private final Request request;

    WholeResponse(Call call, Request request) {
      super(call);
      this.request = request;
    }

    @Override
    public void accept(StreamingResponse r, Throwable error) {
      if (error != null) {
        completeExceptionally(failure(error, request));
        return;
      }
      if (isDone()) { // cancelled meanwhile
        r.close();
        return;
      }
      ResponseBody body = StreamingResponses.body(r);
      call.reading(body);
      long limit = request.maxBodySize() >= 0 ? request.maxBodySize() : config.maxBodySize();
      body.readAll(limit).whenComplete((bytes, bodyError) -> {
        if (bodyError != null) {
          body.close();
          completeExceptionally(failure(bodyError, r.request()));
          return;
        }
        try {
          Response response = Responses.of(r, bytes, call.hopStartNanos, call.history());
          Response delivered = config.defaultCharset() == null ? response
              : response.toBuilder().defaultCharset(config.defaultCharset()).build();
          call.end(); // before the caller sees the response
          if (!CallerDrivenLoop.whenReadsEnd(() -> complete(delivered))) {
            complete(delivered);
          }
        } catch (RuntimeException e) { // a transport's bad head must fail the call, never strand it
          completeExceptionally(new ProtocolException("unusable response from the transport: " + e.getMessage()
              + " (" + r.request() + ")", r.request(), e));
        }
      });
    }
  }

  /** Sends the request and completes with the final response's head; its body streams, decoded. */
  public CompletableFuture<StreamingResponse> stream(Request request) {
    return stream(request, config.interceptorExecutor());
  }

  /** {@link #stream(Request)}, the application interceptors going on in {@code interceptorThread}. */
  public CompletableFuture<StreamingResponse> stream(Request request, Executor interceptorThread) {
    return open(request, interceptorThread, (r, call) -> CompletableFuture.completedFuture(r), StreamingResponse::close);
  }

  /**
   * Opens a {@code text/event-stream}: sends {@code request} with the headers {@link EventStreams#prepare}
   * adds, checks the final response ({@link EventStreams#check}) and completes with {@code wrap} of it;
   * the wrapper owns the response from then on and {@code close} releases it.
   */
  public <T> CompletableFuture<T> events(Request request, Function<StreamingResponse, T> wrap, Consumer<T> close) {
    return open(EventStreams.prepare(request), config.interceptorExecutor(),
        (r, call) -> EventStreams.check(r, call.hopStartNanos).thenApply(wrap), close);
  }

  /**
   * Sends the request and completes with {@code then} of the final response's head. A call
   * cancelled meanwhile gets {@code close} of the value, since nobody else will see it.
   */
  private <T> CompletableFuture<T> open(Request request, Executor interceptorThread,
      BiFunction<StreamingResponse, Call, CompletableFuture<T>> then, Consumer<T> close) {
    Call call = new Call(interceptorThread);
    CallFuture<T> result = new CallFuture<>(call);
    start(call, request, chain, result).whenComplete((head, error) -> {
      if (error != null) {
        result.completeExceptionally(failure(error, request));
        return;
      }
      StreamingResponse r = call.hasDeadline() || call.events != null
          ? StreamingResponses.withBody(head, head.headers(), new FinalBody(StreamingResponses.body(head), call)) : head;
      call.reading(StreamingResponses.body(r));
      then.apply(r, call).whenComplete((value, thenError) -> {
        if (thenError != null) {
          result.completeExceptionally(failure(thenError, r.request()));
        } else if (!result.complete(value)) {
          close.accept(value);
        }
      });
    });
    return result;
  }

  /**
   * Opens a WebSocket: the handshake request gets the client's defaults and passes the same links as
   * a request (auth, cookies, hooks; see {@link #chain}), then the transport opens the socket.
   */
  public CompletableFuture<WebSocket> websocket(Request request, WebSocket.Listener listener) {
    Objects.requireNonNull(listener, "listener");
    Call call = new Call(config.interceptorExecutor());
    CallFuture<WebSocket> result = new CallFuture<>(call);
    WebSocketLink last = new WebSocketLink(config.transport(), listener, config.webSocketMaxMessageSize());
    start(call, request, chain(steps -> StepsLink.of(steps, last), true), result).whenComplete((head, error) -> {
      if (error == null) {
        call.end(); // the handshake is the call; the socket lives on
      }
      WebSocket ws = last.opened();
      if (error != null) {
        if (ws != null) {
          ws.abort(); // opened, then a link after the transport failed (a response hook threw)
        }
        result.completeExceptionally(failure(error, request));
      } else if (!result.complete(ws)) {
        ws.abort(); // cancelled meanwhile
      }
    });
    return result;
  }

  /**
   * Runs {@code chain} for the request with the client's defaults. A call with a total time limit
   * ({@link dev.strand.Timeout#call()}) starts its clock here; when it passes, {@code result} fails
   * with the {@link dev.strand.CallTimeoutException} and the call is cancelled.
   */
  private CompletableFuture<StreamingResponse> start(Call call, Request request, Link chain, CompletableFuture<?> result) {
    try {
      // The call's events travel with its requests as a tag, added in the same copy as the defaults.
      call.events = listener == null ? null : new CallEvents(listener);
      Request withDefaults = UrlCredentials.apply(defaults.apply(request, call.events), config.auth() != null);
      if (call.events != null) {
        call.events.callStart(withDefaults);
      }
      Duration limit = withDefaults.timeout() == null ? null : withDefaults.timeout().call();
      if (limit != null) {
        call.deadline(limit, withDefaults, result::completeExceptionally);
      }
      if (limit != null || call.events != null) {
        result.whenComplete((value, error) -> {
          if (error != null) {
            call.failed(error);
          }
        });
      }
      CompletableFuture<StreamingResponse> head = chain.proceed(call, withDefaults);
      if (withDefaults.downloadProgress() == null) {
        return head;
      }
      return head.thenApply(r -> {
        MeteredBody body = call.meteredBody;
        if (body != null) {
          body.activate(); // the final response: its body is the one the caller gets
        }
        return r;
      });
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * The exception to fail a call with: HttpExceptions, and the RuntimeExceptions of user code
   * (hooks, auth), as they are; anything checked wrapped in a TransportException.
   */
  static Throwable failure(Throwable error, Request request) {
    Throwable t = error;
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof RuntimeException || t instanceof Error) {
      return t;
    }
    return new TransportException(String.valueOf(t), request, t);
  }

  /** The cookies this client holds now (empty when cookies are off). */
  public List<Cookie> cookies() {
    return jar == null ? List.of() : jar.cookies();
  }

  public ClientStats stats() {
    return config.transport().stats();
  }

  public void close() {
    if (listener != null) {
      listener.close();
    }
    config.transport().close();
  }
}
