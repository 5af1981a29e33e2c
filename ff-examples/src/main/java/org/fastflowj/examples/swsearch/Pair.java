package org.fastflowj.examples.swsearch;

/** A task of the farm: the query and one database sequence. */
public record Pair(Protein query, Protein subject) {}
