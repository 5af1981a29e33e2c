package org.fastflowj.launcher.apps;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * A three-group pipeline (A, B, C) whose process outlives its {@code main}: a thread of its own that is no
 * daemon sleeps for {@code sleepSeconds}. It writes its pid to {@code pidFile} first.
 *
 * <p>Arguments after DFF's: {@code pidFile sleepSeconds}.
 */
public final class LingeringApp {
    private LingeringApp() {}

    public static void main(String[] args) throws Exception {
        args = DFF.init(args);
        Files.writeString(
                Path.of(args[0]), Long.toString(ProcessHandle.current().pid()));
        long sleepMillis = Long.parseLong(args[1]) * 1000;
        Thread lingering = new Thread(
                () -> {
                    try {
                        Thread.sleep(sleepMillis);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "lingering");
        lingering.start();
        Node<Void, Integer> source = Node.source(List.of(1, 2, 3));
        Node<Integer, Integer> pass = Node.of("pass", (Integer x) -> x);
        Node<Integer, Void> sink = Node.sink((Integer x) -> {});
        source.createGroup("A");
        pass.createGroup("B");
        sink.createGroup("C");
        new Pipeline(source, pass, sink).runAndWaitEnd();
    }
}
