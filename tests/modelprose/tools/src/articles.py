# Faithful roundup articles.
import copy
from drafts1 import R, DRAFTS as D1
from drafts2 import DRAFTS as D2
D = {**D1, **D2}

def S(rec, *idx):
    return [copy.deepcopy(D[rec]["reported"][i]) for i in idx]

def B(rec, reps):
    return {"source": rec, "reported": reps}

ARTICLES = []
def A(slug, title, sources, blocks, angle, interpretation, cst, cs, steps):
    assert [b["source"] for b in blocks] == sources
    ARTICLES.append({"slug": slug, "title": title, "sources": sources,
                     "draft": {"blocks": blocks, "angle": angle, "interpretation": interpretation,
                               "case_study_title": cst, "case_study": cs, "steps": steps}})

A("keeping-gpu-fleets-productive",
  "Keeping GPU training fleets productive: four case studies",
  ["meta-prometheus-supercluster", "meta-gem-ads-model", "tessellate-gpu-scheduler", "tessellate-async-checkpointing"],
  [B("meta-prometheus-supercluster", S("meta-prometheus-supercluster", 2, 3)),
   B("meta-gem-ads-model", S("meta-gem-ads-model", 2) + [
     R("GEM is a single recommendation foundation model trained across all of Meta's ad surfaces, replacing separate per-surface systems.",
       "Meta replaced separate per-surface ad prediction systems with GEM, one central recommendation foundation model trained across all of its ad surfaces")]),
   B("tessellate-gpu-scheduler", S("tessellate-gpu-scheduler", 0, 2, 3)),
   B("tessellate-async-checkpointing", S("tessellate-async-checkpointing", 2, 4))],
  "keeping expensive accelerators doing useful work",
  "The four write-ups measure productivity in different units, and that is the first thing worth noticing. Meta's Prometheus account reports goodput and mean time between interruptions, the GEM account reports MFU, Tessellate's scheduler post reports utilization and queue wait, and its checkpointing post reports the stall per checkpoint. Each metric captures a different way that GPU time is lost: to failures, to inefficient kernels and parallelism, to idle or fragmented capacity, and to pauses for saving state.\n\nFor a candidate, the comparison suggests a useful interview habit. When asked how you would make a training fleet more efficient, start by naming which kind of loss you are attacking and how you would measure it, before proposing a fix.",
  "a map of lost GPU time",
  "Run a small training job on whatever GPU access you have, even a single cloud instance, and account for every minute of wall-clock time over a fixed run: time computing, time waiting on input, time saving checkpoints, and time lost to a deliberately injected failure and restart. Express the results in the metrics these write-ups use, such as an approximate MFU and goodput, and state clearly which numbers are measured and which are estimated.",
  ["Measure where the wall-clock time of one training run goes, minute by minute.",
   "Estimate MFU for the run and explain each assumption in your calculation.",
   "Inject one failure and compute goodput with and without a recent checkpoint.",
   "Write one paragraph naming the kind of GPU time loss you would attack first and why."])

A("big-migrations-done-carefully",
  "Big migrations done carefully: three case studies",
  ["discord-message-storage", "meta-mysql-raft-replication", "uber-android-monorepo-builds"],
  [B("discord-message-storage", S("discord-message-storage", 0, 3) + [
     R("The final data migration took nine days.", "The final data migration took nine days")]),
   B("meta-mysql-raft-replication", S("meta-mysql-raft-replication", 0, 4) + [
     R("The old and new systems ran side by side for more than a year before the external tooling was retired.",
       "They ran the old and new systems side by side for more than a year before retiring the external tooling")]),
   B("uber-android-monorepo-builds", S("uber-android-monorepo-builds", 0, 1) + [
     R("During a year-long migration both build systems ran in parallel, and a tool generated BUILD files from Gradle configs.",
       "a year-long migration in which both build systems ran in parallel and a tool generated BUILD files from Gradle configs")])],
  "running old and new systems side by side",
  "A database, a replication protocol and a build system have little in common technically, yet these three migrations share a shape. Meta and Uber both describe running the old and new systems in parallel for a long period, more than a year in Meta's case and a year-long migration at Uber. Meta adds shadow testing with replayed production traffic before Raft replicasets took real writes, while Discord's account stands out for its sheer copy: a custom Rust migrator and a final migration that took nine days.\n\nInterviewers often ask how you would change a critical system without stopping the product. These accounts suggest an answer with three parts: a way to run both systems at once, a way to compare their behaviour, and a clear condition for switching off the old one.",
  "a dual running migration with verification",
  "Pick a small system you control, such as a toy key-value service or a side project's build, and migrate it from one implementation to another while both run side by side. Mirror traffic or builds to both, compare outputs automatically, and log every mismatch with its cause. Decide in advance the condition under which you will retire the old path, and report how long it took to meet it.",
  ["Run the old and new implementations side by side on the same inputs.",
   "Compare their outputs automatically and log every mismatch with a cause.",
   "Write down the condition for retiring the old path before you start.",
   "Report the migration timeline, including the mismatches you had to fix."])

