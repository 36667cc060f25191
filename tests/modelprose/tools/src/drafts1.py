# Faithful drafts, part 1.
def R(text, quote):
    return {"text": text, "quote": quote}

DRAFTS = {}

DRAFTS["meta-gem-ads-model"] = {
 "reported": [
  R("Meta replaced its separate per-surface ad prediction systems with GEM, a single central recommendation foundation model trained across all of its ad surfaces.",
    "Meta replaced separate per-surface ad prediction systems with GEM, one central recommendation foundation model trained across all of its ad surfaces"),
  R("According to the write-up, the new Kunlun architecture showed LLM-like scaling with 2.5x more model complexity.",
    "A new LLM-style architecture (Kunlun) showed LLM-like scaling with 2.5x more model complexity"),
  R("Custom low-precision kernels and 5D parallelism doubled end-to-end training efficiency to 20-25% MFU, at 4x the training FLOPs across thousands of GPUs.",
    "custom low-precision kernels and 5D parallelism doubled end-to-end training efficiency to 20-25% MFU at 4x the training FLOPs across thousands of GPUs"),
  R("The team says GEM does not serve ads itself; its knowledge reaches the smaller vertical models through distillation and representation transfer.",
    "GEM does not serve ads directly; its knowledge reaches the smaller vertical models through distillation and representation transfer"),
  R("Post-training transfer (LoopFM) and elastic pre-computation (Solaris) carry GEM's gains to real-time serving models without adding latency.",
    "Post-training transfer (LoopFM) and elastic pre-computation (Solaris) pass GEM's gains to real-time serving models without extra latency"),
 ],
 "angle": "measure training efficiency before scaling up",
 "interpretation": "For candidates aiming at ML infrastructure roles, the useful thread here is that efficiency is reported as a measured, end-to-end number rather than as a list of optimisations. MFU is a metric you can compute for a run on a single GPU, and being able to explain what it captures, and what it hides, is a strong signal in an interview.\n\nThe second lesson is about the split between a large model that learns and smaller models that serve. Interviewers for recommendation teams often probe how knowledge moves from an expensive model into a latency-bound one. You do not need a foundation model to talk about this credibly; a teacher and student pair trained on a public dataset gives you real numbers to discuss.",
 "case_study_title": "distilling a large ranker into a fast one",
 "case_study": "Train a moderately sized ranking model on a public click or ratings dataset, then distill it into a much smaller student that must answer within a fixed latency budget on your own machine. Record the teacher's and the student's quality on the same held-out split, the student's latency distribution, and the training throughput of each run expressed as an approximate MFU. Write up which gaps closed, which did not, and what you would try next with more compute.",
 "steps": [
  "Compute model FLOPs utilization for one training run in PyTorch and explain how you estimated it.",
  "Profile a training step and name the single largest source of lost time.",
  "Distill a teacher ranker into a student and report quality and latency side by side.",
  "Describe in two short paragraphs how you would move gains from an offline model into a serving path.",
 ],
}

DRAFTS["meta-prometheus-supercluster"] = {
 "reported": [
  R("Meta converted its New Albany, Ohio data center site from web traffic into Prometheus, a gigawatt-scale AI supercluster that spans several interconnected buildings and behaves as one machine.",
    "Meta turned its New Albany, Ohio data center site from web traffic into Prometheus, a gigawatt-scale AI supercluster spanning multiple interconnected buildings that behaves as one machine"),
  R("The cluster runs NVL72 racks, including Catalina on GB200 with 800G of scale-out per GPU, on a dedicated Ethernet back-end network for GPU-to-GPU traffic.",
    "It runs NVL72 racks (Catalina on GB200 with 800G of scale-out per GPU, Clemente on GB300 in a single rack) on a dedicated Ethernet back-end network for GPU-to-GPU traffic"),
  R("Reliability work lifted pre-training goodput above 85% and pushed mean time between interruptions past 54K GPU hours.",
    "Reliability work pushed pre-training goodput above 85% and mean time between interruptions past 54K GPU hours"),
  R("The write-up attributes most interruptions to GPU and memory faults, so the work concentrated on fast detection, automatic node draining and quick job restarts.",
    "Most interruptions, according to the write-up, came from GPU and memory faults, so the work focused on fast detection, automatic node draining and quick job restarts"),
  R("Prometheus has hundreds of thousands of GPUs today, with roughly 1 million planned.",
    "hundreds of thousands of GPUs today, ~1 million planned"),
 ],
 "angle": "reliability as a training throughput problem",
 "interpretation": "At this scale, the interesting engineering is less about peak speed and more about how much of the time the cluster is doing useful work. Goodput and mean time between interruptions are the two figures the write-up leans on, and both are numbers a candidate can reason about without access to a supercluster. If you can explain why a fault on one node stalls a synchronous job running on thousands of them, and what detection, draining and restart each contribute to getting that time back, you are speaking the language of infrastructure reliability teams.",
 "case_study_title": "simulating failures in a synchronous training job",
 "case_study": "Write a small simulator of a synchronous training job in which every step waits for the slowest worker. Inject failures from a simple distribution and compare goodput under three recovery policies: restart from scratch, restart from the latest checkpoint, and drain the failed node before resuming. Keep the model honest by stating your assumed failure rates and checkpoint costs, show how goodput changes as the worker count grows, and label the whole piece clearly as a simulation rather than a measurement.",
 "steps": [
  "Define goodput for a training job in one sentence and compute it for a run you control.",
  "Simulate worker failures and plot goodput against cluster size.",
  "Compare checkpoint intervals and find the one that maximizes useful work in your model.",
  "Explain how automatic node draining shortens recovery compared with a manual restart.",
 ],
}

