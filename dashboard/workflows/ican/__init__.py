"""iCan's own dashboard parts: the counselor's chat and the Results tab."""
