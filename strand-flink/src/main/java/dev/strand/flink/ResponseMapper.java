package dev.strand.flink;

import dev.strand.Response;
import java.io.Serializable;

/**
 * Turns a record and the response to its request into the output record. Shipped with the job, so it must be
 * serializable: a lambda assigned to this type is. It runs on the client's I/O thread, so it should be quick (parse
 * and copy, no blocking calls).
 *
 * {@snippet :
 * ResponseMapper<String, String> withName = (id, response) -> id + "," + response.text();
 * }
 *
 * @param <IN> the record type
 * @param <OUT> the output type
 */
@FunctionalInterface
public interface ResponseMapper<IN, OUT> extends Serializable {

    /**
     * The output for one record.
     *
     * @param record the record the request was made for
     * @param response the complete response (body read)
     * @return the output record, or {@code null} to emit nothing for this record
     * @throws Exception anything: it fails this record, with the record named in the failure
     */
    OUT map(IN record, Response response) throws Exception;
}