DRAFTS["meta-mysql-raft-replication"] = {
 "reported": [
  R("Meta moved replication for its MySQL fleet from semisynchronous replication to MySQL Raft, a consensus protocol built into the MySQL server.",
    "Meta moved the replication layer of its MySQL fleet from semisynchronous replication to MySQL Raft, a consensus protocol built into the MySQL server itself"),
  R("The rollout spanned thousands of replicasets holding data for Facebook, Instagram and WhatsApp.",
    "The rollout covered thousands of replicasets that hold data for Facebook, Instagram and WhatsApp"),
  R("The team reports that a planned primary promotion now takes under 2 seconds, down from about 60 seconds.",
    "a planned primary promotion dropped from about 60 seconds to under 2 seconds"),
  R("With Raft, the team writes, the replicated log becomes the single source of truth for which server is primary.",
    "With Raft, the replicated log is the single source of truth for which server is primary"),
  R("Before Raft replicasets took real writes, a shadow testing framework replayed production traffic against them.",
    "The team built a shadow testing framework that replayed production traffic against Raft replicasets before they took real writes"),
  R("Most bugs found during the rollout were edge cases around membership changes, such as adding a replica while a promotion was under way.",
    "Most bugs found during the rollout sat in edge cases around membership changes"),
 ],
 "angle": "consensus and safe migration for databases",
 "interpretation": "The technical headline is a faster promotion, but the part worth studying for an interview is how the migration was made safe: shadow traffic before real writes, and a long stretch with both systems running. Database reliability roles reward people who can describe how they would prove a new replication path correct before trusting it.\n\nIf you are preparing for infrastructure or database interviews, practise explaining the difference between failover decided by an outside service and failover decided by the protocol itself. Be concrete about what can go wrong in each case: split brain, stale state, a promotion racing a membership change. The bugs the team names make a good checklist of scenarios to walk through aloud.",
 "case_study_title": "testing leader election under membership changes",
 "case_study": "Use an existing Raft library in a language you know, or a small key-value store built on one, and run three to five nodes locally. Script scenarios that add and remove nodes while a leader change is in progress, and record whether any acknowledged write is lost and how long writes are unavailable. Present the results as a table of scenarios, outcomes and recovery times, and end with the one change you would make before trusting the setup with real data.",
 "steps": [
  "Run a three-node Raft cluster locally and measure how long a leader change takes.",
  "Replay a recorded workload against a shadow replica before switching any writes to it.",
  "Inject a membership change during a promotion and check that no acknowledged write is lost.",
  "Write a one-page comparison of semisynchronous replication and consensus-based replication in MySQL.",
 ],
}

