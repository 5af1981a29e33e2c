package org.fastflowj.launcher.apps;

import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * A two-group pipeline (A: source, B: sink) whose items hold a lambda in a field, which cannot cross
 * groups: A's sender refuses the first item. For the launcher's one-line summary of a failure.
 */
public final class LambdaItemApp {
    private LambdaItemApp() {}

    /** An order whose country is computed late, by a lambda: fine in one process, refused between groups. */
    public record Order(int id, Supplier<String> lazyCountry) {}

    public static void main(String[] args) throws Exception {
        DFF.init(args);
        Node<Void, Order> source = Node.source(() ->
                IntStream.range(0, 10).mapToObj(i -> new Order(i, () -> "IT")).iterator());
        Node<Order, Void> sink =
                Node.sink(o -> System.out.println(o.id() + " " + o.lazyCountry().get()));
        Pipeline pipe = new Pipeline(source, sink);
        source.createGroup("A");
        sink.createGroup("B");
        pipe.runAndWaitEnd();
    }
}
