"""exactstats: the statistics of language-model evaluation, in exact arithmetic.

Every quantity is an exact function: rational inputs (ints, Fractions, decimal
strings such as ``"0.7"``) give :class:`fractions.Fraction` results. A float
argument stands for its shortest decimal repr, so ``0.7`` means ``7/10``.
Where a square root is unavoidable the exact value is a SymPy surd (SymPy loads
only then). Float twins end in ``_float``: vectorised, and held to the exact
functions by tests. Bad input raises :class:`ExactStatsError`, a :class:`ValueError`.
Ties follow one vocabulary (:data:`TIE_RULES`): ``fair``, ``lose``, ``win``, ``lowest``, ``exclude``.

==========================================  ===============================================
Function                                    What it computes
==========================================  ===============================================
:func:`pass_at_k`                           unbiased pass@k, ``1 - C(n-c,k)/C(n,k)``
:func:`pass_at_k_plugin`                    plug-in pass@k, ``1 - (1-c/n)^k`` (biased low)
:func:`pass_at_k_subsets`                   brute-force count over all size-k subsets
:func:`expected_pass_at_k`                  exact expectation over ``c ~ Binomial(n, p)``
:func:`mean_pass_at_k`                      mean unbiased pass@k over problems
:func:`paired_pass_at_k_difference`         two models' pass@k gap, interval over problems
:func:`majority_probability`                Condorcet: majority of k voters right
:func:`plurality_probability`               plurality of independent multiple-choice voters
:func:`mcnemar_p_value`                     exact McNemar p-value
:func:`paired_difference_interval`          paired interval for an accuracy gap
:func:`holm_adjust`                         Holm's adjusted p-values, exactly (``holm_adjust_float``: arrays)
:func:`bh_adjust`                           Benjamini-Hochberg(-Yekutieli) adjusted p-values (and ``_float``)
:func:`compare_pairs`                       adjacent or all pairs: exact McNemar, Holm, BH, intervals
:func:`separation_tiers`                    tiers of models no test separates
:func:`wilson_interval`                     Wilson score interval (exact surds)
:func:`clopper_pearson_interval`            exact binomial interval to a set precision
:func:`clustered_variance`                  cluster-robust variance of a mean score
:func:`questions_needed`                    power: questions to detect a gap
:func:`mcnemar_power`                       exact power of the exact McNemar test
:func:`phi_squared`                         phi^2 of two error vectors
:func:`effective_votes`                     ``k / (1 + (k-1) phi)``
:func:`top_stays_top_float`                 how often #1 stays #1 when questions are redrawn
:func:`redraw_win_probability`              the same for two models, exactly
:func:`split_half_two_models`               split-half winner and its leads, two models, exactly
:func:`paired_equivalence_p_value`          paired TOST / non-inferiority that holds its level
:func:`paired_equivalence_power`            its exact power (at the null: its exact size)
:func:`conditional_equivalence_p_value`     the conditional TOST on the discordant share
:func:`interval_coverage`                   exact coverage of Wald, Wilson, Agresti-Coull, Clopper-Pearson
:func:`coverage_table`                      that coverage on a grid, with its worst point
:func:`paired_interval_coverage`            exact coverage of the paired difference interval
:func:`exact_size`                          exact size of a paired test at a discordance rate
:func:`size_table`                          that size on a grid, with a bound over every rate
:func:`remove_letter_prior_float`           letter bias divided out of stored probabilities
:func:`expected_best_accuracy`              what "report the best of m scores" adds, exactly
:func:`majority_vote_accuracy`              panel plurality vote, ties credited exactly
:func:`battle_counts`, :func:`sign_test`    arena win counts and the exact sign test
:func:`bt_mle_exists`                       does the Bradley-Terry estimate exist (Zermelo/Ford)
:func:`bradley_terry_float`                 Bradley-Terry strengths; :func:`bt_certificate` checks them exactly
==========================================  ===============================================

The shipped datasets load with :func:`load_panel` (MMLU-Redux correctness) and
:func:`load_passk_samples` (HumanEval completions, executed); published results of strong
models, read in place, with :func:`load_mmlu_pro`, :func:`load_arena_pair_counts` and
:func:`load_llmfao`: pandas loads on first use (the ``report`` extra).

>>> from exactstats import pass_at_k, majority_probability, mcnemar_p_value, effective_votes
>>> pass_at_k(5, 2, 2)
Fraction(7, 10)
>>> majority_probability(0.7, 3)
Fraction(98, 125)
>>> float(mcnemar_p_value(219, 182)) < 0.08
True
>>> effective_votes(7, "3/10")
Fraction(5, 2)
"""

from typing import Any

