# Faithful roundup articles. Block statements reuse the faithful drafts' statements.
import copy
from drafts import DRAFTS as D

def S(rec, *idx):
    return [copy.deepcopy(D[rec]["reported"][i]) for i in idx]

def B(rec, *idx):
    return {"source": rec, "reported": S(rec, *idx)}

def A(slug, title, blocks, angle, interpretation, cst, cs, steps):
    return {"slug": slug, "title": title, "sources": [b["source"] for b in blocks],
            "draft": {"blocks": blocks, "angle": angle, "interpretation": interpretation,
                      "case_study_title": cst, "case_study": cs, "steps": steps}}

ARTICLES = [
A("shipping-changes-safely", "Shipping risky changes safely: flags, migrations and schemas",
  [B("larkspur-feature-flags", 1, 4, 5),
   B("ondine-postgres-migrations", 1, 2, 3),
   B("tallyho-graphql-federation", 1, 2, 4, 5)],
  "making change staged and reversible",
  "All three write-ups are about changing a running system without stopping it, and each puts the safety net in a different place. Larkspur moves flag evaluation into every process and then has to keep services in agreement, which it does by pinning a flag version to each request at the edge. Ondine wraps schema changes in a tool that splits them into expand and contract phases and refuses to wait long for a lock. Tallyho splits its GraphQL schema one subgraph at a time and rejects any change that would break a recorded client query.\n\nFor backend and platform interviews, the common thread is that a safe change is one you can stage, check and back out. Being able to say where the check lives in your own design, in the request path, in the deploy tool or in CI, makes an answer about risky changes much more concrete.",
  "staged rollout of a breaking change",
  "Pick one change that would break clients if shipped at once, such as renaming a field that is stored in PostgreSQL and exposed through a small GraphQL API. Put the new behaviour behind a flag that each request carries from the entry point, migrate the column with expand and contract steps and a short lock timeout, and add a CI check that replays recorded queries against the new schema. Walk through each stage and show how you would back out of it.",
  ["Put a behaviour change behind a flag and pass the flag version through every service a request touches.",
   "Run an expand and contract column change on PostgreSQL with a short lock_timeout.",
   "Replay recorded GraphQL queries in CI and fail the build on any breaking schema change.",
   "Write a rollback plan for each stage of the change and test one of them."]),
A("paying-less-for-infrastructure", "Paying less for infrastructure without hurting users",
  [B("corvid-labs-autoscaling", 1, 2, 3),
   B("vireo-log-tiering", 1, 2, 3),
   B("pellucid-image-pipeline", 1, 2, 3),
   B("larkspur-build-cache", 1, 3)],
  "cost savings with a stated guardrail",
  "Each of these write-ups cuts a cost and names what it was careful not to break. Corvid Labs chooses node types by price per unit of work while holding p95 latency within a target. Vireo moves logs older than a few days to cheaper object storage and accepts that cold searches take minutes. Pellucid shrinks images with a newer format, checks the result against a perceptual quality score, and pre-generates only the most-viewed images because encoding is slower. Larkspur's saving is engineering time rather than money: a shared build cache shortens CI, with laptops kept read-only so that they cannot poison it.\n\nIn interviews, cost questions are often answered with a single number. These cases suggest a better structure: the resource being saved, the measure that shows the saving, and the guardrail that shows users or engineers did not pay for it.",
  "cost reduction with a guardrail",
  "Choose one system you can run locally, such as a log store, an image resizer or a small build, and measure what it costs in storage, compute or time under a fixed workload. Make one change aimed at cost, such as tiering old data, switching an output format or adding a cache, and define beforehand the quality or latency measure that must not get worse. Report the saving, the guardrail measure before and after, and any case where the guardrail was breached.",
  ["Measure a baseline cost in storage, compute or build time for a fixed workload.",
   "Define a latency or quality measure that a cost change must not worsen.",
   "Apply one cost change, such as tiering old data or caching build outputs, and measure both numbers again.",
   "Write a short report that states the saving alongside the guardrail result."]),
A("serving-under-load", "Serving under load: search, limits and live editing",
  [B("corvid-labs-vector-search", 0, 2, 5),
   B("meridian-freight-rate-limiting", 0, 1, 2),
   B("gannet-realtime-sync", 0, 1, 2)],
  "tail latency under real traffic",
  "These three systems face load of very different shapes. Corvid Labs answers queries over a very large set of embeddings and reports recall and p99 latency together, because approximate search trades one against the other. Meridian Freight handles a high request rate from thousands of partners and keeps the limit check in the proxy, where it adds little latency. Gannet has fewer participants per board but needs every edit to reach the others quickly, and it avoids waiting on locks by letting clients merge edits themselves.\n\nFor system design interviews, the useful exercise is to say what 'under load' means for the system in front of you: many queries, many clients or many writers to the same object. Each calls for a different measure and a different place to spend latency.",
  "latency budget for a loaded service",
  "Build one small service and load it three ways: many read queries against an approximate index, many clients sharing a rate limit, and several writers editing one shared document. For each, pick the latency percentile that matters and measure it as load rises. Explain which component spends most of the budget in each case and what you would change first.",
  ["Load-test a small FAISS search service and record p99 latency as queries per second rise.",
   "Put a token bucket check in front of a toy API and measure the median latency it adds.",
   "Sync a Yjs document between several simulated clients and record p99 propagation time.",
   "Write a one-page latency budget that assigns each component a share of the target."]),
]
