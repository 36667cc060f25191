import sys; sys.path.insert(0, "src")
from common import *
from drafts1 import DRAFTS as A
from drafts2 import DRAFTS as B
recs = load_records()
D = {**A, **B}
print(len(D), "drafts;", set(recs) - set(D), set(D) - set(recs))
for k, d in D.items():
    for e in check_draft(d, recs[k]):
        print(k, e)
