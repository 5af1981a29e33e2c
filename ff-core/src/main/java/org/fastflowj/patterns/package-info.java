/**
 * FastFlow's parallel patterns, built on the building blocks of {@code org.fastflowj.core} (never on a
 * JDK thread pool): {@link org.fastflowj.patterns.DivideAndConquer} (FastFlow's {@code ff_DC}) and
 * {@link org.fastflowj.patterns.MacroDataFlow} (FastFlow's {@code ff_mdf}, the DF-Threads model).
 *
 * <p>Design note: both are a farm with feedback whose emitter is the only thread that owns the pattern's
 * book-keeping (the task tree, the dependency graph); the workers only run user code and send the task
 * back. So the book-keeping needs no synchronisation: every hand-over is an SPSC channel, which orders
 * memory. The task objects themselves are the messages, so nothing is allocated per hand-over.
 */
package org.fastflowj.patterns;
