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


def co_occurrence(M: np.ndarray, block_cells: int = BLOCK_CELLS) -> np.ndarray:
    """``M @ M.T`` of a checked 0/1 matrix as exact int64 counts, computed a block of columns at a time.

    >>> co_occurrence(np.array([[1, 1, 0], [1, 0, 1]])).tolist()
    [[2, 1], [1, 2]]
    """
    k, n = M.shape
    step = max(1, min(n, EXACT_FLOAT32, block_cells // max(k, 1)))
    both = np.zeros((k, k))
    for start in range(0, n, step):
        block = M[:, start : start + step].astype(np.float32)
        both += block @ block.T
    return np.rint(both).astype(np.int64)
