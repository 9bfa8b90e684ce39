"""Pair counts at leaderboard scale: a matrix read a block at a time, or spread over Dask workers.

Every all-pairs statistic of a models x questions 0/1 matrix (discordant counts for McNemar, phi,
agreement) follows from three exact things: each model's number right, the number of questions, and
the co-occurrence counts ``both[i, j]`` (questions that models ``i`` and ``j`` both got right). This
module computes them from sources too big to hold as one int64 array:

=========================================  ==================================================================
:func:`pair_counts`                        from an array, a memory-mapped ``.npy`` file or a wide Parquet file
                                           (``ParquetMatrix``), one block of questions at a time
:func:`pair_counts_dask`                   from a Dask array or a ``.npy`` file, one output tile per Dask task
:class:`PairCounts`                        the counts, with ``discordant()`` and ``phi_float()``
=========================================  ==================================================================

Each block's product runs in float32 on at most 2**24 questions, where every partial sum is a whole
number below 2**24 and so exact, and blocks are added in float64 (exact below 2**53): the counts are
exact integers, checked against brute force in the tests. Every block is checked to hold only 0 and 1
before it is used; a bad cell is named by model and question.

Why Dask for more than one machine: its arrays are NumPy arrays cut into blocks, so the same block
kernel runs unchanged on each output tile; it reads memory maps, Zarr and Parquet lazily; and one
``Client`` line moves the work from local processes to a cluster. DuckDB and Polars would read the
data well but have no dense k x k product; Spark would bring a JVM for one matrix product.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._blockwise import BLOCK_CELLS, EXACT_FLOAT32, block_step, co_occurrence, cross_product, phi_from_counts
from ._lazy import np
from ._validate import ExactStatsError


@dataclass(frozen=True)
class PairCounts:
    """Exact counts behind every all-pairs statistic of a models x questions 0/1 matrix."""

    right: np.ndarray  # int64, questions each model got right
    both: np.ndarray  # int64 k x k, questions both models got right (diagonal: right)
    questions: int

    @classmethod
    def of_matrix(cls, M: np.ndarray) -> PairCounts:
        """The counts of an in-memory 0/1 matrix already checked (no second scan): one blockwise product.

        >>> PairCounts.of_matrix(np.array([[1, 1, 0], [1, 0, 1]])).both.tolist()
        [[2, 1], [1, 2]]
        """
        return cls(M.sum(axis=1), co_occurrence(M), M.shape[1])

    def discordant(self) -> tuple[np.ndarray, np.ndarray]:
        """``(b, c)``: ``b[i, j]`` questions only model ``i`` got right, ``c = b.T``.

        >>> b, c = pair_counts(np.array([[1, 1, 0], [1, 0, 1]])).discordant()
        >>> b.tolist(), c.tolist()
        ([[0, 1], [1, 0]], [[0, 1], [1, 0]])
        """
        b = self.right[:, None] - self.both
        return b, b.T.copy()

    def phi_float(self) -> np.ndarray:
        """Pairwise phi (Pearson's r of the 0/1 rows), in floats from the exact counts; a constant row is refused.

        >>> pair_counts(np.array([[1, 1, 0, 0], [1, 0, 0, 0]])).phi_float().round(4).tolist()
        [[1.0, 0.5774], [0.5774, 1.0]]
        """
        return phi_from_counts(self.right, self.both, self.questions, "matrix")


def _checked_block(block: Any, first_question: int, first_model: int = 0) -> Any:
    """The block as int8 after checking every cell is 0 or 1 (the first bad cell named)."""
    block = np.asarray(block)
    if block.dtype == np.bool_:
        return block.view(np.int8)
    bad = (block != 0) & (block != 1)
    if np.any(bad):
        i, j = np.argwhere(bad)[0]
        raise ExactStatsError(
            f"matrix cell (model {first_model + int(i)}, question {first_question + int(j)}) must be 0 or 1, "
            f"got {block[i, j].item()!r}"
        )
    return block.astype(np.int8, copy=False)


def pair_counts(source: Any, block_cells: int = BLOCK_CELLS) -> PairCounts:
    """:class:`PairCounts` of a models x questions 0/1 matrix, read one block of questions at a time.

    ``source`` is an array (any integer or bool dtype; a ``np.memmap`` is read block by block), the path
    of a ``.npy`` file (memory-mapped, never loaded whole), or any object with a 2-D ``shape`` whose
    ``source[:, a:b]`` gives those questions' columns: ``ParquetMatrix`` (in the tables module, with
    the table extras installed) reads a wide Parquet file that way, ``block_cells / models`` columns
    at a time. Memory: one block plus the k x k counts.

    >>> counts = pair_counts(np.array([[1, 1, 0], [1, 0, 1]]))
    >>> counts.right.tolist(), counts.both.tolist(), counts.questions
    ([2, 2], [[2, 1], [1, 2]], 3)
    """
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.is_file():
            raise ExactStatsError(f"source {str(path)!r}: no such file")
        if path.suffix != ".npy":
            raise ExactStatsError(
                f"source {str(path)!r} must be a .npy file (a wide Parquet file: wrap it in ParquetMatrix)"
            )
        source = np.load(path, mmap_mode="r")
    k, n = _shape(getattr(source, "shape", ()))
    right, both = np.zeros(k, dtype=np.int64), np.zeros((k, k))
    step = block_step(k, n, block_cells)
    for start in range(0, n, step):
        block = _checked_block(source[:, start : start + step], start)
        right += block.sum(axis=1, dtype=np.int64)
        both += cross_product(block, block)
    return PairCounts(right, np.rint(both).astype(np.int64), n)


def _tile(rows: Any, cols: Any) -> Any:
    """One output tile ``sum_b rows_b cols_bᵀ`` from the lists of question blocks of two row groups."""
    return sum(cross_product(a, b) for a, b in zip(rows, cols))


def _row_sums(rows: Any) -> Any:
    return sum(block.sum(axis=1, dtype=np.int64) for block in rows)


def _npy_block(path: str, models: tuple[int, int], questions: tuple[int, int]) -> Any:
    """One checked block read by the task itself from a memory-mapped ``.npy`` file (only the path travels)."""
    block = np.load(path, mmap_mode="r")[models[0] : models[1], questions[0] : questions[1]]
    return _checked_block(block, questions[0], models[0])


def _checked_dask_block(block: Any, block_info: Any = None) -> Any:
    rows, cols = block_info[0]["array-location"] if block_info else ((0, 0), (0, 0))
    return _checked_block(block, cols[0], rows[0])


def _spans(total: int, step: int) -> list[tuple[int, int]]:
    return [(start, min(total, start + step)) for start in range(0, total, step)]


def pair_counts_dask(source: Any, models_per_tile: int = 2_000) -> PairCounts:
    """:class:`PairCounts` of a Dask array or a ``.npy`` file (models x questions), each output tile a Dask task.

    Tile ``(I, J)`` of ``both`` is the sum over question blocks of ``M[I, b] M[J, b]ᵀ`` (the same exact
    float32 kernel as :func:`pair_counts`); only tiles with ``I <= J`` are computed (``both`` is symmetric),
    and a task holds two row groups and one tile, never the whole matrix. Given the path of a ``.npy`` file,
    each task memory-maps its own blocks, so only the path is sent to the workers (they need the file, on a
    shared disk for a cluster). Question blocks hold at most 2**24 columns. It runs on whatever scheduler is
    active: local threads by default, or a ``dask.distributed.Client`` (local processes or a cluster).

    >>> import dask.array as da
    >>> pair_counts_dask(da.from_array(np.array([[1, 1, 0], [1, 0, 1]]), chunks=(1, 2))).both.tolist()
    [[2, 1], [1, 2]]
    """
    import dask.array as da
    from dask.base import compute
    from dask.delayed import delayed

    tile_rows = max(1, int(models_per_tile))
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.is_file() or path.suffix != ".npy":
            raise ExactStatsError(f"source {str(path)!r} must be an existing .npy file or a dask.array.Array")
        k, n = _shape(np.load(path, mmap_mode="r").shape)
        step = block_step(min(k, tile_rows), n)
        read = delayed(_npy_block, pure=True)
        blocks = [[read(str(path), rows, cols) for cols in _spans(n, step)] for rows in _spans(k, tile_rows)]
    elif isinstance(source, da.Array):
        k, n = _shape(source.shape)
        step = min(EXACT_FLOAT32, max(1, max(source.chunks[1])))
        M = source.rechunk({0: min(k, tile_rows), 1: step}).map_blocks(  # type: ignore[no-untyped-call]
            _checked_dask_block, dtype=np.int8
        )
        blocks = [list(row) for row in M.to_delayed()]
    else:
        raise ExactStatsError(f"source must be a dask.array.Array or a .npy path, got {type(source).__name__}")
    groups = len(blocks)
    tile = delayed(_tile, pure=True)
    pairs = [(i, j) for i in range(groups) for j in range(i, groups)]
    tiles, rights = compute(  # type: ignore[no-untyped-call]
        [tile(blocks[i], blocks[j]) for i, j in pairs], [delayed(_row_sums)(row) for row in blocks]
    )
    starts = [r * min(k, tile_rows) for r in range(groups)] + [k]
    both = np.zeros((k, k))
    for (i, j), t in zip(pairs, tiles):
        both[starts[i] : starts[i + 1], starts[j] : starts[j + 1]] = t
        both[starts[j] : starts[j + 1], starts[i] : starts[i + 1]] = np.asarray(t).T
    return PairCounts(np.concatenate(rights).astype(np.int64), np.rint(both).astype(np.int64), n)


def _shape(shape: Any) -> tuple[int, int]:
    if len(shape) != 2 or 0 in shape:
        raise ExactStatsError(f"source must be a non-empty models x questions matrix, got shape {tuple(shape)}")
    return int(shape[0]), int(shape[1])
