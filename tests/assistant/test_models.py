"""The default models follow the installed SDK (issue 28): neither is retiring, both are models the
SDK knows, and `config set model` says so when the model chosen is retiring."""
from __future__ import annotations

from typing import Any

import pytest

from assistant.cli import main
from assistant.models import known_models, retirement
from assistant.settings import DEFAULT_MODEL, DEFAULT_REFLECTION_MODEL


@pytest.mark.parametrize("model", [DEFAULT_MODEL, DEFAULT_REFLECTION_MODEL])
def test_a_default_model_is_one_the_sdk_knows_and_is_not_retiring(model: str) -> None:
    assert model in known_models()
    assert retirement(model) is None, f"{model} retires on {retirement(model)}: choose a current default"


def test_the_retiring_list_is_read_from_the_installed_sdk() -> None:
    from anthropic._data import DEPRECATED_MODELS

    retiring = next(iter(DEPRECATED_MODELS))
    assert retirement(retiring) == str(DEPRECATED_MODELS[retiring])


def test_config_set_model_warns_about_a_retiring_model_and_still_saves_it(home: Any, capsys: Any) -> None:
    from anthropic._data import DEPRECATED_MODELS

    retiring = next(iter(DEPRECATED_MODELS))
    assert main(["config", "set", "model", retiring]) == 0
    said = capsys.readouterr()
    assert f"{retiring} is being retired on" in said.err and DEFAULT_MODEL in said.err
    assert main(["config", "get", "model"]) == 0
    assert capsys.readouterr().out.strip() == retiring
    assert main(["config", "set", "model", DEFAULT_MODEL]) == 0
    assert "retired" not in capsys.readouterr().err
