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
A("keeping-shared-data-trustworthy", "Keeping shared data trustworthy: gates, schemas, features and ledgers",
  [B("pennyroyal-data-quality-gate", 1, 2, 4),
   B("tarnwick-schema-registry", 0, 1, 4),
   B("marrowline-feature-store", 1, 3, 4),
   B("brindlewood-ledger-reconciliation", 1, 4, 6)],
  "checks at the boundaries others depend on",
  "These four write-ups guard different kinds of shared data, and each puts its check at a boundary that many consumers depend on. Pennyroyal checks rebuilt tables in a staging schema and keeps the previous day's data visible when a blocking check fails. Tarnwick Media checks event schemas in CI before a producer can change them. Marrowline removes a class of errors by compiling one feature definition into both its training and its serving jobs. Brindlewood compares its ledger with processor settlement files every night and holds unmatched entries open for a while before a person looks.\n\nEach write-up is also clear about what its check cannot see. Tarnwick Media's remaining breakage came from a field whose meaning changed, and Brindlewood still sends currency conversion differences to a person. For data roles, an answer that names both the check and its blind spot tends to be more credible than one that promises complete coverage.",
  "data contract",
  "Pick one small dataset that several consumers read, such as a daily table built from public data, and give it a contract: a schema, a few quality checks and a freshness target. Enforce the schema in CI, run the quality checks in a staging area before publishing, and reconcile the published totals with an independent source each day. Then break it three ways, with a changed column type, a truncated input and a field whose meaning changes, and report which layer caught each one.",
  ["Write a schema and a few quality checks for one table that other jobs read.",
   "Publish the table only after the checks pass in a staging area.",
   "Reconcile the published totals against an independent source every day.",
   "Change the meaning of one field without changing its type and note which check, if any, notices."]),
A("rehearsing-failure", "Rehearsing failure: drills, failovers and alerts",
  [B("wrenfield-chaos-drills", 1, 2, 3),
   B("veldtway-multi-region-failover", 1, 3, 4),
   B("wrenfield-slo-burn-alerts", 1, 2, 5)],
  "detection and decision under failure",
  "All three write-ups are about what happens in the minutes after something breaks. Wrenfield's drills inject known faults in production and are aborted if booking success stays below a set level for two minutes, which keeps the rehearsal from turning into an outage. Veldtway turned a long manual failover runbook into a controller, but still asks a person to approve the promotion of the replica. Wrenfield's alerting work decides who is woken up: fast burns of the error budget page someone, slower ones open a ticket.\n\nTogether they suggest a useful way to prepare for reliability interviews. For any failure you describe, say how it is detected, who decides what to do, and what limits the damage while they decide. The interesting design choices are usually in the second and third answers.",
  "failure rehearsal",
  "Run a small service with a database replica on your own machine, with a client generating steady traffic and a burn-rate alert on its error rate. Write down a stop condition, then inject three faults: kill the primary, add latency to a dependency and return errors at a slow rate. For each, record when the alert fired, what a person had to decide, how long recovery took and what limited the harm in the meantime.",
  ["Define a stop condition on a user-facing metric before injecting any fault.",
   "Script a replica promotion that waits for a person to confirm it.",
   "Route fast error-budget burns to a page and slow ones to a ticket.",
   "Write a timeline for each injected fault from detection to recovery."]),
A("speed-users-can-feel", "Speed users can feel: app start, weekly releases and cache purges",
  [B("thimbleberry-cold-start", 0, 3, 4),
   B("thimbleberry-release-train", 0, 2, 3),
   B("sallow-cdn-cache-purge", 1, 2, 3)],
  "say whose wait got shorter",
  "Each of these write-ups shortens a wait that people outside the engineering team notice. Thimbleberry cut the time its Android app takes to draw a first screen, and reports the slow tail as well as the median. Its release train shortens a different wait, the time from a merged change to users' phones, by fixing the schedule and staging each release while watching the crash-free session rate. Sallow shortens the time between a customer asking for a purge and every edge location honouring it, by replacing a fan-out with a log that each location tails.\n\nIn interviews, speed claims are stronger when they say whose wait was shortened and which percentile was measured. These cases also show that the fix is not always faster code: the release train changes a schedule, and the purge work changes how information is distributed.",
  "latency you can explain",
  "Choose one wait in a small project of your own that a user would notice, such as app start, the time for a change to reach a test device or the time for a cache to reflect an update. Measure it over enough runs to report a median and a tail percentile. Make one change to scheduling or distribution rather than to code speed, measure again, and explain who benefits and by how much in each percentile.",
  ["Name the person whose wait you are shortening before you measure anything.",
   "Report a tail percentile alongside the median for every timing you publish.",
   "Try one change to scheduling or distribution and compare it with a code optimisation.",
   "Stage a change to a small share of test users and define what would halt it."]),
A("doing-more-with-a-fixed-budget", "Doing more with a fixed budget: GPUs, warehouses and experiment traffic",
  [B("quenby-preemptible-training", 0, 1, 3),
   B("pennyroyal-warehouse-cost", 1, 2, 3),
   B("marrowline-search-ranking-experiments", 1, 2, 5)],
  "name what you gave up to save",
  "The budgets in these write-ups are different resources: GPU hours for Quenby Labs, warehouse compute for Pennyroyal and user traffic for Marrowline's ranking experiments. In each case the team spends less of the scarce resource by accepting a specific cost somewhere else. Quenby Labs accepts interruptions and bounds the lost work with frequent checkpoints. Pennyroyal stops refreshing dashboards that nobody opens and lets idle warehouses suspend quickly, while keeping an eye on dashboard load time. Marrowline uses a more sensitive comparison to screen rankers with less traffic, and keeps a full A/B test for the decisions that need it.\n\nFor interviews, this gives a simple structure for any efficiency story: what was scarce, what you gave up to save it, and how you checked that the trade was acceptable.",
  "efficiency trade off",
  "Pick a resource you can measure on your own hardware, such as compute time for a training job, queries against a local warehouse or simulated users for an experiment. Establish a baseline, then make one change that uses less of it by accepting a cost elsewhere, such as interruptions, slower refreshes or a narrower metric. Report the saving, the cost you accepted and the check that tells you the trade still holds.",
  ["Measure a baseline for one scarce resource under a fixed workload.",
   "Make one change that saves the resource by accepting a named cost elsewhere.",
   "Define the check that would tell you the trade is no longer acceptable.",
   "Write a short summary that states the saving, the cost and the check together."]),
]