DRAFTS["shopify-catalog-clustering"] = {
 "reported": [
  R("Shopify groups the same real-world product sold by different merchants under a single Universal Product Identifier.",
    "Shopify groups the same real-world product sold by different merchants under one Universal Product Identifier"),
  R("Embedding nearest-neighbor search proposes plausible pairs across billions of listings.",
    "Embedding nearest-neighbor search finds plausible pairs across billions of listings"),
  R("Three scorers of rising cost then judge the pairs: a CPU GBDT over trillions of pairs, a fine-tuned multilingual E5 cross-encoder, and an image-aware reranker fed from prioritized GPU queues.",
    "three scorers of rising cost judge them: a CPU GBDT (L1) over trillions of pairs, a fine-tuned multilingual E5 cross-encoder (L2), and an image-aware reranker (L3) fed from prioritized GPU queues"),
  R("A bounded union-find splits the graph into components small enough for a single machine.",
    "A bounded union-find splits the graph into single-machine components"),
  R("An LLM judge, validated against human labels, supplies training data, and cached scores are reused between builds.",
    "an LLM judge validated against human labels supplying training data and cached scores reused between builds"),
 ],
 "angle": "cost aware model cascades",
 "interpretation": "The design is a budget argument: spend cheap compute on everything and expensive compute only where it changes the answer. That framing travels well to interviews for search, matching and trust roles, where you will often be asked how you would score an enormous candidate set under a fixed cost. Be ready to say where each tier's threshold comes from, and how you would notice if a cheap tier were silently dropping good pairs.",
 "case_study_title": "a three tier matching cascade",
 "case_study": "Take a public product-matching or duplicate-question dataset and build a cascade: embedding retrieval for candidates, a gradient-boosted model as a cheap filter, and a small cross-encoder for the survivors. Measure precision and recall at each tier along with the compute each tier consumes, and show how moving the first threshold trades recall for cost. Include a short section on how you labelled your evaluation pairs and how far you trust those labels.",
 "steps": [
  "Retrieve candidate pairs with an embedding index and record recall at several cut-offs.",
  "Train a GBDT filter and measure how many true matches it discards.",
  "Score the remaining pairs with a cross-encoder and report the cost per thousand pairs.",
  "Validate an automatic judge against a small set of human labels before using it for training data.",
 ],
}

DRAFTS["shopify-flash-sale-checkout"] = {
 "reported": [
  R("Shopify explains how it readies checkout for flash sales, when one merchant's launch can multiply traffic several hundred times within seconds.",
    "when a single merchant's product launch can multiply traffic several hundred times within seconds"),
  R("The team runs Genghis, its in-house load generator, against production every week, with scenarios that replay realistic buyer flows.",
    "The team runs Genghis, its in-house load generator, against production every week with scenarios that replay realistic buyer flows"),
  R("During Black Friday Cyber Monday 2025 the platform peaked at 58 million requests per minute on its app servers, and checkout error rates stayed below 0.01%.",
    "During Black Friday Cyber Monday 2025 the platform peaked at 58 million requests per minute on its app servers, with checkout error rates below 0.01%"),
  R("Each pod holds a subset of shops with its own MySQL primary, Redis instances and job workers, which keeps a flash sale inside one pod.",
    "each pod holds a subset of shops with its own MySQL primary, Redis instances and job workers, so a flash sale stays inside one pod"),
  R("A queue the team calls the throttle admits buyers at a rate the pod can absorb and shows everyone else a waiting page.",
    "The checkout queue, which the team calls the throttle, admits buyers at a rate the pod can absorb and shows everyone else a waiting page"),
  R("The weekly tests regularly turn up configuration drift, such as connection pool limits left over from older hardware.",
    "the tests regularly surface configuration drift, such as connection pool limits left over from older hardware"),
 ],
 "angle": "designing for sudden traffic spikes",
 "interpretation": "Flash sales make a clean interview topic because the constraint is easy to state and hard to meet: demand can arrive faster than an autoscaler can react. The two answers in this write-up, isolation so that one tenant's spike stays contained and admission control so that excess demand waits instead of failing, are patterns you can discuss for almost any multi-tenant system.\n\nThe habit worth copying is testing against production on a schedule. Candidates who can describe what a regular load test found, rather than only how they would scale, show operational maturity. If you have never run one, a small rehearsal with a realistic user journey is enough to talk about drift, limits and what broke first.",
 "case_study_title": "admission control for a checkout service",
 "case_study": "Build a small checkout service on Ruby on Rails or any web framework you know, backed by MySQL and Redis, and put a token-bucket admission queue in front of it. Drive it with a load generator that replays a realistic buyer flow, ramping from normal traffic to a spike several times your capacity. Report error rate, p99 latency and queue wait with and without admission control, and note the first configuration limit that broke.",
 "steps": [
  "Write a load test that follows a full buyer journey rather than a single endpoint.",
  "Add a Redis-backed admission queue and measure the checkout error rate during a spike.",
  "Isolate two tenants on separate MySQL databases and show that one tenant's spike leaves the other's latency unchanged.",
  "Record every configuration limit your test hits and explain which one failed first.",
 ],
}

