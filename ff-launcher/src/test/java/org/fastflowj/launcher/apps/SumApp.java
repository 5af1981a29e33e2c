package org.fastflowj.launcher.apps;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.stream.LongStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * A three-group pipeline (A: source, B: square, C: sum) for the launcher's tests.
 *
 * <p>Arguments after DFF's: {@code count} (items), {@code failAt} (B throws at that item, -1 for never),
 * {@code sleepMicros} (work per item in B). Each group prints {@code <group> up} and
 * {@code <group> secret: <length> chars, sha256 <first 16 hex digits>} (or {@code <group> secret: none})
 * for the secret the launcher hands it in {@code DFF_Secret}, never the secret itself; C prints
 * {@code sum=<sum> count=<count>}.
 */
public final class SumApp {
    private SumApp() {}

    public static void main(String[] args) throws Exception {
        args = DFF.init(args);
        long count = Long.parseLong(args[0]);
        long failAt = args.length > 1 ? Long.parseLong(args[1]) : -1;
        long sleepMicros = args.length > 2 ? Long.parseLong(args[2]) : 0;
        DFF.group().ifPresent(g -> {
            System.out.println(g + " up");
            System.out.println(g + " secret: " + describeSecret(System.getenv("DFF_Secret")));
        });
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, count).boxed().iterator());
        Node<Long, Long> square = Node.of("square", (Long x) -> {
            if (x == failAt) {
                throw new IllegalStateException("square refuses " + x);
            }
            if (sleepMicros > 0) {
                try {
                    Thread.sleep(sleepMicros / 1000, (int) (sleepMicros % 1000) * 1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return x * x;
        });
        long[] sum = new long[2];
        Node<Long, Void> sink = Node.sink(x -> {
            sum[0] += x;
            sum[1]++;
        });
        Pipeline pipe = new Pipeline(source, square, sink);
        source.createGroup("A");
        square.createGroup("B");
        sink.createGroup("C");
        pipe.runAndWaitEnd();
        if (DFF.group().map("C"::equals).orElse(true)) {
            System.out.println("sum=" + sum[0] + " count=" + sum[1]);
        }
    }

    /** Enough to compare two secrets, nothing to recover one from. */
    private static String describeSecret(String secret) {
        if (secret == null) {
            return "none";
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
            return secret.length() + " chars, sha256 " + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }
}
