package org.fastflowj.examples.masterworker;

/** One task: its number and an opaque payload (128 bytes in the paper's test). */
public record Task(long id, byte[] payload) {}
