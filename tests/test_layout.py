"""The layout rules anyone can check: no import cycle between app modules, guardrails never imports chat.

Reads the source with `ast` (nothing is imported), so an import inside a function counts like any other.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bookly_project", "chat", "guardrails", "orders", "staff")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _app_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                modules[_module_name(path)] = path
    return modules


def _longest_known(name: str, known: set[str]) -> str | None:
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in known:
            return ".".join(parts[:end])
    return None


def _imported(node: ast.AST, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The app modules one import statement names (`from chat import api` names chat.api)."""
    if isinstance(node, ast.Import):
        return {hit for alias in node.names if (hit := _longest_known(alias.name, known))}
    if not isinstance(node, ast.ImportFrom):
        return set()
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    found = set()
    for alias in node.names:
        if f"{source}.{alias.name}" in known:
            found.add(f"{source}.{alias.name}")
        elif hit := _longest_known(source, known):
            found.add(hit)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = _app_modules()
    known = set(modules)
    graph = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        targets: set[str] = set()
        for node in ast.walk(tree):
            targets |= _imported(node, module, path.name == "__init__.py", known)
        graph[module] = targets - {module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_app_modules_import_each_other_without_a_cycle():
    assert _cycles(import_graph()) == []


def test_guardrails_never_imports_chat():
    offending = {
        module: sorted(target for target in targets if target == "chat" or target.startswith("chat."))
        for module, targets in import_graph().items()
        if module.startswith("guardrails")
    }
    assert {module: targets for module, targets in offending.items() if targets} == {}


def test_the_walk_sees_the_imports_it_checks():
    """The graph is not empty by accident: known edges of the layout are there."""
    graph = import_graph()
    assert "chat.agent.loop" in graph["chat.runs"]
    assert "guardrails.checks" in graph["chat.agent.loop"]
    assert "orders.services" in graph["guardrails.checks"]


def test_a_cycle_is_reported():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
