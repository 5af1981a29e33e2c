package org.fastflowj.examples.a2abw;

/**
 * What an R-Worker received: bytes, their weighted sum, when the earliest of its chunks was sent and when its
 * end came (epoch ns).
 */
public record Report(int worker, long bytes, long weightedSum, long firstSentNs, long endNs) {}
