# Faithful drafts, part 2.
from drafts1 import R

DRAFTS = {}

DRAFTS["pinterest-homefeed-retrieval"] = {
 "reported": [
  R("Pinterest replaced a set of heuristic candidate generators on Homefeed with a learned two-tower retrieval model.",
    "Pinterest replaced a set of heuristic candidate generators on Homefeed with a learned two-tower retrieval model"),
  R("User and Pin embeddings are computed separately, and the Pin embeddings are indexed for approximate nearest-neighbor search over billions of Pins.",
    "User and Pin embeddings are computed separately, and the Pin side is indexed for approximate nearest-neighbor search over billions of Pins"),
  R("Retrieval runs at a p99 of 60 ms.",
    "Retrieval runs at a p99 of 60 ms"),
  R("In an online experiment, the team saw a 6% lift in saves and a 2% lift in time spent.",
    "the team reports a 6% lift in saves and a 2% lift in time spent"),
  R("The towers are trained on engagement logs with in-batch negatives and a correction for popularity bias.",
    "training the two towers on engagement logs with in-batch negatives and a correction for popularity bias"),
  R("The heuristic generators stay in place as a fallback for new users with little history.",
    "The team kept the heuristic generators as a fallback for new users with little history"),
 ],
 "angle": "retrieval models for recommendation",
 "interpretation": "Two-tower retrieval is one of the designs you are most likely to be asked about in recommendation interviews, and this account covers the parts interviewers probe: how negatives are chosen, how popular items are kept from dominating, how often each side is refreshed, and what happens for users with no history. The note that offline recall gains did not always become online lifts is worth remembering, because it gives you a grounded way to talk about evaluation.\n\nYou do not need billions of items to practise this. What matters is showing that you can build the retrieval stage, measure it offline, and explain honestly why offline numbers are only a filter.",
 "case_study_title": "a two tower retriever on public data",
 "case_study": "Train a two-tower model in PyTorch on a public user-item interaction dataset, using in-batch negatives, and index the item tower with HNSW. Measure recall at several cut-offs and p99 query latency, then add a simple popularity correction and show how it changes the mix of retrieved items. Close with a fallback for cold-start users and an honest note on what offline metrics can and cannot tell you.",
 "steps": [
  "Train user and item towers with in-batch negatives on a public dataset.",
  "Index the item embeddings with HNSW and measure p99 query latency.",
  "Apply a popularity-bias correction and compare recall and item diversity.",
  "Add a heuristic fallback for users with no history and measure its coverage.",
 ],
}

DRAFTS["airbnb-search-ranking"] = {
 "reported": [
  R("Airbnb's latest search ranking orders results for more than 7 million active listings.",
    "more than 7 million active listings"),
  R("The team moved from a gradient-boosted tree model to a deep neural network trained with a learning-to-rank objective on booking outcomes.",
    "The team moved from a gradient-boosted tree model to a deep neural network trained with a learning-to-rank objective on booking outcomes"),
  R("They report a 2.1% increase in bookings in an A/B test.",
    "They report a 2.1% increase in bookings in an A/B test"),
  R("According to the authors, the first neural models did worse than the tree model, and progress came from simplifying the network and fixing features rather than adding layers.",
    "the first neural models performed worse than the tree model, and progress came from simplifying the network and fixing features rather than adding layers"),
  R("To reduce position bias, position was fed in during training and set to a constant at serving time.",
    "Feeding position in during training and setting it to a constant at serving time reduced the effect"),
  R("The post notes that offline NDCG gains did not always predict online booking gains.",
    "offline NDCG gains did not always predict online booking gains"),
 ],
 "angle": "honest iteration in ranking models",
 "interpretation": "The most transferable part of this write-up is its candour about what did not work. The first neural models lost to the tree model, and the gains came from simplification and feature fixes. Interviewers for search and ranking roles often ask about a project that failed before it succeeded, and this is a model for telling that story with specifics.\n\nPosition bias is the other topic worth mastering. You should be able to explain why a model trained on logged results learns to prefer whatever it already ranked highly, and describe at least one way to counter it.",
 "case_study_title": "measuring position bias in a ranker",
 "case_study": "Using a public learning-to-rank dataset, or a simulated search log in which clicks depend on both relevance and position, train a baseline gradient-boosted ranker and a small neural ranker. Show how a model trained on the biased clicks over-rewards top positions, then add position as a training-only feature set to a constant at inference and compare NDCG on unbiased labels. Note every place where offline gains and your simulated online metric disagree.",
 "steps": [
  "Simulate clicks that depend on both relevance and displayed position.",
  "Train a gradient-boosted ranker as a baseline before trying a neural model.",
  "Use position as a training-only feature and compare NDCG on unbiased labels.",
  "Record every case where offline NDCG and your online proxy disagree.",
 ],
}

