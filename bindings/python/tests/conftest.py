import os
import pathlib

import pytest

REPO = pathlib.Path(os.environ.get("VCSCHED_REPO", pathlib.Path(__file__).resolve().parents[3]))


@pytest.fixture
def repo() -> pathlib.Path:
    return REPO


@pytest.fixture
def cli() -> str:
    return os.environ.get("VCSCHED_CLI", str(REPO / "build" / "vcsched"))
