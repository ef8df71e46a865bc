import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import graphwalk_neo4j

PACKAGE_ROOT = Path(graphwalk_neo4j.__file__).resolve().parents[1]


def _type_checking_imports() -> set[str]:
    """The names the package's ``if TYPE_CHECKING:`` block imports (what a type checker sees)."""
    tree = ast.parse(Path(graphwalk_neo4j.__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    return {
        alias.asname or alias.name for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names
    }


def test_all_is_what_the_package_exposes() -> None:
    public = [name for name in graphwalk_neo4j.__all__ if name != "__version__"]
    assert public == sorted(public)
    # the lazy runtime exports, and what a type checker sees, are the same names as __all__
    assert set(public) == set(graphwalk_neo4j._EXPORTS) == _type_checking_imports()
    for name in public:
        value = getattr(graphwalk_neo4j, name)
        defining = importlib.import_module(graphwalk_neo4j._EXPORTS[name])
        assert value is getattr(defining, name), name
    assert graphwalk_neo4j.__version__ == "0.1.0"


def test_unknown_attribute_raises() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        graphwalk_neo4j.no_such_name  # noqa: B018 - the attribute access is the test


def test_importing_the_package_does_not_load_torch_or_touch_the_network() -> None:
    code = "import sys, graphwalk_neo4j; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_localserver_needs_only_the_standard_library() -> None:
    # `make neo4j-up` runs it with the system Python, before the virtualenv has any dependency. With -S there is
    # no site-packages at all, so any third-party import anywhere on the way fails here.
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import graphwalk_neo4j.localserver; "
        "print(sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names) "
        "- {'graphwalk_neo4j', '__main__'}))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(PACKAGE_ROOT)], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
