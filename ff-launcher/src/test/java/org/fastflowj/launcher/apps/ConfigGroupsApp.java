package org.fastflowj.launcher.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;

/**
 * A program whose groups come from its config: a pipeline of one stage per group of the config (a source,
 * stages adding one, a sink), stage i in the config's group i. The last group prints {@code total=<sum>}.
 * Argument after DFF's: {@code count}.
 */
public final class ConfigGroupsApp {
    private ConfigGroupsApp() {}

    public static void main(String[] args) throws Exception {
        args = DFF.init(args);
        long count = Long.parseLong(args[0]);
        List<GroupConfig> groups = DFF.config().map(DffConfig::groups).orElse(List.of());
        int stages = Math.max(2, groups.size());
        List<BuildingBlock> nodes = new ArrayList<>();
        nodes.add(Node.source(() -> LongStream.range(0, count).boxed().iterator()));
        for (int i = 1; i < stages - 1; i++) {
            nodes.add(Node.of("plus-one-" + i, (Long x) -> x + 1));
        }
        long[] total = new long[1];
        nodes.add(Node.sink((Long x) -> total[0] += x));
        Pipeline pipe = new Pipeline(nodes.toArray(BuildingBlock[]::new));
        for (int i = 0; i < groups.size(); i++) {
            nodes.get(i).createGroup(groups.get(i).name());
        }
        pipe.runAndWaitEnd();
        String last = groups.isEmpty() ? null : groups.get(groups.size() - 1).name();
        if (DFF.group().map(g -> g.equals(last)).orElse(true)) {
            System.out.println("total=" + total[0]);
        }
    }
}
