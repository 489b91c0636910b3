"""The Stepwise runtime shared by all workflows; it names no workflow (the registry lists them by module name)."""
