"""exactstats: the statistics of language-model evaluation, in exact arithmetic.

Every quantity is an exact function: rational inputs (ints, Fractions, decimal
strings such as ``"0.7"``) give :class:`fractions.Fraction` results. A float
argument stands for its shortest decimal repr, so ``0.7`` means ``7/10``.
Where a square root is unavoidable the exact value is a SymPy surd. Float twins
(suffix ``_float``) are vectorised and held to the exact functions by tests.
Bad input raises :class:`ExactStatsError`, a :class:`ValueError`.

====================================  ================================================
Function                              What it computes
====================================  ================================================
:func:`pass_at_k`                     unbiased pass@k, ``1 - C(n-c,k)/C(n,k)``
:func:`pass_at_k_plugin`              plug-in pass@k, ``1 - (1-c/n)^k`` (biased low)
:func:`pass_at_k_subsets`             brute-force count over all size-k subsets
:func:`expected_pass_at_k`            exact expectation over ``c ~ Binomial(n, p)``
:func:`majority_probability`          Condorcet: majority of k voters right
:func:`plurality_probability`         plurality of independent multiple-choice voters
:func:`mcnemar_exact`                 exact McNemar p-value
:func:`paired_difference_interval`    paired interval for an accuracy gap
:func:`wilson_interval`               Wilson score interval (exact surds)
:func:`clopper_pearson_interval`      exact binomial interval to a set precision
:func:`clustered_variance`            cluster-robust variance of a mean score
:func:`questions_needed`              power: questions to detect a gap
:func:`mcnemar_power_exact`           exact power of the exact McNemar test
:func:`phi_squared`                   phi^2 of two error vectors
:func:`effective_votes`               ``k / (1 + (k-1) phi)``
:func:`top_stays_top`                 how often #1 stays #1 when questions are redrawn
:func:`redraw_win_probability`        the same for two models, exactly
:func:`majority_vote_accuracy`        panel plurality vote, ties credited exactly
====================================  ================================================

>>> from exactstats import pass_at_k, majority_probability, mcnemar_exact, effective_votes
>>> pass_at_k(5, 2, 2)
Fraction(7, 10)
>>> majority_probability(0.7, 3)
Fraction(98, 125)
>>> float(mcnemar_exact(219, 182)) < 0.08
True
>>> effective_votes(7, "3/10")
Fraction(5, 2)
"""

from ._validate import ExactStatsError
from .condorcet import (
    TIE_RULES,
    majority_probability,
    majority_probability_heterogeneous,
    plurality_probability,
    poisson_binomial_pmf,
)
from .correlation import (
    design_effect,
    effective_votes,
    effective_votes_ceiling,
    effective_votes_eigen,
    mean_phi_float,
    phi,
    phi_float,
    phi_matrix_float,
    phi_squared,
)
from .errorbars import (
    CLUSTER_CORRECTIONS,
    Interval,
    accuracy_variance,
    clopper_pearson_interval,
    clt_interval,
    clustered_standard_error_float,
    clustered_variance,
    standard_error,
    standard_error_float,
    wilson_interval,
    wilson_interval_float,
)
from .paired import (
    DifferenceInterval,
    discordance,
    holm_adjust,
    mcnemar_exact,
    paired_difference_interval,
    unpaired_difference_interval,
    z_value,
)
from .passk import (
    SubsetCount,
    expected_pass_at_k,
    mean_pass_at_k,
    mean_pass_at_k_float,
    pass_at_k,
    pass_at_k_float,
    pass_at_k_plugin,
    pass_at_k_subsets,
)
from .power import (
    QuestionsNeeded,
    interval_half_width,
    mcnemar_power_exact,
    mcnemar_power_float,
    mcnemar_rejection_thresholds,
    minimum_detectable_difference,
    questions_needed,
    smallest_n_for_power,
)
from .resampling import (
    SplitHalf,
    redraw_counts,
    redraw_win_probability,
    split_half,
    top_stays_top,
    top_three_keep_order,
)
from .data import CONDITIONS, Panel, data_dir, load_panel
from .voting import majority_vote, majority_vote_accuracy, probability_average, probability_average_accuracy

__version__ = "0.1.0"

__all__ = [name for name in dir() if not name.startswith("_")]
