package dev.strand;

import java.util.concurrent.CompletableFuture;

/**
 * A step of the request pipeline that the user adds: it sees each request on its way out and the
 * response on its way back, and may change either, answer without the network, or proceed more than
 * once. Strand's own steps (retries, redirects, auth, cookies, decompression) are links of the same
 * chain, and blocking and async calls run it alike.
 *
 * <p>Two places in the chain, as OkHttp has them:
 * <ul>
 *   <li>An <b>application interceptor</b> ({@link Client.Builder#interceptor}) runs once per call,
 *       outermost: it sees the request as the caller built it (with the client's defaults applied) and
 *       the final response, after redirects, retries and authentication, decoded.
 *   <li>A <b>network interceptor</b> ({@link Client.Builder#networkInterceptor}) runs once per exchange,
 *       innermost: every redirect hop and every retry, with cookies added, just before the request
 *       hooks and the transport; it sees the response as it came off the wire (still encoded), with
 *       the version it was spoken in and its TLS session.
 * </ul>
 *
 * <p>The response it returns is a {@link StreamingResponse} whose body has not been read: read it (to
 * look at it and build another with {@link StreamingResponse#of(Response)}) or pass it on, but close a
 * response you replace, or its connection is lost. An exception it throws (or a future it fails) fails
 * the call with that exception.
 *
 * <p><b>Threads.</b> An application interceptor may block (fetch a token, write to a slow log): it is called
 * on the thread that sends the call, and what it chains on {@code proceed} runs, for a blocking call, on the
 * calling thread (which waits anyway), for an async call on {@link Client.Builder#interceptorExecutor} (a
 * virtual thread by default), never on an I/O thread. A network interceptor must not block: it runs on the
 * thread that completed the previous step, an I/O thread as often as not.
 *
 * {@snippet :
 * Interceptor addToken = chain -> chain.proceed(
 *     chain.request().toBuilder().setHeader("Authorization", "Bearer " + tokens.current()).build());
 * Interceptor cached = chain -> {
 *   Response hit = cache.get(chain.request().url());
 *   return hit != null ? CompletableFuture.completedFuture(StreamingResponse.of(hit)) : chain.proceed(chain.request());
 * };
 * Client client = Client.builder().interceptor(addToken).interceptor(cached).build();
 * }
 */
@FunctionalInterface
public interface Interceptor {
  /** Handles {@link Chain#request()}: usually by calling {@link Chain#proceed} with it or a changed copy. */
  CompletableFuture<StreamingResponse> intercept(Chain chain);

  /** What an interceptor sees of the call, and the way on to the rest of the chain. */
  interface Chain {
    /** The request as it reaches this interceptor. */
    Request request();

    /**
     * Sends {@code request} through the rest of the chain. May be called more than once (close each
     * response but the one returned).
     */
    CompletableFuture<StreamingResponse> proceed(Request request);

    /** 1 for the first attempt, 2 for the first retry...: always 1 for an application interceptor. */
    int attempt();
  }
}
