package dev.strand.internal.client;

import dev.strand.ClientStats;
import dev.strand.Cookie;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.ResponseBody;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.internal.cookie.CookieJar;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The one request path behind {@code Client}: sync calls wait for these futures.
 *
 * <p>A call runs {@link RequestDefaults} once, then a chain of links, outermost first: auth,
 * redirects, cookies, decompression, hooks, transport. Links a client does not use (no auth,
 * redirects off, no hooks...) are left out of its chain when it is built.
 */
public final class ClientEngine {
  private final ClientConfig config;
  private final RequestDefaults defaults;
  private final CookieJar jar;
  private final Link chain;

  public ClientEngine(ClientConfig config) {
    this(config, config.cookies() ? new CookieJar(System::currentTimeMillis) : null);
  }

  /** With a given jar (tests pass one with a fake clock), or {@code null} for no cookies. */
  public ClientEngine(ClientConfig config, CookieJar jar) {
    this.config = config;
    this.defaults = new RequestDefaults(config);
    this.jar = jar;
    Link link = new TransportLink(config.transport());
    if (!config.requestHooks().isEmpty() || !config.responseHooks().isEmpty()) {
      link = new HookLink(config.requestHooks(), config.responseHooks(), link);
    }
    if (config.decompress()) {
      link = new DecompressLink(link);
    }
    if (jar != null) {
      link = new CookieLink(jar, link);
    }
    if (config.followRedirects()) {
      link = new RedirectLink(config.maxRedirects(), config.allowHttpsToHttpRedirect(), link);
    }
    if (config.auth() != null) {
      link = new AuthLink(config.auth(), link);
    }
    this.chain = link;
  }

  /** Sends the request and reads the whole (decoded) body of the final response. */
  public CompletableFuture<Response> send(Request request) {
    Call call = new Call();
    CallFuture<Response> result = new CallFuture<>(call);
    start(call, request).whenComplete((r, error) -> {
      if (error != null) {
        result.completeExceptionally(failure(error, request));
        return;
      }
      if (result.isDone()) { // cancelled meanwhile
        r.close();
        return;
      }
      ResponseBody body = r.responseBody();
      call.reading(body);
      body.readAll(config.maxBodySize()).whenComplete((bytes, bodyError) -> {
        if (bodyError != null) {
          body.close();
          result.completeExceptionally(failure(bodyError, r.request()));
        } else {
          result.complete(Responses.of(r, bytes, call.hopStartNanos, call.history()));
        }
      });
    });
    return result;
  }

  /** Sends the request and completes with the final response's head; its body streams, decoded. */
  public CompletableFuture<StreamingResponse> stream(Request request) {
    return open(request, (r, call) -> CompletableFuture.completedFuture(r), StreamingResponse::close);
  }

  /**
   * Opens a {@code text/event-stream}: sends {@code request} with the headers {@link EventStreams#prepare}
   * adds, checks the final response ({@link EventStreams#check}) and completes with {@code wrap} of it;
   * the wrapper owns the response from then on and {@code close} releases it.
   */
  public <T> CompletableFuture<T> events(Request request, Function<StreamingResponse, T> wrap, Consumer<T> close) {
    return open(EventStreams.prepare(request),
        (r, call) -> EventStreams.check(r, call.hopStartNanos).thenApply(wrap), close);
  }

  /**
   * Sends the request and completes with {@code then} of the final response's head. A call
   * cancelled meanwhile gets {@code close} of the value, since nobody else will see it.
   */
  private <T> CompletableFuture<T> open(
      Request request, BiFunction<StreamingResponse, Call, CompletableFuture<T>> then, Consumer<T> close) {
    Call call = new Call();
    CallFuture<T> result = new CallFuture<>(call);
    start(call, request).whenComplete((r, error) -> {
      if (error != null) {
        result.completeExceptionally(failure(error, request));
        return;
      }
      call.reading(r.responseBody());
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

  private CompletableFuture<StreamingResponse> start(Call call, Request request) {
    try {
      return chain.proceed(call, defaults.apply(request));
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
    config.transport().close();
  }
}
