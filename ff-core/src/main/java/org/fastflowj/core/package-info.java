/**
 * FastFlow-J's building blocks: {@link org.fastflowj.core.Node}, {@link org.fastflowj.core.MultiInputNode},
 * {@link org.fastflowj.core.MultiOutputNode}, {@link org.fastflowj.core.Combiner},
 * {@link org.fastflowj.core.Pipeline}, {@link org.fastflowj.core.Farm} and
 * {@link org.fastflowj.core.AllToAll}, and how to run them ({@link org.fastflowj.core.RunOptions},
 * {@link org.fastflowj.core.WaitStrategy}). This is the whole public API of ff-core; the
 * {@code graph} and {@code runtime} sub-packages are the engine, and {@code metrics} shows a running
 * block to JMX and Prometheus ({@link org.fastflowj.core.RunOptions#jmx}, {@link
 * org.fastflowj.core.RunOptions#ui}).
 *
 * <p>The API reaches the engine only through the SPI's {@code Engine}, found once, while {@code Node}
 * initialises, by {@code Engines} with {@link java.util.ServiceLoader}; {@code Engines} takes only the
 * provider of ff-core itself (same module, class loader and code source), so a provider of the user's is
 * never created. {@code goOn()} and {@code eos()} note a signal on the node and return null, so they fit
 * any output type; {@code Node.call} turns a null result into that signal.
 *
 * <p>Modules: ff-core exports this package and {@code org.fastflowj.patterns} to everyone; {@code spi},
 * {@code runtime} and {@code graph} only to {@code org.fastflowj.dist}, {@code metrics} to ff-dist, the
 * launcher and {@code java.management}.
 */
package org.fastflowj.core;
