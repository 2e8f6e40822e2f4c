"""The few numpy calls of the Dutch engine, in plain Python, for where numpy is not
installed (a browser under Pyodide from the package registries has none).

Arrays of one or two dimensions of integers or booleans, with numpy's broadcasting,
fancy indexing and reductions as far as the engine uses them, and nothing more. The
server keeps numpy; ``tests/test_dutch_pure_fallback.py`` shows that both give the same
pairings on generated tournaments.

>>> a = array([[1, 2], [3, 4]], dtype=int64)
>>> (a - array([1, 3])[:, None]).tolist(), a.max(axis=0).tolist(), int(a.sum())
([[0, 1], [0, 1]], [3, 4], 10)
>>> flatnonzero(array([False, True, True])).tolist()
[1, 2]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


class _Dtype:
    """``int64``, ``intp`` and ``bool_``: a kind of element, and a cast when called."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __call__(self, value: Any) -> Any:
        return _cast(self.kind, value)


int64 = _Dtype("int")
intp = _Dtype("int")
bool_ = _Dtype("bool")


def _kind(dtype: Any, values: list[Any]) -> str:
    if isinstance(dtype, _Dtype):
        return dtype.kind
    if dtype is not None:
        return "bool" if dtype is bool else "int"
    return "bool" if values and all(isinstance(v, bool) for v in values) else "int"


def _cast(kind: str, value: Any) -> Any:
    return bool(value) if kind == "bool" else int(value)