A("faster-mobile-builds-and-releases",
  "Faster mobile builds and safer releases: three case studies",
  ["uber-android-monorepo-builds", "brightwave-ios-ci-builds", "brightwave-android-release-train"],
  [B("uber-android-monorepo-builds", S("uber-android-monorepo-builds", 1, 2, 3)),
   B("brightwave-ios-ci-builds", S("brightwave-ios-ci-builds", 0, 1, 4)),
   B("brightwave-android-release-train", S("brightwave-android-release-train", 0, 1, 2))],
  "shortening the loop from commit to user",
  "The two build write-ups rely on the same lever, a shared build cache, and report similar hit rates: about 94% on CI at Uber and around 85% at Brightwave. They differ in what got in the way. Uber's authors name hermeticity as the hardest part, while Brightwave found that Xcode upgrades made cache hits drop sharply. Brightwave's Android post then moves from the build to the release, showing that weekly trains with staged rollout and an automatic halt coincided with fewer rollbacks.\n\nFor mobile and developer productivity interviews, it helps to treat build speed and release safety as one loop. Be ready to explain what makes a cache trustworthy, what invalidates it, and how a smaller, more frequent release limits the damage of a bad build.",
  "one loop from build to staged rollout",
  "Take a small mobile app you can build locally and measure its build with and without a cache, over several runs and after a toolchain upgrade. Then simulate a release process for it: stages at increasing percentages of users, a crash-rate threshold that halts rollout, and a comparison of how many users see a bad build under monthly and weekly releases. Present both halves as one story about how long a change takes to reach users safely.",
  ["Measure cached and uncached build times over several runs.",
   "Upgrade the toolchain and record the effect on the cache hit rate.",
   "Simulate a staged rollout with an automatic halt on crash rate.",
   "Compare how many users see a bad build under monthly and weekly releases."])

A("caching-at-the-edge",
  "Caching at the edge: three case studies",
  ["netflix-open-connect-cdn", "fernway-tile-cache", "cloudflare-workers-kv-reads"],
  [B("netflix-open-connect-cdn", S("netflix-open-connect-cdn", 0, 1, 3)),
   B("fernway-tile-cache", S("fernway-tile-cache", 1, 2)),
   B("cloudflare-workers-kv-reads", S("cloudflare-workers-kv-reads", 1, 2))],
  "what to cache where and for how long",
  "These three write-ups attack edge caching from different ends. Netflix decides ahead of time what to place where, pre-positioning content overnight by predicted popularity. Fernway improves the cache key itself, normalising URLs and dropping per-user parameters to lift its hit ratio from 87% to 97%. Cloudflare accepts that some reads will miss and shortens the miss path instead, adding a tiered cache so that cold-read p99 fell from about 500 ms to 60 ms.\n\nIn a system design interview about caching, these give you three distinct levers to discuss: placement, key design and the miss path. Naming which lever you are pulling, and which metric should move, makes an answer far more concrete.",
  "three levers for a cache",
  "Build a small cache in front of a slow origin and replay a skewed request log through it. Try three changes one at a time: pre-loading the most popular items before a simulated peak, normalising cache keys, and adding a shared middle tier for misses. For each, report hit ratio, origin traffic and p99 latency for misses, and explain which lever helped most for your trace and why.",
  ["Replay a skewed request log through a cache and record the baseline hit ratio.",
   "Pre-load popular items before a simulated peak and measure the change.",
   "Normalise cache keys and measure the hit ratio again.",
   "Add a shared middle tier and report p99 latency for cache misses."])

