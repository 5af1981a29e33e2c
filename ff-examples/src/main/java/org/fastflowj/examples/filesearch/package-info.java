/**
 * The file search of Fig. 2 of "Distributed-memory FastFlow Building Blocks" (2022): the same three nodes,
 * {@link org.fastflowj.examples.filesearch.Reader}, {@link org.fastflowj.examples.filesearch.Worker} and
 * {@link org.fastflowj.examples.filesearch.Writer}, composed two ways by
 * {@link org.fastflowj.examples.filesearch.FileSearch}.
 *
 * <pre>
 *   Version 1 (pipeline):   Reader(d1..d4) ──▶ Worker ──▶ Writer
 *
 *   Version 2 (--a2a):      Reader(d1,d2) ──┬──▶ Worker ──┐
 *                                  ╲ ╱      ├──▶ Worker ──┼──▶ Writer
 *                           Reader(d3,d4) ──┴──▶ Worker ──┘
 * </pre>
 *
 * <p>Output is {@code grep -rnIF WORD DIR...} sorted by path, then by line number: the bytes of a file
 * are split at {@code \n} (a {@code \r} before it stays in the line, as grep prints it), a line matches
 * when it contains the bytes of the word, and a file holding a NUL byte is binary and skipped.
 */
package org.fastflowj.examples.filesearch;
