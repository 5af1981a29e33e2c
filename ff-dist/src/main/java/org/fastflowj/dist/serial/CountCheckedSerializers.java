package org.fastflowj.dist.serial;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.ArraysAsListSerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.PriorityQueueSerializer;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Replacements for the Kryo serializers that size a collection or array from a count read off the stream before
 * reading its elements (ArrayList/HashSet/HashMap capacity, {@code List.of}, arrays of objects). Each checks the count
 * against the bytes left in the item first (see {@link BoundedInput}); the wire format is Kryo's own.
 */
final class CountCheckedSerializers {
    private CountCheckedSerializers() {}

    static void requireCount(Input input, int count, String what) {
        ((BoundedInput) input).requireCount(count, what);
    }

    @SuppressWarnings("rawtypes")
    static final class Collections extends CollectionSerializer<Collection> {
        @Override
        protected Collection create(Kryo kryo, Input input, Class<? extends Collection> type, int size) {
            requireCount(input, size, type.getName());
            return super.create(kryo, input, type, size);
        }
    }

    @SuppressWarnings("rawtypes")
    static final class Maps extends MapSerializer<Map> {
        @Override
        protected Map create(Kryo kryo, Input input, Class<? extends Map> type, int size) {
            requireCount(input, size, type.getName());
            return super.create(kryo, input, type, size);
        }
    }

    static final class PriorityQueues extends PriorityQueueSerializer {
        @Override
        @SuppressWarnings("rawtypes")
        protected PriorityQueue create(Kryo kryo, Input input, Class<? extends PriorityQueue> type, int size) {
            requireCount(input, size, type.getName());
            return super.create(kryo, input, type, size);
        }
    }

    @SuppressWarnings("rawtypes")
    static final class ArraysAsLists extends ArraysAsListSerializer {
        @Override
        protected List create(Kryo kryo, Input input, Class type, int size) {
            requireCount(input, size, "Arrays.asList");
            return super.create(kryo, input, type, size);
        }
    }

    /** {@code List.of(...)}: read into a checked ArrayList, then copy into an immutable list. */
    static final class ImmutableLists extends CollectionSerializer<List<Object>> {
        ImmutableLists() {
            setElementsCanBeNull(false); // List.of refuses nulls anyway
        }

        @Override
        protected List<Object> create(Kryo kryo, Input input, Class<? extends List<Object>> type, int size) {
            requireCount(input, size, "List.of");
            return new ArrayList<>(size);
        }

        @Override
        public List<Object> read(Kryo kryo, Input input, Class<? extends List<Object>> type) {
            List<Object> elements = super.read(kryo, input, type);
            return elements == null ? null : List.of(elements.toArray());
        }

        @Override
        protected List<Object> createCopy(Kryo kryo, List<Object> original) {
            return new ArrayList<>(original.size());
        }

        @Override
        public List<Object> copy(Kryo kryo, List<Object> original) {
            return List.copyOf(super.copy(kryo, original));
        }
    }

    /**
     * Wraps a serializer whose format starts with "length + 1" as a positive varint (Kryo's arrays) and checks that
     * length before the delegate allocates.
     */
    static final class LengthFirst<T> extends Serializer<T> {
        private final Serializer<T> delegate;
        private final String what;

        LengthFirst(Serializer<T> delegate, String what) {
            super(delegate.getAcceptsNull(), delegate.isImmutable());
            this.delegate = delegate;
            this.what = what;
        }

        @Override
        public void write(Kryo kryo, Output output, T object) {
            delegate.write(kryo, output, object);
        }

        @Override
        public T read(Kryo kryo, Input input, Class<? extends T> type) {
            ((BoundedInput) input).checkLeadingLength(what);
            return delegate.read(kryo, input, type);
        }

        @Override
        public T copy(Kryo kryo, T original) {
            return delegate.copy(kryo, original);
        }
    }
}
