"""The weekly digest: an issue built from published guides, frozen as mail, sent once each."""
