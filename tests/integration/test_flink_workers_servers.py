"""The real batch workers (the whole diagnosis graph per exception) sharing one queue on MariaDB and PostgreSQL."""

from __future__ import annotations

import pytest

from pipelines.core.settings import load_settings
from pipelines.flink_diagnosis import services
from pipelines.flink_diagnosis.worker_pool import run_workers

pytestmark = pytest.mark.services

MESSAGES = ["java.lang.OutOfMemoryError: Java heap space",
            "org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired before completing.",
            "java.io.IOException: Insufficient number of network buffers: required 65, but only 12 available.",
            "org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the "
            "minimum required resources."]


@pytest.mark.parametrize("server", ["mariadb", "postgres"])
def test_four_workers_diagnose_every_exception_once_on_a_shared_queue(server, request, tmp_path):
    url = request.getfixturevalue(f"{server}_url")
    settings = load_settings(data_dir=str(tmp_path / "data"), db_url=url)
    store = services.open_store(settings)
    store.purge()
    try:
        ids = store.add_many([{"job_id": f"{server}-{i}", "error_message": MESSAGES[i % 4]} for i in range(40)])
        reports = run_workers(settings, workers=4, until_empty=True, poll_s=0.2)
        done = sorted(i for r in reports for i in r.exception_ids)
        assert done == ids
        assert store.count_by_status() == {"pending": 0, "in_progress": 0, "completed": 40, "failed": 0}
        categories = {row["job_id"]: row["diagnosis"]["category"] for row in store.list_exceptions(limit=100)}
        assert categories[f"{server}-0"] == "oom_heap" and categories[f"{server}-3"] == "resource_unavailable_slots"
        # Accumulated cases went to the same SQL database, each error pattern once.
        assert store.case_count(source="accumulated") <= 4
    finally:
        store.purge()
        services.close_all()
