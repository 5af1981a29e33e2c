package org.fastflowj.dist;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

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
 * The groups may come from the config instead of the code: a config whose groups list the program's named
 * blocks ({@code "blocks": ["reader"]}, {@link GroupConfig#blocks()}) makes them when the tree starts, and the
 * program calls no {@code createGroup}.
 *
 * <p>With no group selected the program runs whole in one process on ff-core: no network, no
 * serialization. {@link #checkSerialization(boolean)} (or {@code -Dfastflowj.dist.checkSerialization=true})
 * sends every item of such a one-process run through the serializer, so a type that cannot cross groups
 * is found without a cluster.
 *
 * <p>Each run takes one {@link Settings} value when it starts: the one bound to the thread that starts it
 * ({@link Settings#bind()}, {@link Settings#run(Runnable)}), else this process's, which {@link #init}
 * makes from the program's arguments. So runs in one JVM can each have settings of their own (two groups
 * of a program, two programs with different configs), at the same time or one after the other. Every
 * static method here reads or changes the settings that the calling thread's runs would take: its bound
 * ones, else the process's.
 *
 * <p>Threading: call the static methods on the thread that starts the runs, before it starts them.
 */
public final class DFF {
    /** The group option, as in FastFlow ({@code --DFF_GName=G1} or {@code --DFF_GName G1}). */
    public static final String GROUP_OPTION = "--DFF_GName";
    /** The config option ({@code --DFF_Config=app.json}). */
    public static final String CONFIG_OPTION = "--DFF_Config";
    /**
     * Asks the program to print its groups instead of running: the first {@code run} prints one line,
     * {@code DFF_GROUPS: G1,G2,...} (the groups in graph order), runs nothing and throws {@link
     * GroupsPrintedException}, so that nothing after it runs either. The launcher's {@code check} uses it to
     * compare a program with its config.
     */
    public static final String PRINT_GROUPS_OPTION = "--DFF_PrintGroups";
    /**
     * Asks a group to report its statistics on stderr ({@link StatsLine}): one line every second while it
     * runs and one when it ends. The launcher's {@code run} gives it to every group it starts.
     */
    public static final String REPORT_OPTION = "--DFF_Report";
    /**
     * Asks a group to resume from checkpoint {@code n} of its checkpoint store instead of starting afresh
     * ({@code --DFF_Resume=n}; 0: none was complete, start afresh); the launcher sets {@link #RESUME_ENV}
     * instead when it restarts the groups after a failure, the same checkpoint for every group.
     */
    public static final String RESUME_OPTION = "--DFF_Resume";
    /** The environment variable form of {@link #RESUME_OPTION}: a checkpoint number. */
    public static final String RESUME_ENV = "DFF_Resume";
    /**
     * Tells a group the highest checkpoint number in its store ({@code --DFF_CheckpointsAfter=n}), so every
     * group numbers its new checkpoints after the same one; the launcher sets {@link #CHECKPOINTS_AFTER_ENV}.
     */
    public static final String CHECKPOINTS_AFTER_OPTION = "--DFF_CheckpointsAfter";
    /** The environment variable form of {@link #CHECKPOINTS_AFTER_OPTION}. */
    public static final String CHECKPOINTS_AFTER_ENV = "DFF_CheckpointsAfter";
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

    /** The settings of runs started on a thread with none bound: {@link #init}'s. */
    private static volatile Settings processSettings = Settings.none();
    /** A thread's own settings, while bound ({@link Settings#bind()}); they win over the process's. */
    private static final ThreadLocal<Settings> BOUND = new ThreadLocal<>();

    private static final StackWalker CALLER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private DFF() {}

    /**
     * Reads {@code --DFF_GName} and {@code --DFF_Config} (or the environment variables {@code DFF_GName}
     * and {@code DFF_Config}), {@code --DFF_Resume} and {@code --DFF_CheckpointsAfter} (or {@code DFF_Resume},
     * {@code DFF_CheckpointsAfter}), {@code --DFF_Report} and {@code --DFF_PrintGroups}, loads the config, and
     * returns the other arguments, in order. The settings it makes keep what the registration calls
     * registered before it, and allow the classes of the calling class's package to cross groups. On a
     * thread with settings bound it replaces those; otherwise the process's, and it also sets {@link
     * #GROUP_PROPERTY}.
     *
     * @throws IllegalArgumentException if only one of group and config is given, an option has no value, or
     *     a checkpoint number is none
     * @throws ConfigException if the config cannot be read or is invalid (naming file, line and column)
     */
    public static String[] init(String... args) {
        return init(args, System.getenv(), CALLER.getCallerClass().getPackageName());
    }

    static String[] init(String[] args, Map<String, String> env) {
        return init(args, env, null);
    }

    private static String[] init(String[] args, Map<String, String> env, String mainPackage) {
        Parsed parsed = Parsed.of(args, env);
        boolean ofTheProcess = update(current -> parsed.settings(current, mainPackage));
        String group = parsed.group();
        if (group != null) {
            if (ofTheProcess) {
                System.setProperty(GROUP_PROPERTY, group);
            }
            NettyDefaults.apply();
        }
        return parsed.rest().toArray(new String[0]);
    }

    /**
     * Applies {@code change} to the calling thread's bound settings, or else to the process's; whether
     * they were the process's.
     */
    private static boolean update(UnaryOperator<Settings> change) {
        Settings bound = BOUND.get();
        if (bound != null) {
            BOUND.set(change.apply(bound));
            return false;
        }
        synchronized (DFF.class) {
            processSettings = change.apply(processSettings);
        }
        return true;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** The group the calling thread's runs run, if one was selected. */
    public static Optional<String> group() {
        return Optional.ofNullable(settings().group());
    }

    /** The config of the calling thread's runs ({@link #init}'s), if any. */
    public static Optional<DffConfig> config() {
        return Optional.ofNullable(settings().config());
    }

    /**
     * Registers types that cross groups, in the same order in every process (the program does it, so they
     * agree): each costs a small id on the wire instead of its name, and is allowed to be deserialized. Classes
     * in the package of a node class of the graph, or of the class that called {@link #init}, are allowed
     * without it; registering them still saves their names on the wire.
     */
    public static void register(Class<?>... types) {
        update(s -> s.withRegistered(types));
    }

    /** Allows every class whose name starts with {@code packagePrefix} to be deserialized unregistered. */
    public static void allowPackage(String packagePrefix) {
        update(s -> s.withAllowedPackage(packagePrefix));
    }

    /** Uses {@code serializer} for items of exactly {@code type} instead of Kryo (zero-copy layouts). */
    public static <T> void serializer(Class<T> type, ItemSerializer<T> serializer) {
        update(s -> s.withSerializer(type, serializer));
    }

    /** Sends every item of a one-process run through the serializer (a test mode). */
    public static void checkSerialization(boolean on) {
        update(s -> s.withCheckSerialization(on));
    }

    /** The settings a run started on the calling thread takes: its bound ones, else the process's. */
    public static Settings settings() {
        Settings bound = BOUND.get();
        return bound != null ? bound : processSettings;
    }

    /** Whether {@link #PRINT_GROUPS_OPTION} was given to the calling thread's settings. */
    public static boolean printGroupsRequested() {
        return settings().printGroups();
    }

    /** Whether {@link #REPORT_OPTION} was given to the calling thread's settings. */
    public static boolean reportRequested() {
        return settings().report();
    }

    /** Where the calling thread's settings start the group's checkpoints. */
    public static CheckpointStart checkpointStart() {
        return settings().checkpointStart();
    }

    /**
     * Forgets everything {@link #init} and the registration calls set, the process's settings and the
     * calling thread's binding (tests).
     */
    public static void reset() {
        BOUND.remove();
        synchronized (DFF.class) {
            processSettings = Settings.none();
        }
        System.clearProperty(GROUP_PROPERTY);
    }

    /** The DFF options of a program's arguments, and the arguments that are the program's. */
    private record Parsed(
            String group,
            Path configFile,
            boolean report,
            boolean printGroups,
            CheckpointStart checkpointStart,
            List<String> rest) {
        static Parsed of(String[] args, Map<String, String> env) {
            List<String> rest = new ArrayList<>();
            String groupName = env.get("DFF_GName");
            String configFile = env.get("DFF_Config");
            long resumeFrom = number(RESUME_ENV, env.get(RESUME_ENV));
            long numberedAfter = number(CHECKPOINTS_AFTER_ENV, env.get(CHECKPOINTS_AFTER_ENV));
            boolean report = false;
            boolean printGroups = false;
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
                } else if (arg.equals(RESUME_OPTION) || arg.equals(CHECKPOINTS_AFTER_OPTION)) {
                    throw new IllegalArgumentException(arg + " needs a checkpoint number: " + arg + "=n");
                } else if (arg.startsWith(RESUME_OPTION + "=")) {
                    resumeFrom = number(RESUME_OPTION, arg.substring(RESUME_OPTION.length() + 1));
                } else if (arg.startsWith(CHECKPOINTS_AFTER_OPTION + "=")) {
                    numberedAfter =
                            number(CHECKPOINTS_AFTER_OPTION, arg.substring(CHECKPOINTS_AFTER_OPTION.length() + 1));
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
            return new Parsed(
                    groupName,
                    configFile == null ? null : Path.of(configFile),
                    report,
                    printGroups,
                    new CheckpointStart(resumeFrom, numberedAfter),
                    List.copyOf(rest));
        }

        /**
         * A checkpoint number's value (0 or more); unset or blank is -1. Any other value is refused rather
         * than ignored: a group that silently started afresh would redo what the checkpoint holds.
         */
        private static long number(String name, String value) {
            if (value == null || value.isBlank()) {
                return -1;
            }
            try {
                long n = Long.parseLong(value.strip());
                if (n >= 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // refused below
            }
            throw new IllegalArgumentException(
                    name + " is \"" + value + "\"; expected a checkpoint number, 0 or more (or leave it unset)");
        }

        /** The settings these options select, keeping {@code base}'s serialization; {@code mainPackage} may be null. */
        Settings settings(Settings base, String mainPackage) {
            DffConfig config = configFile == null ? null : DffConfig.load(configFile);
            SerializationConfig serialization = mainPackage == null
                    ? base.serialization()
                    : base.serialization().allowingProgramPackages(List.of(mainPackage));
            return new Settings(
                    group, config, serialization, base.checkSerialization(), report, printGroups, checkpointStart);
        }
    }

    /**
     * The distributed settings of a run: an immutable value, taken by a run when it starts. {@link #init}
     * makes the process's; {@link #fromArgs} or the constructor make one for runs of their own, started on
     * a thread they are bound to ({@link #bind()}, {@link #run(Runnable)}):
     *
     * <pre>
     *   DFF.Settings g1 = DFF.Settings.fromArgs("--DFF_GName=G1", "--DFF_Config=app.json")
     *           .withRegistered(Reading.class);
     *   g1.run(() -&gt; program().runAndWaitEnd()); // this thread's runs run group G1 of app.json
     * </pre>
     *
     * @param group the group to run, or null to run the whole program here
     * @param config the config, or null without a group
     * @param serialization what may cross groups and how
     * @param checkSerialization whether a one-process run sends its items through the serializer
     * @param report whether a group reports its statistics on stderr ({@link DFF#REPORT_OPTION})
     * @param printGroups whether a run prints the program's groups instead of running ({@link
     *     DFF#PRINT_GROUPS_OPTION})
     * @param checkpointStart where the group's checkpoints start ({@link DFF#RESUME_OPTION}, {@link
     *     DFF#CHECKPOINTS_AFTER_OPTION})
     */
    public record Settings(
            String group,
            DffConfig config,
            SerializationConfig serialization,
            boolean checkSerialization,
            boolean report,
            boolean printGroups,
            CheckpointStart checkpointStart) {
        /**
         * @throws IllegalArgumentException if a group is given without a config
         * @throws ConfigException if the config does not define the group
         */
        public Settings {
            Objects.requireNonNull(serialization, "serialization");
            Objects.requireNonNull(checkpointStart, "checkpointStart");
            if (group != null && config == null) {
                throw new IllegalArgumentException("group " + group + " is selected but no config is given");
            }
            if (group != null && config.group(group).isEmpty()) {
                throw new ConfigException(
                        config.source(),
                        0,
                        0,
                        "group '" + group + "' is not defined in the config (defined: " + groupNames(config) + ")");
            }
        }

        /** Settings that start afresh. */
        public Settings(
                String group,
                DffConfig config,
                SerializationConfig serialization,
                boolean checkSerialization,
                boolean report,
                boolean printGroups) {
            this(group, config, serialization, checkSerialization, report, printGroups, CheckpointStart.UNKNOWN);
        }

        /** Settings that neither report nor print the groups, and start afresh. */
        public Settings(String group, DffConfig config, SerializationConfig serialization, boolean checkSerialization) {
            this(group, config, serialization, checkSerialization, false, false, CheckpointStart.UNKNOWN);
        }

        /**
         * No group (the program runs whole), nothing registered; the serialization check as {@link
         * DFF#CHECK_PROPERTY} says.
         */
        public static Settings none() {
            return new Settings(null, null, SerializationConfig.defaults(), Boolean.getBoolean(CHECK_PROPERTY));
        }

        /**
         * The settings {@code args} select, as {@link DFF#init} reads them but from the arguments alone (the
         * environment variables are the process's): other arguments are ignored. The classes of the calling
         * class's package may cross groups.
         *
         * @throws IllegalArgumentException if only a group is given, or an option has no value
         * @throws ConfigException if the config cannot be read, is invalid, or does not define the group
         */
        public static Settings fromArgs(String... args) {
            return Parsed.of(args, Map.of())
                    .settings(none(), CALLER.getCallerClass().getPackageName());
        }

        static List<String> groupNames(DffConfig config) {
            return config.groups().stream().map(GroupConfig::name).toList();
        }

        /** These settings with {@code serialization} instead. */
        public Settings withSerialization(SerializationConfig serialization) {
            return new Settings(group, config, serialization, checkSerialization, report, printGroups, checkpointStart);
        }

        /** These settings with {@code types} registered after those registered already ({@link DFF#register}). */
        public Settings withRegistered(Class<?>... types) {
            return withSerializationBuilt(b -> b.register(types));
        }

        /** These settings, also allowing the classes of {@code packagePrefix} ({@link DFF#allowPackage}). */
        public Settings withAllowedPackage(String packagePrefix) {
            return withSerializationBuilt(b -> b.allowPackage(packagePrefix));
        }

        /** These settings, with {@code serializer} for items of exactly {@code type} ({@link DFF#serializer}). */
        public <T> Settings withSerializer(Class<T> type, ItemSerializer<T> serializer) {
            return withSerializationBuilt(b -> b.serializer(type, serializer));
        }

        /** These settings, with the serialization check of one-process runs on or off. */
        public Settings withCheckSerialization(boolean on) {
            return new Settings(group, config, serialization, on, report, printGroups, checkpointStart);
        }

        private Settings withSerializationBuilt(Consumer<SerializationConfig.Builder> change) {
            SerializationConfig.Builder builder = serialization.toBuilder();
            change.accept(builder);
            return withSerialization(builder.build().allowingProgramPackages(serialization.programPackages()));
        }

        /**
         * Makes these the settings of every run the calling thread starts until {@link Binding#close()}, and
         * the ones the static methods of {@link DFF} read and change there.
         */
        public Binding bind() {
            if (group != null) {
                NettyDefaults.apply();
            }
            Binding binding = new Binding(BOUND.get());
            BOUND.set(this);
            return binding;
        }

        /** Runs {@code program} on the calling thread with these settings bound ({@link #bind()}). */
        public void run(Runnable program) {
            Binding bound = bind();
            try {
                program.run();
            } finally {
                bound.close();
            }
        }
    }

    /** A thread's binding of its settings ({@link Settings#bind()}); closing it restores the ones before. */
    public static final class Binding implements AutoCloseable {
        private final Settings previous;
        private final Thread thread = Thread.currentThread();

        private Binding(Settings previous) {
            this.previous = previous;
        }

        /**
         * @throws IllegalStateException on another thread than the one that bound them
         */
        @Override
        public void close() {
            if (Thread.currentThread() != thread) {
                throw new IllegalStateException("settings bound on thread " + thread.getName() + " are closed on "
                        + Thread.currentThread().getName() + ": close them on the thread that bound them");
            }
            if (previous == null) {
                BOUND.remove();
            } else {
                BOUND.set(previous);
            }
        }
    }
}
