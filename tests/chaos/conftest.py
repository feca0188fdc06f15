"""The fault suite runs with `make chaos` (-m chaos); a plain `make test` runs only its `ci` subset."""

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "chaos" in (config.option.markexpr or ""):
        return
    slow = [item for item in items if item.get_closest_marker("chaos") and not item.get_closest_marker("ci")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item not in slow]
