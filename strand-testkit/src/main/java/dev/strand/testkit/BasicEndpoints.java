package dev.strand.testkit;

import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Endpoints that answer at once with a small, complete response. */
final class BasicEndpoints {

    static final Exchange SMALL = Exchange.of(BasicEndpoints::sendSmall);

    static final Exchange BIG = Exchange.of(c -> {
        if (c.cannedFits()) {
            c.sendCanned(Canned.BIG_RESPONSE.duplicate());
        } else {
            c.send(HttpConnection.response(HttpResponseStatus.OK, HttpHeaderValues.APPLICATION_OCTET_STREAM,
                    Payloads.BIG));
        }
    });

    static final Exchange HEADERS = Exchange.of(c ->
            c.sendJson(new Json().beginObject().name("headers").value(headerMap(c.request().headers())).endObject()));

    static final Exchange GZIP = Exchange.of(c -> sendEncoded(c, Canned.GZIP_BODY, HttpHeaderValues.GZIP));

    static final Exchange DEFLATE = Exchange.of(c -> sendEncoded(c, Canned.DEFLATE_BODY, HttpHeaderValues.DEFLATE));

    static final Exchange STATS = Exchange.of(c -> c.sendJson(new Json().beginObject()
            .name("accepted").value(c.stats().accepted())
            .name("open").value(c.stats().open())
            .name("held").value(c.stats().held())
            .name("cpuNanos").value(processCpuNanos())
            .endObject()));

