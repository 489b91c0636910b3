"""Flink job exception diagnosis (seed 001): exception queue, knowledge base, diagnosis graph and batch workers."""