DRAFTS["stripe-ledger-reconciliation"] = {
 "reported": [
  R("Stripe built Ledger, an internal system that represents money movement as double-entry records and checks that balances reconcile.",
    "Stripe built Ledger, an internal system that models money movement as double-entry records and checks that balances reconcile"),
  R("Ledger processes about 5 billion events a day from card networks, banks and internal services.",
    "It processes about 5 billion events a day from card networks, banks and internal services"),
  R("Continuous data-quality checks flag discrepancies within hours rather than at month-end close.",
    "Data-quality checks run continuously and flag discrepancies within hours instead of at month-end close"),
  R("The team reports that 99.99% of transactions reconcile automatically, leaving a small queue for analysts.",
    "The team reports that 99.99% of transactions are reconciled automatically, leaving a small queue for analysts to review"),
  R("When a match fails, Ledger groups failures by cause so that a single root bug produces one alert rather than thousands.",
    "Ledger groups the failure by cause, so one root bug shows up as one alert instead of thousands"),
  R("Clearing a typical discrepancy now takes under four hours instead of days.",
    "discrepancy clearing from days to under four hours"),
 ],
 "angle": "data correctness as an engineering discipline",
 "interpretation": "Money systems make correctness visible: every discrepancy has a cost and someone has to explain it. What stands out in this account is the choice to store immutable events and derive balances from them, along with the decision to group failures by cause. Both are design choices you can defend in an interview for data engineering, payments or platform roles, and neither is specific to finance.\n\nFor your own preparation, treat reconciliation as a testing strategy rather than an accounting chore. Being able to describe how you would detect that two systems disagree, how quickly you would know, and how you would avoid burying analysts in duplicate alerts is a practical skill that hiring managers look for.",
 "case_study_title": "reconciling two event streams",
 "case_study": "Generate two synthetic streams of payment events, one standing in for your own records and one for a bank's settlement file, and seed the second with realistic faults: missing events, duplicates, amount mismatches and late arrivals. Build a batch job in Apache Spark, or a plain script, that matches them, groups failures by likely cause and reports the share matched automatically. Show how long each fault type takes to surface, and how many alerts a single injected bug produces before and after grouping.",
 "steps": [
  "Model balances as a sum over immutable double-entry events instead of a mutable column.",
  "Seed a settlement file with known faults and check that your job finds each one.",
  "Group reconciliation failures by cause and count how many alerts a single bug produces.",
  "Report the share of records matched automatically and the time to detect each fault type.",
 ],
}

DRAFTS["stripe-radar-feature-platform"] = {
 "reported": [
  R("Stripe rebuilt the feature platform behind Radar, its fraud-detection product, so that models can use aggregates computed across the whole Stripe network.",
    "Stripe rebuilt the feature platform that feeds Radar, its fraud-detection product, so that models can use aggregates computed across the whole Stripe network"),
  R("Radar scores each payment in under 100 ms, drawing on more than 1,000 features per transaction.",
    "Radar scores each payment in under 100 ms and draws on more than 1,000 features per transaction"),
  R("The new platform, Shepherd, computes streaming counters with Apache Flink and serves them from a low-latency store.",
    "The new platform, called Shepherd, computes streaming counters with Apache Flink and serves them from a low-latency store"),
  R("Stripe reports that moving key features from hourly batch jobs to streaming cut card-testing fraud losses by 30% in the first quarter after launch.",
    "moving key features from hourly batch jobs to streaming cut fraud losses from card-testing attacks by 30% in the first quarter after launch"),
 ],
 "angle": "feature freshness in real time fraud models",
 "interpretation": "Three ideas here carry over to interviews. First, freshness is a property of a feature: the same counter is worth more when it is minutes old than when it is an hour old, and card testing is exactly the kind of fast attack where that difference shows. Second, latency budgets shape design; a scoring path under 100 ms limits how much work can happen at request time, which pushes computation into streams. Third, the result is expressed as a change in losses, not in model accuracy. If you are interviewing for risk, ML platform or data roles, practise framing your own projects the same way: what became fresher, what it cost, and which business measure moved.",
 "case_study_title": "streaming versus batch fraud features",
 "case_study": "Use a public card-fraud dataset or a synthetic transaction generator that includes bursts of small test charges. Compute the same velocity features, such as charges per card in the last ten minutes, once as an hourly batch and once as a streaming counter in Apache Flink or a simple Kafka consumer. Train a gradient-boosted model on each version, then compare how quickly each catches a burst and what the end-to-end scoring latency is.",
 "steps": [
  "Define three velocity features and compute each one both as an hourly batch and as a streaming counter.",
  "Simulate a card-testing burst and measure how many charges pass before each version flags it.",
  "Serve the streaming counters from Redis and measure the p99 latency of a scoring request.",
  "Report the detection difference in terms of losses avoided, with your assumptions stated.",
 ],
}

