# One-error article variants, written as edits against the faithful articles (see variants.py).
def AV(slug, kind, section, description, path, old, new, fix=None):
    return dict(slug=slug, kind=kind, section=section, description=description,
                path=path, old=old, new=new, fix=fix)

ARTICLE_VARIANTS = [
AV("paying-less-for-infrastructure", "figure-swapped-between-sources", "reported",
  "Pellucid's block says median image size fell 'by about 65%', which is Vireo's storage cost figure; Pellucid reports about 48%.",
  "blocks.2.reported.1.text", "fell by about 48%", "fell by about 65%"),
AV("serving-under-load", "figure-swapped-between-sources", "reported",
  "Corvid Labs' block gives 'a p99 query latency of 250 ms', which is Gannet's p99 edit propagation bound; Corvid Labs reports 35 ms.",
  "blocks.0.reported.1.text", "a p99 query latency of 35 ms", "a p99 query latency of 250 ms"),
AV("shipping-changes-safely", "quote-from-other-source", "reported",
  "Tallyho's ownership statement is supported by Larkspur's 'hardest part' sentence instead of Tallyho's own.",
  "blocks.2.reported.2.quote",
  "The authors say ownership disputes over shared types such as User and Event took longer to settle than any technical work",
  "The authors say the hardest part was not speed but consistency during rollouts, because two services could briefly disagree on a flag"),
AV("shipping-changes-safely", "comparison-misstated", "interpretation",
  "Interpretation says Tallyho pins a version to each request at the edge; that is Larkspur's flag version.",
  "interpretation",
  "Tallyho splits its GraphQL schema one subgraph at a time and rejects",
  "Tallyho splits its GraphQL schema one subgraph at a time, pins a schema version to each request at the edge and rejects"),
AV("paying-less-for-infrastructure", "comparison-misstated", "interpretation",
  "Interpretation says Vireo pre-generates only the most-used data; pre-generating the most-viewed items is Pellucid's technique.",
  "interpretation",
  "Vireo moves logs older than a few days to cheaper object storage and accepts",
  "Vireo moves logs older than a few days to cheaper object storage, pre-generates results only for the most-queried services, and accepts"),
AV("serving-under-load", "claim-swapped", "reported",
  "Corvid Labs' block says shards are compacted once their history grows to keep load times low; history compaction for load times is Gannet's claim.",
  "blocks.0.reported.2.text",
  "Deletions are handled with tombstones, and a shard is rebuilt once more than 10% of its entries are tombstoned.",
  "Deletions are handled with tombstones, and shards are compacted once their history grows, which the team says keeps load times for large indexes low."),
]
