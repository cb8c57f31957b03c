package dev.strand.flink;

import java.io.Serializable;

/**
 * Turns a record into what {@link StrandHttpSink} sends for it. Shipped with the job, so it must be serializable:
 * a lambda assigned to this type is.
 *
 * @param <IN> the record type
 */
@FunctionalInterface
public interface SinkEncoder<IN> extends Serializable {

    /**
     * @param record the record
     * @return its entry; not null
     */
    HttpSinkEntry encode(IN record);
}
