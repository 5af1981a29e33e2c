package org.fastflowj.core.testing;

import java.util.List;
import org.fastflowj.core.Node;

/** Sends its channel's items, one per call or all in the first call, then EOS. */
final class TestFeeder<T> extends Node<Void, T> {
    private final List<T> items;
    private final boolean oneByOne;
    private int next;

    TestFeeder(List<T> items, boolean oneByOne) {
        this.items = items;
        this.oneByOne = oneByOne;
    }

    @Override
    protected T svc(Void none) {
        if (oneByOne) {
            return next < items.size() ? items.get(next++) : eos();
        }
        for (T item : items) {
            sendOut(item);
        }
        return eos();
    }
}
