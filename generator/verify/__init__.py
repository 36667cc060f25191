"""Link verification: probes that earn the Checked date, and the ledger that records them."""
