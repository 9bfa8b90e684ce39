"""The blockwise co-occurrence kernel behind the all-pairs discordance and phi: exact at every block size."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import exactstats as es
from exactstats._blockwise import co_occurrence

matrices = st.tuples(st.integers(1, 6), st.integers(1, 40)).flatmap(
    lambda shape: arrays(np.int64, shape, elements=st.integers(0, 1))
)


@settings(max_examples=80, deadline=None)
@given(matrices, st.integers(1, 64))
def test_co_occurrence_is_the_product_whatever_the_block(M, block_cells):
    assert (co_occurrence(M, block_cells=block_cells) == M @ M.T).all()


@settings(max_examples=60, deadline=None)
@given(matrices)
def test_discordance_and_phi_against_plain_formulas(M):
    b, c = es.discordance_matrices(M) if M.shape[1] > 0 else (None, None)
    brute = np.array([[int(((x == 1) & (y == 0)).sum()) for y in M] for x in M])
    assert (b == brute).all() and (c == brute.T).all()
    ones = M.sum(axis=1)
    if M.shape[0] >= 2 and ((ones > 0) & (ones < M.shape[1])).all():
        assert np.allclose(es.phi_matrix_float(M), np.corrcoef(M.astype(float)), atol=1e-12)


def test_sums_beyond_float32_blocks_stay_exact():
    """Two rows of 2**24 + 3 ones: float32 cannot hold that count, the blocks (at most 2**24 columns) can."""
    n = (1 << 24) + 3
    M = np.ones((2, n), dtype=np.int64)
    M[1, :5] = 0
    assert co_occurrence(M).tolist() == [[n, n - 5], [n - 5, n - 5]]