class Array:
    """A one- or two-dimensional array: ``data`` row by row, ``shape``."""

    __slots__ = ("data", "kind", "shape")

    def __init__(self, data: list[Any], shape: tuple[int, ...], kind: str) -> None:
        self.data = data
        self.shape = shape
        self.kind = kind

    def __class_getitem__(cls, _item: object) -> type[Array]:
        return cls

    # -- shape -------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return len(self.data)

    def __len__(self) -> int:
        return self.shape[0]

    def _rows(self) -> int:
        return self.shape[0] if len(self.shape) == 2 else 1

    def _cols(self) -> int:
        return self.shape[-1]

    def _row(self, r: int) -> list[Any]:
        c = self._cols()
        return self.data[r * c : (r + 1) * c]

    def __iter__(self) -> Iterator[Any]:
        if len(self.shape) == 1:
            return iter(self.data)
        return (Array(self._row(r), (self._cols(),), self.kind) for r in range(self.shape[0]))

    # -- conversion --------------------------------------------------------------------

    def tolist(self) -> list[Any]:
        if len(self.shape) == 1:
            return list(self.data)
        return [self._row(r) for r in range(self.shape[0])]

    def tobytes(self) -> bytes:
        return bytes(1 if v else 0 for v in self.data)

    def copy(self) -> Array:
        return Array(list(self.data), self.shape, self.kind)

    def astype(self, dtype: Any) -> Array:
        kind = _kind(dtype, [])
        return Array([_cast(kind, v) for v in self.data], self.shape, kind)

    # -- indexing ----------------------------------------------------------------------

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, IxKey):
            c = self._cols()
            data = [self.data[r * c + k] for r in key.rows for k in key.cols]
            return Array(data, (len(key.rows), len(key.cols)), self.kind)
        if isinstance(key, tuple):
            first, second = key
            if first is None:  # [None, :]
                return Array(list(self.data), (1, self.size), self.kind)
            if second is None:  # [:, None]
                return Array(list(self.data), (self.size, 1), self.kind)
            c = self._cols()
            if isinstance(first, int) and isinstance(second, int):
                return self.data[first * c + second]
            if isinstance(first, int):
                cols = _indices(second)
                return Array([self.data[first * c + k] for k in cols], (len(cols),), self.kind)
            if isinstance(first, slice):
                taken = range(self._rows())[first]
                cols = _indices(second)
                data = [self.data[r * c + k] for r in taken for k in cols]
                return Array(data, (len(taken), len(cols)), self.kind)
            rows, cols = _indices(first), _indices(second)
            data = [self.data[r * c + k] for r, k in zip(rows, cols, strict=True)]
            return Array(data, (len(rows),), self.kind)
        if isinstance(key, int):
            if len(self.shape) == 1:
                return self.data[key]
            return Array(self._row(key), (self._cols(),), self.kind)
        if isinstance(key, slice):
            if len(self.shape) == 1:
                data = self.data[key]
                return Array(data, (len(data),), self.kind)
            span = range(self.shape[0])[key]
            data = [v for r in span for v in self._row(r)]
            return Array(data, (len(span), self._cols()), self.kind)
        if isinstance(key, Array) and key.kind == "bool":
            data = [v for v, keep in zip(self.data, key.data, strict=True) if keep]
            return Array(data, (len(data),), self.kind)
        rows = _indices(key)
        if len(self.shape) == 1:
            return Array([self.data[r] for r in rows], (len(rows),), self.kind)
        data = [v for r in rows for v in self._row(r)]
        return Array(data, (len(rows), self._cols()), self.kind)

    def __setitem__(self, key: Any, value: Any) -> None:
        kind = self.kind
        if isinstance(key, tuple):
            r, k = key
            self.data[r * self._cols() + k] = _cast(kind, value)
        elif isinstance(key, int):
            if len(self.shape) != 1:
                raise TypeError("a whole row is set through a slice")
            self.data[key] = _cast(kind, value)
        elif isinstance(key, slice):
            rows = range(self._rows())[key]
            c = self._cols()
            source = value if isinstance(value, Array) else array(value)
            for index, r in enumerate(rows):
                for k in range(c):
                    self.data[r * c + k] = _cast(kind, source.data[index * c + k])
        else:
            places = _indices(key)
            values = value.data if isinstance(value, Array) else [value] * len(places)
            for place, item in zip(places, values, strict=True):
                self.data[place] = _cast(kind, item)

    # -- arithmetic --------------------------------------------------------------------

    def _binary(self, other: Any, op: Callable[[Any, Any], Any], kind: str | None) -> Array:
        return _broadcast(self, other, op, kind)

    def __add__(self, other: Any) -> Array:
        return self._binary(other, lambda a, b: a + b, "int")

    def __sub__(self, other: Any) -> Array:
        return self._binary(other, lambda a, b: a - b, "int")

    def __and__(self, other: Any) -> Array:
        return self._binary(other, lambda a, b: bool(a) and bool(b), "bool")

    def __or__(self, other: Any) -> Array:
        return self._binary(other, lambda a, b: bool(a) or bool(b), "bool")

    def __iand__(self, other: Any) -> Array:
        result = self & other
        self.data, self.shape = result.data, result.shape
        return self

    def __eq__(self, other: object) -> Array:  # type: ignore[override]
        return self._binary(other, lambda a, b: a == b, "bool")

    def __gt__(self, other: Any) -> Array:
        return self._binary(other, lambda a, b: a > b, "bool")

    def __ge__(self, other: Any) -> Array:
        return self._binary(other, lambda a, b: a >= b, "bool")

    def __invert__(self) -> Array:
        return Array([not v for v in self.data], self.shape, "bool")

    __hash__ = None  # type: ignore[assignment]

    # -- reductions --------------------------------------------------------------------

    def _reduce(self, axis: int | None, fold: Callable[[list[Any]], Any], kind: str) -> Any:
        if axis is None or len(self.shape) == 1:
            return fold(self.data)
        rows, cols = self.shape
        if axis == 0:
            data = [fold(self.data[k::cols]) for k in range(cols)]
        else:
            data = [fold(self._row(r)) for r in range(rows)]
        return Array(data, (len(data),), kind)

    def sum(self, axis: int | None = None) -> Any:
        return self._reduce(axis, lambda values: sum(int(v) for v in values), "int")

    def any(self, axis: int | None = None) -> Any:
        return self._reduce(axis, any, "bool")

    def max(self, axis: int | None = None) -> Any:
        return self._reduce(axis, max, self.kind)

    def min(self, axis: int | None = None) -> Any:
        return self._reduce(axis, min, self.kind)

    def argmax(self, axis: int | None = None) -> Any:
        return self._reduce(axis, lambda values: values.index(max(values)), "int")


NDArray = Array
ndarray = Array


class IxKey:
    """What :func:`ix_` gives: the rows and the columns of a submatrix."""

    def __init__(self, rows: list[int], cols: list[int]) -> None:
        self.rows = rows
        self.cols = cols


