package dev.strand.flink;

import dev.strand.ConnectException;
import dev.strand.ConnectTimeoutException;
import dev.strand.HttpStatusException;
import dev.strand.TimeoutException;
import dev.strand.TransportException;
import java.util.Locale;

/**
 * Why a record's request failed; each kind has its own error counter ({@code strand.errors.<kind>}).
 */
public enum ErrorKind {
    /** The connection could not be made (refused, unreachable, connect timeout): the request was never sent. */
    CONNECT,
    /** A read, write or pool timeout of Strand's, or the Flink operator's own timeout. */
    TIMEOUT,
    /** The server answered with an error status (4xx or 5xx). */
    STATUS,
    /** Any other transport failure: a reset connection, a malformed response, TLS. */
    TRANSPORT,
    /** The user's request or response mapper threw (or returned no request). */
    MAPPER,
    /** Anything else Strand reported: an invalid URL, too many redirects. */
    OTHER;

    /** @return the name used in metric names, e.g. {@code "connect"} */
    public String metricName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Classifies an exception from Strand.
     *
     * @param t a failure of a Strand call (unwrapped)
     * @return its kind
     */
    static ErrorKind of(Throwable t) {
        if (t instanceof ConnectException || t instanceof ConnectTimeoutException) {
            return CONNECT;
        }
        if (t instanceof TimeoutException) {
            return TIMEOUT;
        }
        if (t instanceof HttpStatusException) {
            return STATUS;
        }
        if (t instanceof TransportException) {
            return TRANSPORT;
        }
        return OTHER;
    }
}
