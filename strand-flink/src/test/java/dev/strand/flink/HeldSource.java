package dev.strand.flink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.functions.source.legacy.SourceFunction;

/**
 * Emits its records, then stays open until the test releases it (or 60 s pass). Flink's async operator stops
 * retrying once its input has ended, so a retry test needs an input that ends only after the last retry.
 * The MiniCluster runs in the test's JVM, so a static latch reaches the running source.
 */
final class HeldSource implements SourceFunction<String> {
    private static final long serialVersionUID = 1L;
    private static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();

    private final ArrayList<String> records;
    private final String gate = UUID.randomUUID().toString();
    private volatile boolean running = true;

    HeldSource(List<String> records) {
        this.records = new ArrayList<>(records);
        GATES.put(gate, new CountDownLatch(1));
    }

    /** Lets the source end. */
    void release() {
        GATES.get(gate).countDown();
    }

    @Override
    public void run(SourceContext<String> ctx) throws InterruptedException {
        for (String r : records) {
            synchronized (ctx.getCheckpointLock()) {
                ctx.collect(r);
            }
        }
        CountDownLatch latch = GATES.get(gate);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (running && !latch.await(50, TimeUnit.MILLISECONDS) && System.nanoTime() < deadline) {
            // Polls so that cancel() ends the wait too.
        }
    }

    @Override
    public void cancel() {
        running = false;
    }
}
