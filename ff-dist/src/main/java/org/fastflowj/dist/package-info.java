/**
 * Distributed groups: the public API, the config model and the serializer SPI.
 *
 * <p>Serialization SPI: {@link org.fastflowj.dist.SerializationConfig} says which classes may cross groups (and fixes
 * their Kryo ids by registration order; {@link org.fastflowj.dist.SerializationConfig#fingerprint()} lets processes
 * check they agree); {@link org.fastflowj.dist.ItemSerializer} with {@link org.fastflowj.dist.WireOutput} /
 * {@link org.fastflowj.dist.WireInput} lets a user move a type with bulk copies instead of Kryo. No Netty type appears
 * here, so user code does not depend on the transport.
 *
 * <p>A group's news to the launcher (connected, losable and lost peers, failure origin, statistics) goes through
 * {@link org.fastflowj.dist.ControlLine}: numbered lines sealed with the group's own key ({@code DFF_ControlKey} in
 * the environment), which the launcher opens with a {@code ControlLine.Verifier}; every other line is output.
 */
package org.fastflowj.dist;
