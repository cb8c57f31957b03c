package dev.strand.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.spring.StrandClientHttpRequestFactory;
import dev.strand.testkit.TestServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/** Spring's RestTemplate in the migration notes (docs/guide/migrating.md): before, and on Strand in two steps. */
class FromRestTemplateTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void restTemplate() {
    String base = server.get().baseUri().toString();
    // region resttemplate
    RestTemplate rest = new RestTemplate(new SimpleClientHttpRequestFactory());   // HttpURLConnection underneath
    String small = rest.getForObject(base + "/small", String.class);

    HttpHeaders headers = new HttpHeaders();
    headers.setContentType(MediaType.APPLICATION_JSON);
    ResponseEntity<String> echo = rest.postForEntity(base + "/echo",
        new HttpEntity<>("{\"name\": \"widget\"}", headers), String.class);
    System.out.println(small + " " + echo.getStatusCode());
    // endregion
    assertEquals(200, echo.getStatusCode().value());
  }

  @Test
  void restTemplateOnStrand() {
    String base = server.get().baseUri().toString();
    // region resttemplate-on-strand
    try (Client client = Client.builder().cookies(false).build()) {   // one per application, shared
      RestTemplate rest = new RestTemplate(new StrandClientHttpRequestFactory(client));
      String small = rest.getForObject(base + "/small", String.class);   // the rest of your code is unchanged
      System.out.println(small);
    }
    // endregion
  }

  @Test
  void restClientOnStrand() {
    String base = server.get().baseUri().toString();
    // region restclient-on-strand
    try (Client client = Client.builder().cookies(false).build()) {
      RestClient rest = RestClient.builder().requestFactory(new StrandClientHttpRequestFactory(client)).build();
      String echo = rest.post().uri(base + "/echo")
          .contentType(MediaType.APPLICATION_JSON)
          .body("{\"name\": \"widget\"}")
          .retrieve()
          .body(String.class);
      System.out.println(echo);
    }
    // endregion
  }
}
