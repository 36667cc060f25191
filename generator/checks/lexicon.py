"""Technical terms a reported claim may name only when its record does.

Two sources beside the database's own techniques and stack: a list of common engineering
terms and products, and the noun phrase after a word that introduces a tool or a place
("using a bloom filter", "built on Snowflake", "kept in a graph database").
"""

from __future__ import annotations

import re

from generator.checks.text import STOP, WORD, stems

TECH_TERMS = (
    # storage, data and messaging
    "bloom filter",
    "consistent hashing",
    "hash ring",
    "b-tree",
    "lsm tree",
    "skip list",
    "write-ahead log",
    "event log",
    "append-only log",
    "event sourcing",
    "change data capture",
    "feature store",
    "vector database",
    "graph database",
    "key-value store",
    "document store",
    "columnar store",
    "column store",
    "object storage",
    "data lake",
    "data warehouse",
    "lakehouse",
    "message queue",
    "message broker",
    "pub/sub",
    "dead-letter queue",
    "two-phase commit",
    "raft",
    "paxos",
    "gossip protocol",
    "leader election",
    "quorum reads",
    "read replicas",
    "materialized view",
    "materialised view",
    "secondary index",
    "inverted index",
    "sharding",
    "partitioning",
    "denormalization",
    "denormalisation",
    "compaction",
    "erasure coding",
    "deduplication",
    # compute, networking and operations
    "kubernetes",
    "service mesh",
    "sidecar",
    "serverless",
    "autoscaling",
    "auto-scaling",
    "load balancer",
    "rate limiter",
    "rate limiting",
    "circuit breaker",
    "blue-green deployment",
    "canary release",
    "canary deployment",
    "feature flags",
    "chaos engineering",
    "infrastructure as code",
    "container orchestration",
    "virtual machines",
    "bare metal",
    "edge computing",
    "cdn",
    "content delivery network",
    "grpc",
    "graphql",
    "websockets",
    "rdma",
    "infiniband",
    "nvlink",
    "fpga",
    "fpgas",
    "asic",
    "asics",
    "webassembly",
    "ebpf",
    "jit compilation",
    "garbage collection",
    "memoization",
    "memoisation",
    "connection pooling",
    "backpressure",
    "exponential backoff",
    "idempotency keys",
    "observability",
    "distributed tracing",
    # machine learning
    "vector quantization",
    "vector quantisation",
    "quantization",
    "quantisation",
    "pruning",
    "mixture of experts",
    "mixture-of-experts",
    "speculative decoding",
    "flash attention",
    "lora",
    "fine-tuning",
    "reinforcement learning",
    "federated learning",
    "transfer learning",
    "contrastive learning",
    "active learning",
    "few-shot learning",
    "retrieval-augmented generation",
    "knowledge graph",
    "transformer",
    "transformers",
    "diffusion model",
    "random forest",
    "gradient boosting",
    "xgboost",
    "lightgbm",
    "logistic regression",
    "neural network",
    "recurrent neural network",
    "convolutional neural network",
    "autoencoder",
    "word2vec",
    "bert",
    "embedding cache",
    "approximate nearest neighbor",
    "approximate nearest neighbour",
    "hnsw",
    "faiss",
    "mixed precision",
    "pipeline parallelism",
    "tensor parallelism",
    "data parallelism",
    "gradient checkpointing",
    "model distillation",
    # products and frameworks
    "apache spark",
    "spark",
    "hadoop",
    "hive",
    "presto",
    "trino",
    "clickhouse",
    "druid",
    "pinot",
    "snowflake",
    "bigquery",
    "redshift",
    "databricks",
    "dynamodb",
    "bigtable",
    "spanner",
    "cockroachdb",
    "mongodb",
    "mysql",
    "postgresql",
    "sqlite",
    "elasticsearch",
    "opensearch",
    "solr",
    "memcached",
    "rabbitmq",
    "pulsar",
    "kinesis",
    "airflow",
    "dagster",
    "kubeflow",
    "mlflow",
    "ray",
    "dask",
    "tensorflow",
    "jax",
    "onnx",
    "tensorrt",
    "triton",
    "cuda",
    "docker",
    "terraform",
    "ansible",
    "nomad",
    "mesos",
    "slurm",
    "envoy",
    "istio",
    "nginx",
    "haproxy",
    "zookeeper",
    "etcd",
    "consul",
    "grafana",
    "datadog",
    "splunk",
    "aws lambda",
    "lambda",
    "ec2",
    "s3",
    "azure",
    "google cloud",
    "tpu",
    "tpus",
)
TECH_TERMS_TUPLE: tuple[str, ...] = tuple(sorted(set(TECH_TERMS)))

# Words that introduce a tool, a store or a platform; the noun phrase after them is named.
INTRODUCER = re.compile(
    r"(?i)\b(?:using|via|atop|(?:built|running|runs|run|based|hosted|deployed)\s+on"
    r"|(?:powered|backed|driven)\s+by|(?:kept|stored|held|cached|written)\s+in"
    r"|(?:moved|migrated|switched|ported)\s+to|relies\s+on|relying\s+on|on\s+top\s+of)"
    r"\s+(?:an?\s+|the\s+|its\s+|their\s+)?"
)
PHRASE_WORDS = 3


def introduced_phrases(claim: str) -> list[str]:
    """Return the noun phrases a claim introduces as a tool or place ("using X", "kept in Y")."""
    found = []
    for hit in INTRODUCER.finditer(claim):
        run: list[str] = []
        previous = hit.end()
        for match in WORD.finditer(claim, hit.end(), min(len(claim), hit.end() + 80)):
            if any(ch in claim[previous : match.start()] for ch in ",;:()."):
                break
            token = match.group()
            if token.casefold() in STOP or any(ch.isdigit() for ch in token):
                break
            run.append(token)
            previous = match.end()
            if len(run) == PHRASE_WORDS:
                break
        if run:
            found.append(" ".join(run))
    return found


def unknown_phrase(phrase: str, vocabulary: frozenset[str]) -> bool:
    """Return True when no content word of an introduced phrase appears in the record."""
    content = [s for s in stems(phrase) if s not in STOP]
    return bool(content) and not any(s in vocabulary for s in content)
