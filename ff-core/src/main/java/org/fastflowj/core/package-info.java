/**
 * FastFlow-J's building blocks: {@link org.fastflowj.core.Node}, {@link org.fastflowj.core.MultiInputNode},
 * {@link org.fastflowj.core.MultiOutputNode}, {@link org.fastflowj.core.Combiner},
 * {@link org.fastflowj.core.Pipeline}, {@link org.fastflowj.core.Farm} and
 * {@link org.fastflowj.core.AllToAll}, and how to run them ({@link org.fastflowj.core.RunOptions},
 * {@link org.fastflowj.core.WaitStrategy}). This is the whole public API of ff-core; the
 * {@code graph} and {@code runtime} sub-packages are the engine, and {@code metrics} shows a running
 * block to JMX and Prometheus ({@link org.fastflowj.core.RunOptions#jmx}, {@link
 * org.fastflowj.core.RunOptions#ui}).
 */
package org.fastflowj.core;