DRAFTS["uber-m3-metrics-platform"] = {
 "reported": [
  R("Uber's observability team says M3 grew to ingest roughly 800 million datapoints per second from more than 4,000 microservices.",
    "M3, its metrics platform, grew to ingest roughly 800 million datapoints per second from more than 4,000 microservices"),
  R("The write-up covers M3DB, a distributed time-series database, and an aggregation tier that rolls up raw samples before storage.",
    "The write-up covers M3DB, a distributed time-series database, and the aggregation tier that rolls up raw samples before they are stored"),
  R("Once a per-tenant query limiter was in place, dashboard queries held a p99 of 40 ms.",
    "Dashboard queries held a p99 of 40 ms after the team added a per-tenant query limiter"),
  R("Downsampling data older than 30 days cut storage by 45%.",
    "They also report cutting storage by 45% by downsampling data older than 30 days"),
  R("The team names high-cardinality tags as the main source of incidents; one deploy that added a request ID as a tag could multiply series counts overnight.",
    "high-cardinality tags were the main source of incidents: a single deploy that added a request ID as a tag could multiply series counts overnight"),
  R("M3 now enforces per-service cardinality budgets at ingestion and drops offending series, alerting the owning team.",
    "M3 now enforces per-service cardinality budgets at ingestion and drops offending series with an alert to the owning team"),
 ],
 "angle": "observability systems that protect themselves",
 "interpretation": "A metrics platform at this size has to defend itself from its own users. The two protections described, budgets on cardinality at write time and budgets on series scanned at read time, are simple ideas with large effects, and they make good material for a system design interview about monitoring or about any shared multi-tenant store.\n\nCandidates targeting SRE or observability roles should be comfortable explaining why one new tag can multiply storage and query cost, and why alert evaluation deserves its own read path. These are questions about failure isolation as much as about time-series storage.",
 "case_study_title": "cardinality budgets for a metrics pipeline",
 "case_study": "Run Prometheus and Grafana locally with a small service that emits metrics, then add a label with unbounded values, such as a request ID, and measure how series count, memory and query time change. Implement a simple cardinality limit, either as a relabelling rule or as a proxy that drops series over a budget and raises an alert. Write up the before and after numbers and explain how you would choose the budget for a real team.",
 "steps": [
  "Emit metrics from a toy service into Prometheus and chart the active series count.",
  "Add an unbounded label and measure how memory and query latency respond.",
  "Enforce a per-service series budget and alert the owner when it is exceeded.",
  "Downsample older data and compare storage size and query accuracy before and after.",
 ],
}

