"""Text inside Graphviz DOT: escaped so a node name or a label with quotes and backslashes stays one string."""


def dot_escape(text: str) -> str:
    """The text as it may stand between the double quotes of a DOT string."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def dot_quote(text: str) -> str:
    return f'"{dot_escape(text)}"'
