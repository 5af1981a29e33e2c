package org.fastflowj.launcher.apps;

import java.util.List;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * A program that is not ready for groups, for the launcher's tests: with the argument {@code no-init} it
 * never calls {@code DFF.init}, otherwise it calls it but creates no group. Either way it runs whole and
 * prints {@code whole run}.
 */
public final class UngroupedApp {
    private UngroupedApp() {}

    public static void main(String[] args) {
        if (!List.of(args).contains("no-init")) {
            DFF.init(args);
        }
        Pipeline pipe = new Pipeline(Node.source(() -> List.of(1, 2, 3).iterator()), Node.sink(x -> {}));
        pipe.runAndWaitEnd();
        System.out.println("whole run");
    }
}
