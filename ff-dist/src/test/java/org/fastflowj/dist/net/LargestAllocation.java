package org.fastflowj.dist.net;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;

/**
 * An allocator that remembers the largest buffer asked of it: set on an {@code EmbeddedChannel}, it shows
 * whether the handlers ever size a buffer by a length a peer sent rather than by their own limits.
 */
final class LargestAllocation extends AbstractByteBufAllocator {
    private int largestBytes;

    LargestAllocation() {
        super(false);
    }

    int largestBytes() {
        return largestBytes;
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        largestBytes = Math.max(largestBytes, initialCapacity);
        return new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        largestBytes = Math.max(largestBytes, initialCapacity);
        return new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }
}
