import importlib
import subprocess
import sys
from pathlib import Path

import graphwalk_neo4j


def test_all_lists_exactly_the_lazy_exports() -> None:
    assert graphwalk_neo4j.__all__ == ["__version__", *sorted(graphwalk_neo4j._EXPORTS)]


def test_every_public_name_resolves() -> None:
    for name in graphwalk_neo4j.__all__:
        assert getattr(graphwalk_neo4j, name) is not None, name


def test_importing_the_package_does_not_load_torch_or_touch_the_network() -> None:
    code = "import sys, graphwalk_neo4j; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_localserver_needs_only_the_standard_library() -> None:
    module = importlib.import_module("graphwalk_neo4j.localserver")
    source = open(module.__file__).read()  # noqa: SIM115
    assert "import graphwalk_neo4j" not in source and "from graphwalk_neo4j" not in source
    # `make neo4j-up` runs it with the system Python, before the virtualenv has any dependency: importing the
    # package must not pull in a third-party module.
    code = ("import sys, graphwalk_neo4j.localserver; "
            "print(sorted(m for m in ('numpy', 'pydantic', 'neo4j', 'click') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True,
                         cwd=str(Path(module.__file__).parents[1]))
    assert out.stdout.strip() == "[]"
