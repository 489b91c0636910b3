"""Each workflow's own dashboard parts, one folder per workflow id; its registry entry names the module with its UI."""
