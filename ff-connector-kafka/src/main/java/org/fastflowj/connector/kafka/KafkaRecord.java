package org.fastflowj.connector.kafka;

/**
 * One record read from Kafka, with where it was and its timestamp; take the event time from it with
 * {@code withTimestamps(KafkaRecord::timestamp, ...)}.
 *
 * @param topic the topic it was read from
 * @param partition its partition
 * @param offset its offset in the partition
 * @param timestamp its Kafka timestamp in milliseconds since the epoch (the producer's create time, or
 *     the broker's append time for a topic with {@code message.timestamp.type=LogAppendTime})
 * @param key its key, as the key deserializer made it ({@code null} for a record without one)
 * @param value its value, as the value deserializer made it
 * @param <K> the keys' type
 * @param <V> the values' type
 */
public record KafkaRecord<K, V>(String topic, int partition, long offset, long timestamp, K key, V value) {}