A("payments-correctness-and-fraud",
  "Payments correctness and fraud: four case studies",
  ["stripe-radar-feature-platform", "halyard-fraud-graph", "stripe-ledger-reconciliation", "halyard-payments-idempotency"],
  [B("stripe-radar-feature-platform", S("stripe-radar-feature-platform", 1, 3)),
   B("halyard-fraud-graph", S("halyard-fraud-graph", 0, 2)),
   B("stripe-ledger-reconciliation", S("stripe-ledger-reconciliation", 1, 3)),
   B("halyard-payments-idempotency", S("halyard-payments-idempotency", 2, 4))],
  "money systems that check their own work",
  "Two of these write-ups are about catching bad actors and two are about catching the system's own mistakes. On the fraud side, Stripe made Radar's features fresher by moving them to streaming, while Halyard Pay added relationships between accounts through Tripwire's graph. On the correctness side, Stripe's Ledger reconciles events continuously, and Halyard Pay's idempotency keys cut duplicate charges, backed by a nightly reconciliation job.\n\nThe common thread for a candidate is that both companies pair a preventive mechanism with a detective one. In payments or risk interviews, an answer that includes both, and says how each is measured, is stronger than one that relies on a single safeguard.",
  "prevention and detection in payment systems",
  "Build a toy payment flow with a client that retries, a fake processor that sometimes times out, and a stream of transactions that includes a planted fraud ring. Add one preventive safeguard for each problem, idempotency keys for retries and a simple shared-device feature for fraud, and one detective safeguard, a reconciliation job that compares your records with the processor's. Report what each safeguard caught and what slipped past it.",
  ["Add idempotency keys to a toy payment API and count the duplicates that remain.",
   "Plant a fraud ring in synthetic data and build one feature that reveals it.",
   "Reconcile your records against a processor log and list every mismatch.",
   "Report which problems each safeguard caught and which slipped through."])

A("ranking-and-retrieval-in-practice",
  "Ranking and retrieval in practice: three case studies",
  ["airbnb-search-ranking", "pinterest-homefeed-retrieval", "shopify-catalog-clustering"],
  [B("airbnb-search-ranking", S("airbnb-search-ranking", 1, 2, 5)),
   B("pinterest-homefeed-retrieval", S("pinterest-homefeed-retrieval", 0, 3)),
   B("shopify-catalog-clustering", S("shopify-catalog-clustering", 1, 2))],
  "retrieval ranking and the limits of offline metrics",
  "All three systems start with some form of retrieval and then spend more effort on fewer candidates. Pinterest moved to a learned two-tower retriever, Shopify uses embedding nearest-neighbor search followed by three scorers of rising cost, and Airbnb's write-up concentrates on the ranking model itself, moving from gradient-boosted trees to a neural network trained on booking outcomes. Airbnb notes that offline NDCG gains did not always predict online booking gains, and Pinterest reports its results from an online experiment.\n\nFor search and recommendation interviews, the useful comparison is where each team spends its compute and how it decides that a change worked. Be ready to describe a retrieval stage, a ranking stage and the online test that would convince you.",
  "a retrieve then rank pipeline",
  "Using a public dataset with user interactions, build a two-stage pipeline: an embedding retriever that returns a few hundred candidates and a ranker that orders them. Evaluate offline with recall for the retriever and NDCG for the ranker, then design a simulated online test and note any change that improved offline metrics without improving the online proxy.",
  ["Build an embedding retriever and measure recall at several cut-offs.",
   "Train a ranker on the retrieved candidates and report NDCG.",
   "Design a simulated online test for your pipeline.",
   "List every change that helped offline but not in your online proxy."])

A("data-pipelines-freshness-and-cost",
  "Data pipelines, freshness and cost: three case studies",
  ["quarry-streaming-ingest", "quarry-query-cost-reduction", "stripe-ledger-reconciliation"],
  [B("quarry-streaming-ingest", S("quarry-streaming-ingest", 1, 2, 3)),
   B("quarry-query-cost-reduction", S("quarry-query-cost-reduction", 1, 2)),
   B("stripe-ledger-reconciliation", S("stripe-ledger-reconciliation", 2, 4))],
  "pipelines that are fresh cheap and correct",
  "Quarry Analytics appears twice here, once making data fresher and once making queries cheaper, and the two posts connect: Sluice's first version committed every 30 seconds and produced millions of small files, while the cost work found that 8% of dashboards produced 60% of scanned bytes. Stripe's Ledger adds the third concern, correctness, with continuous checks that flag discrepancies within hours.\n\nData engineering interviews often ask you to trade freshness, cost and correctness against each other. These accounts suggest measuring each one explicitly, commit interval and file count for freshness, bytes scanned per owner for cost, and time to detect a discrepancy for correctness, before deciding what to give up.",
  "one pipeline measured three ways",
  "Build a small pipeline that streams synthetic events into a table and serves a few dashboard queries from it. Measure freshness at two commit intervals, bytes scanned per query owner, and the time it takes a data-quality check to flag a planted discrepancy. Make one change aimed at each measure and report how it affected the other two.",
  ["Stream events into a table at two commit intervals and measure freshness and file count.",
   "Tag each dashboard query with an owner and rank owners by bytes scanned.",
   "Plant a discrepancy and measure how long your checks take to flag it.",
   "Report how each improvement affected the other two measures."])

