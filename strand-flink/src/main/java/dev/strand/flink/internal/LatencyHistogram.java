package dev.strand.flink.internal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.HistogramStatistics;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogramStatistics;

/**
 * A {@link Histogram} over the last {@code size} values, updated without a lock. Flink's
 * {@code DescriptiveStatisticsHistogram} synchronizes every update, and every response updates the latency
 * histogram from one of the client's I/O threads: the profile of {@code bench --flink} showed that lock among the
 * connector's own per-record costs. Here an update is one atomic increment and one array store; a reporter's read
 * copies the window (it may see a value being overwritten, which a latency window can afford).
 */
final class LatencyHistogram implements Histogram {

    private final AtomicLongArray window;
    private final AtomicLong count = new AtomicLong();

    LatencyHistogram(int size) {
        this.window = new AtomicLongArray(size);
    }

    @Override
    public void update(long value) {
        long n = count.getAndIncrement();
        window.lazySet((int) (n % window.length()), value);
    }

    @Override
    public long getCount() {
        return count.get();
    }

    @Override
    public HistogramStatistics getStatistics() {
        int filled = (int) Math.min(count.get(), window.length());
        double[] values = new double[filled];
        for (int i = 0; i < filled; i++) {
            values[i] = window.get(i);
        }
        return new DescriptiveStatisticsHistogramStatistics(values);
    }
}
