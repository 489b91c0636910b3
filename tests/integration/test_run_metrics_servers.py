"""The Metrics page's queries on PostgreSQL and MariaDB: real CareerNavigator runs, read back as frames."""

import pytest

from pipelines.career_navigator.satisfaction import satisfaction_frame
from pipelines.core.storage.checkpoints import open_checkpointer
from pipelines.core.trace.run_metrics import RunFilter, filter_options, load_run_metrics, thread_frame
from pipelines.core.storage.runstore import RunStore
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from tests.support.driving import run_with_answers

pytestmark = pytest.mark.services


@pytest.mark.parametrize("which", ["postgres", "mariadb"])
def test_frames_of_real_runs_on_server_databases(which, request, spec, tmp_path):
    url = request.getfixturevalue(f"{which}_url")
    if which == "postgres":
        url = url.replace("postgresql://", "postgresql+psycopg://")
    studio = Studio(open_checkpointer("memory"), RunStore(url))
    settings = load_settings(data_dir=str(tmp_path))
    ids = {}
    try:
        for name in ("seed_example", "iteration_limit"):
            scenario = spec.scenario(name)
            session = studio.new_session(spec, scenario.input, settings, scenario=name)
            run_with_answers(session, scenario.answers)
            ids[name] = session.thread_id
        engine = studio.runs.engine
        # Other runs may share the server's database: look at these two only.
        assert "career_navigator" in filter_options(engine).workflows
        metrics = load_run_metrics(engine, RunFilter(workflows=("career_navigator",), providers=("offline engine",)))
        runs = metrics.threads.set_index("thread_id").loc[list(ids.values())]
        assert set(runs["status"]) == {"completed"} and (runs["steps"] == 14).all()
        assert runs.loc[ids["iteration_limit"], "iterations"] == {"iteration_count": 2, "plan_revision_count": 0}
        assert runs.loc[ids["iteration_limit"], "limits"]["iteration_count"] == 2
        tasks = metrics.tasks[metrics.tasks["thread_id"] == ids["seed_example"]]
        records = studio.runs.load_steps(ids["seed_example"])
        assert len(tasks) == sum(1 for r in records for t in r.tasks if t.node != "__input__")
        assert tasks["calls"].sum() == sum(len(t.model_calls) for r in records for t in r.tasks)
        assert (tasks["cost_usd"] == 0).all()
        feedback = satisfaction_frame(engine, RunFilter(workflows=("career_navigator",)))
        seed = feedback[feedback["thread_id"] == ids["seed_example"]]
        assert list(seed["level"]) == [a["satisfaction_level"] for a in spec.scenario("seed_example").answers]
        day = runs.loc[ids["seed_example"], "created"].date()
        assert ids["seed_example"] in set(thread_frame(engine, RunFilter(first_day=day, last_day=day))["thread_id"])
    finally:
        for thread_id in ids.values():
            studio.runs.delete_thread(thread_id)
        studio.close()