DRAFTS["dropbox-magic-pocket-storage"] = {
 "reported": [
  R("Dropbox stores user files in Magic Pocket, its in-house block storage system, which holds multiple exabytes across three regions.",
    "Dropbox stores user files in Magic Pocket, its in-house block storage system, which holds multiple exabytes across three regions"),
  R("Moving most data from replication to erasure coding lowered storage overhead from about 3x to roughly 1.5x.",
    "lowering storage overhead from about 3x to roughly 1.5x"),
  R("New storage servers use SMR drives, and the team reports fitting more than 2 petabytes into a single chassis.",
    "the team reports packing more than 2 petabytes into a single chassis"),
  R("Blocks land first in a replicated staging tier and are erasure-coded later in the background.",
    "Blocks are first written to a replicated staging tier and erasure-coded later in the background"),
  R("A verifier called the Scrubber compares checksums and schedules repairs when it finds a mismatch.",
    "The verifier, called the Scrubber, compares checksums and schedules repairs when it finds a mismatch"),
  R("Repair traffic is rate-limited so that a failed disk does not saturate the network.",
    "repair traffic is rate-limited so that a failed disk does not saturate the network"),
 ],
 "angle": "durability and cost in storage systems",
 "interpretation": "Storage engineering is a series of trade-offs between cost, durability and the work needed to keep both. This account touches each of them: erasure coding lowers overhead, a replicated staging tier keeps writes simple, a scrubber finds silent corruption, and rate limits stop repairs from becoming an outage of their own. For storage, infrastructure or SRE interviews, being able to explain why overhead falls from about 3x towards 1.5x, and what you pay for that in repair cost, is a solid foundation.",
 "case_study_title": "erasure coding versus replication",
 "case_study": "Write a small block store in Go or Rust that can keep data either as three replicas or as erasure-coded chunks, using an existing erasure-coding library. Measure storage overhead, write throughput and the amount of data read during a simulated disk loss for each mode, and add a scrubber that detects a flipped bit through checksums. Finally, rate-limit repair traffic and show its effect on foreground reads.",
 "steps": [
  "Store the same dataset with three-way replication and with erasure coding, and compare the overhead.",
  "Simulate a disk failure and measure how much data each scheme reads to repair it.",
  "Add a checksum scrubber that finds and repairs a deliberately corrupted block.",
  "Rate-limit repair traffic and measure its effect on foreground read latency.",
 ],
}

