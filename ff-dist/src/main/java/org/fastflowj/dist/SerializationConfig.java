package org.fastflowj.dist;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Which classes may cross groups and how: the same value must be built in every process of a program, because
 * registration order decides the class ids on the wire ({@link #fingerprint()} lets two processes check that).
 *
 * <p>Allowed without asking: primitives and their boxes, {@code String}, {@code Object} (for {@code Object[]}), everything in {@code java.util} (so
 * {@code ArrayList}, {@code HashMap}, {@code List.of}, {@code Collections.unmodifiableList}, ...),
 * {@code java.math.BigInteger}/{@code BigDecimal}, everything in {@code java.time}, arrays of allowed classes, and
 * the macro data-flow task and loop chunk FastFlow-J sends to a worker in another group, and ff-stream's record and
 * watermark carriers and window results (whose contents are checked as any item).
 * Also allowed: the classes of the program's own packages ({@link #allowingProgramPackages}: the run-time passes the
 * packages of the graph's node classes and of the main class, exactly, not their sub-packages). Any other class,
 * enums and records included, must be {@linkplain Builder#register registered}, live in an
 * {@linkplain Builder#allowPackage allowed package}, or have a {@linkplain Builder#serializer custom serializer}.
 * The most common built-ins (primitive arrays, {@code Object[]}, {@code String[]}, the usual {@code java.util} lists,
 * sets and maps, {@code BigInteger}, {@code BigDecimal}) are registered already, ahead of the application's classes:
 * they travel by id, not by name.
 *
 * <p>Threading: immutable, shareable between threads.
 */
public final class SerializationConfig {
    /** Bumped whenever the wire layout of an item changes, so that the fingerprint changes with it. */
    // 2: common JDK classes registered (GuardedKryo); 3: per-worker on-demand credits (TAKEN frames);
    // 4: ordered farms' per-task marks (TASK_DONE batch messages); 5: macro data-flow parameters as references
    private static final int WIRE_FORMAT_VERSION = 5;

    private static final Set<String> BUILT_IN_CLASSES = Set.of(
            "java.lang.Object", // stateless; Object[] is the usual tuple
            "java.lang.Boolean",
            "java.lang.Byte",
            "java.lang.Character",
            "java.lang.Short",
            "java.lang.Integer",
            "java.lang.Long",
            "java.lang.Float",
            "java.lang.Double",
            "java.lang.String",
            "java.math.BigInteger",
            "java.math.BigDecimal",
            // A macro data-flow task sent to a worker in another group: only its index, name, kernel and
            // parameters travel (values, write flags, identities), each value admitted on its own (the kernel
            // is the program's class).
            "org.fastflowj.patterns.MdfTask",
            "org.fastflowj.patterns.crossing.CrossingParameters",
            // A ParallelFor chunk as such a task's kernel: its body and identity are the program's classes.
            "org.fastflowj.patterns.LoopChunk",
            "org.fastflowj.patterns.LoopChunk$Kind",
            // ff-stream's carriers between stages in different groups: a record's value (checked as any item)
            // and event time, a join input's record with its side, a window's partial aggregate of one key, a
            // watermark, a tick or idle signal; and a window's result, whose key and value are checked alike.
            "org.fastflowj.stream.internal.Rec",
            "org.fastflowj.stream.internal.Tagged",
            "org.fastflowj.stream.internal.Partial",
            "org.fastflowj.stream.internal.Mark",
            "org.fastflowj.stream.internal.Signal",
            // A late record or dead letter on its way to its side sink: its value checked as any item, a dead
            // letter's error as strings (SideRecord writes it itself).
            "org.fastflowj.stream.internal.SideRecord",
            "org.fastflowj.stream.WindowResult");
    private static final Set<String> BUILT_IN_PACKAGES = Set.of("java.util", "java.time");

    private final List<Class<?>> registered;
    private final List<String> allowedPackages;
    private final Map<Class<?>, ItemSerializer<?>> serializers;
    private final Set<String> namedClasses;
    /** Packages allowed exactly (not their sub-packages): where the program's own classes live. */
    private final Set<String> programPackages;

    private final long fingerprint;

    private SerializationConfig(Builder builder) {
        this.registered = List.copyOf(builder.registered);
        this.allowedPackages = List.copyOf(builder.allowedPackages);
        this.serializers = Collections.unmodifiableMap(new LinkedHashMap<>(builder.serializers));
        List<String> names = new ArrayList<>();
        registered.forEach(type -> names.add(type.getName()));
        serializers.keySet().forEach(type -> names.add(type.getName()));
        this.namedClasses = Set.copyOf(names);
        this.programPackages = Set.of();
        this.fingerprint = computeFingerprint();
    }

    private SerializationConfig(SerializationConfig base, Set<String> programPackages) {
        this.registered = base.registered;
        this.allowedPackages = base.allowedPackages;
        this.serializers = base.serializers;
        this.namedClasses = base.namedClasses;
        this.programPackages = programPackages;
        this.fingerprint = base.fingerprint;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A config with nothing registered: only the built-in classes may cross groups. */
    public static SerializationConfig defaults() {
        return builder().build();
    }

    /**
     * A builder that starts with this config's registrations, allowed packages and serializers, in their
     * order, to add more to; the program's packages ({@link #programPackages}) are not a builder's.
     */
    Builder toBuilder() {
        Builder builder = new Builder();
        builder.registered.addAll(registered);
        builder.allowedPackages.addAll(allowedPackages);
        builder.serializers.putAll(serializers);
        return builder;
    }

    /** Classes registered with Kryo, in registration order (the order fixes their ids on the wire). */
    public List<Class<?>> registeredTypes() {
        return registered;
    }

    /** Package prefixes whose classes may cross groups unregistered. */
    public List<String> allowedPackages() {
        return allowedPackages;
    }

    /**
     * This config, also allowing every class of exactly these packages ({@code ""}: the unnamed package). They
     * hold the program's own classes, which come with the program, and both ends of a link run the same program
     * (the handshake compares the graph's fingerprint, node classes included), so a record next to the nodes
     * crosses without registration. Like {@link Builder#allowPackage} it changes what a receiver accepts, not
     * the encoding: the fingerprint stays.
     */
    public SerializationConfig allowingProgramPackages(Collection<String> packages) {
        if (packages.isEmpty()) {
            return this;
        }
        Set<String> all = new HashSet<>(programPackages);
        all.addAll(packages);
        return new SerializationConfig(this, Set.copyOf(all));
    }

    /** Packages whose classes (not those of sub-packages) may cross groups as the program's own. */
    public Set<String> programPackages() {
        return programPackages;
    }

    /** Custom serializers by exact item class, in the order given (the order fixes their index on the wire). */
    public Map<Class<?>, ItemSerializer<?>> serializers() {
        return serializers;
    }

    /**
     * Whether a class may cross groups, judged from its binary name alone ({@link Class#getName()} form, arrays as
     * {@code [Lcom.acme.Foo;} or {@code [I}), so that a receiver can refuse a class before loading it.
     */
    public boolean allowsClassName(String className) {
        String name = elementClassName(className);
        if (name == null) {
            return true; // an array of primitives
        }
        if (BUILT_IN_CLASSES.contains(name) || namedClasses.contains(name)) {
            return true;
        }
        int lastDot = name.lastIndexOf('.');
        String pkg = lastDot < 0 ? "" : name.substring(0, lastDot);
        if (BUILT_IN_PACKAGES.contains(pkg) || programPackages.contains(pkg)) {
            return true;
        }
        for (String prefix : allowedPackages) {
            if (name.startsWith(prefix) && name.length() > prefix.length() && name.charAt(prefix.length()) == '.') {
                return true;
            }
        }
        return false;
    }

    /** The element class name of an array class name, the name itself otherwise, null for primitive arrays. */
    static String elementClassName(String className) {
        int dims = 0;
        while (dims < className.length() && className.charAt(dims) == '[') {
            dims++;
        }
        if (dims == 0) {
            return className;
        }
        if (className.charAt(dims) == 'L' && className.endsWith(";")) {
            return className.substring(dims + 1, className.length() - 1);
        }
        return null;
    }

    /**
     * A stable 64-bit hash of what decides the wire layout: registered class names and custom serializer classes, in
     * order, plus the wire format version. Equal in two processes means they encode items alike. Allowed packages
     * are left out: they change what a receiver accepts, not how items are encoded.
     */
    public long fingerprint() {
        return fingerprint;
    }

    private long computeFingerprint() {
        StringBuilder canonical = new StringBuilder("ff-dist-wire/").append(WIRE_FORMAT_VERSION);
        canonical.append("|registered");
        registered.forEach(type -> canonical.append('|').append(type.getName()));
        canonical.append("|custom");
        serializers.forEach((type, serializer) -> canonical
                .append('|')
                .append(type.getName())
                .append('=')
                .append(serializer.getClass().getName()));
        return fnv1a64(canonical.toString().getBytes(StandardCharsets.UTF_8));
    }

    // FNV-1a: simple, fixed by its definition, so every JVM computes the same value.
    private static long fnv1a64(byte[] bytes) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    @Override
    public String toString() {
        return "SerializationConfig[registered=" + registered.size() + ", allowedPackages=" + allowedPackages
                + ", programPackages=" + programPackages + ", serializers=" + serializers.size() + ", fingerprint="
                + Long.toHexString(fingerprint) + "]";
    }

    /**
     * Fluent builder of a {@link SerializationConfig}.
     *
     * <p>Threading: not thread-safe; build on one thread, then share the built config.
     */
    public static final class Builder {
        /** The tag byte on the wire leaves 254 values for custom serializers (0 is Kryo's, 255 a plain byte[]'s). */
        static final int MAX_SERIALIZERS = 254;

        private final List<Class<?>> registered = new ArrayList<>();
        private final List<String> allowedPackages = new ArrayList<>();
        private final Map<Class<?>, ItemSerializer<?>> serializers = new LinkedHashMap<>();

        private Builder() {}

        /** Registers classes with Kryo in this order; both ends must register the same list in the same order. */
        public Builder register(Class<?>... types) {
            for (Class<?> type : types) {
                Objects.requireNonNull(type, "type");
                if (type.isPrimitive()) {
                    throw new IllegalArgumentException("primitive " + type + " is always allowed; do not register it");
                }
                if (registered.contains(type)) {
                    throw new IllegalArgumentException(type.getName() + " is registered twice");
                }
                registered.add(type);
            }
            return this;
        }

        /** Lets classes in {@code prefix} and its sub-packages cross groups unregistered (written by name). */
        public Builder allowPackage(String prefix) {
            Objects.requireNonNull(prefix, "prefix");
            String trimmed = prefix.endsWith(".") ? prefix.substring(0, prefix.length() - 1) : prefix;
            if (trimmed.isEmpty()) {
                throw new IllegalArgumentException("allowing the empty package would allow every class");
            }
            allowedPackages.add(trimmed);
            return this;
        }

        /** Serializes exactly {@code type} (not its subclasses) with {@code serializer} instead of Kryo. */
        public <T> Builder serializer(Class<T> type, ItemSerializer<T> serializer) {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(serializer, "serializer");
            if (serializers.containsKey(type)) {
                throw new IllegalArgumentException(type.getName() + " has two custom serializers");
            }
            if (serializers.size() == MAX_SERIALIZERS) {
                throw new IllegalStateException("at most " + MAX_SERIALIZERS + " custom serializers");
            }
            serializers.put(type, serializer);
            return this;
        }

        public SerializationConfig build() {
            return new SerializationConfig(this);
        }
    }
}