def _indices(key: Any) -> list[int]:
    if isinstance(key, Array):
        if key.kind == "bool":
            return [i for i, v in enumerate(key.data) if v]
        return list(key.data)
    return [int(k) for k in key]


def _broadcast(left: Any, right: Any, op: Callable[[Any, Any], Any], kind: str | None) -> Array:
    a = left if isinstance(left, Array) else Array([left], (), "int")
    b = right if isinstance(right, Array) else Array([right], (), "int")
    ar, ac = a.shape[:2] if len(a.shape) == 2 else (1, a.shape[0] if a.shape else 1)
    br, bc = b.shape[:2] if len(b.shape) == 2 else (1, b.shape[0] if b.shape else 1)
    rows, cols = max(ar, br), max(ac, bc)
    if ar not in (1, rows) or br not in (1, rows) or ac not in (1, cols) or bc not in (1, cols):
        raise ValueError("shapes do not broadcast")
    data = [
        op(
            a.data[(r if ar > 1 else 0) * ac + (k if ac > 1 else 0)],
            b.data[(r if br > 1 else 0) * bc + (k if bc > 1 else 0)],
        )
        for r in range(rows)
        for k in range(cols)
    ]
    two = len(a.shape) == 2 or len(b.shape) == 2
    shape = (rows, cols) if two else (cols,)
    return Array(data, shape, kind or a.kind)


# -- the module's functions ------------------------------------------------------------


def array(values: Any, dtype: Any = None) -> Array:
    if isinstance(values, Array):
        kind = _kind(dtype, []) if dtype is not None else values.kind
        return Array([_cast(kind, v) for v in values.data], values.shape, kind)
    items = list(values)
    if items and isinstance(items[0], (list, tuple, Array)):
        rows = [list(row) for row in items]
        flat = [v for row in rows for v in row]
        kind = _kind(dtype, flat)
        return Array([_cast(kind, v) for v in flat], (len(rows), len(rows[0])), kind)
    kind = _kind(dtype, items)
    return Array([_cast(kind, v) for v in items], (len(items),), kind)


asarray = array


def _filled(shape: Any, value: Any, dtype: Any) -> Array:
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    count = 1
    for d in dims:
        count *= d
    kind = _kind(dtype, [value])
    return Array([_cast(kind, value)] * count, dims, kind)


def zeros(shape: Any, dtype: Any = None) -> Array:
    return _filled(shape, 0, dtype or int64)


def ones(shape: Any, dtype: Any = None) -> Array:
    return _filled(shape, 1, dtype or int64)


def empty(shape: Any, dtype: Any = None) -> Array:
    return _filled(shape, 0, dtype or int64)


def full(shape: Any, value: Any, dtype: Any = None) -> Array:
    return _filled(shape, value, dtype)


def arange(count: int) -> Array:
    return Array(list(range(count)), (count,), "int")


def where(condition: Array, yes: Any, no: Any) -> Array:
    chosen = _broadcast(condition, yes, lambda c, y: (c, y), "int")
    return _broadcast(chosen, no, lambda cy, n: cy[1] if cy[0] else n, "int")


def maximum(a: Array, b: Array) -> Array:
    return _broadcast(a, b, max, a.kind)


def array_equal(a: Array, b: Array) -> bool:
    return a.shape == b.shape and a.data == b.data


def flatnonzero(a: Array) -> Array:
    found = [i for i, v in enumerate(a.data) if v]
    return Array(found, (len(found),), "int")


def outer(a: Array, b: Array) -> Array:
    if a.kind == "bool" and b.kind == "bool":
        data: list[Any] = [x and y for x in a.data for y in b.data]
    else:
        data = [x * y for x in a.data for y in b.data]
    return Array(data, (a.size, b.size), a.kind)


def fill_diagonal(a: Array, value: Any) -> None:
    for i in range(min(a.shape)):
        a[i, i] = value


def ix_(rows: Any, cols: Any) -> IxKey:
    return IxKey(_indices(rows), _indices(cols))


def unique(values: Array, return_index: bool = False) -> Any:
    first: dict[Any, int] = {}
    for index, value in enumerate(values.data):
        first.setdefault(value, index)
    keys = sorted(first)
    found = Array(keys, (len(keys),), values.kind)
    if not return_index:
        return found
    return found, Array([first[k] for k in keys], (len(keys),), "int")
