"""exactstats.blocks: pair counts from blocks, memory maps, Parquet column chunks and Dask workers, against brute force."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import exactstats as es
from exactstats import _blockwise, blocks

matrices = st.tuples(st.integers(1, 9), st.integers(1, 60)).flatmap(
    lambda shape: arrays(np.int8, shape, elements=st.integers(0, 1))
)


def brute(M):
    M = M.astype(np.int64)
    return M.sum(axis=1), M @ M.T


@settings(max_examples=150, deadline=None)
@given(matrices, st.integers(1, 200), st.integers(1, 7))
def test_pair_counts_equal_brute_force_at_every_block_size(M, block_cells, float32_limit):
    """Blocks of any width, and a float32 limit forced down so that blocks also split at it."""
    right, both = brute(M)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_blockwise, "EXACT_FLOAT32", float32_limit)  # read by block_step, which pair_counts uses
        got = blocks.pair_counts(M, block_cells=block_cells)
    assert got.right.tolist() == right.tolist() and got.both.tolist() == both.tolist()
    assert got.questions == M.shape[1] and got.both.dtype == np.int64


@settings(max_examples=60, deadline=None)
@given(matrices)
def test_discordant_and_phi_agree_with_the_in_memory_functions(M):
    got = blocks.pair_counts(M)
    b, c = es.discordance_matrices(M)
    assert (got.discordant()[0] == b).all() and (got.discordant()[1] == c).all()
    rows = M.sum(axis=1)
    if M.shape[0] >= 2 and np.all((rows > 0) & (rows < M.shape[1])):
        assert np.allclose(got.phi_float(), es.phi_matrix_float(M), atol=1e-12)
    elif np.any((rows == 0) | (rows == M.shape[1])):
        with pytest.raises(es.ExactStatsError, match="constant"):
            got.phi_float()


def test_memory_mapped_npy_and_parquet_are_read_in_blocks(tmp_path):
    import pandas as pd

    rng = np.random.default_rng(0)
    M = (rng.random((23, 517)) < 0.55).astype(np.int8)
    right, both = brute(M)
    np.save(tmp_path / "m.npy", M)
    frame = pd.DataFrame(M, columns=[f"q{j}" for j in range(517)])
    frame.insert(0, "model", [f"m{i}" for i in range(23)])
    frame.to_parquet(tmp_path / "m.parquet")
    from exactstats.report.tables import ParquetMatrix

    parquet = ParquetMatrix(tmp_path / "m.parquet")
    assert parquet.models == [f"m{i}" for i in range(23)] and parquet.shape == (23, 517)
    for source in (tmp_path / "m.npy", str(tmp_path / "m.npy"), np.load(tmp_path / "m.npy", mmap_mode="r"), parquet):
        got = blocks.pair_counts(source, block_cells=23 * 40)
        assert (got.both == both).all() and (got.right == right).all() and got.questions == 517


@pytest.mark.parametrize(
    "source, message",
    [
        (np.array([[0, 1], [2, 0]]), r"cell \(model 1, question 0\) must be 0 or 1, got 2"),
        (np.array([[0.5, 1.0]]), r"cell \(model 0, question 0\) must be 0 or 1, got 0.5"),
        (np.array([1, 0, 1]), "models x questions matrix"),
        (np.zeros((0, 3)), "non-empty"),
        ("no/such/file.npy", "no such file"),
    ],
)
def test_bad_sources_are_refused_by_name(source, message):
    with pytest.raises(es.ExactStatsError, match=message):
        blocks.pair_counts(source)


def test_a_late_bad_cell_is_found_in_its_block(tmp_path):
    import pandas as pd

    M = np.ones((4, 300), dtype=np.int64)
    M[2, 257] = -1
    with pytest.raises(es.ExactStatsError, match=r"model 2, question 257"):
        blocks.pair_counts(M, block_cells=4 * 16)
    frame = pd.DataFrame(np.ones((3, 5)), columns=list("abcde"))
    frame.loc[1, "d"] = None
    frame.to_parquet(tmp_path / "gap.parquet")
    from exactstats.report.tables import ParquetMatrix

    with pytest.raises(es.ExactStatsError, match="question 'd' has a missing cell"):
        blocks.pair_counts(ParquetMatrix(tmp_path / "gap.parquet"))
    with pytest.raises(es.ExactStatsError, match=r"matrix\[:, a:b\]"):
        ParquetMatrix(tmp_path / "gap.parquet")[0, 1:2]
    with pytest.raises(es.ExactStatsError, match="no such file"):
        ParquetMatrix(tmp_path / "none.parquet")
    (tmp_path / "m.parquet").write_text("x")
    with pytest.raises(es.ExactStatsError, match="must be a .npy file"):
        blocks.pair_counts(tmp_path / "m.parquet")


@settings(max_examples=40, deadline=None)
@given(matrices, st.integers(1, 5), st.integers(1, 20), st.integers(1, 6))
def test_dask_tiles_equal_brute_force(M, row_chunk, col_chunk, tile):
    import dask
    import dask.array as da

    right, both = brute(M)
    with dask.config.set(scheduler="threads"):
        got = blocks.pair_counts_dask(da.from_array(M, chunks=(row_chunk, col_chunk)), models_per_tile=tile)
    assert got.both.tolist() == both.tolist() and got.right.tolist() == right.tolist()


@settings(max_examples=25, deadline=None)
@given(matrices, st.integers(1, 6))
def test_dask_from_a_npy_file_equals_brute_force(tmp_path_factory, M, tile):
    """Each task memory-maps its own blocks of the file (only the path travels): the same exact counts."""
    import dask

    path = tmp_path_factory.mktemp("npy") / "m.npy"
    np.save(path, M)
    right, both = brute(M)
    with dask.config.set(scheduler="threads"):
        got = blocks.pair_counts_dask(path, models_per_tile=tile)
    assert got.both.tolist() == both.tolist() and got.right.tolist() == right.tolist()


def test_dask_refuses_what_it_cannot_read(tmp_path):
    with pytest.raises(es.ExactStatsError, match="dask.array.Array or a .npy path"):
        blocks.pair_counts_dask(np.ones((2, 2)))
    with pytest.raises(es.ExactStatsError, match="existing .npy file"):
        blocks.pair_counts_dask(tmp_path / "none.npy")
    np.save(tmp_path / "flat.npy", np.ones(3))
    with pytest.raises(es.ExactStatsError, match="models x questions"):
        blocks.pair_counts_dask(tmp_path / "flat.npy")
    bad = np.ones((5, 9), dtype=np.int8)
    bad[4, 7] = 3
    np.save(tmp_path / "bad.npy", bad)
    with pytest.raises(es.ExactStatsError, match=r"model 4, question 7"):
        blocks.pair_counts_dask(tmp_path / "bad.npy", models_per_tile=2)


@pytest.mark.slow
def test_dask_on_several_worker_processes(tmp_path):
    """A local cluster of two worker processes: the tiles are computed in other processes and agree exactly;
    a bad cell raised in a worker reaches the caller as the same error, naming the cell."""
    import dask.array as da
    from dask.distributed import Client, LocalCluster

    rng = np.random.default_rng(3)
    M = (rng.random((300, 4_000)) < 0.6).astype(np.int8)
    right, both = brute(M)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            got = blocks.pair_counts_dask(da.from_array(M, chunks=(100, 1_000)), models_per_tile=100)
            assert (got.both == both).all() and (got.right == right).all()
            workers = client.run(lambda: __import__("os").getpid())
            assert len(set(workers.values())) == 2
            bad = M.copy()
            bad[250, 3_333] = 7
            with pytest.raises(es.ExactStatsError, match=r"model 250, question 3333"):
                blocks.pair_counts_dask(da.from_array(bad, chunks=(100, 1_000)), models_per_tile=100)
            np.save(tmp_path / "m.npy", M)  # the workers read their own blocks of the file
            got = blocks.pair_counts_dask(tmp_path / "m.npy", models_per_tile=120)
            assert (got.both == both).all() and (got.right == right).all()
