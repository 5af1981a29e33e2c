package org.fastflowj.dist.apps;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.dist.DFF;

/**
 * Two groups, a source in A and a sink in B, for the memory tests. Arguments after DFF's: the scenario,
 * then its count.
 *
 * <ul>
 *   <li>{@code slowSink N}: N items of 64 KiB into a sink that sleeps 2 s at the first one; B prints
 *       {@code items=<n> checksum=<c>}. A's own channel is kept small (its heap is not under test).
 *   <li>{@code hoard N}: B's sink keeps every item it gets, until its heap runs out.
 *   <li>{@code huge N}: one byte array of N MiB, too big for B to deserialize in its heap.
 * </ul>
 */
public final class MemoryApp {
    static final int ITEM_BYTES = 64 * 1024;

    private MemoryApp() {}

    public static void main(String[] args) {
        args = DFF.init(args);
        String scenario = args[0];
        int n = Integer.parseInt(args[1]);
        long[] seen = new long[2];
        List<byte[]> hoard = new ArrayList<>();
        Node<Void, byte[]> source = new Node<>() {
            private int next;

            @Override
            protected byte[] svc(Void none) {
                if (scenario.equals("huge")) {
                    return next++ == 0 ? new byte[n << 20] : eos();
                }
                if (scenario.equals("slowSink") && next == n) {
                    return eos();
                }
                byte[] item = new byte[ITEM_BYTES];
                Arrays.fill(item, (byte) next++);
                return item;
            }
        };
        Node<byte[], Void> sink = Node.sink(item -> {
            if (seen[0]++ == 0 && scenario.equals("slowSink")) {
                sleep(2_000); // the slow sink under test: the buffers fill meanwhile
            }
            if (scenario.equals("hoard")) {
                hoard.add(item);
            }
            seen[1] += item[0] + item[item.length - 1];
        });
        source.createGroup("A");
        sink.createGroup("B");
        boolean inA = DFF.group().map("A"::equals).orElse(false);
        new Pipeline(source, sink).runAndWaitEnd(inA ? RunOptions.defaults().queueCapacity(8) : RunOptions.defaults());
        if (DFF.group().map("B"::equals).orElse(true)) {
            System.out.println("items=" + seen[0] + " checksum=" + seen[1]);
        }
    }

    /** The checksum B prints for {@code slowSink n}. */
    static long slowSinkChecksum(int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 2L * (byte) i;
        }
        return sum;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
