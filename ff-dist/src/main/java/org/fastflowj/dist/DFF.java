package org.fastflowj.dist;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The distributed run-time's entry point, FastFlow's {@code DFF_Init}: which group this process runs,
 * from which config, and what may cross groups.
 *
 * <pre>
 *   public static void main(String[] args) {
 *       args = DFF.init(args);                  // --DFF_GName=G2 --DFF_Config=app.json (or the env)
 *       ... build the tree, createGroup / include ...
 *       pipe.runAndWaitEnd();                   // runs group G2 only, or everything without a group
 *   }
 * </pre>
 *
 * With no group selected the program runs whole in one process on ff-core: no network, no
 * serialization. {@link #checkSerialization(boolean)} (or {@code -Dfastflowj.dist.checkSerialization=true})
 * sends every item of such a one-process run through the serializer, so a type that cannot cross groups
 * is found without a cluster.
 *
 * <p>Threading: call everything here from the main thread before the run starts.
 */
public final class DFF {
    /** The group option, as in FastFlow ({@code --DFF_GName=G1} or {@code --DFF_GName G1}). */
    public static final String GROUP_OPTION = "--DFF_GName";
    /** The config option ({@code --DFF_Config=app.json}). */
    public static final String CONFIG_OPTION = "--DFF_Config";
    /**
     * Asks the program to print its groups instead of running: the first {@code run} prints one line,
     * {@code DFF_GROUPS: G1,G2,...} (the groups in graph order), and the process exits 0. The launcher's
     * {@code check} uses it to compare a program with its config.
     */
    public static final String PRINT_GROUPS_OPTION = "--DFF_PrintGroups";
    /**
     * Asks a group to report its statistics on stderr ({@link StatsLine}): one line every second while it
     * runs and one when it ends. The launcher's {@code run} gives it to every group it starts.
     */
    public static final String REPORT_OPTION = "--DFF_Report";
    /**
     * The environment variable that carries the launcher's per-run secret to each group (UTF-8). A group
     * uses it when its config names no {@code secretFile}/{@code secretEnv}; the config's own secret wins.
     */
    public static final String SECRET_ENV = "DFF_Secret";
    /**
     * The system property that seals every frame with a MAC also between loopback addresses (when there
     * is a secret and no TLS): for tests and benchmarks of the MAC's cost.
     */
    public static final String SEAL_LOOPBACK_PROPERTY = "fastflowj.dist.sealFramesOnLoopback";
    /** The system property that turns the serialization check on for one-process runs. */
    public static final String CHECK_PROPERTY = "fastflowj.dist.checkSerialization";
    /**
     * The system property {@link #init} sets to the selected group's name, so that a log pattern can put
     * the group in every line (logback's {@code %property{fastflowj.group}}) without a dependency of
     * ff-dist on a logging back-end. Unset when the program runs whole.
     */
    public static final String GROUP_PROPERTY = "fastflowj.group";

    private static volatile String group;
    private static volatile DffConfig config;
    private static volatile SerializationConfig.Builder serialization = SerializationConfig.builder();
    private static volatile boolean checkSerialization = Boolean.getBoolean(CHECK_PROPERTY);
    private static volatile boolean printGroups;
    private static volatile boolean report;
    /** The package of the class that called {@link #init}: the program's main class, whose classes may cross. */
    private static volatile String mainPackage;

    private static final StackWalker CALLER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private DFF() {}

    /**
     * Reads {@code --DFF_GName} and {@code --DFF_Config} (or the environment variables {@code DFF_GName}
     * and {@code DFF_Config}), loads the config, and returns the other arguments, in order.
     *
     * @throws IllegalArgumentException if only one of group and config is given, or an option has no value
     * @throws ConfigException if the config cannot be read or is invalid (naming file, line and column)
     */
    public static String[] init(String... args) {
        mainPackage = CALLER.getCallerClass().getPackageName();
        return init(args, System.getenv());
    }

    static String[] init(String[] args, Map<String, String> env) {
        List<String> rest = new ArrayList<>();
        String groupName = env.get("DFF_GName");
        String configFile = env.get("DFF_Config");
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals(GROUP_OPTION) || arg.equals(CONFIG_OPTION)) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(arg + " needs a value");
                }
                String value = args[++i];
                if (arg.equals(GROUP_OPTION)) {
                    groupName = value;
                } else {
                    configFile = value;
                }
            } else if (arg.equals(PRINT_GROUPS_OPTION)) {
                printGroups = true;
            } else if (arg.equals(REPORT_OPTION)) {
                report = true;
            } else if (arg.startsWith(GROUP_OPTION + "=")) {
                groupName = arg.substring(GROUP_OPTION.length() + 1);
            } else if (arg.startsWith(CONFIG_OPTION + "=")) {
                configFile = arg.substring(CONFIG_OPTION.length() + 1);
            } else {
                rest.add(arg);
            }
        }
        groupName = blankToNull(groupName);
        configFile = blankToNull(configFile);
        if (groupName != null && configFile == null) {
            throw new IllegalArgumentException("group " + groupName + " is selected (" + GROUP_OPTION
                    + ") but no config is given: add " + CONFIG_OPTION + "=app.json (or set DFF_Config)");
        }
        config = configFile == null ? null : DffConfig.load(Path.of(configFile));
        if (groupName != null && config.group(groupName).isEmpty()) {
            throw new ConfigException(
                    config.source(),
                    0,
                    0,
                    "group '" + groupName + "' (" + GROUP_OPTION
                            + ") is not defined in the config (defined: "
                            + config.groups().stream().map(GroupConfig::name).toList() + ")");
        }
        group = groupName;
        if (groupName != null) {
            System.setProperty(GROUP_PROPERTY, groupName);
            NettyDefaults.apply();
        }
        return rest.toArray(new String[0]);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** The group this process runs, if one was selected. */
    public static Optional<String> group() {
        return Optional.ofNullable(group);
    }

    /** The config given to {@link #init}, if any. */
    public static Optional<DffConfig> config() {
        return Optional.ofNullable(config);
    }

    /**
     * Registers types that cross groups, in the same order in every process (the program does it, so they
     * agree): each costs a small id on the wire instead of its name, and is allowed to be deserialized. Classes
     * in the package of a node class of the graph, or of the class that called {@link #init}, are allowed
     * without it; registering them still saves their names on the wire.
     */
    public static void register(Class<?>... types) {
        serialization.register(types);
    }

    /** Allows every class whose name starts with {@code packagePrefix} to be deserialized unregistered. */
    public static void allowPackage(String packagePrefix) {
        serialization.allowPackage(packagePrefix);
    }

    /** Uses {@code serializer} for items of exactly {@code type} instead of Kryo (zero-copy layouts). */
    public static <T> void serializer(Class<T> type, ItemSerializer<T> serializer) {
        serialization.serializer(type, serializer);
    }

    /** Sends every item of a one-process run through the serializer (a test mode). */
    public static void checkSerialization(boolean on) {
        checkSerialization = on;
    }

    /** What {@link #init} and the registration calls set, for the run-time. */
    public static Settings settings() {
        String main = mainPackage;
        SerializationConfig built = serialization.build();
        return new Settings(
                group, config, main == null ? built : built.allowingProgramPackages(List.of(main)), checkSerialization);
    }

    /** Whether {@link #PRINT_GROUPS_OPTION} was given. */
    public static boolean printGroupsRequested() {
        return printGroups;
    }

    /** Whether {@link #REPORT_OPTION} was given. */
    public static boolean reportRequested() {
        return report;
    }

    /** Forgets everything {@link #init} and the registration calls set (tests). */
    public static void reset() {
        group = null;
        config = null;
        serialization = SerializationConfig.builder();
        checkSerialization = Boolean.getBoolean(CHECK_PROPERTY);
        printGroups = false;
        report = false;
        System.clearProperty(GROUP_PROPERTY);
        mainPackage = null;
    }

    /**
     * One process's distributed settings.
     *
     * @param group the group to run, or null to run the whole program here
     * @param config the config, or null without a group
     * @param serialization what may cross groups and how
     * @param checkSerialization whether a one-process run sends its items through the serializer
     */
    public record Settings(
            String group, DffConfig config, SerializationConfig serialization, boolean checkSerialization) {}
}
