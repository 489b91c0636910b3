"""Knowledge bases in Chroma, embedded or a server, searched through one embedding model (offline by default)."""
