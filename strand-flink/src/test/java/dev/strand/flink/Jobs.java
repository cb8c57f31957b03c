package dev.strand.flink;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.util.CloseableIterator;

/** Helpers for running small jobs in tests. */
final class Jobs {

    private Jobs() {
    }

    /** Runs the job that ends in {@code stream} and returns everything it emitted. */
    static <T> List<T> collect(DataStream<T> stream) throws Exception {
        List<T> out = new ArrayList<>();
        try (CloseableIterator<T> it = stream.executeAndCollect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    /**
     * Runs the job, reads {@code expected} results, releases {@code source} so the job can end, and returns all
     * results.
     */
    static <T> List<T> collectThenRelease(DataStream<T> stream, int expected, HeldSource source) throws Exception {
        List<T> out = new ArrayList<>();
        try (CloseableIterator<T> it = stream.executeAndCollect()) {
            while (out.size() < expected && it.hasNext()) {
                out.add(it.next());
            }
            source.release();
            it.forEachRemaining(out::add);
        } finally {
            source.release();
        }
        return out;
    }

    /** Whether {@code t} or one of its causes has a message containing {@code text}. */
    static boolean causeMentions(Throwable t, String text) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c.getMessage() != null && c.getMessage().contains(text)) {
                return true;
            }
        }
        return false;
    }

    /** Prefixes each value with the index of the subtask that emitted it, {@code "1|value"}. */
    static final class TagSubtask extends RichMapFunction<String, String> {
        @Override
        public String map(String value) {
            return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() + "|" + value;
        }
    }
}
