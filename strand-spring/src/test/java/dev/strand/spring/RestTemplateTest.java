package dev.strand.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestTemplate;

/** RestTemplate on Strand. */
@ExtendWith(NettyLeakDetectorExtension.class)
class RestTemplateTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private final Client client = Client.builder().cookies(false).build();
  private final StrandClientHttpRequestFactory factory = new StrandClientHttpRequestFactory(client);
  private final RestTemplate rest = new RestTemplate(factory);

  @AfterEach
  void close() {
    client.close();
  }

  @Test
  void getAndPost() {
    assertTrue(rest.getForObject(server.url("/small"), String.class).contains("widget"));
    ResponseEntity<String> echo = rest.postForEntity(server.url("/echo"), "from resttemplate", String.class);
    assertEquals(HttpStatus.OK, echo.getStatusCode());
    assertTrue(echo.getBody().contains("\"body\": \"from resttemplate\""), echo.getBody());
  }

  @Test
  void aClientErrorIsSpringsException() {
    HttpClientErrorException e = assertThrows(HttpClientErrorException.class,
        () -> rest.getForObject(server.url("/status/404"), String.class));
    assertEquals(HttpStatus.NOT_FOUND, e.getStatusCode());
  }

  @Test
  void aTimeoutIsAResourceAccessException() {
    factory.setReadTimeout(Duration.ofMillis(200));
    ResourceAccessException e = assertThrows(ResourceAccessException.class,
        () -> rest.getForObject(server.url("/never"), String.class));
    assertInstanceOf(HttpTimeoutException.class, e.getCause());
  }

  @Test
  void aHeadAndAnEmptyBodyLeaveTheConnectionPooled() {
    rest.headForHeaders(server.url("/small"));
    rest.delete(server.url("/status/204"));
    rest.getForObject(server.url("/small"), String.class);
    assertEquals(1, client.stats().connectionsOpened());
  }
}