DRAFTS["tessellate-gpu-scheduler"] = {
 "reported": [
  R("Tessellate, a GPU cloud provider, built Loom, a gang scheduler that places distributed training jobs on its fleet of 4,096 H100 GPUs.",
    "built Loom, a gang scheduler that places distributed training jobs on its fleet of 4,096 H100 GPUs"),
  R("Loom is topology-aware and packs each job's workers under as few network switches as possible.",
    "Loom is topology-aware: it packs a job's workers under as few network switches as possible"),
  R("Over six months, average GPU utilization rose from 52% to 78%.",
    "Average GPU utilization rose from 52% to 78% over six months"),
  R("The median queue wait for large jobs fell from 9 hours to under 2 hours.",
    "the median queue wait for large jobs fell from 9 hours to under 2 hours"),
  R("The team runs Loom as a scheduler plugin on Kubernetes rather than maintaining a separate Slurm cluster.",
    "The team runs Loom as a scheduler plugin on Kubernetes instead of maintaining a separate Slurm cluster"),
  R("Fragmentation is described as the main enemy: many small jobs left nodes half-full, so large jobs could not start.",
    "The team describes fragmentation as the main enemy: many small jobs left nodes half-full, so large jobs could not start"),
 ],
 "angle": "scheduling scarce accelerators",
 "interpretation": "GPU scheduling interviews tend to circle one tension: keep expensive hardware busy without making large jobs wait forever. This account gives you vocabulary for both sides, gang scheduling and topology for the large jobs, bin packing and preemption for the small ones, and two metrics, utilization and queue wait, that should always be reported together.\n\nIf you are applying to ML platform or HPC roles, practise explaining why a fleet split into two pools wastes capacity, and what a checkpoint-aware grace period buys a low-priority user.",
 "case_study_title": "a gang scheduling simulator",
 "case_study": "Write a discrete-event simulator of a small GPU cluster with nodes grouped under switches, and feed it a job trace that mixes many small jobs with a few large gang jobs. Compare first-fit placement against topology-aware placement with a reserved pool for small jobs, measuring utilization and the median queue wait for large jobs. State your trace assumptions, and show at least one case where higher utilization made large-job waits worse.",
 "steps": [
  "Simulate a cluster with nodes grouped under switches and a mixed job trace.",
  "Compare first-fit placement with topology-aware placement on utilization and queue wait.",
  "Reserve a pool for small jobs and measure how fragmentation changes.",
  "Add preemption with a grace period and report how much work low-priority jobs lose.",
 ],
}

DRAFTS["tessellate-async-checkpointing"] = {
 "reported": [
  R("Tessellate's training platform team moved customer training jobs to asynchronous checkpointing.",
    "Tessellate's training platform team describes moving customer training jobs to asynchronous checkpointing"),
  R("Rather than pausing every worker during the write to object storage, workers copy state to host memory and a background process uploads it.",
    "workers copy state to host memory and a background process uploads it"),
  R("For a 70-billion-parameter model, the stall per checkpoint fell from about 11 minutes to 40 seconds.",
    "The stall per checkpoint for a 70-billion-parameter model dropped from about 11 minutes to 40 seconds"),
  R("The team estimates the change saves around 9,000 GPU hours a month across the fleet.",
    "They estimate the change saves around 9,000 GPU hours a month across the fleet"),
  R("Jobs now checkpoint every 30 minutes instead of every 3 hours.",
    "checkpoints every 30 minutes instead of every 3 hours"),
  R("Restores are tested weekly by restarting a sample of jobs from their latest checkpoint.",
    "Restores are tested weekly by restarting a sample of jobs from their latest checkpoint"),
 ],
 "angle": "making failure recovery cheap for training",
 "interpretation": "Checkpointing is where training reliability and training speed meet. A slow checkpoint tempts teams to save rarely, and saving rarely makes every failure expensive. The write-up shows the trade improving on both sides at once, with shorter stalls and more frequent saves. For ML infrastructure interviews this is a good example of a change whose value you can estimate with simple arithmetic, and you should be ready to do that arithmetic aloud.\n\nThe weekly restore test is the detail many candidates would miss. A checkpoint that has never been restored is an untested backup.",
 "case_study_title": "synchronous versus asynchronous checkpoints",
 "case_study": "Train a mid-sized model in PyTorch on one or two GPUs and save checkpoints with PyTorch Distributed Checkpoint, first synchronously and then by copying state to host memory and uploading it from a background thread. Measure the training stall per checkpoint, the total run time for a fixed number of steps, and peak host memory. Finish by killing the job at a random step and restoring it, and report how much work was lost at each checkpoint interval.",
 "steps": [
  "Measure the training stall caused by one synchronous checkpoint.",
  "Move the upload to a background thread and measure the stall again.",
  "Estimate the GPU hours lost to failures at two checkpoint intervals and show your arithmetic.",
  "Restore a job from its latest checkpoint and verify that the loss curve continues where it stopped.",
 ],
}