A("observability-and-resilience",
  "Observability and resilience: three case studies",
  ["uber-m3-metrics-platform", "netflix-region-evacuation", "orchard-health-service-mesh"],
  [B("uber-m3-metrics-platform", S("uber-m3-metrics-platform", 0, 5)),
   B("netflix-region-evacuation", S("netflix-region-evacuation", 1, 4)),
   B("orchard-health-service-mesh", S("orchard-health-service-mesh", 2, 3))],
  "signals you can trust during an incident",
  "Each of these teams depends on a signal during trouble and has worked to make that signal dependable. Uber's M3 enforces per-service cardinality budgets at ingestion and drops offending series. Netflix's evacuation drills are steered by a single health signal, stream starts per second. Orchard Health's Trellis mesh has each hop emit spans, which the team credits with cutting the time to trace a cross-service incident from hours to minutes.\n\nIn SRE interviews, a good answer about incident response names the signal you would watch, explains why it is trustworthy under load, and says what protects the monitoring system itself.",
  "an incident drill with one trusted signal",
  "Run two or three small services with metrics and tracing, pick one user-facing health signal, and stage an incident such as a failing dependency. Time how long it takes to find the cause with metrics alone and with traces, and check that your metrics system survives a deliberately added high-cardinality label. Write up the drill as a short incident review.",
  ["Choose one user-facing health signal and justify it in a sentence.",
   "Stage a failing dependency and time how long it takes to find the cause.",
   "Add tracing and repeat the drill to compare the time to diagnosis.",
   "Add a high-cardinality label and check that your monitoring stays usable."])

A("storage-durability-and-latency",
  "Storage durability and latency: three case studies",
  ["dropbox-magic-pocket-storage", "cloudflare-workers-kv-reads", "discord-message-storage"],
  [B("dropbox-magic-pocket-storage", S("dropbox-magic-pocket-storage", 1, 4)),
   B("cloudflare-workers-kv-reads", S("cloudflare-workers-kv-reads", 2, 3)),
   B("discord-message-storage", S("discord-message-storage", 1, 3))],
  "trade offs between durability cost and latency",
  "Dropbox's write-up is mostly about cost and durability: erasure coding lowered overhead from about 3x to roughly 1.5x, and the Scrubber looks for silent corruption. Cloudflare's is about latency and availability, with cold-read p99 falling from about 500 ms to 60 ms and values written to two storage providers. Discord's sits in between, moving trillions of messages to ScyllaDB and reporting steadier tail latencies afterwards.\n\nStorage interviews reward candidates who can say which of these properties a design is optimising and what it gives up. A one-line statement of the trade-off, backed by a measurement, is worth more than a list of technologies.",
  "one store three trade offs",
  "Build a tiny storage service and measure it along three axes: bytes stored per byte of user data, the effect of a simulated disk or provider loss, and p99 read latency for hot and cold keys. Change one design decision at a time, such as replication versus erasure coding or adding a cache tier, and record how each change moves all three measures.",
  ["Measure storage overhead for replication and for erasure coding.",
   "Simulate the loss of one backing store and check that reads still succeed.",
   "Report p99 read latency separately for hot and cold keys.",
   "Summarise each design change as a one-line trade-off backed by a number."])

