"""The Flink diagnosis's own dashboard parts: studio tabs, the queue, results and knowledge pages."""
