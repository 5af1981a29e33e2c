/**
 * Network benchmarks of ff-dist: {@link org.fastflowj.bench.net.NetThroughput} moves N messages from one
 * group to another over loopback ({@link org.fastflowj.bench.net.GroupToGroup}) and divides its rate by
 * that of plain Netty moving the same bytes with the same batching and flow control in the same run
 * ({@link org.fastflowj.bench.net.NettyBaseline}), and by that of the same Netty fed by a source thread and
 * drained into a sink thread through one SPSC queue each ({@code NettyHandOff}): the bound of any design whose
 * source and sink are nodes on threads of their own. A plain {@code main}, not JMH: see {@code NetThroughput}
 * and docs/benchmarks.md.
 */
package org.fastflowj.bench.net;