DRAFTS["tessellate-inference-batching"] = {
 "reported": [
  R("Tessellate moved its hosted LLM inference from static to continuous batching, which adds new requests to a running batch as others finish.",
    "Tessellate moved its hosted LLM inference from static batching to continuous batching, which adds new requests to a running batch as others finish"),
  R("Throughput per GPU rose 3.2x on the company's benchmark chat workload.",
    "Throughput per GPU rose 3.2x on its benchmark chat workload"),
  R("At the target load, p99 time to first token is 450 ms, compared with 1.8 seconds before.",
    "a p99 time to first token of 450 ms at the target load, compared with 1.8 seconds before"),
  R("The serving layer uses vLLM with paged attention, and Envoy routes traffic with least-request balancing.",
    "The serving layer is built on vLLM with paged attention, and traffic is routed through Envoy with least-request balancing"),
 ],
 "angle": "throughput and latency in model serving",
 "interpretation": "This is a short write-up, but it puts the two numbers that matter for model serving side by side: throughput per GPU and tail time to first token. Candidates for inference or ML platform roles should get used to reporting both, because a batching change that raises throughput while hurting the tail is not an improvement for interactive users. Here both moved in the right direction at the stated target load, and that qualifier deserves attention: serving results depend on the load at which they were measured.",
 "case_study_title": "static and continuous batching compared",
 "case_study": "Serve a small open-weight language model with vLLM on a single GPU, or a tiny model on CPU if that is all you have, and drive it with a load generator that sends chat-like requests of varied lengths. Compare static batching against continuous batching at several request rates, and plot throughput and p99 time to first token against load. Mark the load at which each setup stops meeting a latency target you chose in advance.",
 "steps": [
  "Pick a latency target for time to first token before running any benchmark.",
  "Benchmark static and continuous batching at several request rates.",
  "Plot throughput and p99 time to first token against load on the same chart.",
  "Put Envoy in front of two replicas and compare round-robin with least-request balancing.",
 ],
}

DRAFTS["quarry-streaming-ingest"] = {
 "reported": [
  R("Quarry Analytics replaced nightly batch loads with Sluice, a streaming ingestion service that writes customer event data into Apache Iceberg tables.",
    "Quarry Analytics replaced nightly batch loads with Sluice, a streaming ingestion service that writes customer event data into Apache Iceberg tables"),
  R("Sluice handles 472 billion rows a day from Kafka, committing to Iceberg every few minutes with Apache Flink.",
    "Sluice handles 472 billion rows a day from Kafka and commits to Iceberg every few minutes using Apache Flink"),
  R("Data freshness went from 6 hours to about 4 minutes.",
    "Data freshness improved from 6 hours to about 4 minutes"),
  R("The first version committed every 30 seconds and produced millions of small files, which slowed query planning downstream.",
    "the first version committed to Iceberg every 30 seconds and produced millions of small files, which slowed query planning downstream"),
  R("Exactly-once sinks tied to Flink checkpoints mean that a restart does not duplicate rows.",
    "Sluice uses exactly-once sinks tied to Flink checkpoints, so a restart does not duplicate rows"),
  R("Customer schema changes were the most common cause of pipeline pauses, and schemas are now validated at the Kafka producer.",
    "schema changes from customers were the most common cause of pipeline pauses, and schemas are now validated at the Kafka producer"),
 ],
 "angle": "the hidden costs of fresher data",
 "interpretation": "The story has a shape data engineers will recognise: a faster commit interval improved freshness and then hurt everything downstream, until compaction and a longer interval found a balance. That sequence is worth rehearsing for data platform interviews, because it shows you think about the consumer of a table and not only the producer.\n\nThe operational detail is just as useful. Schema changes, not throughput, were the most common cause of pauses, and the fix was to validate earlier, at the producer. When you describe a pipeline you built, say what stopped it most often and where you moved the check.",
 "case_study_title": "commit interval and small files",
 "case_study": "Stream synthetic events from Kafka into an Apache Iceberg table with Apache Flink on your laptop, and vary the commit interval from seconds to minutes. For each setting, record end-to-end freshness, the number of data files created per hour and query planning time in Trino. Add an hourly compaction job and show how it changes the picture, then introduce a breaking schema change and catch it at the producer.",
 "steps": [
  "Stream events into an Iceberg table and measure end-to-end freshness.",
  "Vary the commit interval and chart file count against query planning time.",
  "Add a compaction job and measure query planning time before and after.",
  "Validate schemas at the Kafka producer and show a breaking change being rejected.",
 ],
}

