"""The coder's sandbox, with real child processes: what runs, what is stopped, and the one line that says why."""

from __future__ import annotations

import socket
import time

import openpyxl
import pytest

from pipelines.deep_research.sandbox import DEFAULT_ALLOWED_IMPORTS, SandboxLimits, _child_env, check_code, run_python

SALES = b"region,amount\nnorth,10\nsouth,5\nnorth,7\n"
TOTALS = "import pandas as pd\nsales = pd.read_csv('sales.csv')\nprint(sales.groupby('region').amount.sum().to_dict())"
# pandas keeps the os module in reach as an attribute: the way a program gets past the static check to the runtime guards
PANDAS_OS = "import pandas as pd\nos = pd.io.common.os\n"

pytestmark = pytest.mark.usefixtures("os_sandbox")  # every program here runs inside bubblewrap


def test_a_program_prints_and_the_result_says_ok():
    result = run_python("print('hello')\nprint(6 * 7)")
    assert (result.ok, result.kind, result.error, result.stdout) == (True, "ok", "", "hello\n42\n")
    assert result.duration_ms > 0


@pytest.mark.parametrize("as_path", [False, True], ids=["bytes", "path"])
def test_pandas_groups_a_csv_handed_over_as_bytes_or_as_a_path(tmp_path, as_path):
    source = tmp_path / "upload.csv"
    source.write_bytes(SALES)
    result = run_python(TOTALS, files={"sales.csv": source if as_path else SALES})
    assert result.ok, result.error
    assert result.stdout == "{'north': 17, 'south': 5}\n"
    assert source.read_bytes() == SALES  # the sandbox worked on a copy


def test_excel_tables_are_read_and_written_inside_the_sandbox(tmp_path):
    book = openpyxl.Workbook()
    for row in (["region", "amount"], ["north", 10], ["south", 5]):
        book.active.append(row)
    book.save(tmp_path / "sales.xlsx")
    code = ("import pandas as pd\nsales = pd.read_excel('sales.xlsx')\nsales.to_excel('copy.xlsx', index=False)\n"
            "print(pd.read_excel('copy.xlsx').amount.sum())")
    result = run_python(code, files={"sales.xlsx": tmp_path / "sales.xlsx"})
    assert (result.kind, result.stdout) == ("ok", "15\n"), result.error


def test_an_endless_loop_is_stopped_at_the_time_limit_and_keeps_what_it_printed():
    started = time.monotonic()
    result = run_python("print('started')\nwhile True:\n    pass", limits=SandboxLimits(timeout_s=2))
    assert time.monotonic() - started < 4
    assert (result.ok, result.kind, result.error) == (False, "timeout", "stopped after 2 s (time limit)")
    assert result.stdout == "started\n"


@pytest.mark.parametrize("code", ["data = bytearray(4 * 1024 ** 3)",
                                  "rows = []\nwhile True:\n    rows.append([0] * 100_000)"], ids=["at-once", "growing"])
def test_a_huge_allocation_runs_out_of_memory(code):
    result = run_python(code, limits=SandboxLimits(memory_mb=256))
    assert (result.ok, result.kind, result.error) == (False, "memory", "ran out of memory (limit 256 MB)")


@pytest.mark.parametrize("code, module, line", [
    ("import os", "os", 1),
    ("import subprocess", "subprocess", 1),
    ("import math\nfrom socket import socket", "socket", 2),
    ("__import__('os')", "os", 1),
    ("import os.path", "os", 1),
    ("def helper():\n    import shutil", "shutil", 2),
])
def test_imports_outside_the_allowed_set_are_refused_before_anything_runs(code, module, line):
    result = run_python(code)
    assert (result.ok, result.kind, result.duration_ms) == (False, "forbidden_import", 0.0)
    assert result.error.startswith(f"import of '{module}' is not allowed (line {line}); allowed: collections, csv, ")
    assert "\n" not in result.error
    assert check_code(code) == result


@pytest.mark.parametrize("code, reason", [
    ("print(eval('1 + 1'))", "eval() is not allowed (line 1)"),
    ("exec('x = 1')", "exec() is not allowed (line 1)"),
    ("code = compile('1', 'x', 'eval')", "compile() is not allowed (line 1)"),
    ("print(().__class__.__base__)", "access to '__class__' is not allowed (line 1)"),
    ("def f():\n    pass\nprint(f.__globals__)", "access to '__globals__' is not allowed (line 3)"),
    ("print(getattr(1, '__subclasses__'))", "access to '__subclasses__' is not allowed (line 1)"),
    ("print(__builtins__)", "'__builtins__' is not allowed (line 1)"),
])
def test_escape_hatches_are_refused_before_anything_runs(code, reason):
    result = check_code(code)
    assert result is not None and (result.kind, result.error) == ("forbidden_call", reason)


def test_relative_imports_are_refused():
    assert check_code("from . import helpers").error == "relative imports are not allowed (line 1)"


def test_ordinary_data_code_passes_the_static_check():
    code = ("from __future__ import annotations\nimport numpy as np\nfrom collections import Counter\n"
            "class Row:\n    def __init__(self):\n        super().__init__()\nprint(np.__version__, type(1).__name__)")
    assert check_code(code) is None
    assert check_code(TOTALS) is None


