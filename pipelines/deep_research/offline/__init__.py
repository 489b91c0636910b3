"""The offline engine of deep research: deterministic intake, planning, extraction, analysis and reporting."""
