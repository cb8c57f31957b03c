package dev.strand.testkit;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;

/** Maps a request path to the {@link Exchange} that answers it. */
final class Routes {

    static final Exchange NOT_FOUND = Exchange.of(c -> c.send(HttpConnection.response(HttpResponseStatus.NOT_FOUND,
            "text/plain; charset=utf-8", ("no such endpoint: " + c.path() + "\n").getBytes(StandardCharsets.UTF_8))));

    /** Body length of {@code /trailers} without a length. */
    static final long TRAILERS_DEFAULT_BYTES = 1024;

    private Routes() {
    }

    static Exchange route(String path) {
        Exchange fixed = switch (path) {
            case "/small" -> BasicEndpoints.SMALL;
            case "/big" -> BasicEndpoints.BIG;
            case "/headers" -> BasicEndpoints.HEADERS;
            case "/echo" -> new BodyEndpoints.Echo();
            case "/sink" -> new BodyEndpoints.Sink();
            case "/gunzip" -> new HelperEndpoints.Gunzip();
            case "/hsts" -> HelperEndpoints.HSTS;
            case "/gzip" -> BasicEndpoints.GZIP;
            case "/deflate" -> BasicEndpoints.DEFLATE;
            case "/cookies" -> BasicEndpoints.COOKIES;
            case "/cookies/set" -> BasicEndpoints.COOKIES_SET;
            case "/redirect-to" -> BasicEndpoints.REDIRECT_TO;
            case "/bearer" -> BasicEndpoints.BEARER;
            case "/stats" -> BasicEndpoints.STATS;
            case "/idempotent" -> new IdempotentEndpoints.Write();
            case "/idempotent/stats" -> IdempotentEndpoints.STATS;
            case "/never" -> TimedEndpoints.NEVER;
            case "/drip" -> new TimedEndpoints.Drip();
            case "/trailers" -> StreamingEndpoints.trailers(TRAILERS_DEFAULT_BYTES);
            case "/sse" -> new SseEndpoints.Ticks();
            case "/sse/split" -> new SseEndpoints.Split();
            case "/sse/endless" -> new SseEndpoints.Endless();
            case "/sse/gated" -> new SseEndpoints.Gated();
            case "/sse/release" -> SseEndpoints.RELEASE;
            case "/sse/wrong-type" -> SseEndpoints.WRONG_TYPE;
            default -> null;
        };
        if (fixed != null) {
            return fixed;
        }
        int slash = path.indexOf('/', 1);
        if (slash < 0) {
            return NOT_FOUND;
        }
        String arg = path.substring(slash + 1);
        return switch (path.substring(0, slash)) {
            case "/bytes" -> withLength(arg, n -> StreamingEndpoints.bytes(n));
            case "/chunked" -> withLength(arg, n -> StreamingEndpoints.chunked(n));
            case "/stream" -> withLength(arg, n -> StreamingEndpoints.lines(n));
            case "/trailers" -> withLength(arg, n -> StreamingEndpoints.trailers(n));
            case "/delay" -> withLength(arg, ms -> new TimedEndpoints.Delay(ms));
            case "/redirect" -> withLength(arg, n -> n < 1
                    ? badRequest("redirect count must be >= 1")
                    : BasicEndpoints.redirect(n));
            case "/status" -> withLength(arg, BasicEndpoints::status);
            case "/alt-svc" -> withLength(arg, BasicEndpoints::altSvc);
            case "/basic-auth" -> BasicEndpoints.basicAuth(arg);
            case "/range" -> withLength(arg, HelperEndpoints::range);
            case "/fault" -> FaultEndpoints.route(arg);
            case "/ws" -> WebSocketEndpoints.route(arg);
            default -> NOT_FOUND;
        };
    }

    static Exchange badRequest(String why) {
        return Exchange.of(c -> c.send(HttpConnection.response(HttpResponseStatus.BAD_REQUEST,
                "text/plain; charset=utf-8", (why + "\n").getBytes(StandardCharsets.UTF_8))));
    }

    private static Exchange withLength(String arg, LongRoute route) {
        long n = parseNonNegative(arg);
        return n < 0 ? badRequest("not a non-negative number: " + arg) : route.route(n);
    }

    /** The number, or -1 if {@code s} is not a plain non-negative decimal that fits a long. */
    static long parseNonNegative(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < '0' || ch > '9') {
                return -1;
            }
            n = n * 10 + (ch - '0');
        }
        return n;
    }

    @FunctionalInterface
    private interface LongRoute {
        Exchange route(long n);
    }
}
