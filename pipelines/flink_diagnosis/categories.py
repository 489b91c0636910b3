"""The root-cause categories: a label, a default priority, what the cause usually is and the settings that fix it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Category:
    id: str
    label: str
    priority: str  # high | medium | low when nothing in the text says otherwise
    cause: str
    fix: str


UNKNOWN = "unknown"

CATEGORIES: dict[str, Category] = {c.id: c for c in (
    Category("checkpoint_timeout", "Checkpoint timeout", "high",
             "Checkpoints do not complete within execution.checkpointing.timeout, usually because barriers are "
             "held up by backpressure or because snapshots of large state upload too slowly.",
             "Find the slow subtask in the checkpoint UI (alignment vs. async duration). Raise "
             "`execution.checkpointing.timeout` (e.g. 10 min) and `execution.checkpointing.tolerable-failed-checkpoints`, "
             "enable unaligned checkpoints (`execution.checkpointing.unaligned.enabled: true`) when alignment dominates, "
             "and use incremental RocksDB checkpoints (`state.backend.incremental: true`) for large state."),
    Category("checkpoint_failure_other", "Checkpoint failure", "medium",
             "A checkpoint was declined or could not be finalized: a task was not running, an asynchronous snapshot "
             "failed, or the coordinator could not write the checkpoint metadata.",
             "Read the first `Caused by` of the declined checkpoint in the JobManager log. Make sure all tasks are "
             "RUNNING before checkpoints start (sources finished early need `execution.checkpointing.checkpoints-after-"
             "tasks-finish.enabled: true`), check `state.checkpoints.dir` is writable, and set "
             "`execution.checkpointing.tolerable-failed-checkpoints` so one bad checkpoint does not fail the job."),
    Category("oom_heap", "Heap out of memory", "high",
             "The TaskManager JVM heap is exhausted: large windows, unbounded keyed state on the heap backend, big "
             "collections in user functions or huge records.",
             "Raise `taskmanager.memory.task.heap.size` (or `taskmanager.memory.process.size`), move large state to "
             "RocksDB (`state.backend.type: rocksdb`), add state TTL, and take a heap dump "
             "(`env.java.opts.taskmanager: -XX:+HeapDumpOnOutOfMemoryError`) to find what holds memory."),
    Category("oom_metaspace", "Metaspace out of memory", "high",
             "JVM metaspace is full: user-code classes are loaded again on every restart or many connector classes "
             "are loaded, and the class loaders leak.",
             "Raise `taskmanager.memory.jvm-metaspace.size` (e.g. 512m), put connector and driver jars that leak "
             "class loaders in Flink's `lib/` instead of the job jar, close threads and static caches in `close()`, "
             "and limit restarts with a `restart-strategy` that backs off."),
    Category("oom_direct_or_network_memory", "Direct / off-heap memory exhausted", "high",
             "Off-heap memory ran out: direct buffers of Netty or connectors, or native allocations beyond the "
             "configured off-heap budget.",
             "Raise `taskmanager.memory.task.off-heap.size` and `taskmanager.memory.framework.off-heap.size` for "
             "connectors that use direct buffers, check `taskmanager.memory.network.fraction`, and look for "
             "libraries allocating direct memory without releasing it."),
    Category("insufficient_network_buffers", "Insufficient network buffers", "medium",
             "The network memory pool is smaller than the shuffle needs for this parallelism and slot count.",
             "Raise `taskmanager.memory.network.fraction` and `taskmanager.memory.network.max` (older versions: "
             "`taskmanager.network.memory.fraction`/`.max`), or lower parallelism or "
             "`taskmanager.network.memory.buffers-per-channel`/`floating-buffers-per-gate`."),
    Category("resource_unavailable_slots", "Slots / resources unavailable", "high",
             "The scheduler cannot get enough task slots: the cluster or queue has too few TaskManagers, or "
             "requested resources exceed what the resource manager can provide.",
             "Check free slots in the web UI; lower parallelism or add TaskManagers, raise "
             "`taskmanager.numberOfTaskSlots`, check YARN queue / Kubernetes quota, and raise "
             "`slot.request.timeout` when containers start slowly."),
    Category("taskmanager_lost_or_heartbeat_timeout", "TaskManager lost / heartbeat timeout", "high",
             "A TaskManager died or stopped answering heartbeats: its container was killed for using too much "
             "memory (exit code 137, OOMKilled), a long GC pause, or a node failure.",
             "Look at the lost TaskManager's own log and the container/pod exit reason. Give the process more room "
             "(`taskmanager.memory.process.size`, `taskmanager.memory.jvm-overhead.fraction`), reduce RocksDB "
             "memory beyond the managed budget, and raise `heartbeat.timeout` (e.g. 120000) for long GC pauses."),
    Category("kafka_connector", "Kafka connector", "high",
             "The Kafka connector cannot reach brokers, find the topic, commit offsets, or complete a transaction "
             "within the broker's limits.",
             "Check `bootstrap.servers`, the topic and the ACLs; for exactly-once sinks set "
             "`properties.transaction.timeout.ms` below the broker's `transaction.max.timeout.ms` and above the "
             "checkpoint interval; raise `properties.request.timeout.ms` / `properties.default.api.timeout.ms`; "
             "set a `scan.startup.mode` or `auto.offset.reset` for offsets that are out of range."),
    Category("serialization_kryo_or_pojo", "Serialization (Kryo / POJO)", "medium",
             "A type falls back to Kryo or is not a valid POJO, or a serializer cannot read or write a record.",
             "Make the type a proper POJO (public no-arg constructor, public fields or getters/setters) or give "
             "type information with `.returns(...)`/`TypeHint`; register custom serializers; set "
             "`pipeline.generic-types: false` to find Kryo fallbacks during development."),
    Category("class_not_found_or_dependency_conflict", "Class not found / dependency conflict", "medium",
             "A class is missing from the job's class path or two versions of a library clash between the job jar "
             "and Flink's `lib/`.",
             "Package the connector or library in the job jar (or `lib/`), shade conflicting dependencies, mark "
             "Flink's own dependencies `provided`, and adjust `classloader.resolve-order` or "
             "`classloader.parent-first-patterns.additional` for libraries that must be loaded once."),
    Category("rocksdb_state_backend", "RocksDB state backend", "high",
             "The RocksDB state backend failed: its local directory is full or slow, it hit open-file limits, or "
             "its native memory is not bounded by managed memory.",
             "Point `state.backend.rocksdb.localdir` at a large, fast disk, keep `state.backend.rocksdb.memory.managed: "
             "true`, tune `state.backend.rocksdb.predefined-options`, raise the open-files ulimit, and use "
             "incremental checkpoints."),
    Category("state_schema_incompatible_or_restore", "State schema / restore", "high",
             "The job cannot restore its checkpoint or savepoint: state serializers changed incompatibly, operator "
             "UIDs changed, or max parallelism differs.",
             "Keep operator `uid`s stable, evolve state types only in supported ways (POJO/Avro), keep "
             "`pipeline.max-parallelism` unchanged, and restore with `--allowNonRestoredState` only when dropping "
             "state is intended."),
    Category("backpressure_or_buffer_timeout", "Backpressure", "medium",
             "A slow operator or sink backpressures the pipeline: buffers stay full, checkpoints barriers wait and "
             "throughput drops.",
             "Find the first operator with high busy time in the web UI, scale it or its sink, enable unaligned "
             "checkpoints (`execution.checkpointing.unaligned.enabled`), tune `execution.buffer-timeout`, and use "
             "async I/O for external lookups."),
    Category("user_code_null_pointer_or_runtime", "User code error", "high",
             "User code threw at run time: a null field, a malformed record, or an unexpected value in a map, "
             "process or deserialization function.",
             "Fix the user function named in the first frame under the exception; validate and null-check input "
             "records, route bad records to a side output instead of failing, and set a `restart-strategy` with a "
             "failure-rate limit so poison records do not restart the job endlessly."),
    Category("sql_planner_or_validation", "SQL planner / validation", "medium",
             "The SQL statement does not validate or plan: a missing column or table, a type mismatch, or a sink that "
             "cannot consume the query's changelog.",
             "Fix the statement at the reported line and column, check the catalog and table DDL, and for update "
             "changes use an upsert sink (a PRIMARY KEY with `upsert-kafka` or JDBC) or rewrite the query."),
    Category("configuration_error", "Configuration error", "medium",
             "A configuration value is invalid or inconsistent, so the cluster or job cannot start.",
             "Correct the key named in the message in the Flink configuration file or `-D` options; memory options "
             "must add up (set only `taskmanager.memory.process.size` or `taskmanager.memory.flink.size`)."),
    Category("filesystem_or_hdfs_s3", "File system (HDFS / S3)", "high",
             "The job cannot read or write its file system: a missing file-system plugin, credentials or "
             "permissions, HDFS lease or safe-mode problems, or throttling of the object store.",
             "Copy the matching plugin (e.g. `flink-s3-fs-hadoop`) to `plugins/`, check credentials "
             "(`s3.access-key`/`s3.secret-key` or IAM role) and permissions on `state.checkpoints.dir`, and check "
             "the NameNode or object-store health."),
    Category("cdc_connector_binlog", "CDC connector / binlog", "high",
             "The CDC source cannot read the change log: the binlog position was purged, the user lacks "
             "replication privileges, server ids clash, or the schema history is missing.",
             "Keep binlogs longer (`binlog_expire_logs_seconds`), grant REPLICATION SLAVE, REPLICATION CLIENT, give "
             "each source a distinct `server-id` range, and restart from a fresh snapshot "
             "(`scan.startup.mode: initial`) when the offset is gone."),
    Category("network_connection_or_partition", "Network / partition", "medium",
             "Data exchange between TaskManagers broke: a remote TaskManager closed the connection or a result "
             "partition was not found, often after that TaskManager failed.",
             "Check whether the remote TaskManager died first (then treat that cause), raise "
             "`taskmanager.network.request-backoff.max` and `taskmanager.network.netty.client.connectTimeoutSec`, "
             "and check the network between the hosts."),
)}

CATEGORY_IDS: tuple[str, ...] = (*CATEGORIES, UNKNOWN)


def label(category: str) -> str:
    return CATEGORIES[category].label if category in CATEGORIES else "Unknown"
