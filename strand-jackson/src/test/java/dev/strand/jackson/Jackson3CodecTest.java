package dev.strand.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strand.Client;
import dev.strand.JsonCodec;
import dev.strand.MockTransport;
import dev.strand.ProtocolException;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.TypeRef;
import dev.strand.testkit.TestServerExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Core finds Jackson 3 through this module, and maps bodies both ways with it. */
class Jackson3CodecTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  record Item(int id, String name, List<String> tags) {}

  @Test
  void coreFindsJackson3AheadOfJackson2() {
    assertInstanceOf(Jackson3Codec.class, JsonCodec.get());
  }

  @Test
  void aRealResponseIsReadIntoARecord() {
    try (Client client = Client.create()) {
      Item item = client.get(server.url("/small")).json(Item.class);
      assertEquals(42, item.id());
      assertEquals("widget", item.name());
      assertEquals(List.of("a", "b", "c"), item.tags());
    }
  }

  @Test
  void genericTypesAndRequestBodiesRoundTrip() {
    MockTransport echo = MockTransport.of(r -> Response.builder(200).body(r.body().bufferedBytes()).build());
    try (Client client = Client.builder().transport(echo).build()) {
      List<Item> items = List.of(new Item(1, "x", List.of()), new Item(2, "y", List.of("t")));
      Response echoed = client.post("http://127.0.0.1/echo", RequestBody.jsonOf(items));
      assertEquals("application/json", echoed.request().headers().first("Content-Type"));
      assertEquals(items, echoed.json(new TypeRef<List<Item>>() {}));
    }
  }

  @Test
  void invalidJsonIsTheServersFault() {
    MockTransport mock = MockTransport.of(r -> Response.builder(200).body("{\"id\": ").build());
    try (Client client = Client.builder().transport(mock).build()) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.get("http://127.0.0.1/x").json(Item.class));
      assertEquals(true, e.getMessage().contains("not valid JSON for"), e.getMessage());
    }
    assertEquals("[1,2]", new String(JsonCodec.get().write(List.of(1, 2)), StandardCharsets.UTF_8));
  }
}
