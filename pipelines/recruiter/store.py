"""The recruiting store: jobs, candidates, applications with their history, chat sessions, the PII vault and
paused workflows, over SQLAlchemy (SQLite by default; MariaDB or PostgreSQL by URL)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from datetime import datetime, UTC
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from pipelines.core.guardrails.tables import metadata as guardrail_metadata
from pipelines.core.storage.engine import create_tables, make_engine
from pipelines.core.storage.vault import VaultTable
from pipelines.recruiter.records import APPLICATION_STATUSES, Candidate, Job
from pipelines.recruiter.tables import (
    application_history, applications, candidates, chat_messages, chat_sessions, jobs, meta, metadata, pii_vault,
    workflows,
)



def _job(row: Any) -> Job:
    return Job(row.id, row.title, row.description, row.location, tuple(row.skills or ()), row.min_years)


def _candidate(row: Any) -> Candidate:
    return Candidate(row.id, row.name, row.resume_text, row.email, row.phone, tuple(row.skills or ()),
                     row.years_experience, row.location, row.source_file)


class RecruitingStore:
    def __init__(self, url_or_engine: str | Engine) -> None:
        self.engine = make_engine(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine
        create_tables(self.engine, metadata)
        create_tables(self.engine, guardrail_metadata)
        self.vault = VaultTable(self.engine, pii_vault)
        self.phone_regions: tuple[str, ...] = ()  # the user's regions for national phone numbers (Settings)

    def dispose(self) -> None:
        self.engine.dispose()

    # --- flags -------------------------------------------------------------------------------------------
    def flag(self, key: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(select(meta.c.value).where(meta.c.key == key)).scalar()

    def set_flag(self, key: str, value: str) -> None:
        with self.engine.begin() as conn:
            if conn.execute(update(meta).where(meta.c.key == key).values(value=value)).rowcount == 0:
                try:
                    conn.execute(insert(meta).values(key=key, value=value))
                except IntegrityError:
                    pass  # another process set it at the same moment

    # --- jobs and candidates -----------------------------------------------------------------------------
    def _upsert(self, table: Any, rows: Sequence[dict[str, Any]]) -> tuple[int, int]:
        """Insert new ids, update known ones; (inserted, updated)."""
        now, inserted, updated = datetime.now(UTC), 0, 0
        with self.engine.begin() as conn:
            known = set()
            ids = [row["id"] for row in rows]
            for start in range(0, len(ids), 500):
                known |= set(conn.execute(select(table.c.id).where(table.c.id.in_(ids[start:start + 500]))).scalars())
            for row in rows:
                if row["id"] in known:
                    conn.execute(update(table).where(table.c.id == row["id"]).values(**row, updated_at=now))
                    updated += 1
                else:
                    conn.execute(insert(table).values(**row, created_at=now, updated_at=now))
                    known.add(row["id"])
                    inserted += 1
        return inserted, updated

    def upsert_jobs(self, items: Iterable[Job], source: str = "") -> tuple[int, int]:
        rows = [{**asdict(job), "skills": list(job.skills), "source": source[:300]} for job in items]
        return self._upsert(jobs, rows)

    def upsert_candidates(self, items: Iterable[Candidate], source: str = "") -> tuple[int, int]:
        rows = [{**asdict(c), "skills": list(c.skills), "source": source[:300]} for c in items]
        return self._upsert(candidates, rows)

    def job(self, job_id: str) -> Job | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(jobs).where(jobs.c.id == job_id)).first()
        return _job(row) if row else None

    def candidate(self, candidate_id: str) -> Candidate | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(candidates).where(candidates.c.id == candidate_id)).first()
        return _candidate(row) if row else None

    def jobs(self) -> list[Job]:
        with self.engine.connect() as conn:
            return [_job(row) for row in conn.execute(select(jobs).order_by(jobs.c.id))]

    def candidates(self, search: str | None = None, limit: int | None = None) -> list[Candidate]:
        query = select(candidates).order_by(candidates.c.id)
        if search:
            like = f"%{search}%"
            query = query.where(or_(candidates.c.name.like(like), candidates.c.id.like(like),
                                    candidates.c.resume_text.like(like)))
        if limit:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            return [_candidate(row) for row in conn.execute(query)]

    def counts(self) -> dict[str, int]:
        with self.engine.connect() as conn:
            return {name: int(conn.execute(select(func.count()).select_from(table)).scalar() or 0)
                    for name, table in (("jobs", jobs), ("candidates", candidates), ("applications", applications))}

    def candidates_version(self) -> tuple[int, str]:
        """Changes whenever a candidate is added or updated: the matcher's index is rebuilt when it does."""
        with self.engine.connect() as conn:
            count, latest = conn.execute(select(func.count(), func.max(candidates.c.updated_at))).one()
        return int(count or 0), str(latest or "")

    def known_entities(self) -> tuple[set[str], set[str], set[str]]:
        """(candidate and job ids, candidate names, emails): what a reply may name without inventing it."""
        with self.engine.connect() as conn:
            people = conn.execute(select(candidates.c.id, candidates.c.name, candidates.c.email)).all()
            job_ids = set(conn.execute(select(jobs.c.id)).scalars())
        return ({p.id for p in people} | job_ids, {p.name for p in people}, {p.email for p in people if p.email})

    def names(self) -> list[str]:
        """The candidates' names and the jobs' titles: what a message names rather than says."""
        with self.engine.connect() as conn:
            return [*conn.execute(select(candidates.c.name)).scalars(), *conn.execute(select(jobs.c.title)).scalars()]

    # --- applications --------------------------------------------------------------------------------------
    def applications(self, *, job_id: str | None = None, status: str | None = None,
                     candidate_id: str | None = None) -> list[dict[str, Any]]:
        query = (select(applications, candidates.c.name.label("candidate_name"), jobs.c.title.label("job_title"))
                 .join(candidates, candidates.c.id == applications.c.candidate_id, isouter=True)
                 .join(jobs, jobs.c.id == applications.c.job_id, isouter=True)
                 .order_by(applications.c.job_id, applications.c.status, applications.c.candidate_id))
        for column, value in ((applications.c.job_id, job_id), (applications.c.status, status),
                              (applications.c.candidate_id, candidate_id)):
            if value:
                query = query.where(column == value)
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(query)]

    def add_application(self, candidate_id: str, job_id: str, status: str = "new",
                        history: Sequence[dict[str, Any]] = (), actor: str = "import") -> int:
        """An application with its history (oldest first); an existing one is left as it is."""
        if status not in APPLICATION_STATUSES:
            raise ValueError(f"unknown status {status!r}")
        steps = list(history) or [{"status": status, "at": datetime.now(UTC)}]
        first_at, last_at = steps[0]["at"], steps[-1]["at"]
        with self.engine.begin() as conn:
            existing = conn.execute(select(applications.c.id).where(
                applications.c.candidate_id == candidate_id, applications.c.job_id == job_id)).scalar()
            if existing is not None:
                return int(existing)
            app_id = conn.execute(insert(applications).values(
                candidate_id=candidate_id, job_id=job_id, status=status, created_at=first_at,
                updated_at=last_at)).inserted_primary_key[0]
            previous = None
            for step in steps:
                conn.execute(insert(application_history).values(
                    application_id=app_id, from_status=previous, to_status=step["status"], actor=actor,
                    note=step.get("note"), at=step["at"]))
                previous = step["status"]
        return int(app_id)

    def set_status(self, candidate_id: str, job_id: str, status: str, *, actor: str, note: str = "") -> dict[str, Any]:
        """Move an application to a stage, writing its history; an application is created if there is none."""
        if status not in APPLICATION_STATUSES:
            raise ValueError(f"unknown status {status!r}; stages: {', '.join(APPLICATION_STATUSES)}")
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            row = conn.execute(select(applications).where(
                applications.c.candidate_id == candidate_id, applications.c.job_id == job_id)).first()
            if row is None:
                app_id = conn.execute(insert(applications).values(
                    candidate_id=candidate_id, job_id=job_id, status=status, created_at=now,
                    updated_at=now)).inserted_primary_key[0]
                previous = None
            else:
                app_id, previous = row.id, row.status
                conn.execute(update(applications).where(applications.c.id == app_id).values(status=status, updated_at=now))
            conn.execute(insert(application_history).values(application_id=app_id, from_status=previous,
                                                            to_status=status, actor=actor, note=note or None, at=now))
        return {"application_id": int(app_id), "from_status": previous, "to_status": status}

    def history(self, application_id: int) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(
                select(application_history).where(application_history.c.application_id == application_id)
                .order_by(application_history.c.id))]

    # --- chat ------------------------------------------------------------------------------------------------
    def ensure_session(self, session_id: str, *, role: str, user_id: str) -> None:
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            if conn.execute(update(chat_sessions).where(chat_sessions.c.id == session_id)
                            .values(updated_at=now)).rowcount == 0:
                try:
                    conn.execute(insert(chat_sessions).values(id=session_id, user_id=user_id, role=role,
                                                              created_at=now, updated_at=now))
                except IntegrityError:
                    pass

    def add_message(self, session_id: str, role: str, content: str, run_id: str | None = None) -> None:
        """Keep one chat message, its personal identifiers masked with the session's vault: the history is a table
        anyone with the database reads (guardrails/personal_data.py)."""
        [content] = self.mask_pii(session_id, content)
        with self.engine.begin() as conn:
            conn.execute(insert(chat_messages).values(session_id=session_id, role=role, content=content, run_id=run_id,
                                                      created_at=datetime.now(UTC)))

    def recent_messages(self, session_id: str, limit: int = 20) -> list[dict[str, Any]]:
        """The session's last `limit` messages, oldest first."""
        query = (select(chat_messages.c.role, chat_messages.c.content, chat_messages.c.run_id,
                        chat_messages.c.created_at)
                 .where(chat_messages.c.session_id == session_id).order_by(chat_messages.c.id.desc()).limit(limit))
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in reversed(conn.execute(query).all())]

    def sessions(self, limit: int = 100) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(
                select(chat_sessions).order_by(chat_sessions.c.updated_at.desc()).limit(limit))]

    # --- the PII vault: kept here, never in a trace --------------------------------------------------------
    def vault_entries(self, session_id: str) -> dict[str, str]:
        return self.vault.entries(session_id)

    def mask_pii(self, session_id: str, *texts: str) -> list[str]:
        """The texts masked with the session's vault (see VaultTable.mask: parallel agents never number one
        placeholder twice)."""
        return self.vault.mask(session_id, texts, self.phone_regions)

    # --- workflows (seed §9): what is paused, for check_paused -----------------------------------------------
    def start_workflow(self, session_id: str, *, user_id: str, workflow_type: str, graph_name: str, thread_id: str,
                       status: str = "running", summary: str = "", plan_id: str = "") -> str:
        workflow_id, now = uuid.uuid4().hex, datetime.now(UTC)
        with self.engine.begin() as conn:
            conn.execute(insert(workflows).values(
                id=workflow_id, session_id=session_id, user_id=user_id, workflow_type=workflow_type, status=status,
                summary=summary, plan_id=plan_id, graph_name=graph_name, langgraph_thread_id=thread_id,
                created_at=now, updated_at=now))
        return workflow_id

    def set_workflow_status(self, workflow_id: str, status: str, summary: str | None = None) -> None:
        values: dict[str, Any] = {"status": status, "updated_at": datetime.now(UTC)}
        if summary is not None:
            values["summary"] = summary
        with self.engine.begin() as conn:
            conn.execute(update(workflows).where(workflows.c.id == workflow_id).values(**values))

    def paused_workflows(self, session_id: str) -> list[dict[str, Any]]:
        """The session's paused workflows, newest first."""
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(
                select(workflows).where(workflows.c.session_id == session_id, workflows.c.status == "paused")
                .order_by(workflows.c.updated_at.desc(), workflows.c.id))]

    def workflow(self, workflow_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(workflows).where(workflows.c.id == workflow_id)).first()
        return dict(row._mapping) if row else None

    def clear(self) -> None:
        """Delete every recruiting row (tests, and "reset demo data" on the data page)."""
        with self.engine.begin() as conn:
            for table in reversed(metadata.sorted_tables):
                conn.execute(delete(table))
