/** Strand's JSON codec on Jackson 3: core finds it as a {@link dev.strand.JsonCodec} service. */
module dev.strand.jackson {
  requires dev.strand;
  requires tools.jackson.databind;

  exports dev.strand.jackson;

  provides dev.strand.JsonCodec with dev.strand.jackson.Jackson3Codec;
}
