"""exactstats: the statistics of language-model evaluation, in exact arithmetic.

Every quantity is an exact function: rational inputs (ints, Fractions, decimal
strings such as ``"0.7"``) give :class:`fractions.Fraction` results. A float
argument stands for its shortest decimal repr, so ``0.7`` means ``7/10``.
Where a square root is unavoidable the exact value is a SymPy surd (SymPy loads
only then). A name ending in ``_float`` returns floats: the float twin of the exact
function of the same name where there is one (vectorised, and held to it by tests), otherwise
a named float computation with no exact counterpart (a fit, a simulation, a bootstrap, a
quantile). Bad input raises :class:`ExactStatsError`, a :class:`ValueError`.
Ties follow one vocabulary (:data:`TIE_RULES`): ``fair``, ``lose``, ``win``, ``lowest``, ``exclude``.
Every public function and class, by topic:

============================================  ==============================================================
Function                                      What it computes
============================================  ==============================================================
*errors*
:class:`ExactStatsError`                      Bad input to an exactstats function: the message names the ...
*pass@k*
:func:`pass_at_k`                             Unbiased pass@k estimate, exactly: 1 - C(n-c, k) / C(n, k)
:func:`pass_at_k_plugin`                      Plug-in pass@k, 1 - (1 - c/n)k: sampling with replacement; ...
:func:`pass_at_k_subsets`                     Enumerate every size-k subset of the samples and count ...
:class:`SubsetCount`                          Result of brute-force enumeration of the size-k subsets of ...
:func:`expected_pass_at_k`                    Exact expectation of an estimator when c ~ Binomial(n, p)
:func:`expected_pass_at_k_float`              Float twin of expected_pass_at_k (binomial weights from ...
:func:`pass_at_k_variance`                    Exact variance of the unbiased pass@k estimate of one ...
:func:`pass_at_k_variance_estimate`           Unbiased estimate, from one problem's n samples with c ...
:func:`mean_pass_at_k`                        Exact mean unbiased pass@k over tasks given as (n, c) pairs
:func:`pass_at_k_float`                       Float twin of pass_at_k, vectorised over arrays of n and c
:func:`mean_pass_at_k_float`                  Float twin of mean_pass_at_k over arrays of n and c
:func:`paired_pass_at_k_difference`           Mean pass@k of model a minus model b on the same problems, ...
:func:`paired_pass_at_k_difference_float`     Float twin of paired_pass_at_k_difference: (difference, ...
:func:`pass_at_k_differences`                 Per problem: the unbiased pass@k of model a minus that of ...
:func:`mean_difference_interval`              The mean of per-problem differences with the exact variance ...
*consistency (pass^k)*
:func:`pass_hat_k`                            Unbiased pass^k: the chance that k samples drawn from the n ...
:func:`g_pass_at_k`                           Unbiased G-Pass@k_tau: the chance that at least ceil(tau * ...
:func:`mg_pass_at_k`                          Unbiased mG-Pass@k: 2 * integral_{1/2}^{1} G-Pass@k_tau d tau, ...
:func:`mean_pass_hat_k`                       Mean pass^k over problems given as (n, c) pairs
:func:`pass_hat_k_variance`                   Exact variance of the unbiased pass^k estimate of one ...
:func:`pass_hat_k_variance_estimate`          Unbiased estimate of pass_hat_k_variance from one problem's ...
:func:`g_pass_at_k_float`                     Float twin of g_pass_at_k, vectorised over arrays of n and c ...
*samples per problem*
:func:`within_variance_estimate`              Unbiased estimate, from one problem's n samples with c ...
:class:`SamplesPlan`                          The fewest samples per problem for a target standard error ...
:func:`standard_error_at_float`               Estimated standard error of the mean pass@k (or pass^k) over ...
:func:`samples_per_problem_float`             The fewest samples per problem (k..max_n) whose estimated ...
*votes of independent voters*
:func:`majority_probability`                  Probability that a majority of k independent voters, each ...
:func:`majority_probability_float`            Float twin of majority_probability (scipy's binomial ...
:func:`majority_probability_heterogeneous`    Majority probability for voters with their own accuracies ...
:func:`poisson_binomial_pmf`                  Exact distribution of the number of right voters when ...
:func:`plurality_probability`                 Probability that the right option wins a plurality vote, ...
:func:`plurality_probability_float`           Float twin of plurality_probability, for panels of ...
*votes of a panel*
:func:`majority_vote`                         Plurality winner per question from a models x questions ...
:func:`majority_vote_accuracy`                Exact accuracy of the panel's plurality vote
:func:`binary_majority_accuracy`              Accuracy of a majority vote over right/wrong indicators ...
:func:`probability_average`                   Per question, the option with the highest mean probability ...
:func:`probability_average_accuracy`          Accuracy of averaging the models' option probabilities and ...
*error bars*
:class:`Interval`                             Interval(lower, upper)
:func:`accuracy_variance`                     Exact variance of the accuracy k/n: p(1-p)/(n - ddof)
:func:`standard_error`                        Standard error of k/n as an exact SymPy surd, ...
:func:`standard_error_float`                  Float twin of standard_error
:func:`clt_interval_float`                    Normal-approximation (Wald/CLT) interval p +- z SE, in ...
:func:`wilson_interval`                       Wilson score interval as exact SymPy expressions
:func:`wilson_interval_float`                 Float twin of wilson_interval (same formula in floats)
:func:`clopper_pearson_interval`              Clopper-Pearson (exact binomial) interval, bracketed to ...
:func:`clopper_pearson_interval_float`        Float twin of clopper_pearson_interval (SciPy's beta ...
:func:`clustered_variance`                    Cluster-robust variance of the mean score, exactly
:func:`clustered_standard_error_float`        Float twin of the square root of clustered_variance: one ...
:func:`clustered_interval_float`              Interval for the mean score with the clustered standard ...
:class:`RepeatVariance`                       Variance of a score from repeated runs, split into its ...
:func:`repeat_variance`                       Split the variance of a score measured in R repeated runs ...
:func:`repeat_standard_error_float`           Standard error of the score with runs repeats on questions ...
*soft accuracy*
:func:`soft_accuracy`                         Mean probability of the right option over questions, exactly
:func:`soft_accuracy_variance`                Variance of the soft accuracy over questions, estimated ...
:func:`paired_soft_difference`                Difference of two models' soft accuracies on the same ...
:func:`right_option_probability_float`        Per question, the right option's share of the options' ...
:class:`SoftSummary`                          Soft accuracy and accuracy of one model, each with its ...
:func:`soft_summary_float`                    Float twin of soft_accuracy and soft_accuracy_variance, ...
:func:`paired_soft_difference_float`          Float twin of paired_soft_difference: the mean difference ...
*normal quantiles*
:func:`z_value_float`                         Two-sided normal quantile for a confidence level
:func:`one_sided_z_float`                     One-sided normal quantile: the z with P(Z <= z) = level
*paired comparison*
:func:`discordance`                           (b, c): questions only x got right, and only y got right
:func:`mcnemar_p_value`                       Exact McNemar p-value as a Fraction, from integer arithmetic
:func:`mcnemar_p_value_float`                 Float twin of mcnemar_p_value (scipy's binomial ...
:class:`DifferenceInterval`                   Difference in accuracy (first minus second) with its exact ...
:func:`paired_difference_interval`            Interval for the accuracy difference of two models on the ...
:func:`unpaired_difference_interval`          Interval for the difference k1/n - k2/n treating the two ...
:func:`mcnemar_p_values_float`                Two-sided exact McNemar p-values for arrays of discordant ...
:func:`mcnemar_chi_square_p_float`            McNemar's asymptotic chi-square test, (b - c - 1)^2 / (b + ...
:func:`discordance_matrices`                  All-pairs discordant counts of a models x questions 0/1 ...
:class:`PairComparison`                       One pair of models (rows first and second of a matrix) ...
:func:`compare_pairs`                         Exact paired comparisons of the rows of a models x ...
*questions asked more than once*
:func:`sign_flip_p_value`                     Exact sign-flip (paired permutation) p-value for a zero mean ...
:func:`sign_flip_p_value_float`               Float twin of sign_flip_p_value, for any size, without ...
:func:`cluster_differences`                   Per cluster (first-seen order): right answers of x minus ...
:func:`cluster_sums`                          Right answers per model and cluster (models x G, first-seen ...
:class:`ClusteredComparison`                  Two models on questions asked several times: the test and ...
:func:`clustered_paired_comparison`           Compare two models whose rows repeat questions: exact ...
*leaderboards over tasks*
:func:`as_task_scores`                        A models x tasks table as exact rationals, every row the ...
:func:`smallest_p_value`                      The smallest two-sided p-value the sign-flip test can give ...
:func:`tasks_needed`                          The fewest tasks over which the sign-flip test can reach p ...
:class:`TaskPairComparison`                   Rows first and second of a scores table compared over the ...
:func:`compare_on_tasks`                      Exact sign-flip comparisons over tasks of the rows of a ...
:func:`task_tiers`                            Tiers of the rows (ranked best first): a row opens a new ...
*agreement between raters*
:func:`percent_agreement`                     Share of items on which the two raters give the same label
:func:`cohen_kappa`                           Cohen's kappa of two raters, exactly: (p_o - p_e) / (1 - p_e)
:func:`agreement_distribution`                P(D = d) for d = 0..N: the number of agreements when B's ...
:func:`kappa_p_value`                         Exact conditional p-value of Cohen's kappa given both raters' ...
:func:`kappa_p_value_float`                   Monte Carlo twin of kappa_p_value (alternative="greater"), ...
:func:`weighted_kappa`                        Weighted kappa for ordinal labels (numbers), exactly: ...
:func:`fleiss_kappa`                          Fleiss' kappa for many raters, exactly; every item rated by ...
:func:`krippendorff_alpha`                    Krippendorff's alpha, exactly, with missing ratings (None); ...
:func:`gwet_ac1`                              Gwet's AC1 for two raters, exactly: chance agreement from the ...
:func:`fleiss_kappa_bootstrap_float`          Percentile bootstrap interval for Fleiss' kappa over items
:func:`krippendorff_alpha_bootstrap_float`    Percentile bootstrap interval for Krippendorff's alpha over items
*a judge's bias, corrected*
:func:`rogan_gladen`                          The true positive rate behind a judge's positive rate, ...
:func:`rogan_gladen_interval_float`           Interval for the corrected rate that carries the calibration ...
:func:`ppi_mean`                              The prediction-powered estimate of the rate people would ...
:func:`ppi_mean_interval_float`               Interval for that rate with coverage at least the level ...
:func:`ppi_mean_interval_normal_float`        The normal prediction-powered interval (as ppi_py, lam=1)
:func:`ppi_labels_needed_float`               Human labels for a normal PPI interval of a given width
*auditing published numbers*
:func:`rounding_interval`                     Every exact value that prints as a given decimal
:func:`counts_printing_as`                    Every count k of n whose share prints as a given score
:func:`stderr_conventions`                    Which conventions (n, n - 1) print a given stderr, exactly
:func:`interval_methods`                      Which interval methods print a given pair of ends
:func:`best_case_p_value`                     The smallest McNemar p-value two scores allow
:class:`AuditRow`                             One published result, as printed
:class:`Finding`                              What one check found, with its severity and computation
:func:`audit_rows`                            Every check on a table of published rows
:func:`derived_range`                         A formula's values over printed inputs' rounding, attained and enclosed
:func:`check_derived`                         Whether some admissible input reproduces a derived printed number
:func:`parse_formula`                         A formula written as text, as a function of its named inputs
:class:`AuditClaim`                           One published number derived from other printed numbers
:func:`audit_claims`                          Findings for derived claims the printed inputs do not reproduce
:class:`ClaimTable`                           A text's claims checked against exact recomputations, as rows
*many comparisons*
:func:`holm_adjust`                           Holm's step-down adjusted p-values, exactly (for Fraction ...
:func:`holm_adjust_float`                     Float twin of holm_adjust on a NumPy array (ties keep ...
:func:`bh_adjust`                             Benjamini-Hochberg adjusted p-values (false-discovery ...
:func:`bh_adjust_float`                       Float twin of bh_adjust (dependence="any": ...
:func:`holm_reject_screened`                  Holm's decisions from float p-values, each decision that ...
:func:`separation_tiers`                      Tiers of models ranked best first: a model opens a new ...
:func:`tiers_from_separation`                 Tiers of k models ranked best first, given separated(i, j) ...
*power and sample size*
:class:`QuestionsNeeded`                      n: questions needed, rounded up; value: the unrounded ...
:func:`questions_needed`                      Questions needed to detect an accuracy gap d when models ...
:func:`interval_half_width_float`             Half-width of the paired-difference interval at n ...
:func:`minimum_detectable_difference_float`   Smallest gap detectable at n questions: (z_a + z_b) sqrt(q ...
:func:`mcnemar_rejection_thresholds`          t_m for m = 0..n: the exact two-sided test rejects when ...
:func:`mcnemar_power`                         Exact power of the two-sided exact McNemar test at level ...
:func:`mcnemar_power_float`                   Float twin of mcnemar_power (SciPy binomial distributions)
:func:`smallest_n_for_power`                  Smallest n whose exact McNemar power reaches power
*Bayesian comparisons*
:func:`posterior_mean`                        Mean of the Beta(k + prior, n - k + prior) posterior of an ...
:func:`paired_better_probability`             Exact posterior chance that the first model is better, from ...
:func:`paired_better_probability_float`       Float twin of paired_better_probability (SciPy's Beta ...
:func:`unpaired_better_probability`           Exact P(theta_1 > theta_2) for independent posteriors Beta(k1 ...
:func:`unpaired_better_probability_float`     Float twin of unpaired_better_probability: the same ...
:func:`beta_credible_interval_float`          Equal-tailed credible interval of the Beta(k + prior, n - k + ...
*stopping early (sequential tests)*
:func:`mixture_e_value`                       E-value of the Beta(prior, prior) mixture after b discordant ...
:func:`stopping_thresholds`                   t_m for m = 0..horizon discordant questions: rule stops once ...
:func:`stopping_thresholds_float`             Float twin of stopping_thresholds (lgamma and SciPy's binomial ...
:class:`OperatingCharacteristics`             What a stopping rule does within n questions: the chance it ...
:func:`operating_characteristics`             Exact chances that rule stops within n questions (for each ...
:func:`operating_characteristics_float`       Float twin of operating_characteristics: the walk in float64, ...
:func:`false_alarm_probability`               Exact chance that rule declares a winner within n questions ...
:func:`false_alarm_curve`                     Worst-case false-alarm chance (every question discordant) ...
:func:`false_alarm_curve_float`               Float twin of false_alarm_curve, for any horizon
:class:`SequentialResult`                     The mixture rule applied to one run, question by question in ...
:class:`MixtureMonitor`                       The mixture rule one question at a time, for a run that is ...
:func:`sequential_test`                       Run the mixture rule over two models' 0/1 outcomes x, y in the ...
:class:`StoppingTimes`                        Per question order: questions asked when the rule stopped (0: ...
:func:`stopping_times`                        Where rule stops on the same results asked in orders random ...
*correlated errors*
:func:`phi_squared`                           Exact phi^2 of two 0/1 vectors (e.g. two models' error ...
:func:`phi`                                   phi as an exact SymPy surd: (n11 n00 - n10 n01) / sqrt(n1. ...
:func:`phi_float`                             Float twin of phi
:func:`phi_matrix_float`                      Pairwise phi of the rows of a models x questions 0/1 ...
:func:`mean_phi_float`                        Mean off-diagonal phi of a panel
:func:`design_effect`                         Kish design effect 1 + (k - 1) phi: how much the variance ...
:func:`effective_votes`                       Independent votes that k voters with error correlation phi ...
:func:`phi_for_effective_votes`               The error correlation at which k voters are worth votes ...
:func:`effective_votes_ceiling`               1/phi: the limit of effective_votes as k grows (phi > 0)
:func:`effective_votes_eigen_float`           Eigenvalue estimate k / lambda_max of the error ...
:func:`effective_votes_float`                 Float twin of effective_votes at a panel's own mean phi: k ...
:func:`error_correlation_float`               Every correlation summary of a panel from one phi matrix ...
:func:`error_correlation_from_phi`            error_correlation_float's summaries of a phi matrix ...
:class:`ErrorCorrelation`                     A panel's error correlation, from one phi matrix: its ...
*redraws and split halves*
:func:`redraw_counts`                         Multinomial counts (draws x questions): how often each ...
:func:`top_stays_top_float`                   Share of redraws of n questions in which the full-set ...
:func:`top_three_keep_order_float`            Share of redraws in which the full set's top three come ...
:func:`top_stays_top_clustered_float`         Share of redraws of the questions in which the full-set ...
:class:`SplitHalf`                            SplitHalf(agreement, advantage_selected, advantage_held_out)
:func:`split_half_float`                      Split the questions into random halves, pick the winner on ...
:class:`SplitHalfExact`                       SplitHalfExact(agreement, advantage_selected, ...
:func:`split_half_two_models`                 Exact split-half for two models: halve the questions at ...
:func:`redraw_win_probability`                Exact chance that model 1 outscores model 2 when n of ...
*calibration*
:class:`Calibration`                          Calibration(value, lower, upper)
:func:`brier_score`                           Mean over questions of sum_j (p_j - [j is right])^2, ...
:func:`brier_score_float`                     Float twin of brier_score, with a normal interval over ...
:func:`expected_calibration_error_float`      Expected calibration error: sum_b (n_b / n) accuracy_b - ...
:func:`reliability_float`                     Per confidence bin (equal width on [0, 1], the chosen ...
*equivalence*
:func:`paired_equivalence_p_value`            Exact p-value that the accuracy gap of two models on n ...
:func:`paired_equivalence_p_value_float`      Float twin of paired_equivalence_p_value (SciPy's beta ...
:func:`paired_equivalence_power`              Exact probability that paired_equivalence_p_value rejects ...
:func:`paired_equivalence_power_float`        Float twin of paired_equivalence_power: SciPy throughout, ...
:func:`conditional_equivalence_p_value`       Exact conditional TOST on the discordant questions: is ...
:func:`discordance_upper_bound`               Exact rational upper confidence bound for the discordance ...
:func:`rejection_region`                      The b (of m discordant questions) where the test rejects ...
*exact coverage and size*
:class:`CoverageTable`                        Exact coverage of one interval method on a grid of true ...
:class:`SizeTable`                            Exact size of one paired test on a grid of discordance rates
:func:`interval_covers`                       Does the method interval computed from k right of n ...
:func:`interval_coverage`                     Exact chance that the method interval from X ~ Binomial(n, ...
:func:`interval_coverage_float`               Float twin of interval_coverage (NumPy and SciPy; p may be ...
:func:`coverage_table`                        Exact coverage of method at p = 1/grid, 2/grid, ..., 1 - ...
:func:`paired_interval_coverage`              Exact coverage of exactstats.paired_difference_interval ...
:func:`paired_interval_coverage_float`        Float twin of paired_interval_coverage, for any n (a ...
:func:`paired_rejection_probability`          Exact chance that a paired test rejects, when region(m) ...
:func:`conditional_sizes`                     r_m: the chance that a McNemar-type test rejects given m ...
:func:`exact_size`                            Exact chance that test rejects at level alpha on n ...
:func:`exact_size_float`                      Float twin of exact_size: SciPy's binomial weights; the ...
:func:`size_table`                            Exact size of test at q = 1/grid, ..., 1 - 1/grid (from ...
*letter bias*
:func:`displayed_probabilities_float`         Reorder each row from the original option order to the ...
:func:`letter_prior_float`                    Mean probability per displayed position: the model's ...
:func:`remove_letter_prior_float`             Probabilities with the letter prior divided out, back in ...
:func:`average_over_orders_float`             Average each question's probabilities (original order) ...
*selection*
:func:`expected_best_accuracy`                Exact expected accuracy of the best of evaluations ...
:func:`expected_best_accuracy_float`          Float twin of expected_best_accuracy (scipy's binomial ...
*pairs at leaderboard scale*
:func:`pair_counts`                           Exact right counts and all-pairs co-occurrence of a 0/1 ...
:func:`pair_counts_dask`                      pair_counts on Dask workers (a Dask array or a .npy file)
:class:`PairCounts`                           Exact counts behind every all-pairs statistic of a models ...
*arenas*
:class:`BattleCounts`                         wins[i][j]: wins of model i over j (ties credited by the ...
:func:`battle_counts`                         Exact win and tie counts between every pair of models ...
:func:`checked_battles`                       Battles as (model_a, model_b, winner), each checked
:func:`battle_counts_from_pairs`              Exact counts from per-pair totals (model_a, model_b, ...
:func:`battles_in`                            How many battles the counts hold (ties included)
:func:`pair_totals`                           (model_a, model_b, wins_a, wins_b, ties) for every pair ...
:func:`sign_test`                             Exact two-sided sign test that a and b are equally strong, ...
:func:`bt_mle_exists`                         Zermelo/Ford condition, checked exactly: the Bradley-Terry ...
:class:`BradleyTerryFit`                      Log-strengths theta (natural log, centred to mean 0) and ...
:func:`bradley_terry_float`                   Maximum-likelihood Bradley-Terry strengths: MM ...
:func:`bt_certificate`                        Check a fit in exact arithmetic: the score equations W_i = ...
:func:`bt_covariance_float`                   Covariance of the centred log-strengths: "model" (inverse ...
:func:`bt_bootstrap_float`                    Refit on draws resamples of the battles (with ...
:func:`rank_intervals_float`                  Rank interval per model from Holm-corrected pairwise ...
:func:`elo_ratings_float`                     Online Elo in battle order, FastChat's update: r_a += K ...
:func:`elo_replay_exact`                      Online Elo replayed in exact symbolic arithmetic (SymPy), ...
*shipped data*
:class:`Panel`                                A models x questions 0/1 matrix with the rows it came from
:func:`data_dir`                              The dataset folder: a path or $EXACTSTATS_DATA_DIR
:func:`load_panel`                            Load a condition: "shuffled" (main: per-model option ...
:class:`PasskSamples`                         Executed HumanEval completions of our models: one row per ...
:func:`load_passk_samples`                    Load the pass@k data: "sampled" (temperature 0.8, n ...
*published data*
:func:`load_mmlu_pro`                         MMLU-Pro outputs as a exactstats.report.ResultSet on the ...
:func:`load_arena_pair_counts`                Chatbot Arena (2024-08-14) as counts per pair: 129 models, ...
:func:`load_llmfao`                           LLMFAO judgments as battles with a rater: columns pair, ...
:func:`llmfao_battles`                        The judgments as (model_a, model_b, winner) battles, for ...
:func:`llmfao_verdicts`                       One row per pair: the crowd's majority verdict and each judge's
============================================  ==============================================================

The shipped datasets load with :func:`load_panel` (MMLU-Redux correctness) and
:func:`load_passk_samples` Load the pass@k data: "sampled" (temperature 0.8, n ...
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
    checked_battles,
    elo_ratings_float,
    elo_replay_exact,
    pair_totals,
    rank_intervals_float,
    sign_test,
)
from .audit import (
    SEVERITIES,
    AuditRow,
    Finding,
    audit_rows,
    best_case_p_value,
    counts_printing_as,
    interval_methods,
    rounding_interval,
    stderr_conventions,
)
from .bayes import (
    beta_credible_interval_float,
    paired_better_probability,
    paired_better_probability_float,
    posterior_mean,
    unpaired_better_probability,
    unpaired_better_probability_float,
)
from .blocks import PairCounts, pair_counts, pair_counts_dask
from .calibration import (
    Calibration,
    brier_score,
    brier_score_float,
    expected_calibration_error_float,
    reliability_float,
)
from .claims import (
    CLAIM_KINDS,
    CLAIM_TESTS,
    AuditClaim,
    ClaimTable,
    audit_claims,
    check_derived,
    derived_range,
    parse_formula,
)
from .clustered import (
    ClusteredComparison,
    cluster_differences,
    cluster_sums,
    clustered_paired_comparison,
    sign_flip_p_value,
    sign_flip_p_value_float,
)
from .condorcet import (
    MAJORITY_TIE_RULES,
    PLURALITY_TIE_RULES,
    majority_probability,
    majority_probability_float,
    majority_probability_heterogeneous,
    plurality_probability,
    plurality_probability_float,
    poisson_binomial_pmf,
)
from .consistency import (
    g_pass_at_k,
    g_pass_at_k_float,
    mean_pass_hat_k,
    mg_pass_at_k,
    pass_hat_k,
    pass_hat_k_variance,
    pass_hat_k_variance_estimate,
)
from .correlation import (
    ErrorCorrelation,
    design_effect,
    effective_votes,
    effective_votes_ceiling,
    effective_votes_eigen_float,
    effective_votes_float,
    error_correlation_float,
    error_correlation_from_phi,
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
from .judge_bias import (
    ppi_labels_needed_float,
    ppi_mean,
    ppi_mean_interval_float,
    ppi_mean_interval_normal_float,
    rogan_gladen,
    rogan_gladen_interval_float,
)
from .judges import (
    KAPPA_WEIGHTS,
    agreement_distribution,
    cohen_kappa,
    fleiss_kappa,
    fleiss_kappa_bootstrap_float,
    gwet_ac1,
    kappa_p_value,
    kappa_p_value_float,
    krippendorff_alpha,
    krippendorff_alpha_bootstrap_float,
    percent_agreement,
    weighted_kappa,
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
    mean_difference_interval,
    mean_pass_at_k,
    mean_pass_at_k_float,
    paired_pass_at_k_difference,
    paired_pass_at_k_difference_float,
    pass_at_k,
    pass_at_k_differences,
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
    top_stays_top_clustered_float,
    top_stays_top_float,
    top_three_keep_order_float,
)
from .samples import (
    MEASURES,
    SamplesPlan,
    samples_per_problem_float,
    standard_error_at_float,
    within_variance_estimate,
)
from .selection import expected_best_accuracy, expected_best_accuracy_float
from .sequential import (
    RULES,
    MixtureMonitor,
    OperatingCharacteristics,
    SequentialResult,
    StoppingTimes,
    false_alarm_curve,
    false_alarm_curve_float,
    false_alarm_probability,
    mixture_e_value,
    operating_characteristics,
    operating_characteristics_float,
    sequential_test,
    stopping_thresholds,
    stopping_thresholds_float,
    stopping_times,
)
from .soft import (
    SoftSummary,
    paired_soft_difference,
    paired_soft_difference_float,
    right_option_probability_float,
    soft_accuracy,
    soft_accuracy_variance,
    soft_summary_float,
)
from .tasks import (
    TaskPairComparison,
    as_task_scores,
    compare_on_tasks,
    smallest_p_value,
    task_tiers,
    tasks_needed,
)
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
_PUBLISHED = (
    "load_mmlu_pro",
    "load_arena_pair_counts",
    "load_llmfao",
    "llmfao_battles",
    "llmfao_verdicts",
)  # read in place

__all__ = [
    "PairCounts",
    "pair_counts",
    "pair_counts_dask",
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
    "pass_at_k_differences",
    "mean_difference_interval",
    # voters
    "majority_probability",
    "majority_probability_float",
    "majority_probability_heterogeneous",
    "poisson_binomial_pmf",
    "plurality_probability",
    "plurality_probability_float",
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
    "effective_votes_float",
    "error_correlation_float",
    "error_correlation_from_phi",
    "ErrorCorrelation",
    # resampling
    "redraw_counts",
    "top_stays_top_float",
    "top_three_keep_order_float",
    "top_stays_top_clustered_float",
    # questions asked more than once
    "sign_flip_p_value",
    "sign_flip_p_value_float",
    "cluster_differences",
    "cluster_sums",
    "ClusteredComparison",
    "clustered_paired_comparison",
    # soft accuracy
    "soft_accuracy",
    "soft_accuracy_variance",
    "paired_soft_difference",
    "right_option_probability_float",
    "SoftSummary",
    "soft_summary_float",
    "paired_soft_difference_float",
    # agreement between raters
    "KAPPA_WEIGHTS",
    "percent_agreement",
    "cohen_kappa",
    "agreement_distribution",
    "kappa_p_value",
    "kappa_p_value_float",
    "weighted_kappa",
    "fleiss_kappa",
    "krippendorff_alpha",
    "gwet_ac1",
    "fleiss_kappa_bootstrap_float",
    "krippendorff_alpha_bootstrap_float",
    # auditing published numbers
    "SEVERITIES",
    "rounding_interval",
    "counts_printing_as",
    "stderr_conventions",
    "interval_methods",
    "best_case_p_value",
    "AuditRow",
    "Finding",
    "audit_rows",
    "derived_range",
    "check_derived",
    "parse_formula",
    "AuditClaim",
    "audit_claims",
    "CLAIM_KINDS",
    "CLAIM_TESTS",
    "ClaimTable",
    # a judge's bias, corrected
    "rogan_gladen",
    "rogan_gladen_interval_float",
    "ppi_mean",
    "ppi_mean_interval_float",
    "ppi_mean_interval_normal_float",
    "ppi_labels_needed_float",
    # leaderboards over tasks
    "as_task_scores",
    "smallest_p_value",
    "tasks_needed",
    "TaskPairComparison",
    "compare_on_tasks",
    "task_tiers",
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
    # samples per problem
    "MEASURES",
    "within_variance_estimate",
    "SamplesPlan",
    "standard_error_at_float",
    "samples_per_problem_float",
    # consistency: pass^k and G-Pass
    "pass_hat_k_variance",
    "pass_hat_k_variance_estimate",
    "pass_hat_k",
    "g_pass_at_k",
    "mg_pass_at_k",
    "mean_pass_hat_k",
    "g_pass_at_k_float",
    # Bayesian comparisons
    "posterior_mean",
    "paired_better_probability",
    "paired_better_probability_float",
    "unpaired_better_probability",
    "unpaired_better_probability_float",
    "beta_credible_interval_float",
    # stopping early
    "RULES",
    "mixture_e_value",
    "stopping_thresholds",
    "stopping_thresholds_float",
    "OperatingCharacteristics",
    "operating_characteristics",
    "operating_characteristics_float",
    "false_alarm_probability",
    "false_alarm_curve",
    "false_alarm_curve_float",
    "SequentialResult",
    "MixtureMonitor",
    "sequential_test",
    "StoppingTimes",
    "stopping_times",
    # reporting the best of several scores
    "expected_best_accuracy",
    "expected_best_accuracy_float",
    # arenas
    "WINNERS",
    "ARENA_TIE_RULES",
    "BattleCounts",
    "battle_counts",
    "checked_battles",
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
