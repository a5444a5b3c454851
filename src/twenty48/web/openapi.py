"""The OpenAPI document's integer bounds, written exactly.

FastAPI passes every schema through its own OpenAPI model, whose ``maximum`` and ``minimum`` are
floats: a revision's bound 2**63 - 1 came out as ``9.223372036854776e+18``, which is 2**63, a
number the API refuses. Pydantic's own schema of each model keeps the integers; ``exact_bounds``
copies them back over the floats, wherever the two schemas have the same shape.

The models are found by the component names FastAPI gives them (their class names): every
pydantic model of this package (``twenty48.web``'s request and answer models).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

#: The JSON Schema keywords that bound a number.
_BOUNDS = ("maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf")
#: The suffixes FastAPI gives a model's two schemas when they differ, and the mode of each.
_MODES = {"-Input": "validation", "-Output": "serialization"}


def exact_bounds(document: dict[str, Any]) -> None:
    """Write back, in ``document``'s component schemas, the integer bounds of this package's
    models that FastAPI turned into floats."""
    models = _models()
    for name, schema in document.get("components", {}).get("schemas", {}).items():
        base, mode = name, "validation"
        for suffix, suffix_mode in _MODES.items():
            if name.endswith(suffix):
                base, mode = name.removesuffix(suffix), suffix_mode
        model = models.get(base)
        if model is not None:
            _copy_bounds(model.model_json_schema(mode=mode), schema)  # type: ignore[arg-type]


def _models() -> dict[str, type[BaseModel]]:
    found: dict[str, type[BaseModel]] = {}
    unseen: list[type[BaseModel]] = [BaseModel]
    while unseen:
        for model in unseen.pop().__subclasses__():
            unseen.append(model)
            if model.__module__.startswith("twenty48."):
                found[model.__name__] = model
    return found


def _copy_bounds(exact: Any, lossy: Any) -> None:
    if isinstance(exact, dict) and isinstance(lossy, dict):
        for key, value in exact.items():
            if key in _BOUNDS and isinstance(value, int) and key in lossy:
                lossy[key] = value
            elif key in lossy:
                _copy_bounds(value, lossy[key])
    elif isinstance(exact, list) and isinstance(lossy, list) and len(exact) == len(lossy):
        for exact_item, lossy_item in zip(exact, lossy, strict=True):
            _copy_bounds(exact_item, lossy_item)
