package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.dist.ConfigException;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupsPrintedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Groups given by the config's {@code blocks} lists: the same groups as the equivalent createGroup and include
 * calls, and every mistake reported at its place in the config.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConfigGroupsTest {
    @TempDir
    Path dir;

    @AfterEach
    void reset() {
        DFF.reset();
    }

    /** A config of {@code groups}, each {@code name} with its {@code blocks} JSON, one group a line (line 3 on). */
    private static DffConfig config(String... groupsAndBlocks) {
        StringBuilder json = new StringBuilder("{\n  \"groups\": [\n");
        for (int i = 0; i < groupsAndBlocks.length; i += 2) {
            json.append("    {\"name\": \"")
                    .append(groupsAndBlocks[i])
                    .append("\", \"endpoint\": \"localhost:")
                    .append(9001 + i / 2)
                    .append("\", \"blocks\": ")
                    .append(groupsAndBlocks[i + 1])
                    .append('}')
                    .append(i + 2 < groupsAndBlocks.length ? ",\n" : "\n");
        }
        return DffConfig.parse(json.append("  ]\n}\n").toString(), "app.json");
    }

    /** The group of every thread of {@code root}'s graph, by thread name. */
    private static Map<String, String> groupsOf(BuildingBlock root) {
        Map<String, String> groups = new LinkedHashMap<>();
        for (Vertex v : GraphCompiler.compile(root).vertices()) {
            groups.put(v.name(), v.group());
        }
        return groups;
    }

    private static Node<Object, Object> stage(String name) {
        return Node.of((Object x) -> x).named(name);
    }

    private static Map<String, String> withCode(BuildingBlock root, Consumer<BuildingBlock> groupsInCode) {
        groupsInCode.accept(root);
        return groupsOf(root);
    }

    private static Map<String, String> withConfig(BuildingBlock root, DffConfig config) {
        ConfigGroups.place(root, config);
        return groupsOf(root);
    }

    private static Pipeline threeStages() {
        return new Pipeline(stage("source"), stage("square"), stage("sink"));
    }

    @Test
    void shouldGroupEachPipelineStageAsItsOwnCreateGroupDoes() {
        Map<String, String> inCode = withCode(threeStages(), root -> {
            List<BuildingBlock> stages = ((Pipeline) root).stages();
            stages.get(0).createGroup("A");
            stages.get(1).createGroup("B");
            stages.get(2).createGroup("C");
        });

        Map<String, String> inConfig =
                withConfig(threeStages(), config("A", "[\"source\"]", "B", "[\"square\"]", "C", "[\"sink\"]"));

        assertThat(inConfig).isEqualTo(inCode).containsEntry("square", "B");
    }

    @Test
    void shouldGroupSeveralStagesAsTheRootsGroupIncludingThemDoes() {
        Map<String, String> inCode = withCode(threeStages(), root -> {
            List<BuildingBlock> stages = ((Pipeline) root).stages();
            root.createGroup("A").include(stages.get(0)).include(stages.get(1));
            root.createGroup("B").include(stages.get(2));
        });

        Pipeline byConfig = threeStages();
        Map<String, String> inConfig = withConfig(byConfig, config("A", "[\"source\", \"square\"]", "B", "[\"sink\"]"));

        assertThat(inConfig).isEqualTo(inCode).containsEntry("square", "A").containsEntry("sink", "B");
        assertThat(byConfig.groups())
                .as("a one-stage group next to a group of several stages comes from the root too")
                .extracting(g -> g.name())
                .containsExactly("A", "B");
    }

    /** Fig. 5: a source, an all-to-all whose L- and R-Workers are split between two groups, a sink. */
    private static Pipeline fig5() {
        AllToAll a2a = new AllToAll()
                .firstSet(stage("L0"), stage("L1"))
                .secondSet(stage("R0"), stage("R1"), stage("R2"), stage("R3"))
                .named("a2a");
        return new Pipeline(stage("source"), a2a, stage("sink"));
    }

    @Test
    void shouldSplitAnAllToAllsWorkersAsFig5sCodeDoes() {
        Map<String, String> inCode = withCode(fig5(), root -> {
            List<BuildingBlock> stages = ((Pipeline) root).stages();
            AllToAll a2a = (AllToAll) stages.get(1);
            stages.get(0).createGroup("G1");
            a2a.createGroup("G2")
                    .include(a2a.firstSet().get(0))
                    .include(a2a.secondSet().get(0))
                    .include(a2a.secondSet().get(1));
            a2a.createGroup("G3")
                    .include(a2a.firstSet().get(1))
                    .include(a2a.secondSet().get(2))
                    .include(a2a.secondSet().get(3));
            stages.get(2).createGroup("G4");
        });

        Map<String, String> inConfig = withConfig(
                fig5(),
                config(
                        "G1", "[\"source\"]",
                        "G2", "[\"L0\", \"a2a.right[0-1]\"]",
                        "G3", "[\"a2a.left[1]\", \"R2\", \"R3\"]",
                        "G4", "[\"sink\"]"));

        assertThat(inConfig).isEqualTo(inCode).containsEntry("R1", "G2").containsEntry("L1", "G3");
    }

    private static Pipeline farmInPipeline() {
        Farm squares = Farm.of(4, () -> Node.of((Object x) -> x)).named("squares");
        return new Pipeline(stage("source"), squares, stage("sink"));
    }

    @Test
    void shouldMoveAFarmsWorkersByIndexRangeAsIncludingThemDoes() {
        Map<String, String> inCode = withCode(farmInPipeline(), root -> {
            List<BuildingBlock> stages = ((Pipeline) root).stages();
            Farm squares = (Farm) stages.get(1);
            root.createGroup("A").include(stages.get(0)).include(squares);
            squares.createGroup("B")
                    .include(squares.workers().get(2))
                    .include(squares.workers().get(3));
            root.createGroup("C").include(stages.get(2));
        });

        Map<String, String> inConfig = withConfig(
                farmInPipeline(),
                config("A", "[\"source\", \"squares\"]", "B", "[\"squares.workers[2-3]\"]", "C", "[\"sink\"]"));

        assertThat(inConfig).isEqualTo(inCode);
        assertThat(inConfig.values()).containsOnly("A", "B", "C");
        assertThat(inConfig).containsEntry("ff-squares-worker1", "A").containsEntry("ff-squares-worker3", "B");
    }

    @Test
    void shouldGiveARootFarmItsHomeGroupAndWorkerGroupsAsMasterWorkersCodeDoes() {
        Map<String, String> inCode =
                withCode(Farm.of(4, () -> Node.of((Object x) -> x)).named("mw"), root -> {
                    Farm farm = (Farm) root;
                    root.createGroup("G0");
                    farm.createGroup("G1")
                            .include(farm.workers().get(2))
                            .include(farm.workers().get(3));
                });

        Map<String, String> inConfig = withConfig(
                Farm.of(4, () -> Node.of((Object x) -> x)).named("mw"),
                config("G0", "[\"mw\"]", "G1", "[\"mw.workers[2-3]\"]"));

        assertThat(inConfig)
                .isEqualTo(inCode)
                .containsEntry("ff-mw-worker0", "G0")
                .containsEntry("ff-mw-worker2", "G1");
    }

    @Test
    void shouldKeepTheGroupsOfAnEarlierRunWithTheSameConfig() {
        Pipeline program = threeStages();
        DffConfig config = config("A", "[\"source\"]", "B", "[\"square\", \"sink\"]");
        ConfigGroups.place(program, config);

        ConfigGroups.place(program, config("A", "[\"source\"]", "B", "[\"square\", \"sink\"]"));

        assertThat(groupsOf(program)).containsEntry("source", "A").containsEntry("sink", "B");
    }

    @Test
    void shouldNameTheStringLineAndColumnOfABlockTheProgramDoesNotName() {
        DffConfig config = config("A", "[\"source\"]", "B", "[\"square\", \"snik\"]");

        assertThatThrownBy(() -> ConfigGroups.place(threeStages(), config))
                .isInstanceOf(ConfigException.class)
                .hasMessage("app.json:4:70: groups[1].blocks[1]: group 'B' lists \"snik\", but no block of the"
                        + " program is named 'snik'; expected a name given with .named(...): source, square, sink");
    }

    @Test
    void shouldRefuseANameTwoBlocksHave() {
        Pipeline program = new Pipeline(stage("source"), stage("work"), stage("work"));

        assertThatThrownBy(() -> ConfigGroups.place(program, config("A", "[\"source\"]", "B", "[\"work\"]")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("app.json:4:60: groups[1].blocks[0]: group 'B' lists \"work\", but 2 blocks of the"
                        + " program are named 'work' (stage 1 of the unnamed Pipeline(3 stages), stage 2 of the"
                        + " unnamed Pipeline(3 stages)); expected a name given to one block only: name each of"
                        + " them apart with .named(...)");
    }

    @Test
    void shouldRefuseAWorkerRangePastTheFarmsWorkers() {
        DffConfig config =
                config("A", "[\"source\", \"squares\"]", "B", "[\"squares.workers[2-4]\"]", "C", "[\"sink\"]");

        assertThatThrownBy(() -> ConfigGroups.place(farmInPipeline(), config))
                .isInstanceOf(ConfigException.class)
                .hasMessage("app.json:4:60: groups[1].blocks[0]: group 'B' lists \"squares.workers[2-4]\", but"
                        + " farm 'squares' has 4 workers (0-3); expected indexes within them");
    }

    @Test
    void shouldRefuseAPartTheBlockDoesNotHave() {
        DffConfig config = config("A", "[\"source\", \"squares\"]", "B", "[\"squares.left[0]\"]", "C", "[\"sink\"]");

        assertThatThrownBy(() -> ConfigGroups.place(farmInPipeline(), config))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("groups[1].blocks[0]: group 'B' lists \"squares.left[0]\", but farm 'squares'"
                        + " has no left; expected squares.workers[...]");
    }

    @Test
    void shouldRefuseGroupsInCodeNextToBlocksInTheConfig() {
        Pipeline program = threeStages();
        program.stages().get(0).createGroup("X");
        program.stages().get(1).createGroup("Y");

        assertThatThrownBy(() -> ConfigGroups.place(program, config("A", "[\"source\"]", "B", "[\"square\"]")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("app.json:3:49: groups[0].blocks: group 'A' lists its blocks, but the program also"
                        + " creates groups in code (X, Y); expected the groups in the config or in the code, not"
                        + " both: remove the blocks lists, or the createGroup calls");
    }

    @Test
    void shouldReportABrokenLayoutRuleAtTheBlocksOfTheGroupItNames() {
        Pipeline program = new Pipeline(stage("a"), stage("b"), stage("c"), stage("d"));
        DffConfig config = config("G1", "[\"a\", \"c\"]", "G2", "[\"b\", \"d\"]");

        Throwable thrown = catchThrowable(() -> ConfigGroups.place(program, config));

        assertThat(thrown)
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("app.json:3:50: groups[0].blocks: the groups as listed break a layout rule:"
                        + " group G1 takes stages 0 and 2 of Pipeline(4 stages) but not every stage between them:"
                        + " a group's pipeline stages must be contiguous")
                .hasCauseInstanceOf(GraphBuildException.class);
        assertThatThrownBy(() -> ConfigGroups.place(program, config))
                .as("run again, the same error")
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("must be contiguous");
    }

    @Test
    void shouldRefuseOneGroupWithChildrenOfTwoBlocks() {
        DffConfig config = config("G1", "[\"source\", \"a2a.left[0]\"]", "G2", "[\"a2a\", \"sink\"]");

        assertThatThrownBy(() -> ConfigGroups.place(fig5(), config))
                .isInstanceOf(ConfigException.class)
                .hasMessage("app.json:3:71: groups[0].blocks[1]: group 'G1' lists \"source\" (stage 0 of the unnamed"
                        + " Pipeline(3 stages)) and \"a2a.left[0]\" (L-Worker 0 of all-to-all 'a2a'): a group takes"
                        + " children of one block only, the block it is made from; expected blocks with the same"
                        + " parent, or a group for each");
    }

    @Test
    void shouldRefuseAConfigWhereOnlySomeGroupsListBlocks() {
        String json =
                """
                {
                  "groups": [
                    { "name": "A", "endpoint": "localhost:9001", "blocks": ["source"] },
                    { "name": "B", "endpoint": "localhost:9002" }
                  ]
                }
                """;

        assertThatThrownBy(() -> DffConfig.parse(json, "app.json"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(
                        "app.json:4:5: groups[1]: group 'B' has no \"blocks\", but group 'A' lists its blocks (at 3:50): give"
                                + " the blocks of every group in the config, or of none (the program then creates its"
                                + " groups in code)");
    }

    @Test
    void shouldRefuseAnEmptyBlocksList() {
        String json = "{\"groups\": [{\"name\": \"A\", \"endpoint\": \"localhost:9001\", \"blocks\": []}]}";

        assertThatThrownBy(() -> DffConfig.parse(json, "app.json"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("app.json:1:67: groups[0].blocks: expected at least one block name");
    }

    @Test
    void shouldPrintTheGroupsTheConfigMakesWhenTheProgramIsAskedItsGroups() throws Exception {
        Path file = dir.resolve("app.json");
        Files.writeString(
                file,
                """
                {"groups": [
                  {"name": "A", "endpoint": "localhost:9001", "blocks": ["source", "square"]},
                  {"name": "C", "endpoint": "localhost:9002", "blocks": ["sink"]}
                ]}
                """);
        Pipeline program = threeStages();
        Throwable[] thrown = new Throwable[1];

        DFF.Settings.fromArgs("--DFF_Config=" + file, DFF.PRINT_GROUPS_OPTION)
                .run(() -> thrown[0] = catchThrowable(program::runAndWaitEnd));

        assertThat(thrown[0]).isInstanceOf(GroupsPrintedException.class);
        assertThat(((GroupsPrintedException) thrown[0]).groups()).containsExactly("A", "C");
    }
}
