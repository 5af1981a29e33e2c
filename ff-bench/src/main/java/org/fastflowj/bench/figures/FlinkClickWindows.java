package org.fastflowj.bench.figures;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.reader.TextLineInputFormat;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;

/**
 * ff-examples' {@code clickwindows} job written for Apache Flink (DataStream API, local MiniCluster,
 * streaming mode): clicks {@code ts,user,url} from a file, event time with 2 s of bounded disorder,
 * counted per user in tumbling 10 s windows, written as {@code windowStart,user,count} lines. The same
 * input gives the same lines as the FF-J job (in another order); compare them sorted.
 *
 * <pre>{@code java -cp ff-bench/target/benchmarks.jar org.fastflowj.bench.figures.FlinkClickWindows INPUT P OUTPUT}</pre>
 */
public final class FlinkClickWindows {
    private FlinkClickWindows() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: FlinkClickWindows INPUT PARALLELISM OUTPUT");
            System.exit(2);
        }
        Path input = Path.of(args[0]);
        int parallelism = Integer.parseInt(args[1]);
        Path output = Path.of(args[2]);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        FileSource<String> file = FileSource.forRecordStreamFormat(
                        new TextLineInputFormat(), new org.apache.flink.core.fs.Path(input.toUri()))
                .build();
        WatermarkStrategy<Tuple2<Long, String>> time = WatermarkStrategy.<Tuple2<Long, String>>forBoundedOutOfOrderness(
                        Duration.ofSeconds(2))
                .withTimestampAssigner((click, previous) -> click.f0);
        CloseableIterator<String> lines = env.fromSource(file, WatermarkStrategy.noWatermarks(), "read")
                .flatMap((String line, Collector<Tuple2<Long, String>> out) -> {
                    // The parse of ff-examples' ClickWindows.Click, so both jobs do the same work per line.
                    int afterTs = line.indexOf(',');
                    int afterUser = afterTs < 0 ? -1 : line.indexOf(',', afterTs + 1);
                    if (afterUser >= 0) {
                        out.collect(Tuple2.of(
                                Long.parseLong(line, 0, afterTs, 10), line.substring(afterTs + 1, afterUser)));
                    }
                })
                .returns(Types.TUPLE(Types.LONG, Types.STRING))
                .assignTimestampsAndWatermarks(time)
                .keyBy(click -> click.f1)
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                .aggregate(new Counting(), new Format())
                .collectAsync();
        env.executeAsync("clickwindows");
        try (lines;
                BufferedWriter w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
            while (lines.hasNext()) {
                w.write(lines.next());
                w.write('\n');
            }
        }
    }

    static final class Counting implements AggregateFunction<Tuple2<Long, String>, Long, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(Tuple2<Long, String> click, Long count) {
            return count + 1;
        }

        @Override
        public Long getResult(Long count) {
            return count;
        }

        @Override
        public Long merge(Long a, Long b) {
            return a + b;
        }
    }

    static final class Format extends ProcessWindowFunction<Long, String, String, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(String user, Context context, Iterable<Long> counts, Collector<String> out) {
            for (Long count : counts) {
                out.collect(context.window().getStart() + "," + user + "," + count);
            }
        }
    }
}
