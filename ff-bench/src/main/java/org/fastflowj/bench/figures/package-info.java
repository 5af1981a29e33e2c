/**
 * The evidence suite: {@link org.fastflowj.bench.figures.Figures} runs a short version (or the papers' sizes)
 * of every figure of the FastFlow papers on this machine, each with its baseline measured in the same run,
 * writes every repetition as JSON lines and draws the plots (PNG and SVG). See docs/benchmarks.md.
 */
package org.fastflowj.bench.figures;
