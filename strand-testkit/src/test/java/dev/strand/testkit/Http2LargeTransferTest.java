package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 100 MiB each way over h2 (TLS, JDK client), hashed as it streams, while the server's Netty buffers stay far
 * below the body size: the server pulls with flow control instead of buffering.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Timeout(300)
class Http2LargeTransferTest {

    private static final long SIZE = 100L * 1024 * 1024;
    // Well under SIZE: generous for windows, TLS records and write buffers, too small to hold the body.
    private static final long MAX_BUFFERED = 48L * 1024 * 1024;

    private static TestServer server;
    private static HttpClient client;
    private static String expectedSha256;

    @BeforeAll
    static void start() throws Exception {
        server = Pki.tlsServer().http2(true).build();
        client = Pki.client(HttpClient.Version.HTTP_2);
        expectedSha256 = PatternInputStream.sha256(new PatternInputStream(SIZE));
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void download100MiB() throws Exception {
        try (Peak peak = new Peak()) {
            HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(URI.create(server.url("/bytes/" + SIZE)))
                    .build(), BodyHandlers.ofInputStream());
            assertEquals(HttpClient.Version.HTTP_2, r.version());
            try (InputStream body = r.body()) {
                assertEquals(expectedSha256, PatternInputStream.sha256(body));
            }
            peak.assertBelow(MAX_BUFFERED);
        }
    }

    @Test
    void upload100MiBToSink() throws Exception {
        try (Peak peak = new Peak()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(server.url("/sink")))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new PatternInputStream(SIZE))).build(),
                    BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, r.version());
            assertEquals("{\"bytes\": " + SIZE + ", \"sha256\": \"" + expectedSha256 + "\"}", r.body());
            peak.assertBelow(MAX_BUFFERED);
        }
    }

    /** Samples how much memory Netty's default allocator (the server's) holds beyond what it held at the start. */
    private static final class Peak implements AutoCloseable {
        private final ByteBufAllocatorMetric metric = assertInstanceOf(ByteBufAllocatorMetricProvider.class,
                ByteBufAllocator.DEFAULT).metric();
        private final long baseline = used();
        private final AtomicLong max = new AtomicLong();
        private final Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                max.accumulateAndGet(used() - baseline, Math::max);
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });

        private long used() {
            return metric.usedHeapMemory() + metric.usedDirectMemory();
        }

        void assertBelow(long limit) {
            System.out.println("Http2LargeTransferTest: server buffers peaked " + max.get() + " bytes over baseline "
                    + baseline + " (" + ByteBufAllocator.DEFAULT.getClass().getSimpleName() + ")");
            assertTrue(max.get() < limit, "server buffers peaked at " + max.get() + " bytes over the baseline");
        }

        @Override
        public void close() throws InterruptedException {
            sampler.interrupt();
            sampler.join();
        }
    }
}