from ._normal import one_sided_z_float
from ._validate import TIE_RULES, ExactStatsError
from .arena import (
    ARENA_TIE_RULES,
    WINNERS,
    BattleCounts,
    BradleyTerryFit,
    battle_counts,
    battle_counts_from_pairs,
    battles_in,
    bradley_terry_float,
    bt_bootstrap_float,
    bt_certificate,
    bt_covariance_float,
    bt_mle_exists,
    elo_ratings_float,
    elo_replay_exact,
    pair_totals,
    rank_intervals_float,
    sign_test,
)
from .calibration import (
    Calibration,
    brier_score,
    brier_score_float,
    expected_calibration_error_float,
    reliability_float,
)
from .condorcet import (
    MAJORITY_TIE_RULES,
    PLURALITY_TIE_RULES,
    majority_probability,
    majority_probability_float,
    majority_probability_heterogeneous,
    plurality_probability,
    poisson_binomial_pmf,
)
from .correlation import (
    design_effect,
    effective_votes,
    effective_votes_ceiling,
    effective_votes_eigen_float,
    mean_phi_float,
    phi,
    phi_float,
    phi_for_effective_votes,
    phi_matrix_float,
    phi_squared,
)
from .debias import (
    average_over_orders_float,
    displayed_probabilities_float,
    letter_prior_float,
    remove_letter_prior_float,
)
from .equivalence import (
    EQUIVALENCE_ALTERNATIVES,
    NUISANCE_LEVEL,
    conditional_equivalence_p_value,
    discordance_upper_bound,
    paired_equivalence_p_value,
    paired_equivalence_p_value_float,
    paired_equivalence_power,
    paired_equivalence_power_float,
    rejection_region,
)
from .errorbars import (
    CLUSTER_CORRECTIONS,
    Interval,
    RepeatVariance,
    accuracy_variance,
    clopper_pearson_interval,
    clopper_pearson_interval_float,
    clt_interval_float,
    clustered_interval_float,
    clustered_standard_error_float,
    clustered_variance,
    repeat_standard_error_float,
    repeat_variance,
    standard_error,
    standard_error_float,
    wilson_interval,
    wilson_interval_float,
    z_value_float,
)
from .levels import (
    INTERVAL_METHODS,
    PAIRED_TESTS,
    CoverageTable,
    SizeTable,
    conditional_sizes,
    coverage_table,
    exact_size,
    exact_size_float,
    interval_coverage,
    interval_coverage_float,
    interval_covers,
    paired_interval_coverage,
    paired_interval_coverage_float,
    paired_rejection_probability,
    size_table,
)
from .multiplicity import (
    bh_adjust,
    bh_adjust_float,
    holm_adjust,
    holm_adjust_float,
    holm_reject_screened,
    separation_tiers,
    tiers_from_separation,
)
from .paired import (
    ALTERNATIVES,
    DifferenceInterval,
    PairComparison,
    compare_pairs,
    discordance,
    discordance_matrices,
    mcnemar_chi_square_p_float,
    mcnemar_p_value,
    mcnemar_p_value_float,
    mcnemar_p_values_float,
    paired_difference_interval,
    unpaired_difference_interval,
)
from .passk import (
    ESTIMATORS,
    SubsetCount,
    expected_pass_at_k,
    expected_pass_at_k_float,
    mean_pass_at_k,
    mean_pass_at_k_float,
    paired_pass_at_k_difference,
    paired_pass_at_k_difference_float,
    pass_at_k,
    pass_at_k_float,
    pass_at_k_plugin,
    pass_at_k_subsets,
    pass_at_k_variance,
    pass_at_k_variance_estimate,
)
from .power import (
    QuestionsNeeded,
    interval_half_width_float,
    mcnemar_power,
    mcnemar_power_float,
    mcnemar_rejection_thresholds,
    minimum_detectable_difference_float,
    questions_needed,
    smallest_n_for_power,
)
from .resampling import (
    REDRAW_TIE_RULES,
    SplitHalf,
    SplitHalfExact,
    redraw_counts,
    redraw_win_probability,
    split_half_float,
    split_half_two_models,
    top_stays_top_float,
    top_three_keep_order_float,
)
from .selection import expected_best_accuracy, expected_best_accuracy_float
from .voting import (
    ACCURACY_TIE_RULES,
    VOTE_TIE_RULES,
    binary_majority_accuracy,
    majority_vote,
    majority_vote_accuracy,
    probability_average,
    probability_average_accuracy,
)

__version__ = "0.1.0"

_DATASET = ("CONDITIONS", "Panel", "data_dir", "load_panel", "PASSK_CONDITIONS", "PasskSamples", "load_passk_samples")
_PUBLISHED = ("load_mmlu_pro", "load_arena_pair_counts", "load_llmfao", "llmfao_battles")  # read in place

