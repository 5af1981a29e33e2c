package org.fastflowj.core.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;

/**
 * Records what one output channel of the node under test delivered, and its EOS. Read by the test thread
 * only after the run ended.
 */
final class TestCollector<T> extends Node<T, Void> {
    final List<T> items = new ArrayList<>();
    final boolean pauseEveryOther;
    int endsSeen;
    int itemsAfterEnd;

    TestCollector(boolean pauseEveryOther) {
        this.pauseEveryOther = pauseEveryOther;
    }

    @Override
    protected Void svc(T item) throws InterruptedException {
        if (endsSeen > 0) {
            itemsAfterEnd++;
        }
        items.add(item);
        if (pauseEveryOther && items.size() % 2 == 1) {
            // A slow consumer is the point here: the node meanwhile fills the one slot and waits.
            TimeUnit.MICROSECONDS.sleep(50);
        }
        return goOn();
    }

    @Override
    protected void eosNotify(int channel) {
        endsSeen++;
    }

    @Override
    public String toString() {
        return Arrays.toString(items.toArray());
    }
}
