package dev.strand.flink;

import java.io.Serializable;
import java.util.Objects;

/**
 * What {@link StrandAsyncFunction} does with a record whose time is up: Flink's async operator has a timeout per
 * record (the {@code timeout} of {@code AsyncDataStream.orderedWait} and its twins, retries included), and when it
 * fires the record takes one of three ways.
 *
 * <ul>
 *   <li>{@link #fail()} (the default, as Flink does): the job fails with an {@link HttpRecordException} naming the
 *       record.
 *   <li>{@link #fallback(Fallback)}: the record's output is the fallback's value.
 *   <li>{@link #drop()}: no output for the record; the counter {@code strand.timeoutsDropped} counts it.
 * </ul>
 *
 * {@snippet :
 * TimeoutPolicy<String, String> unknown = TimeoutPolicy.fallback(id -> id + ",unknown");
 * }
 *
 * @param <IN> the record type
 * @param <OUT> the output type
 */
public final class TimeoutPolicy<IN, OUT> implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The three ways. */
    enum Kind { FAIL, FALLBACK, DROP }

    private final Kind kind;
    private final Fallback<IN, OUT> fallback;

    private TimeoutPolicy(Kind kind, Fallback<IN, OUT> fallback) {
        this.kind = kind;
        this.fallback = fallback;
    }

    /**
     * Fail the job, naming the record.
     *
     * @param <IN> the record type
     * @param <OUT> the output type
     * @return the policy
     */
    public static <IN, OUT> TimeoutPolicy<IN, OUT> fail() {
        return new TimeoutPolicy<>(Kind.FAIL, null);
    }

    /**
     * Emit {@code fallback}'s value for the record instead.
     *
     * @param fallback computes the output from the record; it must not return null
     * @param <IN> the record type
     * @param <OUT> the output type
     * @return the policy
     */
    public static <IN, OUT> TimeoutPolicy<IN, OUT> fallback(Fallback<IN, OUT> fallback) {
        return new TimeoutPolicy<>(Kind.FALLBACK, Objects.requireNonNull(fallback, "fallback"));
    }

    /**
     * Emit nothing for the record and count it in {@code strand.timeoutsDropped}.
     *
     * @param <IN> the record type
     * @param <OUT> the output type
     * @return the policy
     */
    public static <IN, OUT> TimeoutPolicy<IN, OUT> drop() {
        return new TimeoutPolicy<>(Kind.DROP, null);
    }

    Kind kind() {
        return kind;
    }

    Fallback<IN, OUT> fallbackFunction() {
        return fallback;
    }

    @Override
    public String toString() {
        return "TimeoutPolicy." + kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The output for a timed-out record. Serializable: a lambda assigned to this type is.
     *
     * @param <IN> the record type
     * @param <OUT> the output type
     */
    @FunctionalInterface
    public interface Fallback<IN, OUT> extends Serializable {
        /**
         * @param record the timed-out record
         * @return its output; not null
         */
        OUT apply(IN record);
    }
}
