package org.fastflowj.dist.serial;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * {@code Collections.unmodifiable*} views. Kryo's collection serializer would create the view empty (through
 * Objenesis) and then call {@code add}, which throws; and its private fields are closed to reflection on Java 17.
 * So the view travels as a plain copy of its contents (sorted ones keep their comparator) and is wrapped again on
 * arrival. The copy's concrete class may differ from the wrapped one's; equality and the view's kind are kept.
 */
final class UnmodifiableWrapperSerializer extends Serializer<Object> {
    private final Function<Object, Object> copy;
    private final Function<Object, Object> wrap;

    private UnmodifiableWrapperSerializer(Function<Object, Object> copy, Function<Object, Object> wrap) {
        super(false, true);
        this.copy = copy;
        this.wrap = wrap;
    }

    /** The serializer for {@code type} if it is one of the unmodifiable views, else null. */
    static UnmodifiableWrapperSerializer forType(Class<?> type) {
        if (!type.getName().startsWith("java.util.Collections$Unmodifiable")) {
            return null;
        }
        if (NavigableMap.class.isAssignableFrom(type)) {
            return of(
                    m -> new TreeMap<>((SortedMap<?, ?>) m),
                    m -> Collections.unmodifiableNavigableMap((NavigableMap<?, ?>) m));
        }
        if (SortedMap.class.isAssignableFrom(type)) {
            return of(
                    m -> new TreeMap<>((SortedMap<?, ?>) m),
                    m -> Collections.unmodifiableSortedMap((SortedMap<?, ?>) m));
        }
        if (Map.class.isAssignableFrom(type)) {
            return of(m -> new LinkedHashMap<>((Map<?, ?>) m), m -> Collections.unmodifiableMap((Map<?, ?>) m));
        }
        if (NavigableSet.class.isAssignableFrom(type)) {
            return of(
                    s -> new TreeSet<>((SortedSet<?>) s),
                    s -> Collections.unmodifiableNavigableSet((NavigableSet<?>) s));
        }
        if (SortedSet.class.isAssignableFrom(type)) {
            return of(s -> new TreeSet<>((SortedSet<?>) s), s -> Collections.unmodifiableSortedSet((SortedSet<?>) s));
        }
        if (Set.class.isAssignableFrom(type)) {
            return of(s -> new LinkedHashSet<>((Set<?>) s), s -> Collections.unmodifiableSet((Set<?>) s));
        }
        if (List.class.isAssignableFrom(type)) {
            return of(l -> new ArrayList<>((List<?>) l), l -> Collections.unmodifiableList((List<?>) l));
        }
        if (Collection.class.isAssignableFrom(type)) {
            return of(
                    c -> new ArrayList<>((Collection<?>) c),
                    c -> Collections.unmodifiableCollection((Collection<?>) c));
        }
        return null; // e.g. the entry set of an unmodifiable map: left to Kryo's defaults
    }

    private static UnmodifiableWrapperSerializer of(Function<Object, Object> copy, Function<Object, Object> wrap) {
        return new UnmodifiableWrapperSerializer(copy, wrap);
    }

    @Override
    public void write(Kryo kryo, Output output, Object view) {
        kryo.writeClassAndObject(output, copy.apply(view));
    }

    @Override
    public Object read(Kryo kryo, Input input, Class<? extends Object> type) {
        Object contents = kryo.readClassAndObject(input);
        try {
            return wrap.apply(contents);
        } catch (ClassCastException | NullPointerException e) {
            throw new CorruptFrameException("an unmodifiable " + type.getSimpleName() + " holds " + contents, e);
        }
    }
}
