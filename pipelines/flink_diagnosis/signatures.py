"""Weighted signatures of each root-cause category: exception classes and message phrases across Flink versions.

Phrases are written loosely (gaps of a few characters, common misspellings, akka and pekko, old and new
configuration keys, Chinese) because engineers paste truncated logs and retype messages into tickets.
"""

from __future__ import annotations

import re

CK = r"(?:checkpoint|checkpiont|chekpoint|checkpont|chkpt|ckpt|检查点)"
EXPIRED = r"(?:expired|expird|exipred|expried|expire|timed? ?out|timeout|timout|超时)"

RAW_SIGNATURES: dict[str, list[tuple[str, float]]] = {
    "checkpoint_timeout": [
        (CK + r"[^\n]{0,60}" + EXPIRED + r"[^\n]{0,20}before completing", 4.0),
        (CK + r"[^\n]{0,50}" + EXPIRED, 2.5),
        (r"checkpoint_expired|checkpoint expired", 3.0),
        (r"exceeded checkpoint tolerable failure threshold", 1.5),
        (r"execution\.checkpointing\.timeout|setcheckpointtimeout", 1.5),
    ],
    "checkpoint_failure_other": [
        (r"checkpointexception", 1.0),
        (r"declin(?:ed|e|ing)[^\n]{0,30}" + CK + r"|" + CK + r"[^\n]{0,30}declin|checkpoint_declined", 3.0),
        (r"failure to finali[sz]e checkpoint|finali[sz]e_checkpoint_failure", 3.5),
        (r"could not complete snapshot|asynchronous part of checkpoint|checkpoint_async_exception", 2.5),
        (r"failed to trigger checkpoint|trigger_checkpoint_failure|task[^\n]{0,40}not (?:yet )?(?:ready|running)", 2.0),
        (CK + r"[^\n]{0,30}(?:failed|failure|失败)", 1.5),
        (r"exceeded checkpoint tolerable failure threshold", 1.0),
    ],
    "oom_heap": [
        (r"java heap space|heap space", 4.5),
        (r"gc overhead limit exceeded", 4.5),
        (r"requested array size exceeds vm limit", 3.5),
        (r"outofmemoryerror|out of memory|\boom\b|内存溢出|内存不足", 1.5),
        (r"taskmanager\.memory\.task\.heap|heap\.size|-xmx", 1.5),
        (r"堆内存", 3.0),
    ],
    "oom_metaspace": [
        # JVM command lines name -XX:MaxMetaspaceSize in every container dump: that is not evidence.
        (r"(?<!max)metaspace", 5.0),
        (r"compressed class space", 4.0),
        (r"jvm-metaspace|maxmetaspacesize", 2.0),
    ],
    "oom_direct_or_network_memory": [
        (r"direct buffer memory|outofdirectmemoryerror|direct memory", 5.0),
        (r"failed to allocate[^\n]{0,60}(?:direct|off-?heap|native)", 3.0),
        (r"off-?heap[^\n]{0,40}(?:memory|outofmemory|exhaust)|堆外内存", 3.0),
        (r"netty[^\n]{0,80}(?:outofmemory|allocat)|pooledbytebufallocator", 2.0),
        (r"cannot allocate memory|unable to allocate[^\n]{0,30}native", 2.0),
        (r"framework\.off-heap|task\.off-heap", 2.0),
    ],
    "insufficient_network_buffers": [
        (r"insufficient number of network buffers", 6.0),
        (r"(?:not enough|insufficient|too few)[^\n]{0,30}(?:network )?buffers|network buffers?[^\n]{0,40}"
         r"(?:required|insufficient|not enough|exhausted)", 3.5),
        (r"taskmanager\.(?:memory\.)?network\.(?:fraction|min|max|memory)|taskmanager\.network\.memory|"
         r"network\.numberofbuffers|numberofbuffers", 2.5),
        (r"网络缓冲|network buffer", 2.0),
    ],
    "resource_unavailable_slots": [
        (r"noresourceavailableexception|no resource available", 5.0),
        (r"could not acquire the minimum required resources", 5.0),
        (r"slot request bulk is not fulfillable|could not (?:allocate|fulfill)[^\n]{0,40}slot", 4.0),
        (r"slot request[^\n]{0,30}(?:time ?out|timed out)|slot\.request\.timeout|pendingslotrequest", 3.0),
        (r"(?:not enough|insufficient|no)[^\n]{0,15}(?:free |available )?(?:task )?slots?\b|slots?[^\n]{0,10}不足|资源不足|槽位",
         3.0),
        (r"numberoftaskslots|resourcemanager[^\n]{0,60}(?:request|pending)|waiting for resources", 1.5),
    ],
    "taskmanager_lost_or_heartbeat_timeout": [
        (r"heartbeat[^\n]{0,80}(?:timed? ?out|timeout|expired)|心跳超时|心跳", 4.0),
        (r"(?:taskmanager|task manager|taskexecutor|\btm\b)[^\n]{0,80}(?:lost|disconnect|no longer reachable|"
         r"terminated|is shutting down|exited|挂|失联|丢失)", 3.0),
        (r"the taskexecutor is shutting down|taskexecutor[^\n]{0,40}(?:unregister|shut)", 3.0),
        (r"exit ?(?:code|status)[:= ]*137|exitcode=137|oomkilled|\bsigkill\b", 4.0),
        (r"container[^\n]{0,80}(?:killed|released|exited|marked as failed|preempted)|killing container|"
         r"running [^\n]{0,40}beyond (?:the )?'?(?:physical|virtual)'? memory|"
         r"killed by (?:the )?(?:yarn|kubernetes|oom|external)", 3.5),
        (r"pod[^\n]{0,60}(?:evicted|deleted|terminated|killed)", 3.0),
        (r"association with remote system[^\n]{0,80}failed|disassociated|dead ?letters?", 2.0),
        (r"heartbeat\.timeout|heartbeat\.interval", 1.5),
    ],
    "kafka_connector": [
        # Kafka classes in a trace name the component involved, not how it failed: they weigh less than phrases.
        (r"org\.apache\.kafka|kafka", 2.0),
        (r"flinkkafka(?:consumer|producer)|kafka(?:source|sink|writer|committer|fetcher|consumer|producer)", 1.5),
        (r"fetching topic metadata|not present in metadata|unknowntopicorpartition|leader not available", 3.0),
        (r"producerfenced|invalidtxnstate|transaction(?:al)?[^\n]{0,40}(?:timed out|timeout|abort)|"
         r"transaction\.(?:timeout|max\.timeout)\.ms|invalidpidmapping", 3.0),
        (r"offset(?:s)?[^\n]{0,20}out of range|nooffsetforpartition|committing offsets|commitfailedexception", 3.0),
        (r"bootstrap\.servers|\bbroker|consumer group|group\.id", 1.5),
        (r"records?[^\n]{0,40}expir|batch[^\n]{0,20}expired", 1.5),
    ],
    "serialization_kryo_or_pojo": [
        (r"kryo", 4.0),
        (r"pojo", 3.0),
        (r"could not (?:de)?seriali[sz]|(?:de)?seriali[sz]ation (?:failed|error|exception)|序列化", 2.5),
        (r"generic types? (?:have been |are )?disabled|pipeline\.generic-types|disablegenerictypes", 4.0),
        (r"notserializableexception|is not serializable|not serializable", 3.0),
        (r"invalidtypesexception|could not be determined automatically|type erasure|typeinformation|"
         r"typehint|returns\(", 3.0),
        (r"typeserializer|eofexception", 1.0),
    ],
    "class_not_found_or_dependency_conflict": [
        (r"classnotfoundexception|noclassdeffounderror|class not found|找不到类", 4.5),
        (r"nosuchmethoderror|nosuchfielderror|incompatibleclasschangeerror|abstractmethoderror", 4.5),
        (r"linkageerror|loader constraint violation|duplicate class definition", 4.5),
        (r"cannot be cast to[^\n]{0,200}(?:loader|classloader)|same class[^\n]{0,30}different class ?loader", 3.5),
        (r"classloader\.(?:resolve-order|parent-first-patterns)|child-first|parent-first", 2.5),
        (r"could not find any factor(?:y|ies) for identifier|could not find a suitable[^\n]{0,20}factory|"
         r"no factory (?:supports|found)|no factory", 3.5),
        (r"依赖冲突|jar ?包?冲突|dependency conflict|shad(?:ed|ing)|version conflict|classpath", 2.0),
        (r"cannot assign instance of", 4.0),
        (r"cannot instantiate user function", 2.0),
    ],
    "rocksdb_state_backend": [
        (r"rocksdb", 4.0),
        (r"state\.backend\.rocksdb|embeddedrocksdb|predefinedoptions|write ?buffer|block ?cache", 2.0),
        (r"compaction|\bsst\b|\.sst\b|memtable|write stall|stall", 1.5),
        (r"no space left on device|too many open files", 1.5),
    ],
    "state_schema_incompatible_or_restore": [
        (r"statemigrationexception|state migration", 5.0),
        (r"serializer[^\n]{0,80}(?:incompatible|not compatible|cannot be migrated)|incompatible[^\n]{0,30}serializer",
         3.5),
        (r"cannot map (?:checkpoint|savepoint)? ?state|allow-?non-?restored-?state|allownonrestoredstate", 5.0),
        (r"failed to rollback to (?:checkpoint|savepoint)|could not restore[^\n]{0,40}(?:savepoint|checkpoint)", 3.0),
        (r"max(?:imum)? ?parallelism[^\n]{0,120}(?:changed|mismatch|does not match|not compatible|differ|lower|"
         r"higher|larger|smaller)|maxparallelism", 3.5),
        (r"(?:restore|restoring|recover)[^\n]{0,40}(?:savepoint|checkpoint)[^\n]{0,60}(?:fail|error)|"
         r"savepoint[^\n]{0,30}(?:恢复|restore)|状态恢复|schema evolution|state schema", 2.5),
        (r"could not restore (?:keyed|operator) state backend", 1.5),
        (r"restor(?:e|ing) (?:the )?(?:heap|keyed|operator|rocksdb)? ?(?:state )?backend|backendbuildingexception", 2.5),
        (r"invalidclassexception|local class incompatible|serialversionuid", 3.0),
    ],
    "backpressure_or_buffer_timeout": [
        (r"back-? ?pressur|反压|背压", 4.5),
        (r"buffer pool is destroyed|localbufferpool|requestbufferbuilderblocking", 3.5),
        (r"alignment[^\n]{0,40}(?:time|timeout)|aligned-checkpoint-timeout|unaligned", 2.5),
        (r"execution\.buffer-timeout|buffer-?timeout|setbuffertimeout", 2.5),
        (r"(?:outpoolusage|inpoolusage|busytime|backpressuredtime|ishighbackpressure|idletimems)", 3.0),
        (r"watermark[^\n]{0,40}(?:stuck|stall|not advanc|lag|behind)|consumer lag|lag[^\n]{0,20}(?:grow|increas)|"
         r"throughput[^\n]{0,40}(?:drop|low|slow|decreas)", 2.0),
        (r"could not forward element to next operator", 1.0),
    ],
    "user_code_null_pointer_or_runtime": [
        (r"nullpointerexception|\bnpe\b|空指针", 4.5),
        (r"numberformatexception|datetimeparseexception|arithmeticexception|/ by zero", 4.0),
        (r"(?:arrayindex|stringindex)outofboundsexception|indexoutofboundsexception", 2.5),
        (r"jsonparseexception|jsonprocessingexception|mismatchedinputexception|unrecognizedpropertyexception|"
         r"jsonmappingexception|jsonexception", 3.0),
        (r"illegalargumentexception|illegalstateexception|unsupportedoperationexception|classcastexception|"
         r"nosuchelementexception|concurrentmodificationexception", 1.5),
        (r"\.(?:map|flatmap|process(?:element)?|filter|invoke|getkey|reduce|open|onevent|deserialize)\(", 0.5),
    ],
    "sql_planner_or_validation": [
        (r"sql validation failed|sqlvalidatorexception|sql parse failed|sqlparseexception|sqlparserexception", 5.0),
        (r"org\.apache\.flink\.table|validationexception|tableexception|org\.apache\.calcite|calcite", 2.5),
        (r"cannot generate a valid execution plan|doesn'?t support consuming (?:update|delete)|"
         r"(?:update|retract|changelog)[^\n]{0,20}(?:changes|stream)[^\n]{0,40}(?:not supported|doesn'?t support)", 4.0),
        (r"(?:column|field|table|object|function)[^\n]{0,60}(?:not found|does not exist|cannot be resolved)|"
         r"cannot find table|unknown identifier|no match found for function", 3.0),
        (r"from line \d+, column \d+|encountered \"[^\n]{0,40}\" at line|at line \d+, column \d+", 3.5),
        (r"codegenexception|generated code|grows beyond 64 ?kb|planner|\bselect\b[^\n]{0,80}\bfrom\b", 1.5),
        (r"flink ?sql|for system_time as of|temporal (?:table )?join|lookup join|window tvf|\bddl\b|sql 报错", 2.5),
    ],
    "configuration_error": [
        (r"illegalconfigurationexception|illegal configuration", 5.0),
        (r"could not parse value[^\n]{0,120}for key|invalid value[^\n]{0,40}for (?:key|option|config)", 4.5),
        (r"sum of configured[^\n]{0,120}exceeds|(?:exceeds|larger than) (?:the )?configured total|"
         r"either total process memory or total flink memory", 4.0),
        (r"(?:invalid|illegal|unknown|unsupported|unrecognized) (?:configuration|config|option|parameter)|"
         r"configoption|flink-conf\.yaml|config\.yaml|配置错误|参数错误|配置", 2.5),
        (r"(?:must be|needs to be|should be) (?:configured|set|positive|greater)|is not configured|not set", 1.5),
        (r"unknown restart strategy|could not instantiate[^\n]{0,40}(?:state backend|restart)|"
         r"invalid[^\n]{0,20}restart", 3.0),
    ],
    "filesystem_or_hdfs_s3": [
        (r"could not find a file system implementation for scheme|unsupportedfilesystemschemeexception", 5.0),
        (r"hdfs|namenode|datanode|dfsclient|org\.apache\.hadoop", 2.5),
        (r"\bs3a?\b|amazons3|aws|minio|\boss\b|\bgcs\b|gs://|abfs|wasb|\bcos\b", 2.5),
        (r"leaseexpiredexception|safemodeexception|safe ?mode|could only be (?:written|replicated)|"
         r"dsquotaexceeded|quota[^\n]{0,30}exceeded", 4.0),
        (r"could not flush and close the file system output stream|fsdataoutputstream|filesystem", 2.5),
        (r"filenotfoundexception|file does not exist|no such file|accessdenied|access denied|403 forbidden|"
         r"status code: 403|permission denied|slowdown|503 slow down", 2.0),
    ],
    "cdc_connector_binlog": [
        (r"binlog|bin-log|gtid", 4.5),
        (r"mysql-?cdc|postgres-?cdc|mysqlsource|debezium|flink-cdc|ververica\.cdc|flink\.cdc|\bcdc\b", 4.0),
        (r"replication slave|replication client|replication slot|wal_level|pgoutput|logical decoding|"
         r"publication", 4.0),
        (r"server[_-]?(?:id|uuid)|a slave with the same", 3.0),
        (r"schema isn'?t known|schema is not known|encountered change event|snapshot split|chunk split", 3.5),
        (r"no longer available on the server|purged|has been purged", 2.5),
        (r"server-?time-?zone|server time ?zone|the mysql server|mysql[^\n]{0,30}(?:binlog|replication)", 3.0),
    ],
    "network_connection_or_partition": [
        (r"remotetransportexception|localtransportexception|partitionconnectionexception", 4.5),
        (r"connection unexpectedly closed by remote task manager|lost connection to task ?manager|"
         r"remote task manager|sending the partition request", 4.5),
        (r"partitionnotfoundexception|partition[^\n]{0,60}not found|partition request", 4.0),
        (r"connection reset by peer|broken pipe|connection refused|no route to host|connectexception|"
         r"closedchannelexception|socket(?:timeout)?exception", 2.0),
        (r"netty|nettyshuffle|shuffle|网络|连接断开|connection[^\n]{0,20}(?:closed|reset|lost)", 1.5),
    ],
}

SIGNATURES: dict[str, list[tuple[re.Pattern[str], float]]] = {
    category: [(re.compile(pattern, re.IGNORECASE), weight) for pattern, weight in rules]
    for category, rules in RAW_SIGNATURES.items()
}


def signature_scores(text: str, deepest: str = "") -> dict[str, tuple[float, list[str]]]:
    """Each category's score and the phrases that earned it; a match in the deepest cause counts double."""
    scores: dict[str, tuple[float, list[str]]] = {}
    for category, rules in SIGNATURES.items():
        total, evidence = 0.0, []
        for pattern, weight in rules:
            match = pattern.search(text)
            if not match:
                continue
            total += weight * (2.0 if deepest and pattern.search(deepest) else 1.0)
            evidence.append(match.group(0).strip())
        if total:
            scores[category] = (total, evidence)
    return scores
