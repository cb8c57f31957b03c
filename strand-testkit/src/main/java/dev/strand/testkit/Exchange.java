package dev.strand.testkit;

import io.netty.handler.codec.http.HttpContent;

/**
 * What one endpoint does with one request. {@link HttpConnection} calls the hooks in order on the event loop;
 * the exchange must eventually finish its response (or close the connection) through the connection.
 *
 * <p>Stateless endpoints share one instance across connections, so the hot path allocates nothing here.
 */
abstract class Exchange {

    /** Answer to {@code Expect: 100-continue}; false makes the connection send 417 and close. */
    boolean acceptsExpectation(HttpConnection c) {
        return true;
    }

    /** The request head has arrived ({@link HttpConnection#request()}). */
    void onRequest(HttpConnection c) {
    }

    /** A piece of the request body; the connection releases it afterwards. */
    void onContent(HttpConnection c, HttpContent content) {
    }

    /** The whole request has been read. */
    abstract void onRequestComplete(HttpConnection c);

    /** The channel can take more writes again (for streaming responses). */
    void onWritable(HttpConnection c) {
    }

    /** The connection closed; cancel timers and free what the exchange holds. */
    void onClose(HttpConnection c) {
    }

    /** An exchange that answers once the request is read, and holds no state. */
    static Exchange of(Handler handler) {
        return new Exchange() {
            @Override
            void onRequestComplete(HttpConnection c) {
                handler.handle(c);
            }
        };
    }

    @FunctionalInterface
    interface Handler {
        void handle(HttpConnection c);
    }
}
