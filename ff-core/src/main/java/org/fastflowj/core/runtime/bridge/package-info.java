/**
 * An engine task's runner. A bridge vertex (ff-dist's network ends) runs a {@code BridgeTask} on a {@code
 * BridgeRunner} instead of a node runner; the task reads and writes its channels directly through {@code
 * BridgeChannels} and never blocks in {@code doWork}: what it cannot do now stays pending, and the runner
 * pauses through the same {@code ChannelEnd.pause} a node runner uses.
 *
 * <p>Depends on {@code channel} and {@code control} only ({@code PackageLayersTest}).
 */
package org.fastflowj.core.runtime.bridge;