    /**
     * The CPU time (user and system) of the process the server runs in, in nanoseconds, or -1 where the platform
     * does not tell: what a benchmark reads before and after its load to put the server's CPU per request beside
     * the client's.
     */
    static long processCpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
    }

    static final Exchange COOKIES = Exchange.of(c -> {
        Json json = new Json().beginObject().name("cookies").beginObject();
        for (String header : c.request().headers().getAll(HttpHeaderNames.COOKIE)) {
            for (Cookie cookie : ServerCookieDecoder.LAX.decodeAll(header)) {
                json.name(cookie.name()).value(cookie.value());
            }
        }
        c.sendJson(json.endObject().endObject());
    });

    static final Exchange COOKIES_SET = Exchange.of(c -> {
        FullHttpResponse res = redirectResponse(HttpResponseStatus.FOUND, "/cookies");
        for (Map.Entry<String, List<String>> p : c.params().entrySet()) {
            for (String value : p.getValue()) {
                res.headers().add(HttpHeaderNames.SET_COOKIE, p.getKey() + "=" + value + "; Path=/");
            }
        }
        c.send(res);
    });

    static final Exchange REDIRECT_TO = Exchange.of(c -> {
        String url = c.param("url", null);
        long code = Routes.parseNonNegative(c.param("status", "302"));
        if (url == null || code < 100 || code > 599) {
            Routes.badRequest("need url=U and an optional status=S between 100 and 599").onRequestComplete(c);
        } else {
            c.send(redirectResponse(HttpResponseStatus.valueOf((int) code), url));
        }
    });

    static final Exchange BEARER = Exchange.of(c -> {
        String auth = c.request().headers().get(HttpHeaderNames.AUTHORIZATION);
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7) && !auth.substring(7).isBlank()) {
            c.sendJson(new Json().beginObject().name("authenticated").value(true)
                    .name("token").value(auth.substring(7).trim()).endObject());
        } else {
            c.send(unauthorized("Bearer"));
        }
    });

    private BasicEndpoints() {
    }

    static void sendSmall(HttpConnection c) {
        if (c.cannedFits()) {
            c.sendCanned(Canned.SMALL_RESPONSE.duplicate());
        } else {
            c.send(HttpConnection.response(HttpResponseStatus.OK, HttpHeaderValues.APPLICATION_JSON, Payloads.SMALL));
        }
    }

    static Exchange status(long code) {
        if (code < 100 || code > 599) {
            return Routes.badRequest("status must be between 100 and 599");
        }
        return Exchange.of(c -> {
            if (c.isHttp2() && code < 200) {
                // An interim status cannot end an HTTP/2 stream, and 101 does not exist there (RFC 9113 8.6).
                Routes.badRequest("over HTTP/2, status must be between 200 and 599").onRequestComplete(c);
                return;
            }
            HttpResponseStatus status = HttpResponseStatus.valueOf((int) code);
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status);
            // RFC 9110 forbids Content-Length on 1xx and 204; on 304 it would describe the unsent full body.
            boolean bodiless = status.codeClass() == HttpStatusClass.INFORMATIONAL
                    || code == 204 || code == 304;
            if (!bodiless) {
                res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
            }
            c.send(res);
        });
    }

    static Exchange redirect(long n) {
        String location = n == 1 ? "/echo" : "/redirect/" + (n - 1);
        return Exchange.of(c -> c.send(redirectResponse(HttpResponseStatus.FOUND, location)));
    }

    /** {@code arg} is "USER/PASS", each percent-decoded. */
    static Exchange basicAuth(String arg) {
        int slash = arg.indexOf('/');
        if (slash < 0) {
            return Routes.badRequest("use /basic-auth/USER/PASS");
        }
        String user = QueryStringDecoder.decodeComponent(arg.substring(0, slash));
        String pass = QueryStringDecoder.decodeComponent(arg.substring(slash + 1));
        return Exchange.of(c -> {
            String auth = c.request().headers().get(HttpHeaderNames.AUTHORIZATION);
            if (auth != null && auth.regionMatches(true, 0, "Basic ", 0, 6)
                    && (user + ":" + pass).equals(decodeBase64(auth.substring(6).trim()))) {
                c.sendJson(new Json().beginObject().name("authenticated").value(true)
                        .name("user").value(user).endObject());
            } else {
                c.send(unauthorized("Basic realm=\"strand\""));
            }
        });
    }

    /** Request headers grouped by name (case-insensitively), each spelled as first received. */
    static Map<String, List<String>> headerMap(HttpHeaders headers) {
        Map<String, List<String>> byName = new LinkedHashMap<>();
        Map<String, String> spelling = new HashMap<>();
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iteratorCharSequence(); it.hasNext(); ) {
            Map.Entry<CharSequence, CharSequence> h = it.next();
            String name = h.getKey().toString();
            String first = spelling.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> name);
            byName.computeIfAbsent(first, k -> new ArrayList<>(1)).add(h.getValue().toString());
        }
        return byName;
    }

    private static void sendEncoded(HttpConnection c, byte[] body, CharSequence encoding) {
        FullHttpResponse res = HttpConnection.response(HttpResponseStatus.OK, HttpHeaderValues.APPLICATION_JSON, body);
        res.headers().set(HttpHeaderNames.CONTENT_ENCODING, encoding);
        c.send(res);
    }

    /** 200 with {@code Alt-Svc: h3=":PORT"; ma=60}: HTTP/3 is on UDP {@code port} of this host (an Http3TestServer). */
    static Exchange altSvc(long port) {
        if (port < 1 || port > 65535) {
            return Routes.badRequest("port must be between 1 and 65535");
        }
        return Exchange.of(c -> {
            FullHttpResponse res = HttpConnection.response(HttpResponseStatus.OK, "text/plain; charset=utf-8",
                    ("HTTP/3 on UDP port " + port + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            res.headers().set("alt-svc", "h3=\":" + port + "\"; ma=60");
            c.send(res);
        });
    }

    private static FullHttpResponse redirectResponse(HttpResponseStatus status, String location) {
        FullHttpResponse res = HttpConnection.status(status);
        res.headers().set(HttpHeaderNames.LOCATION, location);
        return res;
    }

    private static FullHttpResponse unauthorized(String challenge) {
        FullHttpResponse res = HttpConnection.response(HttpResponseStatus.UNAUTHORIZED,
                HttpHeaderValues.APPLICATION_JSON,
                new Json().beginObject().name("authenticated").value(false).endObject().toBytes());
        res.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, challenge);
        return res;
    }

    private static String decodeBase64(String s) {
        try {
            return new String(Base64.getDecoder().decode(s), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
