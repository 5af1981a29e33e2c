/**
 * The run-time's single-producer single-consumer queues: JCTools' {@code Unsafe} family up to JDK 23,
 * its {@code atomic} twins from JDK 24 on, chosen once per JVM ({@code SpscQueues}), so every call site
 * sees one class. A channel's bounded queue ({@code ChannelQueue}) adds the producer's look-ahead
 * question "are n slots free?", which a waiting producer asks without reading the consumer's index.
 *
 * <p>Depends on JCTools only, nothing else of the run-time ({@code PackageLayersTest}); the channels,
 * the accelerator's stages and ff-dist's links build on it.
 */
package org.fastflowj.core.runtime.queue;
