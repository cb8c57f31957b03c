package dev.strand.internal.client;

import dev.strand.Auth;
import dev.strand.EventListener;
import dev.strand.Headers;
import dev.strand.Interceptor;
import dev.strand.Request;
import dev.strand.ResponseHead;
import dev.strand.RetryPolicy;
import dev.strand.Timeout;
import dev.strand.spi.Transport;
import java.net.URI;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Everything a {@code Client.Builder} collected, frozen. {@code defaultCharset} is null for UTF-8. */
public record ClientConfig(
    URI baseUrl,
    Headers defaultHeaders,
    List<Map.Entry<String, String>> defaultParams,
    Timeout timeout,
    boolean followRedirects,
    int maxRedirects,
    boolean allowHttpsToHttpRedirect,
    boolean cookies,
    Transport transport,
    List<Consumer<Request>> requestHooks,
    List<Consumer<ResponseHead>> responseHooks,
    String userAgent,
    Auth auth,
    long maxBodySize,
    boolean decompress,
    int webSocketMaxMessageSize,
    List<Interceptor> interceptors,
    List<Interceptor> networkInterceptors,
    RetryPolicy retryPolicy,
    double retryBudgetRatio,
    int retryBudgetMinPerSecond,
    EventListener eventListener,
    Charset defaultCharset,
    HstsStore hsts,
    java.util.concurrent.Executor interceptorExecutor) {}
