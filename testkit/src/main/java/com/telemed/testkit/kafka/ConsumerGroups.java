package com.telemed.testkit.kafka;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Who in a consumer group holds which partitions, as the broker's group coordinator says now (what a
 * test of several replicas waits for before it publishes, so that every replica is consuming), and
 * how far the group is behind a topic (what it waits for before it counts what the replicas did).
 */
public final class ConsumerGroups {

    private ConsumerGroups() {
    }

    /**
     * The partitions of {@code topic} each member of {@code group} is assigned, by member id (each
     * consumer of each replica is a member of its own); members holding none of {@code topic}'s
     * are left out. Empty while the group rebalances or has no member.
     */
    public static Map<String, Set<Integer>> assignment(String bootstrapServers, String group, String topic) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)
                    .get(30, TimeUnit.SECONDS);
            Map<String, Set<Integer>> held = new HashMap<>();
            for (MemberDescription member : description.members()) {
                Set<Integer> partitions = new TreeSet<>();
                for (TopicPartition partition : member.assignment().topicPartitions()) {
                    if (partition.topic().equals(topic)) {
                        partitions.add(partition.partition());
                    }
                }
                if (!partitions.isEmpty()) {
                    held.put(member.consumerId(), partitions);
                }
            }
            return held;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("group " + group + " not described", e);
        }
    }

    /**
     * How many records of {@code topic} the group has not committed yet: per partition, its end
     * offset less the group's committed offset (the whole partition when none is committed). Zero
     * once every record published so far was consumed and acknowledged, copies included, by
     * whichever replicas hold the partitions (the services commit every few seconds, throttled).
     */
    public static long lag(String bootstrapServers, String group, String topic) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            List<TopicPartition> partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(topic).partitions().stream().map(info -> new TopicPartition(topic, info.partition())).toList();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            partitions.forEach(partition -> latest.put(partition, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
            long lag = 0;
            for (TopicPartition partition : partitions) {
                OffsetAndMetadata offset = committed.get(partition);
                lag += ends.get(partition).offset() - (offset == null ? 0 : offset.offset());
            }
            return lag;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("offsets of group " + group + " on " + topic + " not read", e);
        }
    }
}
