package dev.strand;

/**
 * Hears how far a request body has been sent ({@link Request.Builder#uploadProgress}) or a response body
 * received ({@link Request.Builder#downloadProgress}).
 *
 * {@snippet :
 * Request r = Request.builder("GET", "https://example.org/big.iso")
 *     .downloadProgress((bytes, total) -> System.err.printf("\r%d / %d", bytes, total))
 *     .build();
 * }
 *
 * <p>What Strand guarantees to a listener:
 * <ul>
 *   <li>It is never called on an I/O thread: calls come from a virtual thread of Strand's, one at a time
 *       (never concurrently), so a slow listener holds up nothing but its own later calls.
 *   <li>Calls are coalesced: a listener slower than the transfer sees fewer calls, each with the latest count
 *       at the time it is made, never an older one after a newer.
 *   <li>Within one body, {@code bytes} never decreases.
 *   <li>When the body has been sent or received whole, a last call has {@code bytes == total} (a body of unknown
 *       length reports {@code total} as {@code -1} until that last call). For {@link Client#send} it is made
 *       before {@code send} returns; for {@link Client#stream} before the body's end is returned to the reader.
 *       A body that fails part way gets no such call: the call fails instead.
 * </ul>
 *
 * <p>An exception thrown by the listener is ignored, as a progress display must not break a transfer.
 */
@FunctionalInterface
public interface ProgressListener {
  /**
   * @param bytes the bytes so far
   * @param total the body's length, or {@code -1} while it is unknown
   */
  void onProgress(long bytes, long total);
}