DRAFTS["uber-android-monorepo-builds"] = {
 "reported": [
  R("Uber migrated its Android monorepo, more than 2,000 modules across the rider, driver and Eats apps, from Gradle to Bazel.",
    "Uber moved its Android monorepo, which holds more than 2,000 modules across the rider, driver and Eats apps, from Gradle to Bazel"),
  R("With remote caching and remote execution, the median CI build dropped from 12 minutes to 90 seconds.",
    "With remote caching and remote execution, the median CI build went from 12 minutes to 90 seconds"),
  R("The team reports a CI cache hit rate of about 94%.",
    "about 94% cache hit rate on CI"),
  R("The authors say hermeticity, not performance, was the hardest part, because tests that read files outside their declared inputs produced flaky cache hits.",
    "the hardest part was not performance but hermeticity: tests that read files outside their declared inputs produced flaky cache hits"),
  R("Local builds improved less: a typical incremental change went from about 4 minutes to 2.5 minutes.",
    "incremental local builds from about 4 minutes to 2.5 minutes"),
 ],
 "angle": "build systems and developer productivity",
 "interpretation": "The headline figure is the CI build time, but the more instructive details are the smaller ones: local builds improved far less than CI builds, and getting the build graph correct was harder than making it fast. That contrast is useful in interviews for developer productivity or mobile platform teams, where you may be asked why a cache that transforms CI helps a laptop much less, or how one non-hermetic test can poison a shared cache.\n\nIf you have only worked with Gradle, you can still discuss this credibly by measuring your own project's build and naming which steps are cacheable and which are not.",
 "case_study_title": "measuring cache hits in a hermetic build",
 "case_study": "Take an open-source Android or Kotlin project with several modules and build it with Bazel, or with Gradle's build cache if a Bazel port is too large. Measure clean, incremental and fully cached builds, then deliberately add a test that reads an undeclared file to show how it produces wrong cache results. Present build times as distributions rather than single runs, and explain what would change with remote execution.",
 "steps": [
  "Measure clean, incremental and cached build times for a multi-module project over at least ten runs.",
  "Enable a remote cache and report the hit rate for a typical change.",
  "Add a test that reads an undeclared input and show how it breaks hermeticity.",
  "Explain why CI builds and local builds benefit differently from the same cache.",
 ],
}

DRAFTS["netflix-open-connect-cdn"] = {
 "reported": [
  R("Open Connect, Netflix's content delivery network, places caching appliances inside internet service provider networks and at internet exchange points.",
    "Open Connect, its content delivery network, places caching appliances inside internet service provider networks and at internet exchange points"),
  R("Netflix says about 95% of its traffic is served from these embedded appliances.",
    "about 95% of its traffic is served from these embedded appliances"),
  R("Its latest flash-storage appliance can serve 400 Gbps from a single server, using FreeBSD and in-kernel TLS.",
    "Its latest flash-storage appliance can serve 400 Gbps from a single server using FreeBSD and in-kernel TLS"),
  R("Content is pre-positioned overnight, during off-peak hours, based on predicted popularity.",
    "Content is pre-positioned overnight during off-peak hours based on predicted popularity"),
  R("A steering service chooses an appliance for each playback request based on health, load and network proximity.",
    "a steering service that picks an appliance for each playback request using health, load and network proximity"),
 ],
 "angle": "moving content close to the user",
 "interpretation": "The lesson for a candidate is that a CDN is as much a scheduling problem as a caching one. Pre-positioning by predicted popularity moves work from peak hours into quiet ones, and steering decides which copy serves each request. In networking, CDN or performance interviews you can use this to structure an answer: what to place where, when to move it, and how to pick a server for each request. Kernel-level throughput work is a specialist topic, but knowing why TLS in the kernel helps a sendfile path is a good sign of depth.",
 "case_study_title": "pre positioning content by predicted popularity",
 "case_study": "Simulate a small CDN with a handful of cache nodes of limited size and a request trace with a daily cycle, taken from a public trace or generated from a Zipf distribution. Compare reactive caching with overnight pre-positioning driven by a simple popularity forecast, and measure peak-hour hit ratio and upstream traffic for each. Then add a steering rule that weighs load as well as distance and report how it changes tail latency.",
 "steps": [
  "Generate a request trace with a daily cycle and a skewed popularity distribution.",
  "Compare reactive caching with overnight pre-positioning on peak-hour hit ratio.",
  "Add a steering policy that weighs load and proximity, and measure its effect on tail latency.",
  "Benchmark a static file server with and without TLS and explain where the CPU time goes.",
 ],
}