__all__ = [
    "ExactStatsError",
    "TIE_RULES",
    "__version__",
    # pass@k
    "pass_at_k",
    "pass_at_k_plugin",
    "pass_at_k_subsets",
    "SubsetCount",
    "expected_pass_at_k",
    "expected_pass_at_k_float",
    "pass_at_k_variance",
    "pass_at_k_variance_estimate",
    "ESTIMATORS",
    "mean_pass_at_k",
    "pass_at_k_float",
    "mean_pass_at_k_float",
    "paired_pass_at_k_difference",
    "paired_pass_at_k_difference_float",
    # voters
    "majority_probability",
    "majority_probability_float",
    "majority_probability_heterogeneous",
    "poisson_binomial_pmf",
    "plurality_probability",
    "MAJORITY_TIE_RULES",
    "PLURALITY_TIE_RULES",
    "majority_vote",
    "majority_vote_accuracy",
    "binary_majority_accuracy",
    "probability_average",
    "probability_average_accuracy",
    "VOTE_TIE_RULES",
    "ACCURACY_TIE_RULES",
    # error bars
    "Interval",
    "accuracy_variance",
    "standard_error",
    "standard_error_float",
    "clt_interval_float",
    "wilson_interval",
    "wilson_interval_float",
    "clopper_pearson_interval",
    "clopper_pearson_interval_float",
    "clustered_variance",
    "clustered_standard_error_float",
    "clustered_interval_float",
    "RepeatVariance",
    "repeat_variance",
    "repeat_standard_error_float",
    "CLUSTER_CORRECTIONS",
    "z_value_float",
    "one_sided_z_float",
    # paired comparison
    "discordance",
    "mcnemar_p_value",
    "mcnemar_p_value_float",
    "ALTERNATIVES",
    "DifferenceInterval",
    "paired_difference_interval",
    "unpaired_difference_interval",
    "holm_adjust",
    "holm_adjust_float",
    "bh_adjust",
    "bh_adjust_float",
    "mcnemar_p_values_float",
    "mcnemar_chi_square_p_float",
    "holm_reject_screened",
    "separation_tiers",
    "tiers_from_separation",
    "discordance_matrices",
    "PairComparison",
    "compare_pairs",
    # power
    "QuestionsNeeded",
    "questions_needed",
    "interval_half_width_float",
    "minimum_detectable_difference_float",
    "mcnemar_rejection_thresholds",
    "mcnemar_power",
    "mcnemar_power_float",
    "smallest_n_for_power",
    # correlated errors
    "phi_squared",
    "phi",
    "phi_float",
    "phi_matrix_float",
    "mean_phi_float",
    "design_effect",
    "effective_votes",
    "phi_for_effective_votes",
    "effective_votes_ceiling",
    "effective_votes_eigen_float",
    # resampling
    "redraw_counts",
    "top_stays_top_float",
    "top_three_keep_order_float",
    "SplitHalf",
    "split_half_float",
    "SplitHalfExact",
    "split_half_two_models",
    "redraw_win_probability",
    "REDRAW_TIE_RULES",
    # calibration
    "Calibration",
    "brier_score",
    "brier_score_float",
    "expected_calibration_error_float",
    "reliability_float",
    # equivalence
    "EQUIVALENCE_ALTERNATIVES",
    "paired_equivalence_p_value",
    "paired_equivalence_p_value_float",
    "paired_equivalence_power",
    "paired_equivalence_power_float",
    "NUISANCE_LEVEL",
    "conditional_equivalence_p_value",
    "discordance_upper_bound",
    "rejection_region",
    # levels and coverage
    "INTERVAL_METHODS",
    "PAIRED_TESTS",
    "CoverageTable",
    "SizeTable",
    "interval_covers",
    "interval_coverage",
    "interval_coverage_float",
    "coverage_table",
    "paired_interval_coverage",
    "paired_interval_coverage_float",
    "paired_rejection_probability",
    "conditional_sizes",
    "exact_size",
    "exact_size_float",
    "size_table",
    # letter bias
    "displayed_probabilities_float",
    "letter_prior_float",
    "remove_letter_prior_float",
    "average_over_orders_float",
    # reporting the best of several scores
    "expected_best_accuracy",
    "expected_best_accuracy_float",
    # arenas
    "WINNERS",
    "ARENA_TIE_RULES",
    "BattleCounts",
    "battle_counts",
    "battle_counts_from_pairs",
    "battles_in",
    "pair_totals",
    "sign_test",
    "bt_mle_exists",
    "BradleyTerryFit",
    "bradley_terry_float",
    "bt_certificate",
    "bt_covariance_float",
    "bt_bootstrap_float",
    "rank_intervals_float",
    "elo_ratings_float",
    "elo_replay_exact",
    # the shipped dataset (loaded on first use)
    *_DATASET,
    *_PUBLISHED,
]


def __getattr__(name: str) -> Any:
    # the dataset needs pandas and pyarrow: they load on first use, not with the package
    if name in _DATASET:
        from .report import dataset

        return getattr(dataset, name)
    if name in _PUBLISHED:
        from .report import published

        return getattr(published, name)
    raise AttributeError(f"module 'exactstats' has no attribute {name!r}")
