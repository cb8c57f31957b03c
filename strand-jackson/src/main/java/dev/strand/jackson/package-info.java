/**
 * Jackson 3 as Strand's JSON codec: {@link dev.strand.jackson.Jackson3Codec}, registered as a service so
 * that {@code dev.strand.Json} finds it when this module is on the class or module path.
 */
package dev.strand.jackson;
