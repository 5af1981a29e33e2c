package org.fastflowj.examples.wordcount;

/** Sent by a splitter to counter 0 when its source has ended: how many lines it split. */
public record LineCount(long lines) {}
