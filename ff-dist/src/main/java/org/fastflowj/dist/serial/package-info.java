/**
 * The serialization engine: {@link org.fastflowj.dist.serial.ItemCodec} turns items into bytes of a Netty buffer and
 * back.
 *
 * <p><b>One codec per thread.</b> Kryo instances, their class-name tables and the reused Kryo output/input buffers
 * are mutable; sharing them would need a lock on every item. Each sender and receiver thread owns a codec instead,
 * built from the one shared, immutable {@link org.fastflowj.dist.SerializationConfig}, so items are serialized on the
 * node's own thread with no coordination and no per-item allocation by the codec.
 *
 * <p><b>Why a class filter.</b> With registration off, a Kryo frame may name any class on the classpath and Kryo would
 * load and instantiate it: bytes from the network would choose what code runs (static initialisers, gadget
 * classes). The resolver refuses every class the config does not allow, by name, before loading it; the sender
 * refuses the same classes, so a missing registration shows in a one-process test. Lengths read from the stream are
 * checked against the bytes of the item before anything is allocated for them, so garbage cannot ask for gigabytes.
 *
 * <p><b>Wire layout of one item</b> (several items are simply concatenated in one buffer):
 *
 * <pre>
 * +---------+------------------------+----------------------------------------------+
 * | tag: u8 | length: int32, big-end | payload: length bytes                        |
 * +---------+------------------------+----------------------------------------------+
 *   tag 0      -> payload is Kryo's writeClassAndObject (class id, or name if unregistered, then fields)
 *   tag 1..254 -> payload is written by custom serializer #(tag-1) of the config, in registration order
 *   tag 255    -> payload is the bytes of a byte[] that has no custom serializer (the array's length is the length)
 * </pre>
 *
 * The length lets a receiver bound every read to the item and check that the item was consumed exactly.
 */
package org.fastflowj.dist.serial;
