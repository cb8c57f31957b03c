package dev.strand.flink.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.metrics.HistogramStatistics;
import org.junit.jupiter.api.Test;

/** The lock-free latency window: counts every update, keeps the last N values, survives concurrent updates. */
class LatencyHistogramTest {

    @Test
    void countsEveryUpdateAndKeepsTheLastWindow() {
        LatencyHistogram h = new LatencyHistogram(4);
        assertEquals(0, h.getStatistics().size());
        for (long v = 1; v <= 6; v++) {
            h.update(v);
        }
        assertEquals(6, h.getCount());
        HistogramStatistics s = h.getStatistics();
        assertEquals(4, s.size());
        assertEquals(3, s.getMin(), "1 and 2 were overwritten");
        assertEquals(6, s.getMax());
        assertEquals(4.5, s.getMean(), 1e-9);
    }

    @Test
    void concurrentUpdatesAreAllCounted() throws Exception {
        LatencyHistogram h = new LatencyHistogram(1024);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 50_000; i++) {
                    h.update(7);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(200_000, h.getCount());
        assertEquals(7, h.getStatistics().getMax());
        assertEquals(7, h.getStatistics().getMin());
    }
}
