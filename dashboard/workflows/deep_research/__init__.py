"""Deep research's pages and views."""
