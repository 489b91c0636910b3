"""The model gateway every node calls, defensive parsing of model output, and the price table."""