DRAFTS["netflix-region-evacuation"] = {
 "reported": [
  R("Netflix describes moving all traffic out of an unhealthy AWS region into the other two.",
    "Netflix describes how it shifts all traffic out of one AWS region into the other two when that region is unhealthy"),
  R("The team cut the time for a full evacuation from about 50 minutes to under 7 minutes.",
    "The team cut the time for a full evacuation from about 50 minutes to under 7 minutes"),
  R("They pre-scale the destination regions with predictive autoscaling and run evacuation drills in production every two weeks.",
    "pre-scaling the destination regions with predictive autoscaling and by running evacuation drills every two weeks in production"),
  R("According to the write-up, the slowest step used to be scaling up the receiving regions, since new instances had to boot and warm their caches.",
    "the slowest step used to be scaling up capacity in the receiving regions, because new instances had to boot and warm their caches"),
  R("Zuul shifts traffic in increments while engineers watch stream starts per second as the main health signal.",
    "Zuul, the edge gateway, moves traffic in increments while engineers watch stream starts per second as the main health signal"),
 ],
 "angle": "practising failure until it is routine",
 "interpretation": "What makes this account useful is that the improvement came from removing the slowest step, not from making every step a little faster. Capacity in the receiving regions was the bottleneck, so the fix was to have that capacity ready in advance. Interviewers for SRE and infrastructure roles like candidates who find the critical path of a recovery procedure before optimising it.\n\nThe drills are the other half. A failover exercised every two weeks is a tested procedure; one exercised once a year is a hope. When you describe incident work in an interview, say how often the recovery path was exercised and which single signal told you it was working.",
 "case_study_title": "a timed failover drill between two regions",
 "case_study": "Deploy a small stateless service in two cloud regions, or two local clusters, behind a proxy, with a load generator producing steady traffic. Time a full traffic shift from one side to the other, break that time into steps such as scaling, warming and routing, then pre-scale the receiving side and repeat. Report the timeline of each drill and the one health signal you used to decide when to proceed.",
 "steps": [
  "Break a failover procedure into timed steps and identify the slowest one.",
  "Pre-scale the receiving side and measure how much the total evacuation time drops.",
  "Choose one user-facing health signal and use it to gate each traffic increment.",
  "Schedule the drill to repeat and record how its duration changes over several runs.",
 ],
}

DRAFTS["cloudflare-ddos-mitigation"] = {
 "reported": [
  R("Cloudflare reports detecting and mitigating a UDP flood that peaked at 3.8 Tbps and 2.2 billion packets per second and lasted about 65 seconds.",
    "its systems detected and mitigated a UDP flood that peaked at 3.8 Tbps and 2.2 billion packets per second and lasted about 65 seconds"),
  R("Mitigation ran on each server in the network without human intervention.",
    "Mitigation ran on each server in the network without human intervention"),
  R("The detection daemon, dosd, samples packets, fingerprints attack traffic and installs XDP rules in the Linux kernel.",
    "The detection daemon, dosd, samples packets on every machine, generates fingerprints of attack traffic and installs eXpress Data Path (XDP) rules in the Linux kernel"),
  R("Fingerprints are shared through Quicksilver, Cloudflare's distributed configuration store, so a pattern seen in one city can be blocked everywhere.",
    "Fingerprints are shared across the network through Quicksilver, Cloudflare's distributed configuration store, so a pattern seen in one city can be blocked everywhere"),
  R("The attack came from sources in more than 300 cities, so no single location saw its full size.",
    "the attack came from sources spread across more than 300 cities, so no single location saw its full size"),
 ],
 "angle": "decentralised defence against network attacks",
 "interpretation": "Two design choices carry this story: detection runs where the packets arrive, and rules take effect before packets reach the kernel's networking stack. For a candidate, these are concrete talking points about why centralised analysis is too slow for an attack that lasts about a minute, and why the cheapest packet to handle is the one dropped earliest.\n\nIf you are interviewing for networking, security engineering or edge platform roles, practise explaining how you would avoid blocking legitimate traffic while acting automatically. Automation without a check against known-good traffic is the part interviewers will push on.",
 "case_study_title": "dropping flood traffic early with eBPF",
 "case_study": "On a Linux virtual machine, write a small XDP program that drops UDP packets matching a fingerprint such as a destination port and packet length, and generate a flood with a packet generator from another machine or network namespace. Measure packets per second handled and CPU use with the filter as a conventional firewall rule and in XDP, then add a userspace sampler that builds the fingerprint automatically. Document a false-positive test using a sample of legitimate traffic.",
 "steps": [
  "Write an XDP program that drops packets matching a simple fingerprint.",
  "Benchmark drop rate and CPU use against an equivalent conventional firewall rule.",
  "Sample traffic in userspace and generate the fingerprint automatically.",
  "Replay known-good traffic through your filter and count any false positives.",
 ],
}

