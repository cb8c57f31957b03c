package dev.strand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClientKindTest {

  @Test
  void everyNameOfTheCommandLineHasAKindAndItsCellsTheirs() {
    assertEquals(ClientKind.JAVA, ClientKind.of("strand"));
    assertEquals(ClientKind.JAVA, ClientKind.of("jdk"));
    assertEquals(ClientKind.FAKE, ClientKind.of("fake-broken"));
    assertEquals(ClientKind.WRK, ClientKind.of("wrk"));
    assertEquals(ClientKind.H2LOAD, ClientKind.of("h2load"));
    for (String python : new String[] {"aiohttp", "httpx", "requests"}) {
      assertEquals(ClientKind.PYTHON, ClientKind.of(python));
    }
    assertEquals("java", ClientKind.JAVA.cellKind());
    assertEquals("fake", ClientKind.FAKE.cellKind());
    assertEquals("reference", ClientKind.PYTHON.cellKind());
    assertTrue(ClientKind.WRK.perLevel() && ClientKind.H2LOAD.perLevel());
    assertFalse(ClientKind.PYTHON.perLevel() || ClientKind.JAVA.perLevel());
  }

  @Test
  void anUnknownNameIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ClientKind.of("curl"));
    assertThrows(IllegalArgumentException.class, () -> ClientKind.of("fake-unknown"));
  }

  @Test
  void everyReferenceIsAKindOfReference() {
    for (String r : BenchMain.REFERENCES) {
      assertEquals("reference", ClientKind.of(r).cellKind(), r);
      assertTrue(ClientKind.of(r).isReference(), r);
    }
  }
}
