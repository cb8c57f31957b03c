package dev.strand.testkit;

/**
 * The text of the testkit's event streams, apart from the endpoints that send them: {@link NginxDocroot} writes
 * {@link #RECORDED} without Netty on the class path.
 */
final class SseStreams {

    /** What {@code /sse/split} sends: three events, "first\nsecond", "1 ☃ 2" (type café, id 7) and "last". */
    static final String SPLIT_TEXT =
            "data: first\r\ndata: second\r\n\r\nid: 7\nevent: café\ndata: 1 ☃ 2\r\r: keep-alive\ndata: last\n\n";

    /** Event {@code n} of {@code /sse}: an id, a type, two data lines; the first also sets retry. */
    static String tick(long n, boolean first) {
        return (first ? "retry: 2500\n" : ": keep-alive\n") + "id: " + n + "\nevent: tick\ndata: tick " + n
                + "\ndata: second line\n\n";
    }

    /**
     * The file nginx serves as {@code /events.sse}: a BOM, a retry-only block, ticks 1 to 3, {@link #SPLIT_TEXT}, and an event cut off by the end of the file (never dispatched).
     */
    static final String RECORDED = "\uFEFF: recorded stream\nretry: 1000\n\n" + tick(1, true) + tick(2, false)
            + tick(3, false) + SPLIT_TEXT + "data: cut off by the end of the file\n";

    private SseStreams() {
    }
}
