"""Storage: the SQL engine factory, the LangGraph checkpointers, the run store's tables and its queries."""
