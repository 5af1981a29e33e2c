package org.fastflowj.examples.a2abw;

/** What an R-Worker received: bytes, their weighted sum, and when its first chunk and its end came (epoch ns). */
public record Report(int worker, long bytes, long weightedSum, long firstNs, long endNs) {}
