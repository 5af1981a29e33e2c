package org.fastflowj.examples.wordcount;

/**
 * Whole lines of the input, as they were read (UTF-8, each line ended by its {@code \n} but maybe the
 * input's last one), and how many: what a source sends a splitter. A chunk of many lines instead of one
 * item per line or per word, so the hand-offs between nodes cost nothing next to the splitting.
 */
public record TextChunk(byte[] utf8, int lines) {}
