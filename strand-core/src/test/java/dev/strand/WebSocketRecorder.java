package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A listener that records what a WebSocket delivers, for tests to wait on (bounded waits only). */
public class WebSocketRecorder implements WebSocket.Listener {
  public final BlockingQueue<Object> messages = new LinkedBlockingQueue<>(); // String or byte[]
  public final BlockingQueue<byte[]> pongs = new LinkedBlockingQueue<>();
  public final AtomicInteger opens = new AtomicInteger();
  public final AtomicInteger ends = new AtomicInteger();
  public final CountDownLatch ended = new CountDownLatch(1);
  volatile String callbackThread;
  public volatile int closeCode = -1;
  public volatile String closeReason;
  volatile HttpException error;
  volatile Boolean openAtEnd; // what the socket said of itself when the end was reported

  @Override
  public void onOpen(WebSocket ws) {
    opens.incrementAndGet();
  }

  @Override
  public void onText(WebSocket ws, String text) {
    callbackThread = Thread.currentThread().getName();
    messages.add(text);
  }

  @Override
  public void onBinary(WebSocket ws, byte[] data) {
    messages.add(data);
  }

  @Override
  public void onPong(WebSocket ws, byte[] payload) {
    pongs.add(payload);
  }

  @Override
  public void onClose(WebSocket ws, int code, String reason) {
    closeCode = code;
    closeReason = reason;
    openAtEnd = ws.isOpen();
    ends.incrementAndGet();
    ended.countDown();
  }

  @Override
  public void onError(WebSocket ws, HttpException error) {
    this.error = error;
    openAtEnd = ws.isOpen();
    ends.incrementAndGet();
    ended.countDown();
  }

  public Object next() throws InterruptedException {
    Object m = messages.poll(10, TimeUnit.SECONDS);
    assertNotNull(m, "no message within 10 s; error: " + error);
    return m;
  }

  public String nextText() throws InterruptedException {
    return (String) next();
  }

  public byte[] nextBinary() throws InterruptedException {
    return (byte[]) next();
  }

  public void awaitEnd() throws InterruptedException {
    assertTrue(ended.await(10, TimeUnit.SECONDS), "the socket did not end within 10 s");
    Thread.sleep(50); // a second, wrong end callback would come right after the first
    assertEquals(1, ends.get(), "exactly one of onClose/onError");
  }

  /** Waits for the end and returns the error it reported (fails if it closed cleanly). */
  public HttpException awaitError() throws InterruptedException {
    awaitEnd();
    assertNotNull(error, "expected onError, got onClose " + closeCode + " " + closeReason);
    return error;
  }

  /** Sends {@code text}, sees it echoed, then closes with 1000 and sees the peer's Close. */
  public void echoAndClose(WebSocket ws, String text) throws Exception {
    ws.sendText(text);
    assertEquals(text, nextText());
    ws.close(1000, "bye").get(5, TimeUnit.SECONDS);
    awaitEnd();
    assertEquals(1000, closeCode);
  }
}
