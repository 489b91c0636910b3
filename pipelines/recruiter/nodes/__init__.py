"""The recruiter's nodes: the router's, the chat subgraph's and the direct status-change workflow's."""
