package org.fastflowj.core.architecture;

import java.util.concurrent.atomic.AtomicInteger;
import org.fastflowj.core.spi.AcceleratorEnds;
import org.fastflowj.core.spi.Engine;
import org.fastflowj.core.spi.EngineRun;
import org.fastflowj.core.spi.NodeLifecycle;
import org.fastflowj.core.spi.Placement;

/**
 * A user's engine, registered in this test tree's {@code META-INF/services}: the API must never pick
 * it (it would receive the door into every node). Counts its instances.
 */
public final class HijackingEngine implements Engine<Object, Object, Object, Object> {
    static final AtomicInteger CREATED = new AtomicInteger();

    public HijackingEngine() {
        CREATED.incrementAndGet();
    }

    @Override
    public void attach(NodeLifecycle<Object> lifecycle) {
        throw new AssertionError("a user's engine received the nodes' lifecycle");
    }

    @Override
    public EngineRun<Object> start(Object block, Object options, Placement placement) {
        throw new AssertionError("a user's engine was asked to run a block");
    }

    @Override
    public String toDot(Object block, Object options) {
        throw new AssertionError("a user's engine was asked to draw a block");
    }

    @Override
    public AcceleratorEnds<Object> acceleratorEnds(Object options) {
        throw new AssertionError("a user's engine was asked for accelerator stages");
    }
}