DRAFTS["quarry-query-cost-reduction"] = {
 "reported": [
  R("Quarry Analytics describes a six-month effort to lower the cost of its Trino query fleet.",
    "Quarry Analytics describes a six-month effort to reduce the cost of its Trino query fleet"),
  R("Tagging every query with the customer and dashboard that issued it showed that 8% of dashboards produced 60% of scanned bytes.",
    "8% of dashboards produced 60% of scanned bytes"),
  R("Rewriting those dashboards to read pre-aggregated tables in ClickHouse, and sorting Iceberg tables by tenant, cut compute spend by $1.2M a year.",
    "Rewriting those dashboards to read pre-aggregated tables in ClickHouse and sorting Iceberg tables by tenant cut compute spend by $1.2M a year"),
  R("The p95 dashboard query time dropped from 14 seconds to 3 seconds.",
    "p95 dashboard query time from 14 seconds to 3 seconds"),
  R("An earlier attempt at more aggressive autoscaling saved little, because the expensive queries ran during business hours when the fleet was already full.",
    "autoscaling the Trino workers more aggressively, which saved little because the expensive queries ran during business hours when the fleet was already full"),
 ],
 "angle": "cost attribution before cost cutting",
 "interpretation": "The decisive step here was attribution. Until each query carried the name of its customer and dashboard, the team could only tune the fleet as a whole, and that saved little. Once costs had owners, a small share of dashboards turned out to drive most of the scanning. Candidates interviewing for data platform or analytics engineering roles can use this as a pattern: find out who is spending before deciding how to spend less.\n\nIt also shows that cost work and performance work often coincide. Pre-aggregation and sorting made the same queries both cheaper and faster.",
 "case_study_title": "finding the queries that cost the most",
 "case_study": "Load a public dataset into Trino, write a dozen dashboard-style queries and tag each with an owner. Log bytes scanned and run time per query, rank them, and pick the worst offenders. Rewrite those against pre-aggregated tables or a copy of the data sorted by the main filter column, and report the reduction in bytes scanned and in p95 run time, with an estimated cost at a stated price per terabyte.",
 "steps": [
  "Tag every query with its owner and log the bytes it scans.",
  "Rank queries by bytes scanned and find the smallest set that accounts for most of the total.",
  "Rewrite the worst queries against pre-aggregated tables and measure the change.",
  "Sort a table by its most common filter column and compare how many files are skipped.",
 ],
}

DRAFTS["halyard-fraud-graph"] = {
 "reported": [
  R("Halyard Pay built Tripwire, a service that links accounts through shared devices, cards and addresses and turns those links into features for its fraud models.",
    "Halyard Pay built Tripwire, a service that links accounts through shared devices, cards and addresses and turns those links into features for its fraud models"),
  R("The graph has about 900 million edges and is updated within seconds of each new signup.",
    "The graph holds about 900 million edges and is updated within seconds of each new signup"),
  R("Adding graph features to the existing XGBoost model cut chargebacks by 31% with the false-positive rate held flat.",
    "Adding graph features to the existing XGBoost model cut chargebacks by 31% while keeping the false-positive rate flat"),
  R("Transaction features alone missed fraud rings, because each account in a ring looked normal on its own.",
    "transaction features alone missed fraud rings because each account in a ring looked normal on its own"),
  R("Tripwire keeps adjacency lists in Redis and computes features such as the number of accounts within two hops that were previously banned.",
    "Tripwire stores adjacency lists in Redis and computes features such as the number of accounts within two hops that were previously banned"),
  R("Neighbourhood size is capped so that hubs like public Wi-Fi addresses do not dominate the features.",
    "capped neighbourhood size so that hubs like public Wi-Fi addresses would not dominate the features"),
 ],
 "angle": "relationships as features in fraud detection",
 "interpretation": "The core insight is that some fraud is only visible in aggregate: a ring of accounts can look ordinary one at a time and obvious together. For risk and trust-and-safety interviews, that gives you a clean way to motivate graph features, and the neighbourhood cap gives you a ready answer to the follow-up question about hubs and noisy links.\n\nNotice also how the result is reported: fewer chargebacks, with the false-positive rate held flat. Fraud work is a constant trade between catching bad actors and blocking good ones, and a candidate who reports both sides of that trade is easier to trust.",
 "case_study_title": "graph features for a fraud model",
 "case_study": "Generate a synthetic population of accounts with shared attributes such as devices and cards, plant a few fraud rings that share one device, and label a subset of accounts as previously banned. Build adjacency lists in Redis or in memory, compute two-hop features such as the count of banned neighbours, and add them to an XGBoost baseline trained only on per-account features. Report detection and false-positive rates for both models, and show what happens when a hub attribute is left uncapped.",
 "steps": [
  "Plant fraud rings that share a single device in a synthetic account graph.",
  "Compute a two-hop banned-neighbour count from adjacency lists stored in Redis.",
  "Compare an XGBoost model with and without graph features at a fixed false-positive rate.",
  "Cap neighbourhood size and show how a shared hub distorts the features without the cap.",
 ],
}

