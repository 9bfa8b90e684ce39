"""All-pairs co-occurrence counts of a models x questions 0/1 matrix, one block of questions at a time.

``both[i, j]`` counts the questions on which rows ``i`` and ``j`` are both 1: the product ``M Mᵀ``, from
which the discordant counts (``b[i, j] = right[i] - both[i, j]``) and phi (Pearson's r on 0/1 rows)
follow. The product is taken in float32 over blocks of at most 2**24 columns, where every partial sum
is a whole number below 2**24 and so exact whatever the order of summation, and the blocks are added
in float64 (exact below 2**53). Besides the input, memory holds one float32 block (``BLOCK_CELLS``) and
the k x k results, instead of float64 copies of the whole matrix.
"""

from __future__ import annotations

from ._lazy import np

BLOCK_CELLS = 1 << 25  # float32 cells in one block of columns: 128 MB
EXACT_FLOAT32 = 1 << 24  # whole numbers up to this are exact in float32


def block_step(models: int, questions: int, block_cells: int = BLOCK_CELLS) -> int:
    """Questions per block: ``block_cells`` float32 cells over the models, never above 2**24 (exactness)."""
    return max(1, min(questions, EXACT_FLOAT32, block_cells // max(models, 1)))


def cross_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b.T`` of two 0/1 blocks of at most 2**24 columns: in float32 (every partial sum a whole number
    below 2**24, so exact), returned in float64 for adding blocks exactly."""
    return (a.astype(np.float32) @ b.astype(np.float32).T).astype(np.float64)


def co_occurrence(M: np.ndarray, block_cells: int = BLOCK_CELLS) -> np.ndarray:
    """``M @ M.T`` of a checked 0/1 matrix as exact int64 counts, computed a block of columns at a time.

    >>> co_occurrence(np.array([[1, 1, 0], [1, 0, 1]])).tolist()
    [[2, 1], [1, 2]]
    """
    k, n = M.shape
    step = block_step(k, n, block_cells)
    both = np.zeros((k, k))
    for start in range(0, n, step):
        block = M[:, start : start + step]
        both += cross_product(block, block)
    return np.rint(both).astype(np.int64)


def phi_from_counts(right: np.ndarray, both: np.ndarray, n: int, rows: str) -> np.ndarray:
    """Pairwise phi (Pearson's r of 0/1 rows) from exact counts: ``(n both - r_i r_j) / sqrt(r_i (n - r_i)
    r_j (n - r_j))``; a constant row is refused, named as a row of ``rows``.

    >>> phi_from_counts(np.array([2, 1]), np.array([[2, 1], [1, 1]]), 4, "errors").round(4).tolist()
    [[1.0, 0.5774], [0.5774, 1.0]]
    """
    from ._validate import ExactStatsError

    constant = (right == 0) | (right == n)
    if np.any(constant):
        raise ExactStatsError(f"{rows} row {int(np.argmax(constant))} is constant: phi is undefined for it")
    spread = np.sqrt(right * (n - right).astype(np.float64))
    r = (n * both - np.outer(right, right)) / np.outer(spread, spread)
    np.fill_diagonal(r, 1.0)
    return np.asarray(r)