A("defending-and-steering-network-traffic",
  "Defending and steering network traffic: three case studies",
  ["cloudflare-ddos-mitigation", "orchard-health-service-mesh", "netflix-open-connect-cdn"],
  [B("cloudflare-ddos-mitigation", S("cloudflare-ddos-mitigation", 0, 2)),
   B("orchard-health-service-mesh", S("orchard-health-service-mesh", 1, 2)),
   B("netflix-open-connect-cdn", S("netflix-open-connect-cdn", 4, 2))],
  "decisions made close to the packet",
  "These three systems make traffic decisions as close to the traffic as possible. Cloudflare's dosd samples packets on each machine and installs XDP rules in the kernel, Orchard Health's Envoy sidecars enforce mutual TLS on service-to-service calls at a measured p99 cost of 2 ms per hop, and Netflix's steering service picks an Open Connect appliance for each playback request.\n\nFor networking and platform interviews, the comparison shows why placement of a decision matters: local decisions are fast but need shared configuration, and each per-request hop has a cost that someone will ask you to measure.",
  "where network decisions should live",
  "Set up a small network lab with a client, a proxy and a server, and make the same decision, dropping or rerouting a class of requests, in three places: the server application, a sidecar proxy and a kernel-level filter. Measure the per-request cost and the requests per second each placement can handle, and explain which placement you would choose for an attack, a policy and a routing choice.",
  ["Implement the same filtering rule in an application, a proxy and an XDP program.",
   "Measure per-request latency and throughput for each placement.",
   "Measure the p99 cost of adding a sidecar hop with mutual TLS.",
   "Explain in a paragraph which placement fits attacks, policies and routing."])

A("latency-budgets-in-ml-serving",
  "Latency budgets in ML serving: three case studies",
  ["tessellate-inference-batching", "pinterest-homefeed-retrieval", "stripe-radar-feature-platform"],
  [B("tessellate-inference-batching", S("tessellate-inference-batching", 1, 2)),
   B("pinterest-homefeed-retrieval", S("pinterest-homefeed-retrieval", 1, 2)),
   B("stripe-radar-feature-platform", S("stripe-radar-feature-platform", 1, 2))],
  "serving models inside a latency budget",
  "Each of these systems works inside a stated latency figure: Tessellate reports a p99 time to first token of 450 ms at its target load, Pinterest's two-tower retrieval runs at a p99 of 60 ms, and Stripe's Radar scores each payment in under 100 ms. The way each meets its budget differs. Tessellate changed how requests are batched, Pinterest computes the Pin side ahead of time and indexes it, and Stripe moved feature computation into streaming counters served from a low-latency store.\n\nIn ML systems interviews, start from the budget and work backwards: what must happen at request time, what can be precomputed, and how you would measure the tail.",
  "working backwards from a latency budget",
  "Choose a latency budget for a small model-serving path, then build the path and measure its p99 under load. Move one piece of work out of the request path, such as precomputing item embeddings or caching features, and change one serving parameter, such as batching. Report how each change moved the p99 and what it cost in freshness or throughput.",
  ["Set a p99 latency budget before building the serving path.",
   "Measure the tail latency of each stage under load.",
   "Move one computation out of the request path and measure the change.",
   "Report what each change cost in freshness or throughput."])

A("surviving-traffic-spikes",
  "Surviving traffic spikes and retries: three case studies",
  ["shopify-flash-sale-checkout", "halyard-payments-idempotency", "netflix-region-evacuation"],
  [B("shopify-flash-sale-checkout", S("shopify-flash-sale-checkout", 2, 4)),
   B("halyard-payments-idempotency", S("halyard-payments-idempotency", 1, 3)),
   B("netflix-region-evacuation", S("netflix-region-evacuation", 1, 2))],
  "staying correct when load arrives suddenly",
  "Shopify, Halyard Pay and Netflix each describe what happens when load or failure arrives faster than normal operations can absorb. Shopify admits buyers through a queue it calls the throttle and reports checkout error rates below 0.01% at a peak of 58 million requests per minute. Halyard Pay makes retries safe with idempotency keys, since timeouts were the main source of duplicates. Netflix pre-scales destination regions so that a full evacuation takes under 7 minutes.\n\nThe shared lesson for interviews is to plan for the surge before it arrives: decide who waits, make repeated requests harmless, and have capacity ready where the traffic will land.",
  "planning for the surge in advance",
  "Build a small service with a database behind it and drive it with a load generator that produces a sudden spike and aggressive client retries. Add an admission queue, idempotency keys on the write path, and pre-scaled spare capacity, one at a time. For each step, report error rate, duplicate writes and p99 latency during the spike.",
  ["Generate a sudden traffic spike with aggressive client retries.",
   "Add an admission queue and measure error rate during the spike.",
   "Add idempotency keys and count the duplicate writes that remain.",
   "Pre-scale spare capacity and compare p99 latency with the earlier runs."])
