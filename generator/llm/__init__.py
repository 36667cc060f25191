"""The LLM plumbing under the SDK: the HTTP transport, the response cache and the call log."""