DRAFTS["halyard-payments-idempotency"] = {
 "reported": [
  R("Halyard Pay made payment creation idempotent across its public API, its orchestration service and its connections to card processors.",
    "Halyard Pay describes how it made payment creation idempotent across its public API, its orchestration service and its connections to card processors"),
  R("Each request carries an idempotency key stored with the payment record in PostgreSQL, and a retry with the same key returns the original result.",
    "Each request carries an idempotency key that is stored with the payment record in PostgreSQL, and a retry with the same key returns the original result"),
  R("Duplicate charges fell from about 1 in 40,000 payments to fewer than 1 in 2 million.",
    "Duplicate charges fell from about 1 in 40,000 payments to fewer than 1 in 2 million"),
  R("Most duplicates came from timeouts: the processor had charged the card, but Halyard never saw the response and retried.",
    "most duplicates came from timeouts between Halyard and a processor: the processor had charged the card, but Halyard never saw the response and retried"),
  R("A nightly reconciliation job compares processor settlement files with internal records to catch anything the keys missed.",
    "A nightly reconciliation job compares processor settlement files with internal records to catch anything the keys missed"),
  R("The payments API held 99.99% availability while the change rolled out.",
    "The payments API held 99.99% availability while the change rolled out"),
 ],
 "angle": "safe retries in distributed payments",
 "interpretation": "Idempotency is a favourite interview topic because it looks simple and is not. The useful part of this write-up is where the bug lived: not in the API, but at the boundary with a processor, where a timeout leaves you unsure whether the charge happened. Being able to say what you do when a downstream system gives you no answer, and what you do when it does not support keys at all, separates a textbook answer from a practical one.\n\nFor backend and payments roles, pair the key with the safety net. Keys prevent most duplicates; reconciliation finds the rest.",
 "case_study_title": "idempotent payments with unreliable processors",
 "case_study": "Build a small payment API in Go with PostgreSQL, in which each create request carries an idempotency key stored in the same transaction as the payment. Put a fake processor behind it that sometimes charges and then times out, and run a client that retries aggressively. Count duplicate charges with no keys, with keys only at your API, and with keys plus a status check against the processor before retrying, then add a nightly-style reconciliation that finds the rest.",
 "steps": [
  "Store the idempotency key and the payment record in the same PostgreSQL transaction.",
  "Simulate a processor that charges the card and then times out.",
  "Query the processor for status before any retry and count the duplicates that remain.",
  "Reconcile your records against the processor's log and report anything the keys missed.",
 ],
}

