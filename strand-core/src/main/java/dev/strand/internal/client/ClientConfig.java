package dev.strand.internal.client;

import dev.strand.Auth;
import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.ResponseHead;
import dev.strand.Timeout;
import dev.strand.Transport;
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
    Charset defaultCharset) {}
