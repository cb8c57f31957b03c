package dev.strand.flink;

import dev.strand.Request;
import java.io.Serializable;

/**
 * Turns a stream record into the HTTP request to send for it. Shipped with the job, so it must be serializable:
 * a lambda assigned to this type is.
 *
 * {@snippet :
 * RequestMapper<String> byId = id -> Request.get("/users/" + id);
 * }
 *
 * @param <IN> the record type
 */
@FunctionalInterface
public interface RequestMapper<IN> extends Serializable {

    /**
     * The request for one record. A relative URL resolves against {@link HttpSettings#baseUrl()}.
     *
     * @param record the record
     * @return the request; not null
     * @throws Exception anything: it fails this record, with the record named in the failure
     */
    Request toRequest(IN record) throws Exception;
}