DRAFTS["brightwave-ios-ci-builds"] = {
 "reported": [
  R("Brightwave's mobile platform team cut the median iOS CI build from 38 minutes to 11 minutes for its main app, which has about 1.1 million lines of Swift.",
    "cut the median iOS CI build from 38 minutes to 11 minutes for its main app, which has about 1.1 million lines of Swift"),
  R("The biggest gain came from a remote build cache for Bazel hosted in the team's own cloud account, with a hit rate around 85%.",
    "The biggest step was a remote build cache for Bazel hosted in the team's own cloud account, with a hit rate around 85%"),
  R("The test suite was split into 12 shards that run in parallel on Mac minis.",
    "split the test suite into 12 shards that run in parallel on Mac minis"),
  R("The team began by measuring where time went and found that compilation accounted for about half of a build.",
    "compilation accounted for about half of a build"),
  R("Cache hits dropped sharply whenever Xcode was upgraded, so upgrades are now scheduled and the cache is warmed ahead of time.",
    "cache hits dropped sharply whenever Xcode was upgraded, so upgrades are now scheduled and the cache is warmed ahead of time"),
 ],
 "angle": "profiling a slow build pipeline",
 "interpretation": "The project started with measurement, and that choice shaped everything after it. Because compilation was only about half of a build, caching alone could not deliver the whole gain; simulator boot and test setup needed fixes of their own. In interviews for mobile platform or developer experience roles, walk through a build-time project in exactly that order: where the time went, what you fixed first, and what stopped the gains from sticking.\n\nThe Xcode upgrade detail is a good example of that last point, and it is the kind of specific, slightly unglamorous finding that makes a story credible.",
 "case_study_title": "breaking down an iOS build",
 "case_study": "Take an open-source iOS app with a meaningful test suite and time each phase of a CI-style run: dependency resolution, compilation, simulator boot, test setup and the tests themselves. Add a local or remote build cache and pre-boot the simulator, then shard the tests across two or more runners if you have them. Report the phase breakdown before and after, and note how the cache hit rate changes when you bump the toolchain version.",
 "steps": [
  "Time every phase of a CI build before changing anything.",
  "Add a build cache and report the hit rate for a typical change.",
  "Pre-boot the simulator and measure the time saved per test shard.",
  "Upgrade the toolchain and record how the cache hit rate responds.",
 ],
}

DRAFTS["brightwave-android-release-train"] = {
 "reported": [
  R("Brightwave moved its Android app from monthly releases to a weekly release train.",
    "Brightwave moved its Android app from monthly releases to a weekly release train"),
  R("Each build rolls out to 1%, 10%, 50% and 100% of users in stages, halting automatically if the crash-free session rate falls below 99.9%.",
    "Each build goes through a staged rollout at 1%, 10%, 50% and 100% of users, with an automatic halt if the crash-free session rate falls below 99.9%"),
  R("Rollbacks became rarer after the change: five in the last six monthly releases, against two in the first twenty-six weekly ones.",
    "five in the last six monthly releases, against two in the first twenty-six weekly ones"),
  R("Feature flags let unfinished work ship dark rather than hold the train.",
    "Feature flags let unfinished work ship dark instead of holding the train"),
  R("A release captain role rotates weekly and owns the go or no-go decision at each rollout stage.",
    "a release captain role rotates weekly and owns the go or no-go decision at each rollout stage"),
 ],
 "angle": "shipping mobile apps in small steps",
 "interpretation": "Smaller, more frequent releases sound riskier, and in this account they turned out to be safer, which makes it a useful counter-intuitive example for interviews. The mechanisms behind it are ordinary: staged rollout, an automatic halt tied to one clear metric, flags for unfinished work, and a named person who decides. The team also describes the hardest part as cultural, namely accepting that a feature which misses the train waits a week.\n\nCandidates for mobile engineering roles should be able to describe a rollout plan with stages, a halt condition and an owner.",
 "case_study_title": "a staged rollout with automatic halts",
 "case_study": "Write a small simulator of a mobile release: a population of users, a new build with a configurable crash rate, and rollout stages at increasing percentages. Add an automatic halt when the crash-free session rate at any stage drops below a threshold, and compare how many users see a bad build under large monthly releases versus small weekly ones. If you have an Android side project, wire the same halt rule to real crash data from Firebase Crashlytics.",
 "steps": [
  "Define rollout stages and a single crash-free threshold that halts the rollout.",
  "Simulate a bad build and count how many users see it before the halt.",
  "Put unfinished features behind flags so that they can ship dark.",
  "Write a one-page release checklist that names who makes each go or no-go call.",
 ],
}

