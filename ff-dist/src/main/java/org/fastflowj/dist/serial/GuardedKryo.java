package org.fastflowj.dist.serial;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers;
import com.esotericsoftware.kryo.serializers.DefaultSerializers;
import com.esotericsoftware.kryo.serializers.ImmutableCollectionsSerializers;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import com.esotericsoftware.kryo.util.MapReferenceResolver;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.patterns.crossing.CrossingParameters;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * The Kryo every codec uses: unregistered classes allowed but filtered ({@link AdmittingClassResolver}), user
 * classes registered in config order, and the count-sizing serializers swapped for checked ones
 * ({@link CountCheckedSerializers}).
 *
 * <p>Every object an item builds is read through one of Kryo's five {@code read*} methods (the item itself, each
 * field of an object type, each element, map key and value, null or not), so counting their calls bounds what one
 * item may build: an empty {@code HashMap} is two bytes on the wire and about fifty on the heap, and the counts
 * checked against the item's bytes would let an 8 MB item build millions of them. Primitive arrays and strings
 * count one each; their lengths are bounded by the item's bytes ({@link BoundedInput}).
 */
final class GuardedKryo extends Kryo {
    /**
     * Allowed JDK classes common as items or inside them, registered before the application's classes so they
     * travel by a one-byte id instead of by name, which saves about a fifth of the cost of writing and reading
     * a small {@code byte[]} (NetThroughput's 8 B cells with Kryo). Their ids are part of the wire format: changing this
     * list means bumping {@code SerializationConfig}'s wire format version.
     */
    static final List<Class<?>> BUILT_IN_REGISTRATIONS = List.of(
            byte[].class,
            int[].class,
            long[].class,
            double[].class,
            float[].class,
            short[].class,
            char[].class,
            boolean[].class,
            Object[].class,
            String[].class,
            ArrayList.class,
            LinkedList.class,
            HashMap.class,
            LinkedHashMap.class,
            HashSet.class,
            LinkedHashSet.class,
            TreeMap.class,
            TreeSet.class,
            BigInteger.class,
            BigDecimal.class);

    private final int maxObjectsPerItem;

    /** Objects the item being read may still build: reset per item, one decrement per object. */
    private int objectsLeft;

    GuardedKryo(SerializationConfig config) {
        this(config, DffConfig.DEFAULT_MAX_OBJECTS_PER_ITEM);
    }

    GuardedKryo(SerializationConfig config, int maxObjectsPerItem) {
        this(config, maxObjectsPerItem, new CrossingParametersSerializer(new HeldValues(0), new CachedValues(0)));
    }

    /**
     * @param crossing how macro data-flow tasks' parameters cross this Kryo's link: its codec's, which
     *     outlives a Kryo renewed after a failure, so that the account of what the peer holds stays
     */
    GuardedKryo(SerializationConfig config, int maxObjectsPerItem, CrossingParametersSerializer crossing) {
        super(new AdmittingClassResolver(config), new MapReferenceResolver());
        this.maxObjectsPerItem = maxObjectsPerItem;
        this.objectsLeft = maxObjectsPerItem;
        setRegistrationRequired(false);
        setReferences(false); // items are trees in the common case; a graph with cycles needs references on
        // Class names of unregistered classes are written once per batch, not once per item: the codec resets at
        // every batch boundary, which sender and receiver both see (ItemCodec#startBatch). Resetting after every
        // item cost more than Kryo's own work for small items (the name "[B" and a table clear each time).
        setAutoReset(false);
        // No-arg constructor when there is one; otherwise Objenesis, which Collections.unmodifiableList and classes
        // without a no-arg constructor need.
        setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        for (Class<?> type : BUILT_IN_REGISTRATIONS) {
            register(type);
        }
        for (Class<?> type : config.registeredTypes()) {
            register(type);
        }
        // Not registered: it is a final class's field (a macro data-flow task's), written without its class.
        addDefaultSerializer(CrossingParameters.class, crossing);
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Serializer getDefaultSerializer(Class type) {
        Serializer unmodifiable = UnmodifiableWrapperSerializer.forType(type);
        if (unmodifiable != null) {
            return unmodifiable;
        }
        Serializer chosen = super.getDefaultSerializer(type);
        Class<?> kind = chosen.getClass();
        if (kind == CollectionSerializer.class) {
            return new CountCheckedSerializers.Collections();
        }
        if (kind == MapSerializer.class) {
            return new CountCheckedSerializers.Maps();
        }
        if (kind == DefaultSerializers.PriorityQueueSerializer.class) {
            return new CountCheckedSerializers.PriorityQueues();
        }
        if (kind == DefaultSerializers.ArraysAsListSerializer.class) {
            return new CountCheckedSerializers.ArraysAsLists();
        }
        if (kind == ImmutableCollectionsSerializers.JdkImmutableListSerializer.class) {
            return new CountCheckedSerializers.ImmutableLists();
        }
        if (kind == DefaultArraySerializers.ObjectArraySerializer.class
                || kind == DefaultArraySerializers.StringArraySerializer.class
                || kind == DefaultArraySerializers.BooleanArraySerializer.class) {
            return new CountCheckedSerializers.LengthFirst<>(chosen, type.getName());
        }
        return chosen;
    }

    /** Before reading an item: it may build {@code maxObjectsPerItem} objects. */
    void startItem() {
        objectsLeft = maxObjectsPerItem;
    }

    private void countObject() {
        if (--objectsLeft < 0) {
            throw tooManyObjects();
        }
    }

    private CorruptFrameException tooManyObjects() {
        return new CorruptFrameException("the item builds more than " + maxObjectsPerItem
                + " objects (maxObjectsPerItem of the receiving group's config)");
    }

    @Override
    public <T> T readObject(Input input, Class<T> type) {
        countObject();
        return super.readObject(input, type);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public <T> T readObject(Input input, Class<T> type, Serializer serializer) {
        countObject();
        return super.readObject(input, type, serializer);
    }

    @Override
    public <T> T readObjectOrNull(Input input, Class<T> type) {
        countObject();
        return super.readObjectOrNull(input, type);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public <T> T readObjectOrNull(Input input, Class<T> type, Serializer serializer) {
        countObject();
        return super.readObjectOrNull(input, type, serializer);
    }

    @Override
    public Object readClassAndObject(Input input) {
        countObject();
        return super.readClassAndObject(input);
    }
}