def test_syntax_errors_name_their_line():
    result = run_python("total = 1\nif total > 0\n    print(total)")
    assert result.kind == "syntax" and result.error.startswith("SyntaxError: ") and result.error.endswith("(line 2)")
    assert check_code("rows = [1]\nreturn rows").error == "SyntaxError: 'return' outside function (line 2)"


def test_an_uncaught_exception_points_at_the_users_line_not_the_sandboxs():
    result = run_python("rows = [1, 2]\nzero = 0\nprint(sum(rows) / zero)")
    assert (result.ok, result.kind, result.error) == (False, "error", "ZeroDivisionError: division by zero (line 3)")
    inside_pandas = run_python(TOTALS.replace("amount.sum()", "missing.sum()"), files={"sales.csv": SALES})
    assert inside_pandas.error == "AttributeError: 'DataFrameGroupBy' object has no attribute 'missing' (line 3)"


def test_the_runtime_guard_refuses_an_import_the_static_check_cannot_see():
    code = "import pandas as pd\nname = '__imp' + 'ort__'\nload = getattr(pd.core.common.builtins, name)\nload('os')"
    assert check_code(code) is None
    result = run_python(code)
    assert result.kind == "forbidden_import"
    assert result.error.startswith("import of 'os' is not allowed (line 4); allowed: collections, ")


def test_starting_a_process_is_refused_even_through_a_library(tmp_path):
    marker = tmp_path / "ran"
    result = run_python(PANDAS_OS + f"os.system('touch {marker}')")
    assert (result.kind, result.error) == ("forbidden_call", "starting processes is not allowed (line 3)")
    assert not marker.exists()


@pytest.mark.parametrize("code, line", [
    ("import socket\nconnection = socket.socket()\ntry:\n    connection.connect(('127.0.0.1', {port}))\n"
     "except Exception:\n    print('swallowed')", 4),
    ("import pandas as pd\nprint(pd.read_csv('http://127.0.0.1:{port}/sales.csv'))", 2),
], ids=["socket", "pandas-url"])
def test_network_access_is_refused_and_the_server_sees_no_connection(code, line):
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        result = run_python(code.format(port=port), limits=SandboxLimits(allowed_imports=DEFAULT_ALLOWED_IMPORTS | {"socket"}))
        server.settimeout(0.2)
        with pytest.raises(TimeoutError):
            server.accept()
    # a refusal the program catches still decides the outcome
    assert (result.ok, result.kind, result.error) == (False, "network", f"network access is not allowed (line {line})")


def test_files_are_written_in_the_working_directory_and_nowhere_else(tmp_path):
    inside = run_python("with open('notes.txt', 'w') as out:\n    out.write('kept')\nprint(open('notes.txt').read())")
    assert (inside.kind, inside.stdout) == ("ok", "kept\n")
    target = tmp_path / "escaped.txt"
    outside = run_python(f"with open({str(target)!r}, 'w') as out:\n    out.write('x')")
    assert (outside.kind, outside.error) == (
        "forbidden_call", f"writing '{target}' is not allowed outside the working directory (line 1)")
    assert not target.exists()


def test_the_parents_secrets_stay_out_of_the_child(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "secret")
    assert run_python("import os\nprint(os.environ)").kind == "forbidden_import"
    listed = run_python(PANDAS_OS + "print(sorted(os.environ))")
    assert listed.ok and "OPENAI_API_KEY" not in listed.stdout
    peeked = run_python(PANDAS_OS + "print(open(f'/proc/{os.getppid()}/environ').read())")
    assert peeked.kind == "forbidden_call" and peeked.error.startswith("reading '/proc/")
    assert "secret" not in peeked.stdout


def test_the_child_environment_is_built_from_nothing_of_the_parents(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "secret")
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy:3128")
    env = _child_env(tmp_path / "work", tmp_path / "tmp")
    assert {"PATH", "HOME", "LANG"} <= set(env)
    assert not {"OPENAI_API_KEY", "HTTPS_PROXY"} & set(env)
    assert env["HOME"] == str(tmp_path / "work") and env["TMPDIR"] == str(tmp_path / "tmp")
    assert "secret" not in "".join(env.values())


def test_long_output_is_cut_with_a_note():
    cut = run_python("print('x' * 5000)", limits=SandboxLimits(max_output_chars=1000))
    assert cut.ok
    assert cut.stdout == "x" * 1000 + "\n[output cut: showing the first 1,000 of 5,001 characters]"
    fits = run_python("print('x' * 999)", limits=SandboxLimits(max_output_chars=1000))
    assert fits.stdout == "x" * 999 + "\n"


@pytest.mark.parametrize("name", ["../escape.csv", "sub/sales.csv", "..", ""])
def test_file_names_with_folders_are_refused(name):
    result = run_python("print(1)", files={name: SALES})
    assert (result.ok, result.kind) == (False, "error")
    assert result.error == f"file name {name!r} is not allowed: use a plain file name without folders"