DRAFTS["orchard-health-service-mesh"] = {
 "reported": [
  R("Orchard Health rolled out Trellis, its internal service mesh built on Envoy, to about 3,000 services over 18 months.",
    "Orchard Health rolled out Trellis, its internal service mesh built on Envoy, to about 3,000 services over 18 months"),
  R("Service-to-service calls now use mutual TLS with certificates that rotate every 24 hours.",
    "Service-to-service calls now use mutual TLS with certificates that rotate every 24 hours"),
  R("The team measured the sidecar's added latency at a p99 of 2 ms per hop.",
    "The team measured the sidecar's added latency at a p99 of 2 ms per hop"),
  R("They report that tracing a cross-service incident now takes minutes rather than hours, because each hop emits spans.",
    "the mesh cut the time to trace a cross-service incident from hours to minutes, because each hop now emits spans"),
  R("The rollout went team by team, starting with services that handled no patient data.",
    "the rollout went team by team, starting with services that handled no patient data"),
  R("The team built its own control plane on Envoy's xDS APIs instead of adopting Istio wholesale, citing the need to integrate with an existing certificate authority.",
    "The team built its own control plane on Envoy's xDS APIs rather than adopting Istio wholesale, citing the need to integrate with an existing certificate authority"),
 ],
 "angle": "incremental rollouts of shared infrastructure",
 "interpretation": "A service mesh is infrastructure that every team has to adopt, so the rollout plan matters as much as the technology. This account makes three choices worth discussing in platform engineering interviews: migrate team by team, starting where the risk is lowest; run a compatibility mode so that old and new can coexist; and measure the overhead you are asking everyone to pay. A p99 cost per hop is the kind of number a sceptical service owner will ask for first.\n\nThe build-versus-adopt decision on the control plane is also a good prompt. Be ready to argue either side, grounded in a specific integration constraint.",
 "case_study_title": "measuring the cost of a sidecar",
 "case_study": "Deploy two or three small services on a local Kubernetes cluster, first calling each other directly and then through Envoy sidecars with mutual TLS. Measure p50 and p99 latency per hop, sidecar memory and CPU at a few request rates, and add OpenTelemetry tracing to show one request crossing all the services. Write up the overhead as a per-hop cost and describe how you would roll the change out one team at a time.",
 "steps": [
  "Measure per-hop p99 latency with and without an Envoy sidecar.",
  "Enable mutual TLS with short-lived certificates and rotate them during a load test.",
  "Trace one request across three services with OpenTelemetry.",
  "Write a rollout plan that starts with the lowest-risk services and includes a compatibility mode.",
 ],
}

DRAFTS["fernway-tile-cache"] = {
 "reported": [
  R("Fernway serves vector map tiles to mobile and web clients through a CDN in front of its tile servers.",
    "Fernway serves vector map tiles to mobile and web clients through a CDN in front of its tile servers"),
  R("The team raised the CDN cache hit ratio from 87% to 97% by normalising tile URLs, removing per-user query parameters and extending cache lifetimes for low zoom levels.",
    "The team raised the CDN cache hit ratio from 87% to 97% by normalising tile URLs, removing per-user query parameters and extending cache lifetimes for low zoom levels"),
  R("Origin egress fell by about 60%, which the team estimates saves $340,000 a year.",
    "Origin egress fell by about 60%, which they estimate saves $340,000 a year"),
  R("A Varnish layer in front of the origin now absorbs most of the remaining misses.",
    "A Varnish layer in front of the origin now absorbs most of the remaining misses"),
 ],
 "angle": "cache keys and hit ratios",
 "interpretation": "This is a small, concrete story, and that is its value. Ten points of hit ratio came from cache-key hygiene and lifetimes rather than from new infrastructure, and the payoff is expressed in egress and money. For backend or infrastructure interviews, a candidate who can explain why a per-user query parameter defeats a shared cache, and how to estimate what a better hit ratio saves, shows practical judgement.",
 "case_study_title": "cache key hygiene for static assets",
 "case_study": "Serve map tiles or any static assets from a small origin behind Varnish, and replay a request log in which some URLs carry per-user parameters and inconsistent formatting. Measure the hit ratio and origin traffic, then normalise the URLs, strip the parameters and set longer lifetimes for the assets that change least. Report the new hit ratio, the drop in origin traffic and an estimated saving at a stated egress price.",
 "steps": [
  "Replay a request log through Varnish and record the baseline hit ratio.",
  "Normalise URLs and strip per-user query parameters from the cache key.",
  "Extend cache lifetimes for assets that rarely change and measure the effect.",
  "Estimate the yearly egress saving at a stated price per gigabyte.",
 ],
}
