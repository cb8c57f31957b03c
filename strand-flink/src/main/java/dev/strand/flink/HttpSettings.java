package dev.strand.flink;

import dev.strand.Client;
import dev.strand.Limits;
import dev.strand.Timeout;
import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The serializable part of a Strand {@link Client}'s configuration, shipped with a Flink job so that each parallel
 * subtask builds its own client: base URL, per-phase timeouts, pool size and default headers. Immutable.
 *
 * <p>The pool size should equal the capacity given to {@code AsyncDataStream.orderedWait}/{@code unorderedWait}
 * (Flink's default is 100): that many records are in flight per subtask, each holding one connection.
 *
 * {@snippet :
 * HttpSettings settings = HttpSettings.builder()
 *     .baseUrl("http://users.internal:8080")
 *     .readTimeout(Duration.ofSeconds(2))
 *     .poolSize(100)
 *     .header("Authorization", "Bearer " + token)
 *     .build();
 * }
 */
public final class HttpSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String baseUrl;
    private final Duration connectTimeout;
    private final Duration readTimeout;
    private final Duration writeTimeout;
    private final Duration poolTimeout;
    private final int poolSize;
    private final LinkedHashMap<String, String> headers;
    private final boolean sharedClient;

    private HttpSettings(Builder b) {
        this.baseUrl = b.baseUrl;
        this.connectTimeout = b.connectTimeout;
        this.readTimeout = b.readTimeout;
        this.writeTimeout = b.writeTimeout;
        this.poolTimeout = b.poolTimeout;
        this.poolSize = b.poolSize;
        this.headers = new LinkedHashMap<>(b.headers);
        this.sharedClient = b.sharedClient;
    }

    /**
     * A builder with Strand's defaults: no base URL, 5 s per phase, a pool of 100 connections, no headers.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Settings with only a base URL; everything else as in {@link #builder()}.
     *
     * @param baseUrl an absolute {@code http} or {@code https} URL
     * @return the settings
     */
    public static HttpSettings of(String baseUrl) {
        return builder().baseUrl(baseUrl).build();
    }

    /** @return the base URL that relative request URLs resolve against, or {@code null} */
    public String baseUrl() {
        return baseUrl;
    }

    /** @return the connect, read, write and pool timeouts as a Strand {@link Timeout} */
    public Timeout timeout() {
        return toTimeout(connectTimeout, readTimeout, writeTimeout, poolTimeout);
    }

    /** @return the most connections one client opens at once: one subtask's, or a shared one's */
    public int poolSize() {
        return poolSize;
    }

    /** @return whether the subtasks in one JVM with equal settings share one client */
    public boolean sharedClient() {
        return sharedClient;
    }

    /** @return headers sent with every request, in insertion order; unmodifiable */
    public Map<String, String> headers() {
        return Collections.unmodifiableMap(headers);
    }

    /**
     * Builds a client from these settings; the caller closes it. Flink operators call this once per subtask, in
     * {@code open()}.
     *
     * @return a new client
     */
    public Client newClient() {
        Client.Builder b = Client.builder()
                .timeout(timeout())
                .limits(Limits.ofConnections(poolSize));
        if (baseUrl != null) {
            b.baseUrl(baseUrl);
        }
        headers.forEach(b::header);
        return b.build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HttpSettings s && Objects.equals(baseUrl, s.baseUrl)
                && connectTimeout.equals(s.connectTimeout) && readTimeout.equals(s.readTimeout)
                && writeTimeout.equals(s.writeTimeout) && poolTimeout.equals(s.poolTimeout) && poolSize == s.poolSize
                && headers.equals(s.headers) && sharedClient == s.sharedClient;
    }

    @Override
    public int hashCode() {
        return Objects.hash(baseUrl, connectTimeout, readTimeout, writeTimeout, poolTimeout, poolSize, headers,
                sharedClient);
    }

    @Override
    public String toString() {
        return "HttpSettings[baseUrl=" + baseUrl + ", " + timeout() + ", poolSize=" + poolSize
                + ", headers=" + headers.keySet() + (sharedClient ? ", shared client" : "") + "]";
    }

    /** Collects settings; {@link #build()} checks them. */
    public static final class Builder {
        private String baseUrl;
        private Duration connectTimeout = Timeout.DEFAULT.connect();
        private Duration readTimeout = Timeout.DEFAULT.read();
        private Duration writeTimeout = Timeout.DEFAULT.write();
        private Duration poolTimeout = Timeout.DEFAULT.pool();
        private int poolSize = 100;
        private final LinkedHashMap<String, String> headers = new LinkedHashMap<>();
        private boolean sharedClient;

        private Builder() {
        }

        /**
         * The URL that relative request URLs resolve against.
         *
         * @param baseUrl an absolute {@code http} or {@code https} URL
         * @return this builder
         * @throws IllegalArgumentException if it is not one
         */
        public Builder baseUrl(String baseUrl) {
            Objects.requireNonNull(baseUrl, "baseUrl");
            URI uri;
            try {
                uri = new URI(baseUrl);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("base URL is not a URL: \"" + baseUrl + "\": " + e.getMessage(), e);
            }
            if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())
                    || uri.getHost() == null) {
                throw new IllegalArgumentException("base URL must be an absolute http(s) URL: \"" + baseUrl + "\"");
            }
            this.baseUrl = baseUrl;
            return this;
        }

        /**
         * Sets all four phase timeouts at once.
         *
         * @param timeout the connect, read, write and pool timeouts ({@code null} phases mean no limit)
         * @return this builder
         */
        public Builder timeout(Timeout timeout) {
            Objects.requireNonNull(timeout, "timeout");
            this.connectTimeout = timeout.connect();
            this.readTimeout = timeout.read();
            this.writeTimeout = timeout.write();
            this.poolTimeout = timeout.pool();
            return this;
        }

        /**
         * @param d how long TCP (and TLS) connection establishment may take; default 5 s
         * @return this builder
         */
        public Builder connectTimeout(Duration d) {
            this.connectTimeout = d;
            return this;
        }

        /**
         * @param d the longest silence while waiting for response bytes; default 5 s
         * @return this builder
         */
        public Builder readTimeout(Duration d) {
            this.readTimeout = d;
            return this;
        }

        /**
         * @param d the longest stall while sending a request; default 5 s
         * @return this builder
         */
        public Builder writeTimeout(Duration d) {
            this.writeTimeout = d;
            return this;
        }

        /**
         * @param d the longest wait for a pooled connection when all are busy; default 5 s
         * @return this builder
         */
        public Builder poolTimeout(Duration d) {
            this.poolTimeout = d;
            return this;
        }

        /**
         * The most connections one subtask opens at once (all may be kept alive). Give the async operator's
         * capacity.
         *
         * @param n at least 1; default 100, Flink's default capacity
         * @return this builder
         */
        public Builder poolSize(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("poolSize must be >= 1: " + n);
            }
            this.poolSize = n;
            return this;
        }

        /**
         * A header sent with every request (a request's own header of the same name is added beside it).
         *
         * @param name header name
         * @param value header value
         * @return this builder
         */
        public Builder header(String name, String value) {
            headers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * One client for all the subtasks in a JVM (a TaskManager, or a MiniCluster) whose settings are equal,
         * in place of one each (default false). A client runs an I/O thread of its own and keeps a pool of its
         * own, so on a TaskManager with several slots sharing one saves threads, connections and handshakes:
         * on a 2-core machine one I/O thread serves more requests per second than two. The pool is then
         * shared too: give {@link #poolSize} as the capacity of all the sharing subtasks together. The client
         * is built by the first subtask that opens and closed when the last one closes.
         *
         * @param shared whether to share
         * @return this builder
         */
        public Builder sharedClient(boolean shared) {
            this.sharedClient = shared;
            return this;
        }

        /**
         * @return the settings
         * @throws IllegalArgumentException if the timeouts do not form a valid {@link Timeout}
         */
        public HttpSettings build() {
            toTimeout(connectTimeout, readTimeout, writeTimeout, poolTimeout);
            return new HttpSettings(this);
        }
    }

    private static Timeout toTimeout(Duration connect, Duration read, Duration write, Duration pool) {
        return Timeout.builder().connect(connect).read(read).write(write).pool(pool).call(null).build();
    }

}
