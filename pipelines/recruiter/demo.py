"""The shipped demo data (assets/recruiter): loaded into an empty recruiting database on first use."""

from __future__ import annotations

import json
from datetime import datetime, UTC

from pipelines.core.paths import ASSETS_DIR
from pipelines.recruiter.importing import ImportReport, candidates_from_text, jobs_from_text, read_import_file
from pipelines.recruiter.store import RecruitingStore

DEMO_DIR = ASSETS_DIR / "recruiter"
DEMO_FLAG = "demo_loaded"


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def load_demo(store: RecruitingStore) -> tuple[ImportReport, ImportReport]:
    """Import the demo jobs, candidates (resume files read by the shared loaders) and applications."""
    jobs_path, candidates_path = DEMO_DIR / "jobs.jsonl", DEMO_DIR / "candidates.jsonl"
    jobs = jobs_from_text(read_import_file(jobs_path), jobs_path.name)
    people = candidates_from_text(read_import_file(candidates_path), candidates_path.name, DEMO_DIR)
    jobs.inserted, jobs.updated = store.upsert_jobs(jobs.rows, source="demo")
    people.inserted, people.updated = store.upsert_candidates(people.rows, source="demo")
    applications = DEMO_DIR / "applications.jsonl"
    if applications.exists():
        for line in applications.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                history = [{"status": h["status"], "at": _aware(datetime.fromisoformat(h["at"]))}
                           for h in row.get("history") or []]
                store.add_application(row["candidate_id"], row["job_id"], row["status"], history, actor="demo")
    store.set_flag(DEMO_FLAG, "1")
    return jobs, people


def ensure_demo(store: RecruitingStore) -> bool:
    """Load the demo once into a database that has never had it and holds no jobs; True when it loaded now."""
    if store.flag(DEMO_FLAG) or store.counts()["jobs"] or not (DEMO_DIR / "jobs.jsonl").exists():
        return False
    load_demo(store)
    return True