DRAFTS["cloudflare-workers-kv-reads"] = {
 "reported": [
  R("Cloudflare rearchitected Workers KV, its global key-value store for Workers, to speed up reads of keys that are not already cached near the user.",
    "Cloudflare rearchitected Workers KV, its global key-value store for Workers, to speed up reads of keys that are not already cached near the user"),
  R("The team added a tiered cache between data centers and a new storage proxy in front of its central stores.",
    "The team added a tiered cache between data centers and a new storage proxy in front of its central stores"),
  R("Cold-read p99 latency fell from about 500 ms to 60 ms, while hot reads stayed under 10 ms.",
    "p99 latency for cold reads fell from about 500 ms to 60 ms, while hot reads stayed under 10 ms"),
  R("Each value is now written to two storage providers, so an outage at one does not leave keys unreadable.",
    "The backend now writes each value to two storage providers, so an outage at one does not make keys unreadable"),
 ],
 "angle": "tail latency on the cache miss path",
 "interpretation": "Caches hide latency right up until they miss, and the miss path is where tail latency lives. This write-up is a compact example of attacking the miss path directly with an intermediate tier rather than only trying to raise the hit rate. In interviews for storage, edge or backend roles, separating hot-path and cold-path latency, and reporting each as its own percentile, is a simple habit that shows you understand how users actually experience a system.",
 "case_study_title": "speeding up cold reads with a middle tier",
 "case_study": "Build a read-through cache in front of a deliberately slow backing store, with a local cache per client and an optional shared regional tier. Generate reads from a long-tail key distribution and measure hot and cold p99 separately, with and without the shared tier. Then write each value to two backing stores and show what happens to reads while one of them is unavailable.",
 "steps": [
  "Measure p99 latency separately for cache hits and cache misses.",
  "Add a shared middle cache tier and report how the cold-read p99 changes.",
  "Write values to two backing stores and test reads while one of them is down.",
  "Explain in a short note why raising the hit rate alone would not fix the cold-read tail.",
 ],
}

DRAFTS["discord-message-storage"] = {
 "reported": [
  R("Discord moved its message store from Apache Cassandra to ScyllaDB, going from 177 Cassandra nodes to 72 ScyllaDB nodes.",
    "177 Cassandra nodes to 72 ScyllaDB nodes"),
  R("The store holds trillions of messages.",
    "The store holds trillions of messages"),
  R("Data services written in Rust sit between the API and the database and coalesce concurrent requests for the same channel into a single query.",
    "they coalesce concurrent requests for the same channel into a single query"),
  R("After the migration, p99 read latency fell from a range of 40-125 ms to 15 ms, and p99 insert latency went from 5-70 ms to a steady 5 ms.",
    "p99 read latency dropped from a range of 40-125 ms to 15 ms, and p99 insert latency went from 5-70 ms to a steady 5 ms"),
  R("The write-up names hot partitions as the recurring problem, and says garbage collection pauses in Cassandra made the resulting spikes worse.",
    "Garbage collection pauses in Cassandra made those spikes worse"),
  R("A custom migrator written in Rust copied token ranges to the new cluster at about 3.2 million messages per second.",
    "wrote them to the new cluster at about 3.2 million messages per second"),
 ],
 "angle": "database migrations and hot partitions",
 "interpretation": "This account is a good reminder that a database swap is rarely the whole fix. The request-coalescing layer in front of the database targets hot partitions at the application layer, which is a separate lever from the choice of engine. When you discuss a migration in an interview, separate what the new engine bought you from what the surrounding architecture did.\n\nFor backend and data infrastructure roles, be ready to walk through a migration plan: how you copy the data, how you verify it, and what you measure before and after. Reporting latency as a range before and a steady value after, as this write-up does, is a good model for describing variance rather than just averages.",
 "case_study_title": "request coalescing for hot keys",
 "case_study": "Build a small API over a key-value store such as ScyllaDB or Cassandra, and simulate a hot key by sending a burst of concurrent reads for the same channel. Add a coalescing layer that merges in-flight requests for the same key into one backend query, for example with async tasks in Rust and Tokio. Compare backend query counts and p99 latency with and without coalescing, and report latency as a distribution across several runs.",
 "steps": [
  "Simulate a hot partition with a burst of concurrent reads for one key.",
  "Coalesce in-flight requests for the same key and count the backend queries saved.",
  "Report p99 read latency as a range across runs, before and after the change.",
  "Write a migration plan that covers copying, verification and rollback for a large table.",
 ],
}
